// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script and deferred user callchains (seed 004): samples ending
 * in PERF_CONTEXT_USER_DEFERRED + cookie wait for their thread's
 * PERF_RECORD_CALLCHAIN_DEFERRED and print with its frames appended when the
 * cookie matches, at the record's place, as perf 7.2 delivers them: records
 * after a waiting sample print before it, and a sample whose record never
 * comes prints at the end with its cookie.  Files are synthesized with the
 * library writer, so this runs on any kernel (each case's output was
 * compared with perf 7.2's on the same file).
 */
#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(defer) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
};

FIXTURE_SETUP(defer)
{
	struct pd_sample id;

	self->dir = pc_test_mkdtemp("script-defer");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	rt_attr(&self->a, PERF_ATTR_SIZE_VER9);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	id = rt_id(100, 100, 1);
	synth_kernel_mmap(&self->d, &self->a.attr, &id);
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &id);
	id = rt_id(100, 101, 2);
	synth_comm(&self->d, &self->a.attr, 100, 101, "beta", &id);
}

FIXTURE_TEARDOWN(defer)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	pc_test_rmdir(self->dir);
}

static void script(struct __test_metadata *_metadata, FIXTURE_DATA(defer) *self,
		   const char *o1, const char *o2)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, o1, o2, NULL, NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("stderr: %s", self->run.err);
}

TEST_F(defer, matching_cookie_appends_the_deferred_user_frames)
{
	static const char want[] =
		"alpha     100     1.000000:     250000 cpu-clock: \n"
		"\tffff888000001010 [unknown] ([kernel.kallsyms])\n"
		"\t          401000 [unknown] ([unknown])\n"
		"\t          401100 [unknown] ([unknown])\n"
		"\n";

	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0xc1);
	rt_deferred(&self->d, &self->a.attr, 100, 100, RT_SEC + 100000, 0xc1, 0x401000, 2);
	script(_metadata, self, NULL, NULL);
	EXPECT_STREQ(want, self->run.out);
}

TEST_F(defer, mismatched_cookie_prints_the_sample_unmerged)
{
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0xc1);
	rt_deferred(&self->d, &self->a.attr, 100, 100, RT_SEC + 100000, 0xc2, 0x401000, 2);
	script(_metadata, self, NULL, NULL);
	EXPECT_NE(NULL, strstr(self->run.out, "\t              c1 [unknown] ([unknown])\n"));
	EXPECT_EQ(NULL, strstr(self->run.out, "401000"));
	EXPECT_EQ(1, pc_count_substr(self->run.out, "cpu-clock:"));
}

TEST_F(defer, a_sample_whose_record_never_comes_prints_last_with_its_cookie)
{
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0xc1);
	rt_sample(&self->d, &self->a.attr, 100, 101, 2 * RT_SEC, RT_KIP(2), 0);
	script(_metadata, self, NULL, NULL);
	ASSERT_NE(NULL, strstr(self->run.out, "alpha     100"));
	ASSERT_NE(NULL, strstr(self->run.out, "beta     101"));
	EXPECT_LT(strstr(self->run.out, "beta"), strstr(self->run.out, "alpha"));
	EXPECT_NE(NULL, strstr(self->run.out, "\t              c1 (cookie) ([unknown])\n"));
}

TEST_F(defer, interleaved_threads_each_merge_with_their_own_record)
{
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0xc1);
	rt_sample(&self->d, &self->a.attr, 100, 101, RT_SEC + 10, RT_KIP(2), 0xc7);
	rt_deferred(&self->d, &self->a.attr, 100, 101, RT_SEC + 20, 0xc7, 0x501000, 1);
	rt_deferred(&self->d, &self->a.attr, 100, 100, RT_SEC + 30, 0xc1, 0x401000, 1);
	script(_metadata, self, NULL, NULL);
	/* each at its own record's place: beta's came first */
	EXPECT_STREQ("beta     101     1.000000:     250000 cpu-clock: \n"
		     "\tffff888000001020 [unknown] ([kernel.kallsyms])\n"
		     "\t          501000 [unknown] ([unknown])\n"
		     "\n"
		     "alpha     100     1.000000:     250000 cpu-clock: \n"
		     "\tffff888000001010 [unknown] ([kernel.kallsyms])\n"
		     "\t          401000 [unknown] ([unknown])\n"
		     "\n", self->run.out);
}

