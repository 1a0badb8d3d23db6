// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck report --compat 6.1 against the system perf report --stdio on
 * files the system perf records here, byte for byte (perf's closing tip,
 * a random line, cut).  One option family per test.  Skips where no perf
 * is installed (the QEMU guests) or it may not record.
 *
 * Differences on purpose, left out of these comparisons:
 *  - -s srcline on user code with debug info: perfcheck has no line
 *    information yet (lib/symbols), so only kernel samples are compared,
 *    where neither has it ("function+offset").
 *  - -s sym alone (without comm/dso before it): perf's collapse comparison
 *    of unresolved addresses wraps around (a 64-bit difference), so perf
 *    can keep one address as two rows; perfcheck keeps one.
 *  - the rest of a fractal level: perf 6.1 prints "[...]" with or without
 *    " (inlined)" after it, by a flag it leaves uninitialized (the same run
 *    may print both); the comparison drops that suffix on both sides.
 *  - the event name of pipe input (pipe_input_takes_perfs_pipe_defaults
 *    compares from the event count on).
 *  - tid and symoff sort keys: perf 6.1 has neither; symoff rows are checked
 *    against perf script's sym+off, both keys' layouts in unit_report.
 *  - --hierarchy of branch mode, of pipes, with -F: refused (unit_report),
 *    not compared.
 */
#include "lib/perfcmp.h"
#include "interop_tools.h"

PERFCMP_FIXTURE(report, "interop-report")

#define RECORD(opts) PERFCMP_RECORD(self->c.path, "-e cpu-clock -c 100000 " opts, PERFCMP_SPIN)


/* perf report --stats and ours: the same text, records of several types */
static void same_report_stats(struct __test_metadata *_metadata, FIXTURE_DATA(report) *self)
{
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "--stats");
	EXPECT_NE(NULL, strstr(self->c.perf.out, "SAMPLE events:"));
	EXPECT_NE(NULL, strstr(self->c.perf.out, "MMAP2 events:"));
	perfcmp_expect_same(_metadata, &self->c);
}

/*
 * perf report --stdio ARGS and perfcheck report --compat 6.1 ARGS print the
 * same (runs of tied bare-address rows as sets)
 */
static void same_report(struct __test_metadata *_metadata, FIXTURE_DATA(report) *self,
			const char *args)
{
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", args);
	perfcmp_drop_rest_suffix(self->c.perf.out);
	perfcmp_drop_rest_suffix(self->c.ours.out);
	ASSERT_NE(NULL, strstr(self->c.perf.out, "# Samples: "));
	perfcmp_expect_same_rows(_metadata, &self->c);
}

TEST_F(report, default_children_caller_graph_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "---"));
}

TEST_F(report, self_only_callee_graph_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--no-children");
}

TEST_F(report, caller_order_without_children_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--no-children -g caller");
}

TEST_F(report, callee_order_with_children_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-g callee");
}

TEST_F(report, fractal_graph_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-g fractal");
}

TEST_F(report, fractal_self_only_graph_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--no-children -g fractal");
}

TEST_F(report, flat_graph_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-g flat");
}

TEST_F(report, folded_graph_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--no-children -g folded");
}

TEST_F(report, graph_threshold_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--no-children -g graph,2,callee");
}

TEST_F(report, percent_limit_hides_rows_and_branches_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--percent-limit 2");
}

TEST_F(report, show_nr_samples_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-n -g none");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "     Samples  "));
}

/* -q: no title lines and no closing tip, stdout and stderr byte for byte */
TEST_F(report, quiet_prints_the_rows_and_graphs_alone_as_perf)
{
	RECORD("-g");
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "-q --no-children");
	perfcmp_drop_rest_suffix(self->c.perf.out);
	perfcmp_drop_rest_suffix(self->c.ours.out);
	EXPECT_EQ(NULL, strstr(self->c.perf.out, "# "));
	EXPECT_NE(NULL, strstr(self->c.perf.out, "--"));
	perfcmp_expect_same(_metadata, &self->c);
	EXPECT_STREQ(self->c.perf.err, self->c.ours.err);
}

/* -t: titles and values apart by the separator, in perf's widths, no dots line */
TEST_F(report, field_separator_keeps_perfs_widths)
{
	RECORD("-g");
	same_report(_metadata, self, "-t ';' -n -g none");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "# Children;    Self;     Samples;Command"));
	same_report(_metadata, self, "-t , --no-children -s dso,sym");
}

