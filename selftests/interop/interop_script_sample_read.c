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
 * The group view with callchains (-g): Children and Self columns per member,
 * the leader's call graph under each row; a group sampled by each of its
 * events ({a,b} without :S); --group making separate events one group, and
 * --no-group one table per event (the leader's still "of events").
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

/* perf report --stdio ARGS and ours (--compat 6.1): the same text, perf's holding what */
static void same_report_with(struct __test_metadata *_metadata, FIXTURE_DATA(sread) *self,
			     const char *args, const char *what)
{
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", args);
	EXPECT_NE(NULL, strstr(self->c.perf.out, what)) TH_LOG("perf: %s", self->c.perf.out);
	perfcmp_expect_same(_metadata, &self->c);
}

static void same_report(struct __test_metadata *_metadata, FIXTURE_DATA(sread) *self,
			const char *args)
{
	same_report_with(_metadata, self, args,
			 "of events 'anon group { cpu-clock, task-clock }'");
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

/* -g: Children and Self per member, the leader's caller graph under each row */
TEST_F(sread, report_group_view_with_call_graphs_matches_perf)
{
	RECORD("-e {cpu-clock,task-clock}:S -c 200000 -g");
	same_report(_metadata, self, "");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "Children              Self"));
	EXPECT_NE(NULL, strstr(self->c.ours.out, "---"));
}

TEST_F(sread, report_group_view_self_callee_graphs_match_perf)
{
	RECORD("-e {cpu-clock,task-clock}:S -c 200000 -g");
	same_report(_metadata, self, "--no-children");
}

TEST_F(sread, report_group_view_children_without_graphs_matches_perf)
{
	RECORD("-e {cpu-clock,task-clock}:S -c 200000 -g");
	same_report(_metadata, self, "-g none");
}

/* a group whose events each sample: rows only a member has join with 0.00% */
TEST_F(sread, report_group_sampled_by_each_event_matches_perf)
{
	RECORD("-e {cpu-clock,task-clock} -c 200000 -g");
	same_report(_metadata, self, "--no-children");
}

/* --group on events recorded apart: one group named by its events alone */
TEST_F(sread, report_group_option_joins_separate_events_as_perf)
{
	RECORD("-e cpu-clock -e task-clock -c 200000 -g");
	same_report_with(_metadata, self, "--group --no-children -g none",
			 "of events 'cpu-clock, task-clock'");
}

/* --no-group: a table per event, the leader's "of events" as perf 6.1 says it */
TEST_F(sread, report_no_group_shows_each_event_as_perf)
{
	RECORD("-e {cpu-clock,task-clock}:S -c 200000 -g");
	same_report_with(_metadata, self, "--no-group --no-children",
			 "of events 'cpu-clock'");
}

TEST_HARNESS_MAIN
