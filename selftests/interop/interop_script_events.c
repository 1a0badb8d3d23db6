// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script --show-task-events, --show-mmap-events,
 * --show-switch-events and --show-lost-events against the system perf 6.1
 * on files it records here, byte for byte: each non-sample record in perf's
 * layout, at its place in time among the samples.  Skips where no perf is
 * installed (the QEMU guests) or it may not record.
 */
#include "kselftest_harness.h"
#include "lib/perfcmp.h"

FIXTURE(events) {
	char *dir;
	char path[512];
	struct pc_run perf, ours;
};

FIXTURE_SETUP(events)
{
	memset(&self->perf, 0, sizeof(self->perf));
	memset(&self->ours, 0, sizeof(self->ours));
	self->dir = pc_test_mkdtemp("interop-script-events");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(events)
{
	pc_run_free(&self->perf);
	pc_run_free(&self->ours);
	pc_test_rmdir(self->dir);
}

#define RECORD(opts)                                                                       \
	do {                                                                               \
		char why_[300];                                                            \
		if (!perfcmp_record(self->path, opts, PERFCMP_SPIN, why_, sizeof(why_)))    \
			SKIP(return, "%s", why_);                                          \
	} while (0)

/* Both print the same text, succeed, and perf shows at least min lines holding what. */
static void same(struct __test_metadata *_metadata, FIXTURE_DATA(events) *self,
		 const char *args, const char *what, int min)
{
	char first[800];

	ASSERT_EQ(0, perfcmp_sh(&self->perf, "perf script -i '%s' %s", self->path, args));
	ASSERT_EQ(0, perfcmp_sh(&self->ours, "'%s' script --compat 6.1 -i '%s' %s",
				pc_test_perfcheck(), self->path, args));
	ASSERT_EQ(0, self->perf.exit_code) TH_LOG("%s", self->perf.err);
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	EXPECT_LE(min, pc_count_substr(self->perf.out, what)) TH_LOG("perf: %s", self->perf.out);
	EXPECT_TRUE(perfcmp_same(self->perf.out, self->ours.out, first, sizeof(first)))
		TH_LOG("perf script %s: first difference at %s", args, first);
}

/* COMM (exec and synthesized), FORK and EXIT among the samples */
TEST_F(events, task_events_match_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same(_metadata, self, "--show-task-events", "PERF_RECORD_FORK(", 1);
	EXPECT_LE(1, pc_count_substr(self->ours.out, "PERF_RECORD_COMM exec: "));
	EXPECT_LE(1, pc_count_substr(self->ours.out, "PERF_RECORD_EXIT("));
}

/* MMAP of the kernel, MMAP2 with prot/dev/inode, the vdso */
TEST_F(events, mmap_events_match_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same(_metadata, self, "--show-mmap-events", "PERF_RECORD_MMAP2 ", 3);
	EXPECT_LE(1, pc_count_substr(self->ours.out, "]: r-xp [vdso]\n"));
}

/* per-thread SWITCH records: IN, OUT, OUT preempt */
TEST_F(events, switch_events_match_perf)
{
	RECORD("-e cpu-clock -c 100000 --switch-events");
	same(_metadata, self, "--show-switch-events", "PERF_RECORD_SWITCH ", 2);
}

/* system-wide SWITCH_CPU_WIDE records with next/prev pid/tid, the cpu column */
TEST_F(events, cpu_wide_switch_events_match_perf)
{
	RECORD("-a -e cpu-clock -c 1000000 --switch-events");
	same(_metadata, self, "--show-switch-events --show-task-events",
	     "PERF_RECORD_SWITCH_CPU_WIDE ", 2);
}

/* -C keeps the records of that cpu only, as for samples */
TEST_F(events, cpu_filter_applies_to_records)
{
	RECORD("-a -e cpu-clock -c 1000000 --switch-events");
	same(_metadata, self, "--show-switch-events -C 0", "[000]", 2);
	EXPECT_EQ(0, pc_count_substr(self->ours.out, "[001]"));
}

/* the fields of -F shape a record's line start as a sample's */
TEST_F(events, fields_shape_record_lines_as_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same(_metadata, self, "--show-task-events --show-mmap-events -F pid,tid,time --ns",
	     "PERF_RECORD_", 3);
}

/* with -g the comm is not padded, for records as for samples */
TEST_F(events, callchain_files_show_records_as_perf)
{
	RECORD("-g -e cpu-clock -c 100000");
	same(_metadata, self,
	     "--show-task-events --show-mmap-events --show-switch-events --show-lost-events",
	     "PERF_RECORD_", 3);
}

TEST_HARNESS_MAIN
