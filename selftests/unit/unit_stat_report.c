// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck stat report on synthesized perf stat record files (no perf, no
 * kernel): the std layout of a FINAL round (its time the elapsed one and
 * the "CPUs utilized" base), -I rounds as deltas with their time and the
 * rates divided by the clock's mean over the rounds (perf 6.1's report,
 * measured on its files: interop_stat_report compares whole outputs), -A
 * replacing the file's aggregation, and every record that cannot be placed
 * refused with its offset and a non-zero exit, never an empty success.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "lib/synth.h"
#include "lib/testutil.h"
#include "perfdata/codec.h"
#include "reader_util.h"

#define ID_CLOCK 501
#define ID_FAULTS 502
/* the files have no CMDLINE: perf names the command "pipe" then */
#define HEAD "\n Performance counter stats for 'pipe':\n\n"

FIXTURE(sr) {
	char *dir;
	char path[512];
	struct pd_buf b;
	struct pc_run run;
	bool no_stat_feature;
};

FIXTURE_SETUP(sr)
{
	self->dir = pc_test_mkdtemp("unit-stat-report");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/stat.data", self->dir);
	memset(&self->b, 0, sizeof(self->b));
	memset(&self->run, 0, sizeof(self->run));
	self->no_stat_feature = false;
}

