// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_SAMPLE_READ files the system perf 6.1 records here (leader sampling
 * {cpu-clock,task-clock}:S, and cpu-clock:S alone): perfcheck script
 * --compat 6.1 prints what perf script prints, byte for byte: one sample
 * per group member, each period derived from its counter's reads; and
 * perfcheck report --stdio prints perf report's group view of them (one
 * table, a column per member).  Skips where no perf is installed (the QEMU
 * guests) or it may not record.
 *
 * Not compared: a group recorded with callchains (-g), whose Children and
 * call graphs perf 6.1 also shows per group; perfcheck report shows a table
 * per event there.
 */
#include "lib/perfcmp.h"

PERFCMP_FIXTURE(sread, "interop-script-sample-read")

#define RECORD(opts) PERFCMP_RECORD(self->c.path, opts, PERFCMP_SPIN)

/* perf script -i PATH ARGS and ours: the same text; perf's holds what at least min times */
#define SAME(args, what, min) perfcmp_same_script(_metadata, &self->c, args, what, min)

/* {a,b}:S: each group sample is a line per member, periods from the reads */
TEST_F(sread, leader_sampling_group_matches_perf)
{
	RECORD("-e {cpu-clock,task-clock}:S -c 200000");
	SAME("", " task-clock: ", 3);
	/* the read deltas, not the fixed period, make the periods */
	EXPECT_LT(pc_count_substr(self->c.ours.out, "     200000 "),
		  pc_count_substr(self->c.ours.out, "\n"));
}

TEST_F(sread, single_counter_sample_read_matches_perf)
{
	RECORD("-e cpu-clock:S -c 200000");
	SAME("-F comm,tid,period,event,ip", "cpu-clock:S:", 3);
}

/* perf report --stdio ARGS and ours (no --compat): perf's group view, the same text */
static void same_report(struct __test_metadata *_metadata, FIXTURE_DATA(sread) *self,
			const char *args)
{
	perfcmp_run_report(_metadata, &self->c, "", args);
	EXPECT_NE(NULL, strstr(self->c.perf.out,
			       "of events 'anon group { cpu-clock, task-clock }'"))
		TH_LOG("perf: %s", self->c.perf.out);
	perfcmp_expect_same(_metadata, &self->c);
}

/* one table for the group, a column per member */
TEST_F(sread, report_group_view_matches_perf)
{
	RECORD("-e {cpu-clock,task-clock}:S -c 200000");
	same_report(_metadata, self, "");
}

TEST_F(sread, report_group_view_with_sample_counts_matches_perf)
{
	RECORD("-e {cpu-clock,task-clock}:S -c 200000");
	same_report(_metadata, self, "-n --sort dso,sym");
}

TEST_HARNESS_MAIN
