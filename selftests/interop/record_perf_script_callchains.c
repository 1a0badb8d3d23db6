// SPDX-License-Identifier: GPL-2.0
/* perfcheck record files read back by the system perf: callchains (-g, fp,defer) and inheritance (-i, -s). */
#include "kselftest_harness.h"
#include "record_perf_script.h"

FIXTURE_VARIANT_ADD(fam, callchain_g)
{
	.opts = { "-g", "-e", "task-clock" }, .mode = "spin", .arg = "0.3", .expect = "wl_mid", .report = true,
};
FIXTURE_VARIANT_ADD(fam, callchain_fp_defer)
{
	.opts = { "--call-graph", "fp,defer", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_mid",
};
FIXTURE_VARIANT_ADD(fam, no_inherit)
{
	.opts = { "-i", "-e", "task-clock" }, .mode = "fork", .arg = "0.3", .expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, inherit_stat_and_sample_read)
{
	.opts = { "-s", "-e", "task-clock" }, .mode = "fork", .arg = "0.3", .expect = "wl_",
};

RECORD_TEST_MAIN()