FIXTURE_TEARDOWN(sr)
{
	pc_run_free(&self->run);
	pd_buf_free(&self->b);
	if (!getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(self->dir);
}

static void counting_attr(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = PERF_ATTR_SIZE_VER5;
	a->config = config;
	a->sample_type = PERF_SAMPLE_IDENTIFIER;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->disabled = 1;
	a->inherit = 1;
	a->enable_on_exec = 1;
}

/* task-clock and page-faults (ids 501, 502), the records of b, then stat report [opt] */
static int report(struct __test_metadata *_metadata, FIXTURE_DATA(sr) *self, const char *opt)
{
	struct perf_event_attr clock, faults;
	const struct perf_event_attr *attrs[2] = { &clock, &faults };
	const uint64_t ids[2] = { ID_CLOCK, ID_FAULTS };
	const char *names[2] = { "task-clock", "page-faults" };
	struct synth data = { .stat = !self->no_stat_feature };

	counting_attr(&clock, PERF_COUNT_SW_TASK_CLOCK);
	counting_attr(&faults, PERF_COUNT_SW_PAGE_FAULTS);
	synth_put(&data, self->b.data, self->b.len);
	EXPECT_EQ(0, synth_write_file(self->path, attrs, ids, names, 2, &data));
	synth_free(&data);
	pc_run_free(&self->run);
	EXPECT_EQ(0, rt_perfcheck(&self->run, "stat", "report", "-i", self->path, opt, NULL,
				  NULL));
	return self->run.exit_code;
}

static void maps(struct pd_buf *b, int32_t *cpus, uint32_t nr_cpus, int32_t *pids,
		 uint32_t nr_threads)
{
	pd_encode_thread_map(b, &(struct pd_thread_list){ pids, nr_threads });
	pd_encode_cpu_map(b, &(struct pd_cpu_list){ cpus, nr_cpus });
}

static void stat(struct pd_buf *b, uint64_t id, uint32_t cpu, uint32_t thread, uint64_t val)
{
	pd_encode_stat(b, &(struct pd_stat){ id, cpu, thread, val, 1000000, 1000000 });
}

static void round_at(struct pd_buf *b, uint64_t type, uint64_t time)
{
	pd_encode_stat_round(b, &(struct pd_stat_round){ type, time });
}

TEST_F(sr, a_final_round_prints_perf_stats_table_with_its_time_elapsed)
{
	int32_t cpus[1] = { -1 }, pids[1] = { 300 };

	maps(&self->b, cpus, 1, pids, 1);
	pd_encode_stat_config(&self->b, &(struct pd_stat_config){ PD_AGGR_GLOBAL, 0, 1 });
	stat(&self->b, ID_CLOCK, (uint32_t)-1, 0, 2000000);
	stat(&self->b, ID_FAULTS, (uint32_t)-1, 0, 100);
	round_at(&self->b, PD_STAT_ROUND_FINAL, 4000000);
	ASSERT_EQ(0, report(_metadata, self, NULL)) TH_LOG("%s", self->run.err);
	/* 2 ms of 4 elapsed: 0.5 CPUs; 100 faults in 2 ms of clock: 50 K/sec */
	EXPECT_STREQ(HEAD
		"              2.00 msec task-clock                       #    0.500 CPUs utilized          \n"
		"               100      page-faults                      #   50.000 K/sec                  \n"
		"\n"
		"       0.004000000 seconds time elapsed\n"
		"\n", self->run.err);
	EXPECT_STREQ("", self->run.out ? self->run.out : "");
}

TEST_F(sr, interval_rounds_print_deltas_and_rates_over_the_clocks_mean)
{
	int32_t cpus[1] = { -1 }, pids[1] = { 300 };

	maps(&self->b, cpus, 1, pids, 1);
	pd_encode_stat_config(&self->b, &(struct pd_stat_config){ PD_AGGR_GLOBAL, 100, 1 });
	stat(&self->b, ID_CLOCK, (uint32_t)-1, 0, 1000000);
	stat(&self->b, ID_FAULTS, (uint32_t)-1, 0, 10);
	round_at(&self->b, PD_STAT_ROUND_INTERVAL, 100000000);
	pd_encode_stat(&self->b, &(struct pd_stat){ ID_CLOCK, (uint32_t)-1, 0, 3000000, 3000000,
						    3000000 });
	pd_encode_stat(&self->b, &(struct pd_stat){ ID_FAULTS, (uint32_t)-1, 0, 40, 3000000,
						    3000000 });
	round_at(&self->b, PD_STAT_ROUND_INTERVAL, 200000000);
	ASSERT_EQ(0, report(_metadata, self, NULL)) TH_LOG("%s", self->run.err);
	/*
	 * No FINAL round: no "CPUs utilized".  The second round: 30 faults over
	 * the mean of 1 and 2 ms of clock, 20 K/sec (perf 6.1), not 15
	 */
	EXPECT_STREQ("#           time             counts unit events\n"
		"     0.100000000               1.00 msec task-clock                                                         \n"
		"     0.100000000                 10      page-faults                      #   10.000 K/sec                  \n"
		"     0.200000000               2.00 msec task-clock                                                         \n"
		"     0.200000000                 30      page-faults                      #   20.000 K/sec                  \n",
		self->run.err);
}

TEST_F(sr, no_aggr_on_the_command_line_prints_each_cpu_of_a_global_file)
{
	int32_t cpus[2] = { 0, 1 }, pids[1] = { -1 };

	maps(&self->b, cpus, 2, pids, 1);
	pd_encode_stat_config(&self->b, &(struct pd_stat_config){ PD_AGGR_GLOBAL, 0, 1 });
	stat(&self->b, ID_CLOCK, 0, 0, 1000000);
	stat(&self->b, ID_CLOCK, 1, 0, 1000000);
	stat(&self->b, ID_FAULTS, 0, 0, 7);
	stat(&self->b, ID_FAULTS, 1, 0, 9);
	round_at(&self->b, PD_STAT_ROUND_FINAL, 1000000);
	ASSERT_EQ(0, report(_metadata, self, "-A")) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(HEAD
		"CPU0                     1.00 msec task-clock                       #    1.000 CPUs utilized          \n"
		"CPU1                     1.00 msec task-clock                       #    1.000 CPUs utilized          \n"
		"CPU0                        7      page-faults                      #    7.000 K/sec                  \n"
		"CPU1                        9      page-faults                      #    9.000 K/sec                  \n"
		"\n"
		"       0.001000000 seconds time elapsed\n"
		"\n", self->run.err);
}

/* perf 6.1's warning and its summed table: a task's counts have no cpus to print */
TEST_F(sr, no_aggr_on_a_per_task_file_warns_and_sums_as_perf)
{
	int32_t cpus[1] = { -1 }, pids[1] = { 300 };

	maps(&self->b, cpus, 1, pids, 1);
	stat(&self->b, ID_FAULTS, (uint32_t)-1, 0, 12);
	round_at(&self->b, PD_STAT_ROUND_FINAL, 1000000);
	ASSERT_EQ(0, report(_metadata, self, "-A")) TH_LOG("%s", self->run.err);
	EXPECT_EQ(0, strncmp(self->run.err, "warning: processing task data, aggregation mode not "
			     "set\n" HEAD, strlen("warning: processing task data, aggregation "
						   "mode not set\n" HEAD))) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "\n                12      page-faults"))
		TH_LOG("%s", self->run.err);
}

