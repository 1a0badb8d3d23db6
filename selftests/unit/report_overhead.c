// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck report: Self charges each sample to its own ip, Children to
 * every distinct frame of its chain once; --sort groups; merged deferred
 * user frames count like any other.
 */
#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(report) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
};

FIXTURE_SETUP(report)
{
	struct pd_sample id = rt_id(100, 100, 1);

	self->dir = pc_test_mkdtemp("report");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_attr(&self->a, PERF_ATTR_SIZE_VER9);
	synth_kernel_mmap(&self->d, &self->a.attr, &id);
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &id);
	/* leaves K1, K2, K1, all called from the same user frame 0x400500 */
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0);
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC + 10, RT_KIP(2), 0);
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC + 20, RT_KIP(1), 0);
}

FIXTURE_TEARDOWN(report)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	pc_test_rmdir(self->dir);
}

static void report(struct __test_metadata *_metadata, FIXTURE_DATA(report) *self,
		   const char *o1, const char *o2)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "--stdio", "-i", self->path, o1, o2,
				  NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
}

TEST_F(report, self_overhead_is_per_leaf)
{
	report(_metadata, self, "--no-children", NULL);
	EXPECT_NE(NULL, strstr(self->run.out, "# Overhead  Command  Shared Object      Symbol"));
	EXPECT_NE(NULL, strstr(self->run.out,
			       "    66.67%  alpha    [kernel.kallsyms]  [k] 0xffff888000001010\n"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out,
			       "    33.33%  alpha    [kernel.kallsyms]  [k] 0xffff888000001020\n"));
	EXPECT_EQ(NULL, strstr(self->run.out, "0x0000000000400500"));
	EXPECT_NE(NULL, strstr(self->run.out, "# Samples: 3  of event 'cpu-clock'"));
	EXPECT_NE(NULL, strstr(self->run.out, "# Event count (approx.): 750000"));
}

TEST_F(report, children_charge_every_frame_of_the_chain_once)
{
	report(_metadata, self, NULL, NULL);
	EXPECT_NE(NULL, strstr(self->run.out, "# Children      Self  Command"));
	EXPECT_NE(NULL, strstr(self->run.out,
			       /* no map: the level of the location before it, as perf */
			       "   100.00%     0.00%  alpha    [unknown]          [k] 0x0000000000400500\n"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out,
			       "    66.67%    66.67%  alpha    [kernel.kallsyms]  [k] 0xffff888000001010\n"));
}

TEST_F(report, sort_keys_group_the_rows)
{
	report(_metadata, self, "--no-children", "--sort=comm");
	EXPECT_NE(NULL, strstr(self->run.out, "# Overhead  Command\n"));
	/* perf pads a last Command column to its title's width */
	EXPECT_NE(NULL, strstr(self->run.out, "   100.00%  alpha  \n")) TH_LOG("%s", self->run.out);
	report(_metadata, self, "--no-children", "--sort=dso");
	EXPECT_NE(NULL, strstr(self->run.out, "   100.00%  [kernel.kallsyms]\n"));
}

TEST_F(report, merged_deferred_user_frames_are_children)
{
	synth_free(&self->d);
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0xc1);
	rt_deferred(&self->d, &self->a.attr, 100, 100, RT_SEC + 5, 0xc1, 0x401000, 2);
	report(_metadata, self, NULL, NULL);
	EXPECT_NE(NULL, strstr(self->run.out, "[k] 0x0000000000401100\n")) TH_LOG("%s", self->run.out);
	EXPECT_EQ(NULL, strstr(self->run.out, "0x00000000000000c1"));
}

TEST_F(report, unknown_sort_key_is_a_usage_error)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "--sort", "bogus", NULL,
				  NULL));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "bogus"));
}

TEST_HARNESS_MAIN
