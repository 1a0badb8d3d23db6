// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck report on synthesized files (no perf, no kernel needed): the
 * call-graph layouts built by perf's rules, the lost-sample total, the
 * sort keys perf 6.1 lacks (tid, symoff), the row filters as perf 7.2 and
 * 6.1 apply them, and option errors.
 */
#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(rep) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
};

/* A kernel-only sample of thread pid whose chain is leaf..root */
static void chain_sample_of(FIXTURE_DATA(rep) *self, uint32_t pid, uint64_t t,
			    const uint64_t *ips, int n)
{
	struct pd_sample v = rt_id(pid, pid, t);
	uint64_t chain[8] = { PC_CONTEXT_KERNEL };

	for (int i = 0; i < n; i++)
		chain[i + 1] = ips[i];
	v.ip = ips[0];
	v.chain.ips = chain;
	v.chain.nr = (uint64_t)n + 1;
	synth_sample_misc(&self->d, &self->a.attr, PERF_RECORD_MISC_KERNEL, &v);
}

static void chain_sample(FIXTURE_DATA(rep) *self, uint64_t t, const uint64_t *ips, int n)
{
	chain_sample_of(self, 100, t, ips, n);
}

FIXTURE_SETUP(rep)
{
	struct pd_sample id = rt_id(100, 100, 1);
	const uint64_t a[] = { RT_KIP(1), RT_KIP(2), RT_KIP(3) };
	const uint64_t b[] = { RT_KIP(4), RT_KIP(2), RT_KIP(3) };

	self->dir = pc_test_mkdtemp("unit-report");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_attr(&self->a, PERF_ATTR_SIZE_VER9);
	synth_kernel_mmap(&self->d, &self->a.attr, &id);
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &id);
	/* K3 calls K2, which calls K1 (twice) and K4 (once) */
	chain_sample(self, RT_SEC, a, 3);
	chain_sample(self, RT_SEC + 10, a, 3);
	chain_sample(self, RT_SEC + 20, b, 3);
}

FIXTURE_TEARDOWN(rep)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	if (!getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(self->dir);
}

/* A LOST_SAMPLES record of n samples of thread 100, at 1.000000005 */
static void put_lost_samples(FIXTURE_DATA(rep) *self, uint64_t n)
{
	struct pd_sample id = rt_id(100, 100, RT_SEC + 5);

	synth_lost_samples(&self->d, &self->a.attr, n, &id);
}

static void report(struct __test_metadata *_metadata, FIXTURE_DATA(rep) *self, const char *o1,
		   const char *o2, const char *o3)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "--stdio", o1, o2, o3));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
}

/*
 * K3 and K2 are only ever callers: their rows are made by callchain frames,
 * which perf 7.2 marks "[.]" whatever their map (perf 6.1: "[k]")
 */
TEST_F(rep, caller_graph_of_a_children_row_branches_below_its_frame)
{
	report(_metadata, self, NULL, NULL, NULL);
	EXPECT_NE(NULL, strstr(self->run.out,
		"   100.00%     0.00%  alpha    [kernel.kallsyms]  [.] 0xffff888000001030\n"
		"            |\n"
		"            ---0xffff888000001030\n"
		"               0xffff888000001020\n"
		"               |          \n"
		"               |--66.67%--0xffff888000001010\n"
		"               |          \n"
		"                --33.33%--0xffff888000001040\n"
		"\n")) TH_LOG("%s", self->run.out);
}

/* -g ...,period: the branches' periods where percentages were */
TEST_F(rep, period_values_replace_the_branch_percentages)
{
	report(_metadata, self, "-g", "graph,0.5,caller,function,period", NULL);
	EXPECT_NE(NULL, strstr(self->run.out,
		"               |--500000--0xffff888000001010\n"
		"               |          \n"
		"                --250000--0xffff888000001040\n")) TH_LOG("%s", self->run.out);
}