TEST_F(defer, deferred_record_with_no_waiting_sample_prints_nothing_by_default)
{
	rt_deferred(&self->d, &self->a.attr, 100, 100, RT_SEC, 0xc1, 0x401000, 2);
	rt_sample(&self->d, &self->a.attr, 100, 101, 2 * RT_SEC, RT_KIP(2), 0);
	script(_metadata, self, NULL, NULL);
	EXPECT_EQ(1, pc_count_substr(self->run.out, "cpu-clock:"));
	EXPECT_EQ(NULL, strstr(self->run.out, "DEFERRED"));
	EXPECT_EQ(NULL, strstr(self->run.out, "401000"));
}

TEST_F(defer, sample_at_end_of_file_is_printed_with_its_cookie)
{
	rt_sample(&self->d, &self->a.attr, 100, 101, RT_SEC, RT_KIP(2), 0);
	rt_sample(&self->d, &self->a.attr, 100, 100, 2 * RT_SEC, RT_KIP(1), 0xc9);
	script(_metadata, self, NULL, NULL);
	EXPECT_EQ(2, pc_count_substr(self->run.out, "cpu-clock:"));
	EXPECT_NE(NULL, strstr(self->run.out, "\t              c9 (cookie) ([unknown])\n\n"));
}

TEST_F(defer, later_records_print_before_a_waiting_sample)
{
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0xc1);
	rt_sample(&self->d, &self->a.attr, 100, 101, RT_SEC + 1000, RT_KIP(2), 0);
	rt_deferred(&self->d, &self->a.attr, 100, 100, RT_SEC + 2000, 0xc1, 0x401000, 1);
	script(_metadata, self, NULL, NULL);
	ASSERT_NE(NULL, strstr(self->run.out, "401000"));
	EXPECT_LT(strstr(self->run.out, "beta"), strstr(self->run.out, "alpha"));
	EXPECT_LT(strstr(self->run.out, "beta"), strstr(self->run.out, "401000"));
}

TEST_F(defer, samples_sharing_a_cookie_all_merge)
{
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0xc1);
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC + 10, RT_KIP(3), 0xc1);
	rt_deferred(&self->d, &self->a.attr, 100, 100, RT_SEC + 20, 0xc1, 0x401000, 1);
	script(_metadata, self, NULL, NULL);
	EXPECT_EQ(2, pc_count_substr(self->run.out, "\t          401000 [unknown] ([unknown])\n"));
	EXPECT_EQ(NULL, strstr(self->run.out, " c1 "));
}

TEST_F(defer, late_sample_merges_only_with_merge_late_deferred)
{
	/* the sample was taken after its record was written, inside the unwind */
	rt_deferred(&self->d, &self->a.attr, 100, 100, RT_SEC, 0xc1, 0x401000, 1);
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC + 10, RT_KIP(1), 0xc1);
	rt_deferred(&self->d, &self->a.attr, 100, 100, RT_SEC + 20, 0xc2, 0x601000, 1);
	script(_metadata, self, NULL, NULL);
	EXPECT_NE(NULL, strstr(self->run.out, "\t              c1 [unknown] ([unknown])\n"));
	EXPECT_EQ(NULL, strstr(self->run.out, "401000"));

	script(_metadata, self, "--merge-late-deferred", "-v");
	EXPECT_NE(NULL, strstr(self->run.out, "\t          401000 [unknown] ([unknown])\n"));
	EXPECT_EQ(NULL, strstr(self->run.out, " c1 "));
	EXPECT_NE(NULL, strstr(self->run.err, "1 merged late")) TH_LOG("stderr: %s", self->run.err);
}