/* perf 6.1: a thread whose clock read 0 still gets its rates, of 0 (measured with -a --per-thread) */
TEST_F(sr, a_threads_rate_over_a_clock_of_zero_is_zero_per_sec)
{
	int32_t cpus[1] = { -1 }, pids[2] = { 300, 301 };
	char comms[2][16] = { "busy", "idle" };

	pd_encode_thread_map(&self->b, &(struct pd_thread_list){ pids, 2, comms });
	pd_encode_cpu_map(&self->b, &(struct pd_cpu_list){ cpus, 1 });
	pd_encode_stat_config(&self->b, &(struct pd_stat_config){ PD_AGGR_THREAD, 0, 1 });
	stat(&self->b, ID_CLOCK, (uint32_t)-1, 0, 2000000);
	stat(&self->b, ID_FAULTS, (uint32_t)-1, 0, 4);
	pd_encode_stat(&self->b, &(struct pd_stat){ ID_CLOCK, (uint32_t)-1, 1, 0, 1000, 1000 });
	stat(&self->b, ID_FAULTS, (uint32_t)-1, 1, 1);
	round_at(&self->b, PD_STAT_ROUND_FINAL, 4000000);
	ASSERT_EQ(0, report(_metadata, self, NULL)) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "busy-300                       4      page-faults"
					      "                      #    2.000 K/sec"))
		TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "idle-301                       1      page-faults"
					      "                      #    0.000 /sec"))
		TH_LOG("%s", self->run.err);
}

TEST_F(sr, a_global_file_sums_its_cpus_without_options)
{
	int32_t cpus[2] = { 0, 1 }, pids[1] = { -1 };

	maps(&self->b, cpus, 2, pids, 1);
	stat(&self->b, ID_FAULTS, 0, 0, 7);
	stat(&self->b, ID_FAULTS, 1, 0, 9);
	round_at(&self->b, PD_STAT_ROUND_FINAL, 1000000);
	ASSERT_EQ(0, report(_metadata, self, NULL)) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "                16      page-faults"))
		TH_LOG("%s", self->run.err);
	/* never read: perf's <not counted> */
	EXPECT_NE(NULL, strstr(self->run.err, "     <not counted> msec task-clock"))
		TH_LOG("%s", self->run.err);
}

TEST_F(sr, a_stat_of_an_id_no_event_has_fails_with_its_offset)
{
	int32_t cpus[1] = { 0 }, pids[1] = { 7 };

	maps(&self->b, cpus, 1, pids, 1);
	stat(&self->b, 999, 0, 0, 5);
	round_at(&self->b, PD_STAT_ROUND_FINAL, 9);
	EXPECT_EQ(2, report(_metadata, self, NULL));
	EXPECT_NE(NULL, strstr(self->run.err, "stat.data: offset 0x"));
	EXPECT_NE(NULL, strstr(self->run.err, ": STAT record for an id no event has: 999"))
		TH_LOG("%s", self->run.err);
	EXPECT_EQ(NULL, strstr(self->run.err, "Performance counter stats"));
}

