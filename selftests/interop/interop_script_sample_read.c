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
#include "interop_tools.h"
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

/*
 * perfcheck record opens a :S group inherited where the kernel allows it
 * (inherit_sample_read, 6.12 and later), as perf 7.2 records it (perf 6.1
 * clears inherit): then every child's counters start at 0, and perf 6.12
 * and later keep the last value read per thread as well as per id.  On
 * one cpu (taskset), a child's counters are the parent's of that cpu (one
 * id), so that a reader keeping one value per id always sees them go back.
 */
#define RECORD_INHERITED_GROUP()                                                           \
	do {                                                                               \
		if (!up_kernel_has(PC_FEAT_INHERIT_SAMPLE_READ))                           \
			SKIP(return, "kernel lacks inherit_sample_read (probe): no inherited " \
				     "group reads to derive periods from");                \
		if (!pc_test_have_program("taskset"))                                      \
			SKIP(return, "no taskset here to keep the children on one cpu"); \
		ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' record -o '%s' -e "           \
					"'{cpu-clock,task-clock}:S' -c 200000 -- taskset -c 0 sh -c '%s'", \
					pc_test_perfcheck(), self->c.path, PERFCMP_SPIN)); \
		ASSERT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);       \
	} while (0)

/* a child's first sample: its own counters' first reads, no wrapped difference */
TEST_F(sread, inherited_group_periods_are_per_thread_in_perf72s_layout)
{
	char *line, *save = NULL;
	int children = 0;

	RECORD_INHERITED_GROUP();
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' script --compat 7.2 -i '%s' -F comm,tid,period",
				pc_test_perfcheck(), self->c.path));
	ASSERT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);
	for (line = strtok_r(self->c.ours.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char comm[64];
		unsigned long long tid, period;

		ASSERT_EQ(3, sscanf(line, "%63s %llu %llu", comm, &tid, &period)) TH_LOG("%s", line);
		/* 0.2 ms of clock a sample: a wrapped difference is above 2^63 */
		EXPECT_GT(1000000000ULL, period) TH_LOG("%s", line);
		children += !strcmp(comm, "ls");
	}
	EXPECT_LE(2, children) TH_LOG("no samples of the forked ls");
}

/* perf 7.2 script and ours (--compat 7.2) on such a file: the same text */
TEST_F(sread, inherited_group_script_matches_perf72)
{
	PERFCMP_NEED_PERF72();
	RECORD_INHERITED_GROUP();
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "script", "--compat 7.2", "-i '%s'", self->c.path));
	/* perfcmp_run runs the system perf: perf 7.2 instead */
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "'%s' script -i '%s'", perfcmp_perf72(),
				self->c.path));
	perfcmp_assert_ran(_metadata, &self->c);
	perfcmp_expect_perf_holds(_metadata, &self->c, " task-clock: ", 3);
	perfcmp_expect_same(_metadata, &self->c);
}

/* perf 7.2 report --stdio and ours: the group view of those periods */
TEST_F(sread, inherited_group_report_matches_perf72)
{
	PERFCMP_NEED_PERF72();
	RECORD_INHERITED_GROUP();
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "report", "--compat 7.2", "-i '%s' --stdio",
				 self->c.path));
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "'%s' report -i '%s' --stdio", perfcmp_perf72(),
				self->c.path));
	perfcmp_assert_ran(_metadata, &self->c);
	perfcmp_cut_tip(self->c.perf.out);
	perfcmp_expect_perf_holds(_metadata, &self->c, "of events 'anon group { cpu-clock, task-clock }'", 1);
	perfcmp_expect_same_rows(_metadata, &self->c);
}

TEST_HARNESS_MAIN