/* -F: the columns it names in its order, no overhead unless named, rows sorted by them */
TEST_F(report, fields_choose_and_order_the_columns_as_perf)
{
	RECORD("");
	same_report(_metadata, self, "-F sym,overhead,comm");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "# Symbol ")) TH_LOG("%s", self->c.ours.out);
}

TEST_F(report, fields_without_overhead_show_no_percentage_as_perf)
{
	RECORD("");
	same_report(_metadata, self, "-F comm,dso");
	EXPECT_EQ(NULL, strstr(self->c.ours.out, "%")) TH_LOG("%s", self->c.ours.out);
}

/* -F with -s: rows sorted by -s's keys first, its keys shown after -F's columns */
TEST_F(report, fields_after_sort_keys_sort_and_show_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-F overhead,sym -s dso -g none");
}

/* -F with callchains: the Children rows (self 0.00%) and their graphs */
TEST_F(report, fields_with_callchains_keep_the_children_rows_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-F overhead_children,overhead,dso,sym");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "     0.00%  [")) TH_LOG("%s", self->c.ours.out);
}

/*
 * perf 6.1 never collapses by a key -F alone names (comm here): the rows of
 * equal shares come in its input tree's order, not its collapse tree's
 */
TEST_F(report, fields_keys_make_no_collapse_tree_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-F overhead,comm,sym");
}

/* overhead_children sorts where -F names it (here after the Self share) */
TEST_F(report, fields_sort_by_children_where_named_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-F overhead,overhead_children,comm,dso -g none");
}

/* without cumulation, overhead_children is N/A, right-aligned with -t too */
TEST_F(report, fields_children_without_cumulation_are_na_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-F overhead_children,overhead,comm --no-children -t ,");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "     N/A,")) TH_LOG("%s", self->c.ours.out);
}

/* -F's counts with -t: perf's least formats, left-aligned in their widths */
TEST_F(report, fields_values_with_a_separator_as_perf)
{
	RECORD("");
	same_report(_metadata, self, "-F comm,overhead,sample,period -t '|'");
}

/* -s time: rows by sample time down to the quantum (100 ms, or --time-quantum) */
TEST_F(report, time_slices_as_rows_match_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-s time --no-children -g none");
	same_report(_metadata, self, "-s comm,time,sym --no-children -g none --time-quantum 10ms");
}

TEST_F(report, show_total_period_adds_perfs_period_column)
{
	RECORD("-g");
	same_report(_metadata, self, "--show-total-period -n");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "       Period  Command"));
}

/* -U: samples and callchain frames of no known symbol left out, percentages of the rest */
TEST_F(report, hide_unresolved_leaves_them_out_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-U");
	same_report(_metadata, self, "-U --no-children -g none");
}

/* --tasks: the thread tree (FORK's parents) alone, in perf's order and layout */
TEST_F(report, tasks_tree_as_perf)
{
	RECORD("-g");
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "report", "--compat 6.1", "-i '%s' --tasks",
				 self->c.path));
	perfcmp_assert_ran(_metadata, &self->c);
	perfcmp_expect_perf_holds(_metadata, &self->c, "#      pid      tid     ppid  comm\n", 1);
	perfcmp_expect_perf_holds(_metadata, &self->c, " |swapper\n", 1);
	perfcmp_expect_same(_metadata, &self->c);
}

/* --mmaps: each thread with its process's maps (prot, pgoff, inode, file) */
TEST_F(report, mmaps_under_each_task_as_perf)
{
	RECORD("-g");
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "report", "--compat 6.1", "-i '%s' --mmaps",
				 self->c.path));
	perfcmp_assert_ran(_metadata, &self->c);
	perfcmp_expect_perf_holds(_metadata, &self->c, " r-xp ", 1);
	perfcmp_expect_same(_metadata, &self->c);
}

TEST_F(report, rows_without_callchains_match_perf)
{
	RECORD("");
	same_report(_metadata, self, "");
}

TEST_F(report, equal_rows_come_in_perfs_order_without_graphs)
{
	RECORD("-g");
	same_report(_metadata, self, "-g none");
}

TEST_F(report, sort_pid_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-s pid");
}