/* -g ...,count: the samples of each branch; folded lines start with them */
TEST_F(rep, count_values_are_the_branches_samples)
{
	report(_metadata, self, "-g", "graph,0.5,caller,function,count", NULL);
	EXPECT_NE(NULL, strstr(self->run.out,
		"               |--2--0xffff888000001010\n"
		"               |          \n"
		"                --1--0xffff888000001040\n")) TH_LOG("%s", self->run.out);
	report(_metadata, self, "--no-children", "-g", "folded,0,callee,function,count");
	EXPECT_NE(NULL, strstr(self->run.out,
		"\n2 0xffff888000001010;0xffff888000001020;0xffff888000001030\n"))
		TH_LOG("%s", self->run.out);
}

TEST_F(rep, deeper_caller_row_comes_first_among_equal_children)
{
	report(_metadata, self, NULL, NULL, NULL);
	/* K3 (the outermost) above K2: both 100% of one thread, K3's tree is deeper */
	ASSERT_NE(NULL, strstr(self->run.out, "[.] 0xffff888000001020\n"));
	EXPECT_LT(strstr(self->run.out, "[.] 0xffff888000001030\n"),
		  strstr(self->run.out, "[.] 0xffff888000001020\n")) TH_LOG("%s", self->run.out);
}

TEST_F(rep, equal_rows_without_graphs_go_by_address)
{
	report(_metadata, self, "-g", "none", NULL);
	/* no call graph shown: perf's depth rule is off, unresolved frames by address */
	ASSERT_NE(NULL, strstr(self->run.out, "[.] 0xffff888000001030\n"));
	EXPECT_LT(strstr(self->run.out, "[.] 0xffff888000001020\n"),
		  strstr(self->run.out, "[.] 0xffff888000001030\n")) TH_LOG("%s", self->run.out);
}

TEST_F(rep, callee_graph_of_a_self_row_runs_to_the_root)
{
	report(_metadata, self, "--no-children", NULL, NULL);
	EXPECT_NE(NULL, strstr(self->run.out,
		"    66.67%  alpha    [kernel.kallsyms]  [k] 0xffff888000001010\n"
		"            |\n"
		"            ---0xffff888000001010\n"
		"               0xffff888000001020\n"
		"               0xffff888000001030\n"
		"\n")) TH_LOG("%s", self->run.out);
}

TEST_F(rep, folded_lines_join_frames_with_semicolons)
{
	report(_metadata, self, "--no-children", "-g", "folded");
	EXPECT_NE(NULL, strstr(self->run.out,
		"66.67% 0xffff888000001010;0xffff888000001020;0xffff888000001030\n"))
		TH_LOG("%s", self->run.out);
}

TEST_F(rep, flat_chains_show_their_share_then_frames)
{
	report(_metadata, self, "-g", "flat", NULL);
	EXPECT_NE(NULL, strstr(self->run.out,
		"           66.67%\n"
		"                0xffff888000001030\n"
		"                0xffff888000001020\n"
		"                0xffff888000001010\n"
		"\n")) TH_LOG("%s", self->run.out);
}

TEST_F(rep, fractal_shares_are_of_the_parent)
{
	const uint64_t c[] = { RT_KIP(2), RT_KIP(3) };

	/* K2 itself now takes a sample: below K2, K1 is 2 of 3, K4 1 of 3 */
	chain_sample(self, RT_SEC + 30, c, 2);
	report(_metadata, self, "-g", "fractal", NULL);
	EXPECT_NE(NULL, strstr(self->run.out, "|--66.67%--0xffff888000001010\n"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "--33.33%--0xffff888000001040\n"));
}

TEST_F(rep, percent_limit_hides_small_rows_and_branches)
{
	report(_metadata, self, "--percent-limit", "50", NULL);
	EXPECT_EQ(NULL, strstr(self->run.out, "[k] 0xffff888000001040")) TH_LOG("%s", self->run.out);
	EXPECT_EQ(NULL, strstr(self->run.out, "--33.33%--"));
	EXPECT_NE(NULL, strstr(self->run.out, "[k] 0xffff888000001010"));
}

TEST_F(rep, show_nr_samples_counts_own_samples)
{
	report(_metadata, self, "-n", "--no-children", NULL);
	EXPECT_NE(NULL, strstr(self->run.out, "# Overhead       Samples  Command"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "    66.67%             2  alpha    [kernel.kallsyms]  [k] 0xffff888000001010\n"));
}

