// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script options on synthesized files (no perf, no kernel
 * needed): filters, time layouts, refused fields and options.
 */
#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(opt) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
};

FIXTURE_SETUP(opt)
{
	struct pd_sample id1 = rt_id(100, 100, 1), id2 = rt_id(200, 201, 1);

	self->dir = pc_test_mkdtemp("unit-script-options");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_attr(&self->a, PERF_ATTR_SIZE_VER9);
	synth_kernel_mmap(&self->d, &self->a.attr, &id1);
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &id1);
	synth_comm(&self->d, &self->a.attr, 200, 201, "beta", &id2);
	/* alpha at 1.0, 2.0, 3.0 s; beta (pid 200, tid 201) at 1.5 and 2.5 s */
	rt_sample(&self->d, &self->a.attr, 100, 100, 1 * RT_SEC, RT_KIP(1), 0);
	rt_sample(&self->d, &self->a.attr, 200, 201, 3 * RT_SEC / 2, RT_KIP(2), 0);
	rt_sample(&self->d, &self->a.attr, 100, 100, 2 * RT_SEC, RT_KIP(3), 0);
	rt_sample(&self->d, &self->a.attr, 200, 201, 5 * RT_SEC / 2, RT_KIP(4), 0);
	rt_sample(&self->d, &self->a.attr, 100, 100, 3 * RT_SEC, RT_KIP(5), 0);
}

FIXTURE_TEARDOWN(opt)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	pc_test_rmdir(self->dir);
}

static void script(struct __test_metadata *_metadata, FIXTURE_DATA(opt) *self, const char *o1,
		   const char *o2, const char *o3, const char *o4)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, o1, o2, o3, o4));
}

TEST_F(opt, comms_keep_only_those_commands)
{
	script(_metadata, self, "--comms", "beta", "-F", "comm,tid,time");
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("            beta     201     1.500000: \n"
		     "            beta     201     2.500000: \n", self->run.out);
}

TEST_F(opt, pid_and_tid_filters_select_by_number)
{
	script(_metadata, self, "--pid", "200", "-F", "tid");
	EXPECT_STREQ("    201 \n    201 \n", self->run.out) TH_LOG("%s", self->run.err);
	script(_metadata, self, "--tid", "100", "-F", "tid");
	EXPECT_STREQ("    100 \n    100 \n    100 \n", self->run.out);
}

TEST_F(opt, time_range_is_inclusive_and_may_be_open)
{
	script(_metadata, self, "--time", "1.5,2.5", "-F", "time");
	EXPECT_STREQ("    1.500000: \n    2.000000: \n    2.500000: \n", self->run.out)
		TH_LOG("%s", self->run.err);
	script(_metadata, self, "--time", "2.5,", "-F", "time");
	EXPECT_STREQ("    2.500000: \n    3.000000: \n", self->run.out);
}

TEST_F(opt, time_percent_slices_split_the_recording)
{
	/* 1.0 .. 3.0 s: the second half is 2.0 .. 3.0 */
	script(_metadata, self, "--time", "50%/2", "-F", "time");
	EXPECT_STREQ("    2.000000: \n    2.500000: \n    3.000000: \n", self->run.out)
		TH_LOG("%s", self->run.err);
}

TEST_F(opt, reltime_and_deltatime_count_from_samples_shown)
{
	script(_metadata, self, "--reltime", "-F", "time", NULL);
	EXPECT_STREQ("    0.000000: \n    0.500000: \n    1.000000: \n    1.500000: \n"
		     "    2.000000: \n", self->run.out) TH_LOG("%s", self->run.err);
	script(_metadata, self, "--deltatime", "-F", "time", "--ns");
	EXPECT_STREQ("    0.000000000: \n    0.500000000: \n    0.500000000: \n"
		     "    0.500000000: \n    0.500000000: \n", self->run.out);
}

TEST_F(opt, bad_time_is_a_usage_error)
{
	script(_metadata, self, "--time", "banana", NULL, NULL);
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "--time"));
	script(_metadata, self, "--time", "30%/4", NULL, NULL);
	EXPECT_EQ(1, self->run.exit_code);
}

TEST_F(opt, missing_sample_field_is_an_error_naming_it)
{
	script(_metadata, self, "-F", "comm,cpu", NULL, NULL);
	EXPECT_EQ(255, self->run.exit_code);	/* perf 6.1's -1 */
	EXPECT_STREQ("Samples for 'cpu-clock' event do not have CPU attribute set. "
		     "Cannot print 'cpu' field.\n", self->run.err);
	EXPECT_STREQ("", self->run.out);
}

TEST_F(opt, trace_on_software_events_is_ignored_with_a_warning)
{
	script(_metadata, self, "-F", "comm,tid,trace", NULL, NULL);
	EXPECT_EQ(0, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "'trace' not valid for software events. Ignoring."));
	EXPECT_EQ(5, pc_count_substr(self->run.out, "\n"));
}

/*
 * -F srcline without line information: perf's fallbacks, one line under
 * each chain frame that has a map ("[kernel.kallsyms][ip]" for the
 * kernel), none under a user frame in no map.
 */
TEST_F(opt, srcline_without_line_information_names_the_object_and_address)
{
	script(_metadata, self, "-F", "ip,srcline", NULL, NULL);
	EXPECT_EQ(0, self->run.exit_code);
	EXPECT_EQ(5, pc_count_substr(self->run.out, "\n  [kernel.kallsyms][ffff8880000010"));
	EXPECT_NE(NULL, strstr(self->run.out, "\n  [kernel.kallsyms][ffff888000001010]\n"));
	EXPECT_EQ(NULL, strstr(self->run.out, "??:0"));
	EXPECT_EQ(5, pc_count_substr(self->run.out, "400500\n\n"));
}

TEST_F(opt, max_stack_and_hide_call_graph_trim_chains)
{
	script(_metadata, self, "--comms", "alpha", "--max-stack", "1");
	EXPECT_EQ(3, pc_count_substr(self->run.out, "\tffff8880000010")) TH_LOG("%s", self->run.out);
	EXPECT_EQ(0, pc_count_substr(self->run.out, "400500"));
	script(_metadata, self, "--comms", "alpha", "-G", NULL);
	EXPECT_EQ(0, pc_count_substr(self->run.out, "\t"));
	EXPECT_EQ(3, pc_count_substr(self->run.out, "\n"));
}

TEST_HARNESS_MAIN