TEST_F(report, sort_cpu_dso_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-s cpu,dso -g none");
}

TEST_F(report, sort_dso_sym_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-s dso,sym");
}

TEST_F(report, sort_sym_first_leaves_own_frame_out_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-s sym,dso --no-children");
}

TEST_F(report, sort_period_and_sample_columns_match_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-s sample,period,comm,dso -g none");
}

TEST_F(report, srcline_without_line_info_matches_perf)
{
	/* kernel samples only: no vmlinux here, so neither side has lines */
	PERFCMP_RECORD(self->c.path, "-e cpu-clock:k -c 100000", PERFCMP_SPIN);
	same_report(_metadata, self, "-s srcline -g none --no-children");
}

/* symoff is perfcheck's own key: each row's sym+0xoff is one perf script (6.1's names) shows */
TEST_F(report, symoff_rows_are_perf_script_symbol_offsets)
{
	int rows = 0, found = 0;
	const char *p;

	RECORD("");
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf script -i '%s' -F ip,sym,symoff 2>/dev/null",
				self->c.path));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' report --compat 6.1 -i '%s' --stdio -s symoff -g none",
				pc_test_perfcheck(), self->c.path));
	ASSERT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);
	for (p = strstr(self->c.ours.out, "] "); p; p = strstr(p + 1, "] ")) {
		const char *end = strchr(p, '\n');
		char want[600];

		if (!end || !memmem(p, (size_t)(end - p), "+0x", 3))
			continue;
		/* " name+0xoff\n" as perf script ends a line */
		snprintf(want, sizeof(want), " %.*s\n", (int)(end - p - 2), p + 2);
		rows++;
		if (strstr(self->c.perf.out, want))
			found++;
		else
			TH_LOG("not in perf script: %s", want);
	}
	EXPECT_LT(3, rows);
	EXPECT_EQ(rows, found);
}

TEST_F(report, percentage_relative_is_absolute_without_filters)
{
	RECORD("-g");
	same_report(_metadata, self, "--percentage relative -g none");
}

/* --comms: other commands' rows hidden, the Command column gone, "# comm: ls" said */
TEST_F(report, comms_filter_hides_other_commands_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--comms ls");
	EXPECT_NE(NULL, strstr(self->c.perf.out, "\n# comm: ls\n"));
}

/* --dsos: the object column goes; rows of the sample's own object, their callers too */
TEST_F(report, dsos_filter_keeps_rows_of_samples_in_the_object_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--dsos '[kernel.kallsyms]'");
	EXPECT_NE(NULL, strstr(self->c.perf.out, "\n# dso: [kernel.kallsyms]\n"));
}

/* --percentage relative: shares of what the filter leaves, graphs cut at that share */
TEST_F(report, relative_percentages_of_filtered_rows_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--comms sh --percentage relative --no-children");
}

/*
 * --symbol-filter: rows whose symbol lacks the text hidden (the shell's
 * unresolved addresses among them), the percentages of all samples
 */
TEST_F(report, symbol_filter_hides_rows_whose_symbol_lacks_the_text_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--symbol-filter _");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "%  "));
}

/* perf takes the one argument left after the options for the symbol filter */
TEST_F(report, symbol_filter_is_the_argument_left_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--no-children -g none _");
}

/* perf applies it as it collapses rows: sort keys that do not collapse show every row */
TEST_F(report, symbol_filter_leaves_keys_that_do_not_collapse_alone_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-s dso,sym --no-children -g none --symbol-filter _");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "[.] 0x"));
}

/* relative: the shown rows' period, and perf's count of every sample kept */
TEST_F(report, symbol_filter_with_relative_percentages_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--percentage relative --no-children --symbol-filter _");
}

/* perf gives the filter to the first event alone */
TEST_F(report, symbol_filter_hides_rows_of_the_first_event_alone_as_perf)
{
	RECORD("-e task-clock");
	same_report(_metadata, self, "--no-group --symbol-filter _");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "of event 'task-clock'"));
}

/*
 * --ignore-callees: a chain's entries before the last match (callee order)
 * forgotten, the matching frame taken for the sample's own row
 */
TEST_F(report, ignore_callees_makes_the_match_the_samples_own_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--no-children --ignore-callees e");
}

/* in caller order (Children's default) perf forgets the callers instead */
TEST_F(report, ignore_callees_in_caller_order_forgets_callers_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--ignore-callees ^_");
}

