// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script --show-task-events, --show-mmap-events,
 * --show-switch-events and --show-lost-events against the system perf 6.1
 * on files it records here, byte for byte: each non-sample record in perf's
 * layout, at its place in time among the samples.  Skips where no perf is
 * installed (the QEMU guests) or it may not record.
 */
#include "lib/perfcmp.h"

PERFCMP_FIXTURE(events, "interop-script-events")

#define RECORD(opts) PERFCMP_RECORD(self->c.path, opts, PERFCMP_SPIN)

/* perf script -i PATH ARGS and ours: the same text; perf's holds what at least min times */
#define SAME(args, what, min) perfcmp_same_script(_metadata, &self->c, args, what, min)

/* COMM (exec and synthesized), FORK and EXIT among the samples */
TEST_F(events, task_events_match_perf)
{
	RECORD("-e cpu-clock -c 100000");
	SAME("--show-task-events", "PERF_RECORD_FORK(", 1);
	EXPECT_LE(1, pc_count_substr(self->c.ours.out, "PERF_RECORD_COMM exec: "));
	EXPECT_LE(1, pc_count_substr(self->c.ours.out, "PERF_RECORD_EXIT("));
}

/*
 * --show-round-events: FINISHED_ROUND where the file has it, every record in
 * the file's order (perf then orders nothing): a system-wide recording's
 * cpus one ring after another, a child's COMM read before its FORK
 */
TEST_F(events, round_events_in_file_order_match_perf)
{
	RECORD("-a -e cpu-clock -c 1000000");
	SAME("--show-round-events --show-task-events", "PERF_RECORD_FINISHED_ROUND\n", 1);
}

/*
 * the same in perf 7.2's layout, which forgets a thread at its EXIT: file
 * order brings samples after it (":TID"), and a child's COMM may come
 * before its FORK (unit_script_events has that case made to order)
 */
TEST_F(events, round_events_with_task_events_match_perf72)
{
	static const char args[] = "--show-round-events --show-task-events";

	PERFCMP_NEED_PERF72();
	RECORD("-e cpu-clock -c 100000");
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "script", "--compat 7.2", "-i '%s' %s",
				 self->c.path, args));
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "'%s' script -i '%s' %s", perfcmp_perf72(),
				self->c.path, args));
	perfcmp_assert_ran(_metadata, &self->c);
	perfcmp_expect_perf_holds(_metadata, &self->c, "PERF_RECORD_FORK(", 1);
	perfcmp_expect_same(_metadata, &self->c);
}

/* MMAP of the kernel, MMAP2 with prot/dev/inode, the vdso */
TEST_F(events, mmap_events_match_perf)
{
	RECORD("-e cpu-clock -c 100000");
	SAME("--show-mmap-events", "PERF_RECORD_MMAP2 ", 3);
	EXPECT_LE(1, pc_count_substr(self->c.ours.out, "]: r-xp [vdso]\n"));
}

/* per-thread SWITCH records: IN, OUT, OUT preempt */
TEST_F(events, switch_events_match_perf)
{
	RECORD("-e cpu-clock -c 100000 --switch-events");
	SAME("--show-switch-events", "PERF_RECORD_SWITCH ", 2);
}

/* system-wide SWITCH_CPU_WIDE records with next/prev pid/tid, the cpu column */
TEST_F(events, cpu_wide_switch_events_match_perf)
{
	RECORD("-a -e cpu-clock -c 1000000 --switch-events");
	SAME("--show-switch-events --show-task-events", "PERF_RECORD_SWITCH_CPU_WIDE ", 2);
}

/* -C keeps the records of that cpu only, as for samples */
TEST_F(events, cpu_filter_applies_to_records)
{
	RECORD("-a -e cpu-clock -c 1000000 --switch-events");
	SAME("--show-switch-events -C 0", "[000]", 2);
	EXPECT_EQ(0, pc_count_substr(self->c.ours.out, "[001]"));
}

/* the fields of -F shape a record's line start as a sample's */
TEST_F(events, fields_shape_record_lines_as_perf)
{
	RECORD("-e cpu-clock -c 100000");
	SAME("--show-task-events --show-mmap-events -F pid,tid,time --ns",
	     "PERF_RECORD_", 3);
}

/* with -g the comm is not padded, for records as for samples */
TEST_F(events, callchain_files_show_records_as_perf)
{
	RECORD("-g -e cpu-clock -c 100000");
	SAME("--show-task-events --show-mmap-events --show-switch-events --show-lost-events",
	     "PERF_RECORD_", 3);
}

/* NAMESPACES of each new task (synthesized and the kernel's): seven links, four to a line */
TEST_F(events, namespace_events_match_perf)
{
	RECORD("-e cpu-clock -c 100000 --namespaces");
	SAME("--show-namespace-events", "PERF_RECORD_NAMESPACES ", 2);
	EXPECT_LE(1, pc_count_substr(self->c.ours.out, " - nr_namespaces: "));
}

/* CGROUP records of the cgroups there are (synthesized) and of new ones */
TEST_F(events, cgroup_events_match_perf)
{
	RECORD("-e cpu-clock -c 100000 --all-cgroups");
	SAME("--show-cgroup-events --show-task-events", "PERF_RECORD_CGROUP cgroup: ", 1);
}

TEST_HARNESS_MAIN
