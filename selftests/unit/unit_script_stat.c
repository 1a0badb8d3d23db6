// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script on perf stat record files, synthesized (no perf, no
 * kernel): the counts at each STAT_ROUND in perf 6.1's layout and order
 * (thread, then cpu, per event: checked against perf 6.1 when these lines
 * were written), the deltas and scaling perf 6.1 applies outside the
 * global aggregation, every cpu map form, and stat records that cannot be
 * placed refused with their offset.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "lib/synth.h"
#include "lib/testutil.h"
#include "perfdata/codec.h"
#include "reader_util.h"

#define ID_CLOCK 501
#define ID_FAULTS 502
#define HEAD "CPU   THREAD             VAL             ENA             RUN            TIME EVENT\n"

FIXTURE(st) {
	char *dir;
	char path[512];
	struct pd_buf b;
	struct pc_run run;
};

FIXTURE_SETUP(st)
{
	self->dir = pc_test_mkdtemp("unit-script-stat");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/stat.data", self->dir);
	memset(&self->b, 0, sizeof(self->b));
	memset(&self->run, 0, sizeof(self->run));
}

FIXTURE_TEARDOWN(st)
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
	a->sample_type = PERF_SAMPLE_IDENTIFIER;	/* as perf stat record opens them */
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->disabled = 1;
	a->inherit = 1;
	a->enable_on_exec = 1;
	a->exclude_guest = 1;
}

/* task-clock and page-faults (ids 501, 502), the records of b, then script */
static int script(struct __test_metadata *_metadata, FIXTURE_DATA(st) *self)
{
	struct perf_event_attr clock, faults;
	const struct perf_event_attr *attrs[2] = { &clock, &faults };
	const uint64_t ids[2] = { ID_CLOCK, ID_FAULTS };
	const char *names[2] = { "task-clock", "page-faults" };
	struct synth data = { .stat = true };

	counting_attr(&clock, PERF_COUNT_SW_TASK_CLOCK);
	counting_attr(&faults, PERF_COUNT_SW_PAGE_FAULTS);
	synth_put(&data, self->b.data, self->b.len);
	EXPECT_EQ(0, synth_write_file(self->path, attrs, ids, names, 2, &data));
	synth_free(&data);
	pc_run_free(&self->run);
	EXPECT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, NULL, NULL, NULL,
				  NULL));
	return self->run.exit_code;
}

static void maps(struct pd_buf *b, int32_t *cpus, uint32_t nr_cpus, int32_t *pids,
		 uint32_t nr_threads)
{
	pd_encode_thread_map(b, &(struct pd_thread_list){ pids, nr_threads });
	pd_encode_cpu_map(b, &(struct pd_cpu_list){ cpus, nr_cpus });
}

static void stat(struct pd_buf *b, uint64_t id, uint32_t cpu, uint32_t thread, uint64_t val,
		 uint64_t ena, uint64_t run)
{
	pd_encode_stat(b, &(struct pd_stat){ id, cpu, thread, val, ena, run });
}

TEST_F(st, a_round_prints_each_event_by_thread_then_cpu)
{
	int32_t cpus[2] = { 0, 1 }, pids[2] = { 300, 301 };

	maps(&self->b, cpus, 2, pids, 2);
	pd_encode_stat_config(&self->b, &(struct pd_stat_config){ PD_AGGR_GLOBAL, 0, 1 });
	stat(&self->b, ID_CLOCK, 0, 0, 1000, 1000, 1000);
	stat(&self->b, ID_CLOCK, 1, 0, 1001, 1001, 1001);
	stat(&self->b, ID_CLOCK, 0, 1, 1010, 1010, 1010);
	stat(&self->b, ID_CLOCK, 1, 1, 1011, 1011, 1011);
	stat(&self->b, ID_FAULTS, 1, 1, 7, 900, 450);
	pd_encode_stat_round(&self->b, &(struct pd_stat_round){ PD_STAT_ROUND_FINAL, 5000 });
	ASSERT_EQ(0, script(_metadata, self)) TH_LOG("%s", self->run.err);
	/* global: the readings as written, a counter never read as zeros */
	EXPECT_STREQ(HEAD
		"  0      300            1000            1000            1000            5000 task-clock\n"
		"  1      300            1001            1001            1001            5000 task-clock\n"
		"  0      301            1010            1010            1010            5000 task-clock\n"
		"  1      301            1011            1011            1011            5000 task-clock\n"
		"  0      300               0               0               0            5000 page-faults\n"
		"  1      300               0               0               0            5000 page-faults\n"
		"  0      301               0               0               0            5000 page-faults\n"
		"  1      301               7             900             450            5000 page-faults\n",
		self->run.out);
}

