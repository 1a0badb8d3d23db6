// SPDX-License-Identifier: GPL-2.0
/* perfcheck record files read back by the system perf: the events: software, hardware (or its cpu-clock fallback), :u/:k, tracepoints. */
#include "kselftest_harness.h"
#include "record_perf_script.h"

FIXTURE_VARIANT_ADD(fam, default_event)
{
	.opts = { NULL }, .mode = "spin", .arg = "0.5", .expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, software_events)
{
	.opts = { "-e", "cpu-clock,task-clock,page-faults,minor-faults,major-faults,"
		  "context-switches,cpu-migrations,dummy", "-F", "1000" },
	.mode = "threads", .arg = "0.3", .expect = "page-faults",
};
FIXTURE_VARIANT_ADD(fam, hardware_event_or_its_fallback)
{
	.opts = { "-e", "cycles" }, .mode = "spin", .arg = "0.3", .expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, user_and_kernel_modifiers)
{
	.opts = { "-e", "cpu-clock:u,task-clock:k" }, .mode = "spin", .arg = "0.3",
	.expect = "cpu-clock:u",
};
FIXTURE_VARIANT_ADD(fam, tracepoint)
{
	/* fork, not exit: up to 6.12 a task's own events are gone when sched_process_exit fires */
	.opts = { "-e", "sched:sched_process_fork,sched:sched_switch" }, .mode = "fork", .arg = "0.2",
	.tracefs = true, .expect = "sched:sched_process_fork",
};

RECORD_TEST_MAIN()
