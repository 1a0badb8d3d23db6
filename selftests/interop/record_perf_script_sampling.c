// SPDX-License-Identifier: GPL-2.0
/* perfcheck record files read back by the system perf: sampling: -c, -F, -m, --timeout. */
#include "kselftest_harness.h"
#include "record_perf_script.h"

FIXTURE_VARIANT_ADD(fam, period)
{
	.opts = { "-e", "task-clock", "-c", "100000" }, .mode = "spin", .arg = "0.3",
	.expect = "task-clock", .report = true,
};
FIXTURE_VARIANT_ADD(fam, frequency)
{
	.opts = { "-e", "task-clock", "-F", "997" }, .mode = "spin", .arg = "0.3",
	.expect = "task-clock",
};
FIXTURE_VARIANT_ADD(fam, mmap_pages)
{
	.opts = { "-m", "8", "-e", "task-clock" }, .mode = "spin", .arg = "0.3", .expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, timeout)
{
	.opts = { "--timeout", "1", "-e", "task-clock" }, .mode = "spin", .arg = "10",
	.expect = "wl_",
};

RECORD_TEST_MAIN()
