// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script -D: every record of the file as perf script -D shows it
 * (time order), each with its offset, size, type name and parsed fields;
 * --header adds the attrs and the header features.
 */
#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(dump) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
};

FIXTURE_SETUP(dump)
{
	self->dir = pc_test_mkdtemp("script-dump");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_attr(&self->a, PERF_ATTR_SIZE_VER9);
}

FIXTURE_TEARDOWN(dump)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	pc_test_rmdir(self->dir);
}

/* A LOST record: id, lost, then the sample_id trailer */
static void lost_record(struct synth *d, const struct perf_event_attr *a, uint64_t lost)
{
	struct perf_event_header h = { PERF_RECORD_LOST, 0, 0 };
	struct pd_sample id = rt_id(100, 100, 5);
	size_t at = d->len;
	uint64_t v[2] = { 0, lost };
	uint16_t size;

	synth_put(d, &h, sizeof(h));
	synth_put(d, v, sizeof(v));
	synth_sample_id(d, a, &id);
	size = (uint16_t)(d->len - at);
	memcpy(d->buf + at + 6, &size, 2);
}

TEST_F(dump, every_record_type_is_named_with_its_offset_and_fields)
{
	struct pd_sample id = rt_id(100, 100, 1);
	static const char *const names[] = {
		"PERF_RECORD_COMM: alpha:100/100", "PERF_RECORD_MMAP2 100/100: [0x400000(0x1000) @ 0 ",
		"PERF_RECORD_FORK(101:101):(100:100)", "PERF_RECORD_EXIT(101:101):(100:100)",
		"PERF_RECORD_SAMPLE(IP, 0x1): 100/100: 0xffff888000001010 period: 250000",
		"PERF_RECORD_CALLCHAIN_DEFERRED(IP, 0x2): 100/100: 0xc1",
		"PERF_RECORD_FINISHED_ROUND", "PERF_RECORD_LOST: id:0: lost:7",
	};
	char at[600];

	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &id);
	synth_mmap2(&self->d, &self->a.attr, 100, 100, 0x400000, 0x1000, 0, "/bin/true", &id);
	synth_fork(&self->d, &self->a.attr, PERF_RECORD_FORK, 101, 100, 101, 100, 2, &id);
	synth_fork(&self->d, &self->a.attr, PERF_RECORD_EXIT, 101, 100, 101, 100, 3, &id);
	rt_sample(&self->d, &self->a.attr, 100, 100, 4, RT_KIP(1), 0xc1);
	rt_deferred(&self->d, &self->a.attr, 100, 100, 5, 0xc1, 0x401000, 2);
	synth_finished_round(&self->d);
	lost_record(&self->d, &self->a.attr, 7);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-D", "-i", self->path, NULL, NULL, NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *name = names[i];

		EXPECT_NE(NULL, strstr(self->run.out, name)) TH_LOG("missing: %s", name);
	}
	EXPECT_EQ(8, pc_count_substr(self->run.out, ": event: "));
	EXPECT_EQ(8, pc_count_substr(self->run.out, ". ... raw event: size "));
	/* the first record sits where the data section starts, right after the attrs */
	snprintf(at, sizeof(at), "@%s [0x", self->path);
	EXPECT_NE(NULL, strstr(self->run.out, at));
	/* the sample's chain and its deferred marker (named, as perf 7.2), and the deferred ips */
	EXPECT_NE(NULL, strstr(self->run.out, ".....  2: fffffffffffffd80 (PERF_CONTEXT_USER_DEFERRED)\n"
					      ".....  3: 00000000000000c1\n...... (deferred)\n"))
		TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, ".....  1: 0000000000401000\n.....  2: 0000000000401100\n"));
}

TEST_F(dump, header_shows_attrs_and_features)
{
	rt_sample(&self->d, &self->a.attr, 100, 100, 4, RT_KIP(1), 0);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-D", "--header", "-i", self->path, NULL,
				  NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.out, "cpu-clock"));
	EXPECT_NE(NULL, strstr(self->run.out, "perf_event_attr:"));
	EXPECT_NE(NULL, strstr(self->run.out, "HOSTNAME"));
	EXPECT_NE(NULL, strstr(self->run.out, "OSRELEASE"));
	EXPECT_NE(NULL, strstr(self->run.out, "defer_callchain"));
}

/* as perf script -D: records are delivered in time order (within rounds), as samples are */
TEST_F(dump, records_are_shown_in_time_order_as_perf)
{
	rt_sample(&self->d, &self->a.attr, 100, 100, 2 * RT_SEC, RT_KIP(2), 0);
	rt_sample(&self->d, &self->a.attr, 100, 100, 1 * RT_SEC, RT_KIP(1), 0);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-D", "-i", self->path, NULL, NULL, NULL));
	ASSERT_NE(NULL, strstr(self->run.out, "0xffff888000001010"));
	EXPECT_GT(strstr(self->run.out, "0xffff888000001020"),
		  strstr(self->run.out, "0xffff888000001010"));
}

TEST_HARNESS_MAIN