TEST_F(sr, a_cpu_outside_the_map_fails_with_its_offset)
{
	int32_t cpus[2] = { 4, 5 }, pids[1] = { 7 };

	maps(&self->b, cpus, 2, pids, 1);
	stat(&self->b, ID_CLOCK, 9, 0, 5);
	round_at(&self->b, PD_STAT_ROUND_FINAL, 9);
	EXPECT_EQ(2, report(_metadata, self, NULL));
	EXPECT_NE(NULL, strstr(self->run.err, ": STAT record for a cpu not in the CPU_MAP: 9"))
		TH_LOG("%s", self->run.err);
}

TEST_F(sr, a_thread_index_past_the_map_fails_with_its_offset)
{
	int32_t cpus[1] = { 0 }, pids[1] = { 7 };

	maps(&self->b, cpus, 1, pids, 1);
	stat(&self->b, ID_CLOCK, 0, 3, 5);
	round_at(&self->b, PD_STAT_ROUND_FINAL, 9);
	EXPECT_EQ(2, report(_metadata, self, NULL));
	EXPECT_NE(NULL, strstr(self->run.err, ": STAT record for a thread index past the "
					      "THREAD_MAP: 3")) TH_LOG("%s", self->run.err);
}

TEST_F(sr, a_cut_stat_record_fails_with_its_size)
{
	int32_t cpus[1] = { 0 }, pids[1] = { 7 };
	struct perf_event_header h = { PC_RECORD_STAT, 0, 40 };
	uint64_t body[4] = { ID_CLOCK, 0, 1, 1 };

	maps(&self->b, cpus, 1, pids, 1);
	pd_buf_put(&self->b, &h, sizeof(h));
	pd_buf_put(&self->b, body, sizeof(body));
	round_at(&self->b, PD_STAT_ROUND_FINAL, 9);
	EXPECT_EQ(2, report(_metadata, self, NULL));
	EXPECT_NE(NULL, strstr(self->run.err, ": offset 0x"));
	EXPECT_NE(NULL, strstr(self->run.err, "STAT record of 40 bytes is too short for its "
					      "fields (48 bytes)")) TH_LOG("%s", self->run.err);
}

/* perf prints nothing and succeeds: a wrong file would look like an empty run */
TEST_F(sr, a_file_without_stat_records_fails_saying_so)
{
	self->no_stat_feature = true;
	EXPECT_EQ(2, report(_metadata, self, NULL));
	EXPECT_NE(NULL, strstr(self->run.err, "stat.data: no perf stat record data"))
		TH_LOG("%s", self->run.err);
}

/* perf record's files have the maps too: without the STAT feature it is not a stat file */
TEST_F(sr, a_record_file_with_maps_and_no_stat_feature_is_not_a_stat_file)
{
	int32_t cpus[1] = { 0 }, pids[1] = { 7 };

	self->no_stat_feature = true;
	maps(&self->b, cpus, 1, pids, 1);
	EXPECT_EQ(2, report(_metadata, self, NULL));
	EXPECT_NE(NULL, strstr(self->run.err, "not a perf stat record file"))
		TH_LOG("%s", self->run.err);
}

TEST_F(sr, a_file_without_a_round_fails_saying_the_recording_did_not_finish)
{
	int32_t cpus[1] = { 0 }, pids[1] = { 7 };

	maps(&self->b, cpus, 1, pids, 1);
	stat(&self->b, ID_CLOCK, 0, 0, 5);
	EXPECT_EQ(2, report(_metadata, self, NULL));
	EXPECT_NE(NULL, strstr(self->run.err, "stat.data: no STAT_ROUND record: the recording "
					      "did not finish")) TH_LOG("%s", self->run.err);
}

TEST_F(sr, an_unknown_option_is_a_usage_error)
{
	EXPECT_EQ(129, report(_metadata, self, "--frobnicate"));
	EXPECT_NE(NULL, strstr(self->run.err, "unknown option '--frobnicate'"))
		TH_LOG("%s", self->run.err);
}

TEST_HARNESS_MAIN
