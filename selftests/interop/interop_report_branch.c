// SPDX-License-Identifier: GPL-2.0
/*
 * perf report of files whose samples carry branch stacks (perf record -b or
 * -j), against the system perf 6.1 (--compat 6.1), stdout byte for byte:
 * perf reports such a file by branch (source and target of each entry) unless
 * told --no-branch-stack.  The files are written here with the project's
 * encoder (this machine has no LBR): branches between pcwork's functions
 * (ET_EXEC) and into libc (ET_DYN), into the kernel and to no map, with
 * cycles.
 * Skips where no perf is installed.
 */
#include "kselftest_harness.h"
#include "lib/perfcmp.h"
#include "lib/interop_tools.h"
#include "lib/reader_util.h"

FIXTURE(branch) {
	struct perfcmp c;
};

/* the files map pcwork's real functions: without it there is nothing to write */
FIXTURE_SETUP(branch)
{
	if (!up_pcwork())
		SKIP(return, "pcwork is not next to perfcheck (make)");
	ASSERT_EQ(0, perfcmp_init(&self->c, "interop-report-branch"));
}

FIXTURE_TEARDOWN(branch)
{
	perfcmp_fini(&self->c);
}


/*
 * Samples in two threads of pcwork, each with a stack of up to 8 branches
 * drawn from a small set (so that rows add up), some with cycles and
 * mispredict bits; with callchains when callchain is true.
 */
static int write_branches(const char *path, uint64_t extra_type, uint64_t branch_type)
{
	static const char libc[] = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	static const uint64_t from[] = { 0x4010e0, 0x4010f8, 0x401105, 0x401120, 0x7f0000027010,
					 0x4011a0, 0xffffffff81000020, 0x401290 };
	static const uint64_t to[] = { 0x4010d4, 0x4010f1, 0x401100, 0x40110f, 0x401149,
				       0x7f0000030010, 0x401199, 0x7000 };
	const char *pcwork = up_pcwork();
	uint64_t e[3 * 8];
	uint64_t chain[4] = { PERF_CONTEXT_USER, 0, 0x401105, 0x401290 };
	union pc_attr a;
	struct synth d = { 0 };
	struct pd_sample v = rt_id(100, 100, RT_SEC);
	int ret;

	rt_plain_attr(&a, PERF_SAMPLE_BRANCH_STACK | extra_type);
	a.attr.branch_sample_type = branch_type;
	d.branch_stack = true;	/* as perf record -b writes it */
	synth_comm(&d, &a.attr, 100, 100, "pcwork", &v);
	synth_mmap2(&d, &a.attr, 100, 100, 0x401000, 0x1000, 0x1000, pcwork, &v);
	synth_mmap2(&d, &a.attr, 100, 100, 0x7f0000026000, 0x155000, 0x26000, libc, &v);
	v = rt_id(100, 101, RT_SEC);
	synth_comm(&d, &a.attr, 100, 101, "worker", &v);
	for (unsigned int n = 0; n < 40; n++) {
		unsigned int nr = n % 9;

		for (unsigned int i = 0; i < nr; i++) {
			unsigned int k = (n * 3 + i * 5) % 8;

			e[3 * i] = from[k];
			e[3 * i + 1] = to[(k + n % 3) % 8];
			e[3 * i + 2] = (uint64_t)(n % 4 == 0) | (uint64_t)(n % 4 == 1) << 1 |
				       (uint64_t)((n * 7 + i) % 5 * 3) << 4;
		}
		v = rt_id(100, n % 3 ? 100 : 101, RT_SEC + 10 + n);
		v.ip = from[(n + 1) % 8];
		v.period = 1000 + n % 4 * 250;
		v.branch.nr = nr;
		v.branch.entries = e;
		chain[2] = v.ip;
		v.chain.nr = 4;
		v.chain.ips = chain;
		synth_sample(&d, &a.attr, &v);
	}
	ret = synth_write_one(path, &a.attr, "cycles", &d);
	synth_free(&d);
	return ret;
}

/* writes the file (its callchains too when chains); false: perf cannot read it here */
static bool written(struct __test_metadata *_metadata, struct perfcmp *c, bool chains)
{
	int ret = write_branches(c->path, chains ? PERF_SAMPLE_CALLCHAIN : 0,
				 PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);

	EXPECT_EQ(0, ret);
	if (ret)
		return false;
	if (perfcmp_sh(&c->perf, "perf script -i '%s' -F ip >/dev/null", c->path) ||
	    c->perf.exit_code == 127)
		return false;
	return true;
}