/* the frame's location replaces the sample's, its filter marks too (none) */
TEST_F(report, ignore_callees_match_clears_the_samples_filters_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--no-children --comms ls --ignore-callees e");
}

/*
 * -p: the first entry of a sample's chain (in the report's order) whose
 * symbol matches is its parent, a column sorted last; "[other]" for none
 */
TEST_F(report, parent_of_each_sample_is_its_chains_first_match_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-p sys_");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "Parent symbol"));
}

/* -x: rows of samples without a parent hidden, their period still counted */
TEST_F(report, exclude_other_hides_samples_without_a_parent_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-p sys_ -x --no-children -g caller");
}

/* -s parent with perf's default pattern, beside the sort keys it names */
TEST_F(report, parent_sort_key_with_the_default_pattern_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-s comm,parent,sym --no-children -g none");
}

/* a frame that becomes the parent is not one --ignore-callees cuts at */
TEST_F(report, parent_match_comes_before_ignore_callees_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-p _ --ignore-callees _ --no-children");
}

/* filters on every sort key: perf keeps every column */
TEST_F(report, filters_on_every_key_keep_the_columns_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--comms ls --dsos '[kernel.kallsyms]' -s comm,dso");
}

/* --time percent slices leave samples out of the totals, named on the Samples line */
TEST_F(report, time_slices_leave_samples_out_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--time 10%/2");
	EXPECT_NE(NULL, strstr(self->c.perf.out, "(time slices: 10%/2)"));
}

/* -g ...,period and ...,count: branch values in period and in samples */
TEST_F(report, graph_values_in_period_and_count_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-g graph,0.5,caller,function,period");
	same_report(_metadata, self, "--no-children -g fractal,0.5,callee,function,count");
}

/*
 * -s with overhead, period or sample among the keys: each column where it is
 * named, rows sorted by the keys before a named overhead first; -n's and
 * --show-total-period's columns right after the overhead, as perf
 */
TEST_F(report, value_columns_and_overhead_where_sort_names_them_as_perf)
{
	RECORD("");
	same_report(_metadata, self, "-s comm,period,dso");
	same_report(_metadata, self, "-s dso,overhead,sym");
	same_report(_metadata, self, "-s sample,period,comm --show-total-period");
	same_report(_metadata, self, "-n -t , -s comm,sample");
}

/* -g ...,address: frames of one function apart by address, each with its line or +offset */
TEST_F(report, address_keyed_graph_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-g graph,0.5,callee,address");
	same_report(_metadata, self, "--no-children -g folded,0,caller,address");
}

/* --stats: every record by type as perf counts them, then each event's samples */
TEST_F(report, stats_count_records_as_perf)
{
	RECORD("-g");
	same_report_stats(_metadata, self);
}

/* From a pipe perf decides before it sees the events: no Children, caller order */
TEST_F(report, pipe_input_takes_perfs_pipe_defaults)
{
	char why[300];

	/* user frames only: kernel addresses of a pipe are resolved apart (issue 13) */
	if (!perfcmp_record_pipe(self->c.path, "-e cpu-clock:u -c 100000 -g", PERFCMP_SPIN, why,
				 sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "report", "--compat 6.1", "-i '%s' --stdio",
				 self->c.path));
	ASSERT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);
	perfcmp_cut_tip(self->c.perf.out);
	/*
	 * From "# Event count" on: the event's name from a pipe ("cpu-clock",
	 * perf "cpu-clock:u") is the reader's, not the report's (issue 13).
	 */
	{
		char *p = strstr(self->c.perf.out, "# Event count"), *o = strstr(self->c.ours.out,
									       "# Event count");
		char first[800];

		ASSERT_NE(NULL, p);
		ASSERT_NE(NULL, o);
		EXPECT_TRUE(perfcmp_same(p, o, first, sizeof(first)))
			TH_LOG("first difference at %s", first);
	}
	EXPECT_NE(NULL, strstr(self->c.ours.out, "# Overhead  Command"));
	/* call graphs were compared: a single branch ("---") or several ("|--") */
	EXPECT_NE(NULL, strstr(self->c.ours.out, "--")) TH_LOG("%s", self->c.ours.out);
}

