// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script -D on synthesized header records (no perf, no
 * kernel): ID_INDEX, THREAD_MAP, CPU_MAP and EVENT_UPDATE in perf 6.1's
 * words (checked against perf 6.1 on its own files in
 * interop_script_dump), and counts that lie about the record's size
 * refused with the record's offset, exit 2.
 */
#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(dr) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
};

FIXTURE_SETUP(dr)
{
	self->dir = pc_test_mkdtemp("unit-dump-records");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_plain_attr(&self->a, 0);
}

FIXTURE_TEARDOWN(dr)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	if (!getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(self->dir);
}

static void put(struct synth *d, uint32_t type, const void *body, size_t len)
{
	struct perf_event_header h = { type, 0, (uint16_t)(sizeof(h) + len) };

	synth_put(d, &h, sizeof(h));
	synth_put(d, body, len);
}

static void dump(struct __test_metadata *_metadata, FIXTURE_DATA(dr) *self)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-D", "-i", self->path, NULL, NULL, NULL));
}

TEST_F(dr, id_index_lists_each_entry)
{
	uint64_t idx[1 + 8] = { 2, 7, 0, 0, 100, 8, 0, 1, (uint64_t)-1 };

	put(&self->d, PC_RECORD_ID_INDEX, idx, sizeof(idx));
	dump(_metadata, self);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.out, "PERF_RECORD_ID_INDEX nr: 2\n"
				    " ... id: 7  idx: 0  cpu: 0  tid: 100\n"
				    " ... id: 8  idx: 0  cpu: 1  tid: -1\n")) TH_LOG("%s", self->run.out);
}

TEST_F(dr, id_index_count_past_the_record_is_refused)
{
	uint64_t idx[1 + 4] = { 3, 7, 0, 0, 100 };

	put(&self->d, PC_RECORD_ID_INDEX, idx, sizeof(idx));
	dump(_metadata, self);
	EXPECT_EQ(2, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, ": ID_INDEX record of 48 bytes is too short for its "
					      "fields (112 bytes)")) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, ": offset 0x"));
}

TEST_F(dr, thread_map_and_cpu_map_show_their_lists)
{
	uint64_t tm[1 + 6] = { 2, 100, 0, 0, 101, 0, 0 };
	uint16_t cm[8] = { 0, 4, 0, 1, 2, 5 };

	put(&self->d, PC_RECORD_THREAD_MAP, tm, sizeof(tm));
	put(&self->d, PC_RECORD_CPU_MAP, cm, sizeof(cm));
	dump(_metadata, self);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.out, "PERF_RECORD_THREAD_MAP nr: 2 threads: 100, 101\n"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "PERF_RECORD_CPU_MAP: 0-2,5\n"));
}

TEST_F(dr, event_update_shows_unit_scale_and_name)
{
	uint64_t unit[4] = { 0, 7 };
	uint64_t scale[3] = { 1, 7 };
	uint64_t name[4] = { 2, 7 };
	double s = 0.5;

	memcpy(&unit[2], "msec", 5);
	memcpy(&scale[2], &s, 8);
	memcpy(&name[2], "ev:u", 5);
	put(&self->d, PC_RECORD_EVENT_UPDATE, unit, sizeof(unit));
	put(&self->d, PC_RECORD_EVENT_UPDATE, scale, sizeof(scale));
	put(&self->d, PC_RECORD_EVENT_UPDATE, name, sizeof(name));
	dump(_metadata, self);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.out, "\n... id:    7\n... unit:  msec\n"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "\n... id:    7\n... scale: 0.500000\n"));
	EXPECT_NE(NULL, strstr(self->run.out, "\n... id:    7\n... name:  ev:u\n"));
}

/* a sample: thread and object lines, then its script line */
TEST_F(dr, sample_shows_thread_dso_and_script_line)
{
	struct pd_sample v = rt_id(100, 100, RT_SEC);

	v.ip = 0x400123;
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &v);
	synth_sample(&self->d, &self->a.attr, &v);
	dump(_metadata, self);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.out, ": 100/100: 0x400123 period: 250000 addr: 0\n"
				    " ... thread: alpha:100\n"
				    " ...... dso: <not found>\n"
				    "           alpha     100     1.000000:     250000 cpu-clock:  "))
		TH_LOG("%s", self->run.out);
}

TEST_HARNESS_MAIN