/*
 * A sample of thread 300 ("gamma") whose chain ends in a context word perf
 * does not know (0xfffffffffffffed0: a garbage word of a user stack, seen
 * at the end of an ls chain here): K1 <- K2, then a user frame
 */
static void corrupt_chain_sample(FIXTURE_DATA(rep) *self)
{
	struct pd_sample v = rt_id(300, 300, RT_SEC + 50);
	uint64_t chain[6] = { PC_CONTEXT_KERNEL, RT_KIP(1), RT_KIP(2), PC_CONTEXT_USER, 0x400100,
			      0xfffffffffffffed0ULL };

	synth_comm(&self->d, &self->a.attr, 300, 300, "gamma", &v);
	v.ip = RT_KIP(1);
	v.chain.ips = chain;
	v.chain.nr = 6;
	synth_sample_misc(&self->d, &self->a.attr, PERF_RECORD_MISC_KERNEL, &v);
}

/*
 * Caller order (Children's): perf reads the chain's contexts from the root
 * end, meets the unknown one first and drops the chain whatever
 * --max-stack, so gamma has its own row alone (perf 6.1.187 and 7.2.13 on
 * an ls recording here; perf 7.2.13 on this file: one gamma row, and two
 * with -g callee)
 */
TEST_F(rep, unknown_context_at_the_root_end_drops_a_caller_order_chain)
{
	corrupt_chain_sample(self);
	report(_metadata, self, "--max-stack=2", "-g", "none");
	EXPECT_EQ(1, pc_count_substr(self->run.out, "gamma")) TH_LOG("%s", self->run.out);
}

/* Callee order: read from the leaf, max-stack frames end the chain before that word */
TEST_F(rep, unknown_context_past_max_stack_keeps_a_callee_order_chain)
{
	corrupt_chain_sample(self);
	report(_metadata, self, "--max-stack=2", "-g", "callee");
	EXPECT_EQ(2, pc_count_substr(self->run.out, "gamma")) TH_LOG("%s", self->run.out);
}

/* -F: the rows sorted by the fields, the columns in their order, without the defaults */
/* A user sample of process 200: leaf, its caller, and the caller's caller */
static void user_sample(FIXTURE_DATA(rep) *self, uint64_t t, uint64_t leaf, uint64_t caller)
{
	struct pd_sample v = rt_id(200, 200, t);
	uint64_t chain[4] = { PC_CONTEXT_USER, leaf, caller, 0x400800 };

	v.ip = leaf;
	v.chain.ips = chain;
	v.chain.nr = 4;
	synth_sample_misc(&self->d, &self->a.attr, PERF_RECORD_MISC_USER, &v);
}

/*
 * perf makes an object of each user entry of the BUILD_ID table, "[vdso]"
 * among them, as it reads the header: before the MMAPs, so "[vdso]" ranks
 * below an object mapped before it.  Equal shares come higher rank first:
 * the caller in /x/a before the one in [vdso] (mapped after /x/a, it came
 * first while [vdso]'s entry was skipped for not being a path).
 */
TEST_F(rep, vdso_of_the_build_id_table_ranks_below_objects_mapped_before_it)
{
	static const char *const ids[] = { "[vdso]", "/x/a" };
	struct pd_sample id = rt_id(200, 200, 2);
	const char *out, *in_a, *in_vdso;

	synth_comm(&self->d, &self->a.attr, 200, 200, "beta", &id);
	synth_mmap2(&self->d, &self->a.attr, 200, 200, 0x400000, 0x1000, 0, "/x/a", &id);
	synth_mmap2(&self->d, &self->a.attr, 200, 200, 0x7fff0000, 0x2000, 0, "[vdso]", &id);
	user_sample(self, RT_SEC + 30, 0x400100, 0x7fff0100);
	user_sample(self, RT_SEC + 40, 0x400100, 0x400200);
	self->d.build_ids = ids;
	self->d.nr_build_ids = 2;
	report(_metadata, self, "--compat", "6.1", "--no-children");
	out = self->run.out;
	in_a = strstr(out, "--0x400200");
	in_vdso = strstr(out, "--0x7fff0100");
	ASSERT_NE(NULL, in_a) TH_LOG("%s", out);
	ASSERT_NE(NULL, in_vdso) TH_LOG("%s", out);
	EXPECT_LT(in_a, in_vdso) TH_LOG("%s", out);
}