TEST_F(report, header_only_matches_perf)
{
	RECORD("-g");
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "report", "--compat 6.1", "-i '%s' --header-only",
				 self->c.path));
	ASSERT_EQ(0, self->c.ours.exit_code);
	ASSERT_NE(NULL, strstr(self->c.perf.out, "# captured on"));
	perfcmp_expect_same(_metadata, &self->c);
}

TEST_F(report, header_then_report_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--header -g none");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "# ========\n#\n#\n# Total Lost Samples: 0\n"));
}

TEST_F(report, file_without_samples_says_so_as_perf)
{
	/* a recording of an event that never fires in a workload that does nothing */
	PERFCMP_RECORD(self->c.path, "-e major-faults", "true");
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "report", "", "-i '%s' --stdio", self->c.path));
	if (!strstr(self->c.perf.err, "no samples"))
		SKIP(return, "the workload took a major fault here: perf has samples");
	EXPECT_EQ(self->c.perf.exit_code, self->c.ours.exit_code);
	EXPECT_STREQ(self->c.perf.out, self->c.ours.out);
	/* perf names the input as given */
	EXPECT_NE(NULL, strstr(self->c.perf.err, "data has no samples!"));
	EXPECT_STREQ(self->c.perf.err, self->c.ours.err);
}

/* the GROUP_DESC, CLOCKID, CLOCK_DATA and COMPRESSED lines of the header */
TEST_F(report, header_lists_groups_clocks_and_compression_as_perf)
{
	char why[300], first[800];

	if (!perfcmp_record(self->c.path, "-e {cpu-clock,task-clock} -c 100000 -k mono -z",
			    PERFCMP_SPIN, why, sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf report -i '%s' --header-only 2>/dev/null",
				self->c.path));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' report --compat 6.1 -i '%s' --header-only",
				pc_test_perfcheck(), self->c.path));
	ASSERT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);
	EXPECT_NE(NULL, strstr(self->c.perf.out, "# group: {cpu-clock,task-clock}\n"));
	EXPECT_NE(NULL, strstr(self->c.perf.out, "# clockid: monotonic (1)\n"));
	EXPECT_NE(NULL, strstr(self->c.perf.out, "# compressed : Zstd, level = "));
	EXPECT_TRUE(perfcmp_same(self->c.perf.out, self->c.ours.out, first, sizeof(first)))
		TH_LOG("first difference at %s", first);
}

/* --header-only -I: the topology features' lines in full */
TEST_F(report, header_show_info_matches_perf)
{
	char first[800];

	RECORD("-g");
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf report -i '%s' --header-only -I 2>/dev/null",
				self->c.path));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' report --compat 6.1 -i '%s' --header-only -I",
				pc_test_perfcheck(), self->c.path));
	ASSERT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);
	EXPECT_NE(NULL, strstr(self->c.perf.out, "# sibling threads : "));
	EXPECT_NE(NULL, strstr(self->c.perf.out, "# CPU cache info:\n"));
	EXPECT_TRUE(perfcmp_same(self->c.perf.out, self->c.ours.out, first, sizeof(first)))
		TH_LOG("first difference at %s", first);
}

/*
 * Files of other machines and writers in fixtures/: an arm64 perf 6.1 file
 * (a cycles event, whose type 0 perf leaves out; the PMU's capabilities)
 * and a perfcheck file with attr bits perf 6.1 calls reserved (its event
 * list "not available").  --header-only, with and without -I.
 */
TEST_F(report, header_of_other_machines_files_matches_perf)
{
	static const char *const files[] = { "fixtures/upstream/6.1-arm64-dwarf/perf.data",
					     "fixtures/callchain/fp-defer-7.2/perf.data" };
	char first[800], why[300];

	if (!perfcmp_record(self->c.path, "", "true", why, sizeof(why)))
		SKIP(return, "%s", why);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const char *path = up_find_source(NULL, files[i], files[i]);

		ASSERT_NE(NULL, path) TH_LOG("no %s near perfcheck", files[i]);
		for (int full = 0; full < 2; full++) {
			ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf report -i '%s' --header-only %s 2>/dev/null",
						path, full ? "-I" : ""));
			ASSERT_EQ(0, perfcmp_sh(&self->c.ours,
						"'%s' report --compat 6.1 -i '%s' --header-only %s",
						pc_test_perfcheck(), path, full ? "-I" : ""));
			ASSERT_EQ(0, self->c.perf.exit_code);
			ASSERT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);
			EXPECT_TRUE(perfcmp_same(self->c.perf.out, self->c.ours.out, first, sizeof(first)))
				TH_LOG("%s%s: first difference at %s", files[i], full ? " -I" : "", first);
			pc_run_free(&self->c.perf);
			pc_run_free(&self->c.ours);
		}
	}
}

