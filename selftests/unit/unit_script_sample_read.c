// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_SAMPLE_READ on synthesized files (no perf, no kernel): a sample's
 * period is what its counter counted since that counter's previous read,
 * and a group sample (leader sampling, {a,b}:S) is one sample per member,
 * as perf script and report show them (checked against perf 6.1 on its
 * own :S recordings in interop_script_sample_read).
 */
#include "kselftest_harness.h"
#include "reader_util.h"

#define ID_A 11
#define ID_B 12

FIXTURE(sr) {
	char *dir;
	char path[512];
	union pc_attr a, b;
	struct synth d;
	struct pc_run run;
};

FIXTURE_SETUP(sr)
{
	self->dir = pc_test_mkdtemp("unit-script-sample-read");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_plain_attr(&self->a, PERF_SAMPLE_ID | PERF_SAMPLE_READ);
	self->a.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	self->b = self->a;
	self->b.attr.config = PERF_COUNT_SW_TASK_CLOCK;
}

FIXTURE_TEARDOWN(sr)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	pc_test_rmdir(self->dir);
}

/* a group sample at time t (ms) reading a then b */
static void group_sample(FIXTURE_DATA(sr) *self, uint64_t t, uint64_t va, uint64_t vb)
{
	struct pd_sample v = rt_id(100, 100, RT_SEC + t * 1000000);
	uint64_t raw[4] = { va, ID_A, vb, ID_B };

	v.id = ID_A;
	v.ip = RT_KIP(1);
	v.read.nr = 2;
	v.read.raw = raw;
	synth_sample(&self->d, &self->a.attr, &v);
}

static void script(struct __test_metadata *_metadata, FIXTURE_DATA(sr) *self, const char *cmd,
		   const char *o1, const char *o2)
{
	const struct perf_event_attr *attrs[2] = { &self->a.attr, &self->b.attr };
	const uint64_t ids[2] = { ID_A, ID_B };
	const char *names[2] = { "cpu-clock", "task-clock" };

	ASSERT_EQ(0, synth_write_file(self->path, attrs, ids, names, 2, &self->d));
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, cmd, "--compat", "6.1", "-i", self->path, o1, o2));
}

TEST_F(sr, group_sample_shows_one_line_per_member_with_its_delta)
{
	group_sample(self, 1, 1000, 1500);
	group_sample(self, 2, 3000, 2000);
	script(_metadata, self, "script", "-F", "event,period");
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("      1000  cpu-clock: \n      1500 task-clock: \n"
		     "      2000  cpu-clock: \n       500 task-clock: \n", self->run.out);
}

TEST_F(sr, member_that_counted_nothing_gives_no_sample)
{
	group_sample(self, 1, 1000, 1500);
	group_sample(self, 2, 3000, 1500);
	script(_metadata, self, "script", "-F", "event,period");
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("      1000  cpu-clock: \n      1500 task-clock: \n"
		     "      2000  cpu-clock: \n", self->run.out);
}

TEST_F(sr, value_of_an_unknown_id_gives_no_sample)
{
	struct pd_sample v = rt_id(100, 100, RT_SEC);
	uint64_t raw[4] = { 700, ID_A, 900, 99 };

	v.id = ID_A;
	v.ip = RT_KIP(1);
	v.read.nr = 2;
	v.read.raw = raw;
	synth_sample(&self->d, &self->a.attr, &v);
	script(_metadata, self, "script", "-F", "event,period");
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("       700  cpu-clock: \n", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.err, "1 read values of PERF_SAMPLE_READ samples carry "
					      "an id no event has"));
}

/* one counter, no group: the period is the delta of its value */
TEST_F(sr, single_value_period_is_the_delta)
{
	self->a.attr.read_format = PERF_FORMAT_ID;
	for (int i = 1; i <= 3; i++) {
		struct pd_sample v = rt_id(100, 100, RT_SEC + (uint64_t)i);

		v.id = ID_A;
		v.ip = RT_KIP(1);
		v.read.first.value = (uint64_t)(i * i) * 100;
		v.read.first.id = ID_A;
		synth_sample(&self->d, &self->a.attr, &v);
	}
	script(_metadata, self, "script", "-F", "period");
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("       100 \n       300 \n       500 \n", self->run.out);
}

/* report charges each member's period to its own event's table */
TEST_F(sr, report_counts_each_member_in_its_event)
{
	group_sample(self, 1, 1000, 1500);
	group_sample(self, 2, 3000, 2000);
	script(_metadata, self, "report", "--stdio", "--no-children");
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.out, "# Event count (approx.): 3000\n"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "# Event count (approx.): 2000\n"));
}

TEST_HARNESS_MAIN
