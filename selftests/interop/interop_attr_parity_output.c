// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop, attr parity (interop_attr_parity.h): output and modes:
 * -z and -m 64K (no attr changes), -D (enable_on_exec moves to perf's
 * tracking dummy), --overwrite (write_backward), with --tail-synthesize,
 * -o - (the pipe format), --mmap-flush.
 */
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
FIXTURE_VARIANT_ADD(parity, mmap_flush) {
	.name = "mmap_flush", .opts = { "-e", "cpu-clock", "--mmap-flush", "16K" } };

TEST_HARNESS_MAIN