TEST_F(rep, fields_order_the_columns_and_leave_out_the_defaults)
{
	report(_metadata, self, "-F", "sample,sym", "--no-children");
	EXPECT_NE(NULL, strstr(self->run.out, "#      Samples  Symbol")) TH_LOG("%s", self->run.out);
	EXPECT_EQ(NULL, strstr(self->run.out, "Overhead")) TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "             2  [k] 0xffff888000001010\n"))
		TH_LOG("%s", self->run.out);
}

TEST_F(rep, fields_unknown_name_is_refused_naming_it)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "-F", "overhead,bogus",
				  NULL, NULL));
	EXPECT_NE(0, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "unknown field 'bogus'")) TH_LOG("%s", self->run.err);
	EXPECT_EQ(NULL, self->run.out && *self->run.out ? self->run.out : NULL);
}

TEST_F(rep, lost_samples_are_totalled)
{
	put_lost_samples(self, 7);
	report(_metadata, self, "-g", "none", NULL);
	EXPECT_NE(NULL, strstr(self->run.out, "#\n# Total Lost Samples: 7\n#\n# Samples: 3 "))
		TH_LOG("%s", self->run.out);
}

/* LOST_SAMPLES: 7 of 10 samples lost, above perf's 5%: its warning on stderr */
TEST_F(rep, lost_samples_above_a_twentieth_are_warned_of)
{
	put_lost_samples(self, 7);
	report(_metadata, self, "-g", "none", NULL);
	EXPECT_STREQ("Warning:\nProcessed 10 samples and lost 70.00%!\n\n", self->run.err);
}

/* 1 lost of 60 (1.67%): no warning, the total still in the header */
TEST_F(rep, lost_samples_below_a_twentieth_are_not_warned_of)
{
	const uint64_t a[] = { RT_KIP(1) };

	put_lost_samples(self, 1);
	for (int i = 0; i < 56; i++)
		chain_sample(self, RT_SEC + 30 + (uint64_t)i, a, 1);
	report(_metadata, self, "-g", "none", NULL);
	EXPECT_STREQ("", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.out, "# Total Lost Samples: 1\n")) TH_LOG("%s", self->run.out);
}

TEST_F(rep, tid_key_shows_tid_and_command)
{
	report(_metadata, self, "-s", "tid", "--no-children");
	EXPECT_NE(NULL, strstr(self->run.out, "# Overhead      Tid:Command\n"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "   100.00%      100:alpha  \n"));
}

/*
 * Thread 200's FORK and COMM were lost (a lossy file): its samples before
 * its first COMM had only the ":200" placeholder, which perf overwrites
 * with that COMM, so its rows show "beta" and merge with beta's own
 */
TEST_F(rep, rows_of_a_placeholder_comm_take_the_threads_first_comm)
{
	struct pd_sample id = rt_id(200, 200, RT_SEC + 40);
	const uint64_t a[] = { RT_KIP(1), RT_KIP(2), RT_KIP(3) };

	chain_sample_of(self, 200, RT_SEC + 30, a, 3);
	synth_comm(&self->d, &self->a.attr, 200, 200, "beta", &id);
	chain_sample_of(self, 200, RT_SEC + 50, a, 3);
	chain_sample_of(self, 200, RT_SEC + 60, a, 1);
	report(_metadata, self, "-s", "comm", "--no-children");
	EXPECT_EQ(NULL, strstr(self->run.out, ":200")) TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "    50.00%  beta   \n")) TH_LOG("%s", self->run.out);
	/* the graphs merged: K1 under beta holds both chains through K2 */
	EXPECT_NE(NULL, strstr(self->run.out, "---")) TH_LOG("%s", self->run.out);
	EXPECT_EQ(1, pc_count_substr(self->run.out, "    50.00%  beta")) TH_LOG("%s", self->run.out);
}

/* a placeholder no COMM ever replaced stays */
TEST_F(rep, a_thread_without_comm_keeps_its_placeholder_row)
{
	const uint64_t a[] = { RT_KIP(1) };

	chain_sample_of(self, 300, RT_SEC + 30, a, 1);
	report(_metadata, self, "-s", "comm", "--no-children");
	EXPECT_NE(NULL, strstr(self->run.out, "    25.00%  :300   \n")) TH_LOG("%s", self->run.out);
}