TEST_F(st, per_cpu_rounds_print_deltas_scaled_by_ena_over_run)
{
	int32_t cpus[1] = { 3 }, pids[1] = { -1 };

	maps(&self->b, cpus, 1, pids, 1);
	pd_encode_stat_config(&self->b, &(struct pd_stat_config){ PD_AGGR_NONE, 100, 1 });
	stat(&self->b, ID_CLOCK, 3, 0, 100, 200, 100);
	pd_encode_stat_round(&self->b, &(struct pd_stat_round){ PD_STAT_ROUND_INTERVAL, 100 });
	stat(&self->b, ID_CLOCK, 3, 0, 400, 600, 300);
	pd_encode_stat_round(&self->b, &(struct pd_stat_round){ PD_STAT_ROUND_INTERVAL, 200 });
	ASSERT_EQ(0, script(_metadata, self)) TH_LOG("%s", self->run.err);
	/* 100 read in half the time: 200; then 300 more in 200 of 400: 600; never run: 0 */
	EXPECT_STREQ(HEAD
		"  3       -1             200             200             100             100 task-clock\n"
		"  3       -1               0               0               0             100 page-faults\n"
		"  3       -1             600             400             200             200 task-clock\n"
		"  3       -1               0               0               0             200 page-faults\n",
		self->run.out);
}

TEST_F(st, a_file_without_rounds_prints_nothing_and_succeeds)
{
	int32_t cpus[1] = { -1 }, pids[1] = { 42 };

	maps(&self->b, cpus, 1, pids, 1);
	stat(&self->b, ID_CLOCK, (uint32_t)-1, 0, 1, 1, 1);
	ASSERT_EQ(0, script(_metadata, self)) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("", self->run.out);
}

/* CPU_MAP as a mask of 8-byte words: u16 type 1, u16 nr, u16 size 8, 4 pad, the words */
TEST_F(st, mask_cpu_maps_give_their_set_bits)
{
	uint8_t body[2 + 2 + 2 + 4 + 8] = { 1, 0, 1, 0, 8, 0 };
	struct perf_event_header h = { PC_RECORD_CPU_MAP, 0, (uint16_t)(8 + sizeof(body) + 6) };
	static const uint8_t pad[6];
	int32_t pids[1] = { 7 };

	body[10] = 0x0a;	/* cpus 1 and 3 */
	pd_encode_thread_map(&self->b, &(struct pd_thread_list){ pids, 1 });
	pd_buf_put(&self->b, &h, sizeof(h));
	pd_buf_put(&self->b, body, sizeof(body));
	pd_buf_put(&self->b, pad, sizeof(pad));
	stat(&self->b, ID_CLOCK, 3, 0, 5, 5, 5);
	pd_encode_stat_round(&self->b, &(struct pd_stat_round){ PD_STAT_ROUND_FINAL, 9 });
	ASSERT_EQ(0, script(_metadata, self)) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(HEAD
		"  1        7               0               0               0               9 task-clock\n"
		"  3        7               5               5               5               9 task-clock\n"
		"  1        7               0               0               0               9 page-faults\n"
		"  3        7               0               0               0               9 page-faults\n",
		self->run.out);
}

/* EVENT_UPDATE of type CPUS (3): the event's cpus as a list */
static void own_cpus(struct pd_buf *b, uint64_t id, uint16_t nr, const uint16_t *cpus)
{
	uint64_t head[2] = { 3, id };
	uint16_t list[2] = { 0, nr };
	struct perf_event_header h = { PC_RECORD_EVENT_UPDATE, 0, 0 };
	static const uint8_t pad[8];
	size_t body = sizeof(head) + sizeof(list) + 2u * nr;

	h.size = (uint16_t)(sizeof(h) + (body + 7) / 8 * 8);
	pd_buf_put(b, &h, sizeof(h));
	pd_buf_put(b, head, sizeof(head));
	pd_buf_put(b, list, sizeof(list));
	pd_buf_put(b, cpus, 2u * nr);
	pd_buf_put(b, pad, h.size - sizeof(h) - body);
}