TEST_F(defer, no_merge_prints_the_cookie_frame_and_the_record_as_perf_7_2)
{
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0x37900000001ULL);
	rt_deferred(&self->d, &self->a.attr, 100, 100, RT_SEC + 100000, 0x37900000001ULL,
		    0x401000, 1);
	script(_metadata, self, "--no-merge-callchains", NULL);
	EXPECT_STREQ("alpha     100     1.000000:     250000 cpu-clock: \n"
		     "\tffff888000001010 [unknown] ([kernel.kallsyms])\n"
		     "\t     37900000001 (cookie) ([unknown])\n"
		     "\n"
		     "alpha     100     1.000100: DEFERRED CALLCHAIN [cookie: 37900000001]\n"
		     "\t          401000 [unknown] ([unknown])\n"
		     "\n", self->run.out);
}

TEST_F(defer, thousands_of_samples_waiting_on_one_record_all_merge)
{
	const int n = 5000;

	for (int i = 0; i < n; i++)
		rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC + (uint64_t)i * 1000,
			  RT_KIP(1), 0xc1);
	rt_deferred(&self->d, &self->a.attr, 100, 100, 2 * RT_SEC, 0xc1, 0x401000, 1);
	script(_metadata, self, "-v", NULL);
	EXPECT_EQ(n, pc_count_substr(self->run.out, "cpu-clock:"));
	EXPECT_EQ(n, pc_count_substr(self->run.out, " 401000 [unknown]"));
	EXPECT_NE(NULL, strstr(self->run.err, "(0 released at a bound)")) TH_LOG("%s", self->run.err);
}

TEST_F(defer, samples_past_the_bound_print_unanswered_in_time_order)
{
	const int n = 70000;	/* more than the stage holds: none of them is answered */

	for (int i = 0; i < n; i++)
		rt_sample(&self->d, &self->a.attr, 100, 100 + i % 2, RT_SEC + (uint64_t)i * 1000,
			  RT_KIP(1), 0xc1);
	script(_metadata, self, "-v", NULL);
	EXPECT_EQ(n, pc_count_substr(self->run.out, "cpu-clock:"));
	EXPECT_EQ(n, pc_count_substr(self->run.out, " c1 (cookie) ([unknown])"));
	/* the first out at the bound, still first; the last out at the end */
	EXPECT_EQ(0, strncmp(self->run.out, "alpha     100     1.000000:", 27));
	EXPECT_NE(NULL, strstr(self->run.out, "beta     101     1.069999:"));
	EXPECT_EQ(NULL, strstr(self->run.err, "(0 released at a bound)")) TH_LOG("%s", self->run.err);
}

TEST_F(defer, deferred_frames_see_the_maps_of_their_own_moment)
{
	struct pd_sample id = rt_id(100, 100, RT_SEC + 50);

	/* as right after an exec: the executable's MMAP2 comes between the
	 * sample and the deferred stack that was taken after it */
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0xc1);
	synth_mmap2(&self->d, &self->a.attr, 100, 100, 0x401000, 0x1000, 0x1000,
		    "/nonexistent/pcwork", &id);
	rt_deferred(&self->d, &self->a.attr, 100, 100, RT_SEC + 100, 0xc1, 0x401000, 1);
	script(_metadata, self, NULL, NULL);
	EXPECT_NE(NULL, strstr(self->run.out, "\t          401000 [unknown] (/nonexistent/pcwork)\n"))
		TH_LOG("%s", self->run.out);
}

TEST_F(defer, records_out_of_file_order_print_in_time_order)
{
	rt_sample(&self->d, &self->a.attr, 100, 101, 3 * RT_SEC, RT_KIP(2), 0);
	rt_sample(&self->d, &self->a.attr, 100, 100, 1 * RT_SEC, RT_KIP(1), 0);
	script(_metadata, self, NULL, NULL);
	ASSERT_NE(NULL, strstr(self->run.out, "beta"));
	EXPECT_LT(strstr(self->run.out, "alpha"), strstr(self->run.out, "beta"));
}

TEST_HARNESS_MAIN