/* perf report ARGS and ours (--compat 6.1) print the same; perf's holds what */
static void same_report(struct __test_metadata *_metadata, struct perfcmp *c, const char *args,
			const char *what)
{
	perfcmp_run_report(_metadata, c, "--compat 6.1", args);
	perfcmp_expect_perf_holds(_metadata, c, what, 1);
	perfcmp_expect_same(_metadata, c);
}

TEST_F(branch, rows_of_branches_by_default_as_perf)
{
	if (!written(_metadata, &self->c, false))
		SKIP(return, "no perf to compare with");
	same_report(_metadata, &self->c, "", "Basic Block Cycles");
	/* one row per source and target: the sample count is the branches' (perf 6.1) */
	EXPECT_NE(NULL, strstr(self->c.ours.out, "# Samples: 150  of event 'cycles'"));
}

TEST_F(branch, no_branch_stack_reports_the_samples_as_perf)
{
	if (!written(_metadata, &self->c, false))
		SKIP(return, "no perf to compare with");
	same_report(_metadata, &self->c, "--no-branch-stack", "# Samples: 40 ");
}

TEST_F(branch, sample_keys_see_the_target_as_perf)
{
	if (!written(_metadata, &self->c, false))
		SKIP(return, "no perf to compare with");
	same_report(_metadata, &self->c, "-s sym,dso -n", "[.] 0x0000000000007000");
}

TEST_F(branch, branch_keys_chosen_with_sort_as_perf)
{
	if (!written(_metadata, &self->c, false))
		SKIP(return, "no perf to compare with");
	same_report(_metadata, &self->c, "--sort comm,dso_from", "Source Shared Object");
}

TEST_F(branch, callchains_draw_no_graphs_in_branch_mode_as_perf)
{
	if (!written(_metadata, &self->c, true))
		SKIP(return, "no perf to compare with");
	same_report(_metadata, &self->c, "", "Target Symbol");
	same_report(_metadata, &self->c, "-g", "Target Symbol");
}

TEST_F(branch, header_says_the_file_has_branch_stacks_as_perf)
{
	if (!written(_metadata, &self->c, false))
		SKIP(return, "no perf to compare with");
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "--header-only");
	/* the capture time is the file's: both read the same */
	perfcmp_expect_perf_holds(_metadata, &self->c, "# contains samples with branch stack", 1);
	perfcmp_expect_same(_metadata, &self->c);
}

TEST_F(branch, b_on_a_file_without_branch_stacks_is_perfs_error)
{
	struct synth d = { 0 };
	union pc_attr a;
	struct pd_sample v = rt_id(100, 100, RT_SEC);

	rt_plain_attr(&a, 0);
	synth_comm(&d, &a.attr, 100, 100, "pcwork", &v);
	v.ip = 0x401005;
	synth_sample(&d, &a.attr, &v);
	ASSERT_EQ(0, synth_write_one(self->c.path, &a.attr, "cycles", &d));
	synth_free(&d);
	if (perfcmp_sh(&self->c.perf, "perf script -i '%s' -F ip >/dev/null", self->c.path) ||
	    self->c.perf.exit_code == 127)
		SKIP(return, "no perf to compare with");
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "report", "--compat 6.1", "-i '%s' --stdio -b",
				 self->c.path));
	EXPECT_EQ(self->c.perf.exit_code, self->c.ours.exit_code);
	EXPECT_STREQ(self->c.perf.out, self->c.ours.out);
	EXPECT_STREQ(self->c.perf.err, self->c.ours.err);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "Selected -b but no branch data"));
}

TEST_F(branch, branch_keys_outside_branch_mode_are_refused)
{
	ASSERT_EQ(0, write_branches(self->c.path, 0, PERF_SAMPLE_BRANCH_ANY));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' report -i '%s' --stdio --no-branch-stack "
				"-s symbol_from", pc_test_perfcheck(), self->c.path));
	EXPECT_EQ(1, self->c.ours.exit_code);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "need branch mode")) TH_LOG("%s", self->c.ours.err);
}

TEST_HARNESS_MAIN
