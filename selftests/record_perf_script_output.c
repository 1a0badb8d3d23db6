// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record files read back by the system perf: output options: -z
 * (PERF_RECORD_COMPRESSED), --compression-level, --mmap-flush, -m with a
 * unit, -B, -N, --max-size, --timeout in fractions of a second.
 */
#include "kselftest_harness.h"
#include "record_perf_script.h"

FIXTURE_VARIANT_ADD(fam, compressed)
{
	.opts = { "-z", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, compression_level)
{
	.opts = { "--compression-level=9", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, compressed_callchains)
{
	.opts = { "-z", "-g", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_mid", .report = true,
};
FIXTURE_VARIANT_ADD(fam, mmap_flush)
{
	.opts = { "--mmap-flush", "4K", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, mmap_size)
{
	.opts = { "-m", "64K", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, no_buildid)
{
	.opts = { "-B", "-N", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, max_size)
{
	.opts = { "--max-size", "32K", "-e", "task-clock" }, .mode = "spin", .arg = "10",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, timeout_fraction)
{
	.opts = { "--timeout", "0.3", "-e", "task-clock" }, .mode = "spin", .arg = "10",
	.expect = "wl_",
};

FIXTURE_VARIANT_ADD(fam, overwrite_tail_synthesize)
{
	.opts = { "--timeout", "0.5", "--overwrite", "--tail-synthesize", "-m", "8" },
	.mode = "spin", .arg = "10", .expect = "wl_", .report = true,
};

RECORD_TEST_MAIN()
