// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record files read back by the system perf: event syntax:
 * groups with modifiers, leader sampling :S, pmu/terms/, :D, -F max,
 * per-event periods.
 */
#include "kselftest_harness.h"
#include "record_perf_script.h"

FIXTURE_VARIANT_ADD(fam, group)
{
	.opts = { "-e", "{cpu-clock,page-faults}" }, .mode = "spin", .arg = "0.3",
	.expect = "page-faults", .report = true,
};
FIXTURE_VARIANT_ADD(fam, group_with_modifier)
{
	.opts = { "-e", "{cpu-clock,page-faults}:u" }, .mode = "spin", .arg = "0.3",
	.expect = "cpu-clock", .report = true,
};
FIXTURE_VARIANT_ADD(fam, leader_sampling)
{
	.opts = { "-e", "{cpu-clock,page-faults}:S" }, .mode = "spin", .arg = "0.3",
	.expect = "page-faults", .report = true,
};
FIXTURE_VARIANT_ADD(fam, term_period)
{
	.opts = { "-e", "cpu-clock/period=100000/" }, .mode = "spin", .arg = "0.3",
	.expect = "cpu-clock", .report = true,
};
FIXTURE_VARIANT_ADD(fam, term_name)
{
	.opts = { "-e", "cpu-clock/freq=999,name=pcname/" }, .mode = "spin", .arg = "0.3",
	.expect = "pcname", .report = true,
};
FIXTURE_VARIANT_ADD(fam, pinned)
{
	.opts = { "-e", "cpu-clock:D" }, .mode = "spin", .arg = "0.3", .expect = "cpu-clock",
};
/*
 * -F max is the kernel's limit (100 kHz here): sampling takes most of the
 * spin's time, 0.3 s of spin took over 30 s on a loaded host; 0.05 s makes
 * thousands of samples still
 */
FIXTURE_VARIANT_ADD(fam, freq_max)
{
	.opts = { "-e", "cpu-clock", "-F", "max" }, .mode = "spin", .arg = "0.05",
	.expect = "cpu-clock",
};
FIXTURE_VARIANT_ADD(fam, per_event_period)
{
	.opts = { "-e", "cpu-clock/period=200000/,task-clock", "-c", "100000" }, .mode = "spin",
	.arg = "0.3", .expect = "task-clock", .report = true,
};

RECORD_TEST_MAIN()