/* the columns alone: every sample in one row, no key column */
TEST_F(report, sort_by_overhead_alone_is_one_row_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "-s overhead");
	same_report(_metadata, self, "-s overhead,period --no-children");
}

/* -g on a file without callchains: perf's first line, its error on stderr, exit 0 */
TEST_F(report, call_graph_option_without_callchains_stops_as_perf)
{
	RECORD("");
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf report -i '%s' --stdio -g caller", self->c.path));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' report --compat 6.1 -i '%s' --stdio -g caller",
				pc_test_perfcheck(), self->c.path));
	EXPECT_EQ(self->c.perf.exit_code, self->c.ours.exit_code);
	EXPECT_STREQ(self->c.perf.out, self->c.ours.out);
	EXPECT_STREQ(self->c.perf.err, self->c.ours.err);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "But no callchain or branch data."));
	/* -G alone is only an order: the report as without it */
	same_report(_metadata, self, "-G");
}

/* perf's default sort for a file of tracepoints alone is their text ("Trace output") */
TEST_F(report, tracepoint_files_sort_by_trace_text_as_perf)
{
	PERFCMP_RECORD(self->c.path, "-e sched:sched_process_exec -e syscalls:sys_exit_openat",
		       "ls / >/dev/null; ls /tmp >/dev/null");
	same_report(_metadata, self, "");
	EXPECT_NE(NULL, strstr(self->c.perf.out, "# Overhead  Trace output"))
		TH_LOG("%s", self->c.perf.out);
}

/* -s trace on samples of other events: one "N/A" row for them all */
TEST_F(report, trace_key_of_other_events_is_one_na_row_as_perf)
{
	PERFCMP_RECORD(self->c.path, "-e cpu-clock -c 100000 -e sched:sched_process_exec",
		       PERFCMP_SPIN "; ls / >/dev/null");
	same_report(_metadata, self, "-s trace");
	EXPECT_NE(NULL, strstr(self->c.perf.out, "N/A")) TH_LOG("%s", self->c.perf.out);
}

/* --children on a file without callchains: perf drops it silently (no Children column) */
TEST_F(report, children_without_callchains_is_ignored_as_perf)
{
	RECORD("");
	same_report(_metadata, self, "--children");
	EXPECT_EQ(NULL, strstr(self->c.ours.out, "Children")) TH_LOG("%s", self->c.ours.out);
}

/* -T: the READ records' counts of a record -s file, by thread and event, after the rows */
TEST_F(report, threads_table_of_read_records_matches_perf)
{
	RECORD("-s");
	same_report(_metadata, self, "-T");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "  PID  ")) TH_LOG("%s", self->c.ours.out);
	EXPECT_NE(NULL, strstr(self->c.perf.out, "  PID  ")) TH_LOG("%s", self->c.perf.out);
}

/* --hierarchy: a level per key, indented, each level's rows sorted within their parent */
TEST_F(report, hierarchy_without_callchains_matches_perf)
{
	RECORD("");
	same_report(_metadata, self, "--hierarchy");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "Overhead  Command / Shared Object / Symbol"))
		TH_LOG("%s", self->c.ours.out);
}

/* --hierarchy turns Children off, but the graphs keep the caller order Children chose */
TEST_F(report, hierarchy_graphs_under_the_last_level_in_caller_order_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--hierarchy");
	EXPECT_EQ(NULL, strstr(self->c.ours.out, "Children")) TH_LOG("%s", self->c.ours.out);
	EXPECT_NE(NULL, strstr(self->c.ours.out, "---")) TH_LOG("%s", self->c.ours.out);
}

/* --no-children: the callee graphs of Self rows under the last level */
TEST_F(report, hierarchy_graphs_without_children_are_callee_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--hierarchy --no-children");
}

/* -g none: the levels of a callchain file alone */
TEST_F(report, hierarchy_without_graphs_matches_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--hierarchy -g none --children");
}