TEST_F(rep, symoff_key_keeps_offsets_apart)
{
	report(_metadata, self, "-s", "symoff", "--no-children");
	EXPECT_NE(NULL, strstr(self->run.out, "    66.67%  [k] 0xffff888000001010\n"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "    33.33%  [k] 0xffff888000001040\n"));
}

/* perfcheck report -i FILE --stdio and up to 8 options (NULL-terminated) */
static void report_with(struct __test_metadata *_metadata, FIXTURE_DATA(rep) *self,
			const char *const *opts)
{
	char *argv[16] = { (char *)pc_test_perfcheck(), "report", "-i", self->path, "--stdio" };
	int n = 5;

	for (int i = 0; opts[i] && n < 15; i++)
		argv[n++] = (char *)opts[i];
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	pc_run_free(&self->run);
	ASSERT_EQ(0, pc_test_run(&self->run, 120, argv));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
}

/* thread 200 "beta" samples K1 (as alpha did twice) after alpha's samples */
/* A user sample of process 200 at ip, alone in its chain (no map there: unresolved) */
static void bare_user_sample(FIXTURE_DATA(rep) *self, uint64_t t, uint64_t ip)
{
	struct pd_sample v = rt_id(200, 200, t);
	uint64_t chain[2] = { PC_CONTEXT_USER, ip };

	v.ip = ip;
	v.chain.ips = chain;
	v.chain.nr = 2;
	synth_sample_misc(&self->d, &self->a.attr, PERF_RECORD_MISC_USER, &v);
}

/*
 * perf compares unresolved rows by the wrapped difference of their
 * addresses, which is not transitive for addresses 2^63 or more apart: its
 * search for the last sample's 0x6000000000000070 ends where that row is
 * not, and it makes the row again.  Without a command key (no collapse)
 * the two stay apart: "1" and "1" where one row of 2 was.  The order and
 * counts are perf 7.2.13's on this file.
 */
TEST_F(rep, unresolved_rows_perfs_search_misses_are_rows_of_their_own)
{
	static const uint64_t ips[] = {
		0x6000000000000070, 0x9000000000000030, 0x8000000000000030, 0x90000000000000d0,
		0xa000000000000010, 0xe0000000000000d0, 0x6000000000000070,
	};
	struct pd_sample id = rt_id(200, 200, 2);

	synth_comm(&self->d, &self->a.attr, 200, 200, "beta", &id);
	for (size_t i = 0; i < sizeof(ips) / sizeof(ips[0]); i++)
		bare_user_sample(self, RT_SEC + 30 + i, ips[i]);
	report_with(_metadata, self,
		    (const char *[]){ "-s", "sym", "-n", "--no-children", "-g", "none", NULL });
	EXPECT_NE(NULL, strstr(self->run.out,
			       "    20.00%             2  [k] 0xffff888000001010\n"
			       "    10.00%             1  [.] 0x6000000000000070\n"
			       "    10.00%             1  [.] 0x8000000000000030\n"
			       "    10.00%             1  [.] 0x9000000000000030\n"
			       "    10.00%             1  [.] 0x90000000000000d0\n"
			       "    10.00%             1  [.] 0xa000000000000010\n"
			       "    10.00%             1  [.] 0xe0000000000000d0\n"
			       "    10.00%             1  [k] 0xffff888000001040\n"
			       "    10.00%             1  [.] 0x6000000000000070\n"))
		TH_LOG("%s", self->run.out);
}

static void beta_sample(FIXTURE_DATA(rep) *self)
{
	struct pd_sample id = rt_id(200, 200, RT_SEC + 25);
	const uint64_t a[] = { RT_KIP(1), RT_KIP(2), RT_KIP(3) };

	synth_comm(&self->d, &self->a.attr, 200, 200, "beta", &id);
	chain_sample_of(self, 200, RT_SEC + 30, a, 3);
}

