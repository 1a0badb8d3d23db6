// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop, attr parity (interop_attr_parity.h): output and modes:
 * -z and -m 64K (no attr changes), -D (enable_on_exec moves to perf's
 * tracking dummy), --overwrite (write_backward), with --tail-synthesize,
 * -o - (the pipe format), --mmap-flush, --kcore (its text poke dummy on every
 * cpu; where /proc/kcore is readable).
 */
#include <fcntl.h>

#include "kselftest_harness.h"
#include "interop_attr_parity.h"

FIXTURE_VARIANT_ADD(parity, z) { .name = "z", .opts = { "-e", "cpu-clock", "-z" } };
FIXTURE_VARIANT_ADD(parity, m) { .name = "m", .opts = { "-e", "cpu-clock", "-m", "64K" } };
FIXTURE_VARIANT_ADD(parity, delay) { .name = "delay", .opts = { "-e", "cpu-clock", "-D", "100" } };
FIXTURE_VARIANT_ADD(parity, overwrite) {
	.name = "overwrite", .opts = { "-e", "cpu-clock", "--overwrite" } };
FIXTURE_VARIANT_ADD(parity, tail_synthesize) {
	.name = "tail_synthesize", .opts = { "-e", "cpu-clock", "--overwrite", "--tail-synthesize" } };
FIXTURE_VARIANT_ADD(parity, pipe) { .name = "pipe", .opts = { "-e", "cpu-clock" }, .pipe = true };
static int kcore_readable(char *why, size_t size)
{
	int fd = open("/proc/kcore", O_RDONLY);

	if (fd < 0) {
		snprintf(why, size, "no readable /proc/kcore here (a kernel without "
			 "CONFIG_PROC_KCORE, or not root)");
		return -1;
	}
	close(fd);
	return 0;
}

FIXTURE_VARIANT_ADD(parity, kcore) {
	.name = "kcore", .opts = { "-e", "cpu-clock", "--kcore" }, .prepare = kcore_readable };
FIXTURE_VARIANT_ADD(parity, kcore_a) {
	.name = "kcore_a", .opts = { "-e", "cpu-clock", "-a", "--kcore" },
	.prepare = kcore_readable };
FIXTURE_VARIANT_ADD(parity, mmap_flush) {
	.name = "mmap_flush", .opts = { "-e", "cpu-clock", "--mmap-flush", "16K" } };

TEST_HARNESS_MAIN