TEST_F(st, an_events_own_cpus_are_where_its_counts_go)
{
	int32_t cpus[2] = { 0, 1 }, pids[1] = { -1 };
	uint16_t one[1] = { 1 };

	own_cpus(&self->b, ID_FAULTS, 1, one);
	maps(&self->b, cpus, 2, pids, 1);
	stat(&self->b, ID_FAULTS, 1, 0, 12, 34, 34);
	pd_encode_stat_round(&self->b, &(struct pd_stat_round){ PD_STAT_ROUND_FINAL, 9 });
	ASSERT_EQ(0, script(_metadata, self)) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(HEAD
		"  0       -1               0               0               0               9 task-clock\n"
		"  1       -1               0               0               0               9 task-clock\n"
		"  1       -1              12              34              34               9 page-faults\n",
		self->run.out);
}

/* perf 7.2 writes its PMU's cpus for software events counted per thread too */
TEST_F(st, per_thread_counts_stay_on_any_cpu_whatever_the_events_own_cpus)
{
	int32_t cpus[1] = { -1 }, pids[1] = { 77 };
	uint16_t two[2] = { 0, 1 };

	own_cpus(&self->b, ID_CLOCK, 2, two);
	maps(&self->b, cpus, 1, pids, 1);
	stat(&self->b, ID_CLOCK, (uint32_t)-1, 0, 5, 6, 6);
	pd_encode_stat_round(&self->b, &(struct pd_stat_round){ PD_STAT_ROUND_FINAL, 9 });
	ASSERT_EQ(0, script(_metadata, self)) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(HEAD
		" -1       77               5               6               6               9 task-clock\n"
		" -1       77               0               0               0               9 page-faults\n",
		self->run.out);
}

TEST_F(st, a_cpu_outside_the_map_is_refused_with_its_offset)
{
	int32_t cpus[2] = { 4, 5 }, pids[1] = { 7 };

	maps(&self->b, cpus, 2, pids, 1);
	stat(&self->b, ID_CLOCK, 9, 0, 5, 5, 5);
	ASSERT_EQ(2, script(_metadata, self));
	EXPECT_NE(NULL, strstr(self->run.err, ": offset 0x")) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "STAT record for a cpu not in the CPU_MAP: 9"));
}

TEST_F(st, a_thread_index_past_the_map_is_refused)
{
	int32_t cpus[1] = { 0 }, pids[1] = { 7 };

	maps(&self->b, cpus, 1, pids, 1);
	stat(&self->b, ID_CLOCK, 0, 1, 5, 5, 5);
	ASSERT_EQ(2, script(_metadata, self));
	EXPECT_NE(NULL, strstr(self->run.err, "STAT record for a thread index past the "
					      "THREAD_MAP: 1")) TH_LOG("%s", self->run.err);
}

TEST_F(st, a_stat_before_the_maps_is_refused)
{
	stat(&self->b, ID_CLOCK, 0, 0, 5, 5, 5);
	ASSERT_EQ(2, script(_metadata, self));
	EXPECT_NE(NULL, strstr(self->run.err, "STAT record before the file's THREAD_MAP and "
					      "CPU_MAP")) TH_LOG("%s", self->run.err);
}

TEST_F(st, a_stat_of_an_id_no_event_has_is_refused)
{
	int32_t cpus[1] = { 0 }, pids[1] = { 7 };

	maps(&self->b, cpus, 1, pids, 1);
	stat(&self->b, 999, 0, 0, 5, 5, 5);
	ASSERT_EQ(2, script(_metadata, self));
	EXPECT_NE(NULL, strstr(self->run.err, "STAT record for an id no event has: 999"))
		TH_LOG("%s", self->run.err);
}

TEST_F(st, a_cut_stat_record_is_refused_with_its_size)
{
	int32_t cpus[1] = { 0 }, pids[1] = { 7 };
	struct perf_event_header h = { PC_RECORD_STAT, 0, 40 };
	uint64_t body[4] = { ID_CLOCK, 0, 1, 1 };

	maps(&self->b, cpus, 1, pids, 1);
	pd_buf_put(&self->b, &h, sizeof(h));
	pd_buf_put(&self->b, body, sizeof(body));
	ASSERT_EQ(2, script(_metadata, self));
	EXPECT_NE(NULL, strstr(self->run.err, "STAT record of 40 bytes is too short for its "
					      "fields (48 bytes)")) TH_LOG("%s", self->run.err);
}

TEST_HARNESS_MAIN