/* perf 7.2: the samples --comms leaves out make rows of their own, hidden */
TEST_F(rep, comm_filter_shows_only_that_commands_share_of_a_row)
{
	static const char *const o[] = { "--no-children", "-s", "sym", "-g", "none", "--comms",
					 "beta", NULL };

	beta_sample(self);
	report_with(_metadata, self, o);
	EXPECT_NE(NULL, strstr(self->run.out, "\n    25.00%  [k] 0xffff888000001010\n"))
		TH_LOG("%s", self->run.out);
	EXPECT_EQ(NULL, strstr(self->run.out, "0xffff888000001040"));
}

/* perf 6.1: a row is hidden or shown whole, as its first sample (alpha's) is */
TEST_F(rep, comm_filter_follows_a_rows_first_sample_in_the_6_1_layout)
{
	static const char *const o[] = { "--compat", "6.1", "--no-children", "-s", "sym", "-g",
					 "none", "--comms", "beta", NULL };
	static const char *const alpha[] = { "--compat", "6.1", "--no-children", "-s", "sym",
					     "-g", "none", "--comms", "alpha", NULL };

	beta_sample(self);
	report_with(_metadata, self, o);
	EXPECT_EQ(NULL, strstr(self->run.out, "0xffff888000001010")) TH_LOG("%s", self->run.out);
	report_with(_metadata, self, alpha);
	EXPECT_NE(NULL, strstr(self->run.out, "\n    75.00%  [k] 0xffff888000001010\n"))
		TH_LOG("%s", self->run.out);
}

/* the percentages of the rows left, and the header's counts, as perf's relative mode */
TEST_F(rep, percentage_relative_is_of_the_rows_the_filters_leave)
{
	static const char *const o[] = { "--no-children", "-s", "sym", "-g", "none", "--comms",
					 "beta", "--percentage", "relative", NULL };

	beta_sample(self);
	report_with(_metadata, self, o);
	EXPECT_NE(NULL, strstr(self->run.out, "# Samples: 1  of event"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "\n   100.00%  [k] 0xffff888000001010\n"));
}

/* "# comm: beta" above the report, and no Command column */
TEST_F(rep, key_filtered_to_one_value_loses_its_column_and_says_so)
{
	static const char *const o[] = { "--no-children", "-g", "none", "--comms", "beta", NULL };

	beta_sample(self);
	report_with(_metadata, self, o);
	EXPECT_NE(NULL, strstr(self->run.out, "#\n# comm: beta\n#\n# Total Lost Samples:"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "# Overhead  Shared Object      Symbol"));
	EXPECT_NE(NULL, strstr(self->run.out, "    25.00%  [kernel.kallsyms]  [k] 0xffff888000001010"));
}

/* every column would go: perf keeps them all (and still says the values) */
TEST_F(rep, filters_of_every_key_keep_all_columns)
{
	static const char *const o[] = { "--no-children", "-g", "none", "-s", "comm", "--comms",
					 "beta", NULL };

	beta_sample(self);
	report_with(_metadata, self, o);
	EXPECT_NE(NULL, strstr(self->run.out, "# comm: beta\n")) TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "# Overhead  Command"));
	EXPECT_NE(NULL, strstr(self->run.out, "    25.00%  beta"));
}

/* --stats: records by type with their share of the TOTAL, then each event's (perf 7.2's widths) */
TEST_F(rep, stats_count_records_by_type_and_each_events_samples)
{
	static const char *const o[] = { "--stats", NULL };
	static const char *const o61[] = { "--stats", "--compat", "6.1", NULL };

	put_lost_samples(self, 7);
	report_with(_metadata, self, o);
	EXPECT_NE(NULL, strstr(self->run.out, "\nAggregated stats:\n"
					     "               TOTAL events:          6\n"
					     "                MMAP events:          1  (16.7%)\n"
					     "                COMM events:          1  (16.7%)\n"
					     "              SAMPLE events:          3  (50.0%)\n"
					     "        LOST_SAMPLES events:          1  (16.7%)\n"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, " stats:\n"
					     "              SAMPLE events:          3\n"
					     "        LOST_SAMPLES events:          7\n"));
	report_with(_metadata, self, o61);
	EXPECT_NE(NULL, strstr(self->run.out, "           TOTAL events:          6\n"))
		TH_LOG("%s", self->run.out);
}

