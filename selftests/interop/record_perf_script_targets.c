// SPDX-License-Identifier: GPL-2.0
/* perfcheck record files read back by the system perf: what is recorded: --switch-events, -C, -a. */
#include "kselftest_harness.h"
#include "record_perf_script.h"

FIXTURE_VARIANT_ADD(fam, switch_events)
{
	.opts = { "--switch-events", "-e", "task-clock" }, .mode = "threads", .arg = "0.3",
	.expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, cpu_list)
{
	.opts = { "-C", "0", "-e", "cpu-clock" }, .mode = "threads", .arg = "0.3",
	.cpu_wide = true, .expect = "cpu-clock",
};
FIXTURE_VARIANT_ADD(fam, all_cpus)
{
	.opts = { "-a", "-g", "-e", "cpu-clock" }, .mode = "threads", .arg = "0.3",
	.cpu_wide = true, .expect = "cpu-clock", .report = true,
};

RECORD_TEST_MAIN()
