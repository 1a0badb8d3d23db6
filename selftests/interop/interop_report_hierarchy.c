// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck report --hierarchy (perf 7.2's layout, our default) against
 * perf 7.2's report --stdio --hierarchy ($PERFCHECK_PERF72, else
 * /tmp/perf72) on files the system perf records here, byte for byte
 * (perf's closing tip, a random line, cut).  Skips where either perf is
 * missing or perf may not record.  perf 6.1's layout (--compat 6.1) is
 * interop_report's hierarchy_* tests.
 *
 * perf 7.2's hierarchy graphs name no frame: each node is the address of
 * the first chain that made it, in hex, while frames still match by
 * symbol as perf 6.1's do.
 *
 * Not compared on purpose:
 *  - Children (the default with callchains): perf 7.2's hierarchy has a
 *    Children column of its own (rows of callchain entries, graphs matched
 *    by address); perfcheck refuses it, which refused_with_children checks.
 *  - -g fractal: equal shares of a level can come in another order than
 *    perf 7.2's, and ld.so frames perf 7.2 resolves apart from perf 6.1
 *    merge otherwise (graph mode hides those small branches).
 */
#include <stdlib.h>
#include <unistd.h>

#include "lib/perfcmp.h"

PERFCMP_FIXTURE(hier, "interop-report-hierarchy")

#define RECORD(opts) PERFCMP_RECORD(self->c.path, "-e cpu-clock -c 100000 " opts, PERFCMP_SPIN)



/* perf 7.2 report and perfcheck report (7.2's layout) with ARGS: both succeed */
static void run_both(struct __test_metadata *_metadata, struct perfcmp *c, const char *args)
{
	pc_run_free(&c->perf);
	pc_run_free(&c->ours);
	snprintf(c->label, sizeof(c->label), "perf72 report %.250s", args);
	ASSERT_EQ(0, perfcmp_sh(&c->perf, "'%s' report -i '%s' --stdio %s", perfcmp_perf72(), c->path,
				args));
	ASSERT_EQ(0, perfcmp_sh(&c->ours, "'%s' report -i '%s' --stdio %s", pc_test_perfcheck(),
				c->path, args));
	perfcmp_assert_ran(_metadata, c);
	perfcmp_cut_tip(c->perf.out);
}

/* perf 7.2 report --stdio --hierarchy ARGS and ours print the same, a graph in it */
static void same_hierarchy(struct __test_metadata *_metadata, struct perfcmp *c,
			   const char *args, const char *graph_mark)
{
	char all[600];

	snprintf(all, sizeof(all), "--hierarchy %s", args);
	run_both(_metadata, c, all);
	ASSERT_NE(NULL, strstr(c->perf.out, "# Samples: "));
	if (graph_mark)
		EXPECT_NE(NULL, strstr(c->perf.out, graph_mark)) TH_LOG("%s", c->label);
	perfcmp_expect_same(_metadata, c);
}

TEST_F(hier, self_graphs_name_each_node_by_its_first_address_as_perf72)
{
	PERFCMP_NEED_PERF72();
	RECORD("-g");
	same_hierarchy(_metadata, &self->c, "--no-children", "---0x");
}

TEST_F(hier, self_graphs_in_caller_order_match_perf72)
{
	PERFCMP_NEED_PERF72();
	RECORD("-g");
	same_hierarchy(_metadata, &self->c, "--no-children -g caller", "--0x");
	same_hierarchy(_metadata, &self->c, "--no-children -g callee", "--0x");
}

TEST_F(hier, flat_and_folded_self_graphs_match_perf72)
{
	PERFCMP_NEED_PERF72();
	RECORD("-g");
	same_hierarchy(_metadata, &self->c, "--no-children -g flat", "                0x");
	same_hierarchy(_metadata, &self->c, "--no-children -g folded", ";0x");
}

TEST_F(hier, self_graphs_under_other_sort_keys_match_perf72)
{
	PERFCMP_NEED_PERF72();
	RECORD("-g");
	same_hierarchy(_metadata, &self->c, "--no-children -s dso,sym", "--0x");
	same_hierarchy(_metadata, &self->c, "--no-children -s comm,dso,sym", "--0x");
}

TEST_F(hier, percent_limit_hides_rows_and_branches_of_self_graphs_as_perf72)
{
	PERFCMP_NEED_PERF72();
	RECORD("-g");
	same_hierarchy(_metadata, &self->c, "--no-children --percent-limit 5", NULL);
	same_hierarchy(_metadata, &self->c, "--no-children --percent-limit 2", NULL);
}

TEST_F(hier, nr_samples_beside_self_graphs_match_perf72)
{
	PERFCMP_NEED_PERF72();
	RECORD("-g");
	same_hierarchy(_metadata, &self->c, "--no-children -n", "--0x");
}

TEST_F(hier, self_graphs_of_two_events_match_perf72)
{
	PERFCMP_NEED_PERF72();
	PERFCMP_RECORD(self->c.path, "-g -e cpu-clock,task-clock -c 100000", PERFCMP_SPIN);
	same_hierarchy(_metadata, &self->c, "--no-children", "'task-clock'");
}

TEST_F(hier, without_callchains_matches_perf72)
{
	PERFCMP_NEED_PERF72();
	RECORD("");
	same_hierarchy(_metadata, &self->c, "", NULL);
	same_hierarchy(_metadata, &self->c, "-s dso,sym -n", NULL);
}

/* perf 7.2's Children in the hierarchy of callchains is refused, with the way out */
TEST_F(hier, refused_with_children)
{
	RECORD("-g");
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' report -i '%s' --stdio --hierarchy",
				pc_test_perfcheck(), self->c.path));
	EXPECT_NE(0, self->c.ours.exit_code);
	EXPECT_NE(NULL, strstr(self->c.ours.err ? self->c.ours.err : "", "--no-children"));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' report -i '%s' --stdio --hierarchy "
				"--compat 6.1", pc_test_perfcheck(), self->c.path));
	EXPECT_EQ(0, self->c.ours.exit_code);
}

TEST_HARNESS_MAIN