TEST_F(rep, bad_call_graph_mode_is_a_usage_error)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "-g", "spiral", NULL,
				  NULL));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "spiral"));
}

/* perf 6.1 has no latency: its options and keys are unknown under --compat 6.1 */
TEST_F(rep, latency_and_parallelism_are_unknown_to_compat_6_1)
{
	static const char *const asks[][2] = { { "--latency", NULL }, { "--parallelism", "1" },
					       { "-s", "parallelism" },
					       { "-F", "latency,sym" } };

	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]); i++) {
		pc_run_free(&self->run);
		ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "--compat", "6.1", "-i", self->path,
					  asks[i][0], asks[i][1]));
		EXPECT_EQ(1, self->run.exit_code) TH_LOG("%s", asks[i][0]);
		EXPECT_NE(NULL, strstr(self->run.err, "not --compat 6.1's")) TH_LOG("%s", self->run.err);
		EXPECT_STREQ("", self->run.out ? self->run.out : "");
	}
}

TEST_F(rep, bad_percent_limit_is_a_usage_error)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "--percent-limit", "x",
				  NULL, NULL));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "--percent-limit"));
}

/*
 * --hierarchy on alpha's 3 samples (K1 twice, K4) and beta's 5 (K2 four
 * times, K1): each level's rows are the sums of theirs below, K1 a row
 * under each command, siblings sorted by their sums, indented 3 a level
 */
static void hierarchy_of_two_commands(struct __test_metadata *_metadata,
				      FIXTURE_DATA(rep) *self, const char *opt)
{
	/* perf 6.1's layout: perf 7.2 keeps Children in its hierarchy (refused) */
	struct pd_sample id = rt_id(200, 200, RT_SEC + 25);
	const uint64_t k1[] = { RT_KIP(1), RT_KIP(3) }, k2[] = { RT_KIP(2), RT_KIP(3) };

	synth_comm(&self->d, &self->a.attr, 200, 200, "beta", &id);
	for (int i = 0; i < 4; i++)
		chain_sample_of(self, 200, RT_SEC + 30 + (uint64_t)i, k2, 2);
	chain_sample_of(self, 200, RT_SEC + 40, k1, 2);
	report(_metadata, self, "--hierarchy", "--compat=6.1", opt);
}

TEST_F(rep, hierarchy_levels_sum_and_sort_within_their_parent)
{
	hierarchy_of_two_commands(_metadata, self, "-gnone");
	EXPECT_NE(NULL, strstr(self->run.out,
		"#       Overhead  Command / Shared Object / Symbol\n"
		"# ..............  ................................\n"
		"#\n"
		"    62.50%        beta   \n"
		"       62.50%        [kernel.kallsyms]\n"
		"          50.00%        [k] 0xffff888000001020\n"
		"          12.50%        [k] 0xffff888000001010\n"
		"    37.50%        alpha  \n"
		"       37.50%        [kernel.kallsyms]\n"
		"          25.00%        [k] 0xffff888000001010\n"
		"          12.50%        [k] 0xffff888000001040\n"
		"\n\n")) TH_LOG("%s", self->run.out);
}

/* no Children with --hierarchy; each last-level row has its own samples' graph */
TEST_F(rep, hierarchy_graphs_hang_under_the_last_level)
{
	hierarchy_of_two_commands(_metadata, self, NULL);
	EXPECT_EQ(NULL, strstr(self->run.out, "Children")) TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out,
		"          50.00%        [k] 0xffff888000001020\n"
		"            |\n"
		"            ---0xffff888000001030\n"
		"               0xffff888000001020\n")) TH_LOG("%s", self->run.out);
}

/* --percent-limit: hidden rows, and "no entry" where all below a row are hidden */
TEST_F(rep, hierarchy_percent_limit_says_no_entry_below_a_row)
{
	hierarchy_of_two_commands(_metadata, self, "--percent-limit=55");
	EXPECT_NE(NULL, strstr(self->run.out,
		"    62.50%        beta   \n"
		"       62.50%        [kernel.kallsyms]\n"
		"                        no entry >= 55.00%\n"
		"\n\n")) TH_LOG("%s", self->run.out);
}