/* -s: the levels in its order, the titles joined by " / " */
TEST_F(report, hierarchy_levels_follow_the_sort_keys_as_perf)
{
	RECORD("");
	same_report(_metadata, self, "--hierarchy -s dso,sym");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "Shared Object / Symbol"));
	same_report(_metadata, self, "--hierarchy -s sym,comm");
}

/* one key: one level, no indent */
TEST_F(report, hierarchy_of_one_key_matches_perf)
{
	RECORD("");
	same_report(_metadata, self, "--hierarchy -s comm");
}

/* -n and --show-total-period: their columns after the overhead on every level */
TEST_F(report, hierarchy_value_columns_match_perf)
{
	RECORD("");
	same_report(_metadata, self, "--hierarchy -n");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "Overhead       Samples  Command"));
	same_report(_metadata, self, "--hierarchy -n --show-total-period -g none");
}

/* --percent-limit: rows under it hidden, "no entry >= P%" under a row all of whose are */
TEST_F(report, hierarchy_percent_limit_says_no_entry_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--hierarchy --percent-limit 20");
}

/* -t and -q: separated columns without the indent's filling, rows alone */
TEST_F(report, hierarchy_separator_and_quiet_match_perf)
{
	RECORD("");
	same_report(_metadata, self, "--hierarchy -t ,");
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "--hierarchy -q");
	perfcmp_expect_same(_metadata, &self->c);
}

/* an event group: its members' values after the leader's on every level, -t too */
TEST_F(report, hierarchy_of_an_event_group_matches_perf)
{
	char why[300];

	if (!perfcmp_record(self->c.path, "-e {cpu-clock,task-clock} -c 100000 -g",
			    PERFCMP_SPIN, why, sizeof(why)))
		SKIP(return, "%s", why);
	same_report(_metadata, self, "--hierarchy -n");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "of events 'anon group { cpu-clock, task-clock }'"))
		TH_LOG("%s", self->c.ours.out);
	same_report(_metadata, self, "--hierarchy -t , -g none");
}

/*
 * -F on an event group: each value column holds the leader's value, then
 * each member's (of its own total), as wide as that many values; rows in
 * the leader's, then the members' order.  Without callchains: perf 6.1 and
 * 7.2 loop for ever on -F with Children rows of a group.  A program of
 * symbols: where rows of unresolved addresses meet, perf sometimes shows a
 * member's value of a row on a row of its own (0.00% for the leader), an
 * open divergence of the same non-transitive comparison as the tie order.
 */
TEST_F(report, fields_of_an_event_group_show_each_members_values_as_perf)
{
	PERFCMP_BUILD_RECORD(&self->c, "spin", perfcmp_spin_c, "-O2", "", "",
			     "-e {cpu-clock,task-clock} -c 100000");
	same_report(_metadata, self, "-F overhead,sample,period,sym");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "of events 'anon group { cpu-clock, task-clock }'"))
		TH_LOG("%s", self->c.ours.out);
	same_report(_metadata, self, "-F sample,comm,dso");
	same_report(_metadata, self, "-F overhead_children,overhead,sym -t ,");
	same_report(_metadata, self, "-F overhead,sym --no-group");
}

/* --group -F: two events without a group viewed as one, each column twice */
TEST_F(report, fields_with_group_option_view_ungrouped_events_as_one_as_perf)
{
	PERFCMP_BUILD_RECORD(&self->c, "spin", perfcmp_spin_c, "-O2", "", "",
			     "-e cpu-clock,task-clock -c 100000");
	same_report(_metadata, self, "--group -F overhead,period,sym");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "of events 'cpu-clock, task-clock'"))
		TH_LOG("%s", self->c.ours.out);
}

/* row filters: each hides rows of its own level and below, the levels above keep their sums */
TEST_F(report, hierarchy_filters_hide_rows_per_level_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--hierarchy --dsos '[kernel.kallsyms]'");
	same_report(_metadata, self, "--hierarchy --comms sh --no-children");
	same_report(_metadata, self, "--hierarchy --comms ls -s dso,sym -g none");
}

/* -g ...,count under the last level: perf's counts there are of distinct chains */
TEST_F(report, hierarchy_graph_counts_are_of_distinct_chains_as_perf)
{
	RECORD("-g");
	same_report(_metadata, self, "--hierarchy -g graph,0.5,callee,function,count");
}

TEST_HARNESS_MAIN