/* --comms in perf 6.1's layout: the other command's rows hidden, the column kept */
TEST_F(rep, hierarchy_comm_filter_hides_the_other_commands_rows)
{
	hierarchy_of_two_commands(_metadata, self, "--comms=beta");
	EXPECT_NE(NULL, strstr(self->run.out, "# comm: beta\n")) TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out,
		"#       Overhead  Command / Shared Object / Symbol\n"
		"# ..............  ................................\n"
		"#\n"
		"    62.50%        beta   \n"
		"       62.50%        [kernel.kallsyms]\n"
		"          50.00%        [k] 0xffff888000001020\n")) TH_LOG("%s", self->run.out);
	EXPECT_EQ(NULL, strstr(self->run.out, "alpha")) TH_LOG("%s", self->run.out);
}

/* a regular expression that does not compile is refused, naming it */
TEST_F(rep, ignore_callees_refuses_a_bad_expression_naming_it)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "--ignore-callees",
				  "(", NULL, NULL));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "--ignore-callees '('")) TH_LOG("%s", self->run.err);
}

/* -p's expression that does not compile: perf's words */
TEST_F(rep, parent_refuses_a_bad_expression_in_perfs_words)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "-p", "(", NULL, NULL));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "Invalid regex: (\n")) TH_LOG("%s", self->run.err);
}

/* what perf refuses, or this does not print as perf: said, exit 1 */
TEST_F(rep, hierarchy_refuses_fields_and_filters_saying_why)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "--hierarchy",
				  "-F", "overhead,sym", NULL));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "--hierarchy and --fields")) TH_LOG("%s", self->run.err);
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "--hierarchy",
				  "--comms", "alpha", NULL));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "--comms")) TH_LOG("%s", self->run.err);
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "--hierarchy",
				  "--compat=6.1", "--symbol-filter", "alpha"));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "--symbol-filter")) TH_LOG("%s", self->run.err);
	/* the fixture's callchains in perf 7.2's layout: its Children, its bare graphs */
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "--hierarchy",
				  NULL, NULL, NULL));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "perf 7.2's layout")) TH_LOG("%s", self->run.err);
	EXPECT_EQ(NULL, self->run.out && *self->run.out ? self->run.out : NULL);
}

/*
 * -s transaction: a row per transaction word, named as perf names it (a
 * name per flag, NEITHER without SYNC or ASYNC, ":" and the abort code),
 * the column 32 wide once a row has a word; the rows and their order are
 * perf 7.2.13's on this file (samples 1 to 5 of each word, no maps)
 */
TEST(transaction_key_names_flags_and_abort_codes_as_perf)
{
	static const uint64_t words[] = { 0, 0x6, 0x19, 0x20 | (5ULL << 32), 0xc2 };
	static const char *const rows[] = {
		"# Overhead  Transaction                     \n",
		"    33.33%  EL ASYNC RETRY                  \n",
		"    26.67%  CON NEITHER :5                  \n",
		"    20.00%  TX CAP-WRITE CAP-READ NEITHER   \n",
		"    13.33%  TX SYNC                         \n",
		"     6.67%                                  \n",
	};
	char *dir = pc_test_mkdtemp("unit-report-tx");
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
	const char *at;

	ASSERT_NE(NULL, dir);
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	memset(&d, 0, sizeof(d));
	rt_plain_attr(&a, PERF_SAMPLE_TRANSACTION);
	/* word i in i + 1 samples, the largest share last */
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		for (size_t j = 0; j <= (i == 2 ? 4 : i == 4 ? 2 : i); j++) {
			struct pd_sample v = rt_id(100, 100, RT_SEC + i * 100 + j);

			v.ip = 0x400500;
			v.mem.transaction = words[i];
			synth_sample(&d, &a.attr, &v);
		}
	ASSERT_EQ(0, rt_write(path, &a, &d));
	ASSERT_EQ(0, rt_perfcheck(&run, "report", "-i", path, "--stdio", "-s", "transaction",
				  NULL));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	at = run.out;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]) && at; i++) {
		at = strstr(at, rows[i]);
		EXPECT_NE(NULL, at) TH_LOG("row %zu '%s' not in order: %s", i, rows[i], run.out);
	}
	pc_run_free(&run);
	synth_free(&d);
	if (!getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(dir);
}

TEST_HARNESS_MAIN
