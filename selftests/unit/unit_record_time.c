// SPDX-License-Identifier: GPL-2.0
/*
 * What the time-order queue keeps of a record before it is parsed: its
 * event and time, read in place by pd_record_time (the same as the parse
 * finds, or nothing where the parse would refuse the record), and the
 * copies of records that leave the file's mapping (reader/copies.c), which
 * must keep their bytes whatever else comes and goes.
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "reader/copies.h"
#include "reader_util.h"

FIXTURE(rtime) {
	char *dir;
	char path[4096];
	union pc_attr a;
	struct synth d;
	struct pd_reader r;
	bool opened;
	struct pc_error err;
};

FIXTURE_SETUP(rtime)
{
	self->dir = pc_test_mkdtemp("record-time");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/t.data", self->dir);
	rt_attr(&self->a, PERF_ATTR_SIZE_VER8);
	memset(&self->d, 0, sizeof(self->d));
	self->opened = false;
}

FIXTURE_TEARDOWN(rtime)
{
	if (self->opened)
		pd_reader_close(&self->r);
	synth_free(&self->d);
	pc_test_rmdir(self->dir);
}

/* Writes the records, opens the file and reads the first record of type. */
static void first_of(struct __test_metadata *_metadata, FIXTURE_DATA(rtime) *self,
		     uint32_t type, struct pd_record *rec)
{
	uint64_t pos = 0;
	int ret;

	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, pd_reader_open(&self->r, self->path, &self->err)) TH_LOG("%s", self->err.msg);
	self->opened = true;
	while ((ret = pd_reader_next(&self->r, &pos, rec, &self->err)) == 1)
		if (rec->header.type == type)
			return;
	ASSERT_EQ(1, ret) TH_LOG("no record of type %u: %s", type, self->err.msg);
}

TEST_F(rtime, sample_time_and_event_are_the_parses)
{
	const struct pd_evsel *evsel = NULL;
	struct pd_record rec;
	struct pd_sample s;
	uint64_t time = 0;

	rt_sample(&self->d, &self->a.attr, 10, 11, 5 * RT_SEC + 123, RT_KIP(1), 0);
	first_of(_metadata, self, PERF_RECORD_SAMPLE, &rec);
	ASSERT_TRUE(pd_record_time(&self->r, &rec, &evsel, &time));
	ASSERT_EQ(0, pd_parse_sample(&self->r, &rec, &s, &self->err)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(s.time, time);
	EXPECT_EQ(5 * RT_SEC + 123, time);
	EXPECT_EQ(s.evsel, evsel);
}

TEST_F(rtime, comm_time_comes_from_its_sample_id_trailer)
{
	struct pd_sample id = rt_id(10, 11, 7 * RT_SEC + 9);
	const struct pd_evsel *evsel = NULL;
	struct pd_record rec;
	struct pd_sample s;
	uint64_t time = 0;

	synth_comm(&self->d, &self->a.attr, 10, 11, "comm", &id);
	first_of(_metadata, self, PERF_RECORD_COMM, &rec);
	ASSERT_TRUE(pd_record_time(&self->r, &rec, &evsel, &time));
	ASSERT_EQ(0, pd_parse_sample_id(&self->r, &rec, &s, &self->err)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(7 * RT_SEC + 9, time);
	EXPECT_EQ(s.time, time);
	EXPECT_EQ(s.evsel, evsel);
}

TEST_F(rtime, no_time_without_sample_id_all)
{
	struct pd_sample id = rt_id(10, 11, 7 * RT_SEC);
	const struct pd_evsel *evsel = NULL;
	struct pd_record rec;
	uint64_t time = 0;

	self->a.attr.sample_id_all = 0;
	synth_comm(&self->d, &self->a.attr, 10, 11, "comm", &id);
	first_of(_metadata, self, PERF_RECORD_COMM, &rec);
	EXPECT_FALSE(pd_record_time(&self->r, &rec, &evsel, &time));
}

TEST_F(rtime, sample_too_short_for_its_time_has_none_and_the_parse_names_it)
{
	/* IP only, where IP, TID and TIME are due: the time's place is past the end */
	uint64_t words[2] = { 0, 0x401000 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(words) };
	const struct pd_evsel *evsel = NULL;
	struct pd_record good, bad;
	struct pd_sample s;
	uint64_t time = 0;

	rt_sample(&self->d, &self->a.attr, 10, 11, RT_SEC, RT_KIP(1), 0);
	first_of(_metadata, self, PERF_RECORD_SAMPLE, &good);
	memcpy(&words[0], &h, sizeof(h));
	bad = (struct pd_record){ .offset = good.offset, .header = h, .data = words };
	EXPECT_FALSE(pd_record_time(&self->r, &bad, &evsel, &time));
	EXPECT_NE(0, pd_parse_sample(&self->r, &bad, &s, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "offset 0x")) TH_LOG("%s", self->err.msg);
}

/* A pattern of its own for each copy: a byte of (seq * 7 + i). */
static void fill(uint8_t *p, size_t n, unsigned seq)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seq * 7 + i);
}

static bool intact(const uint8_t *p, size_t n, unsigned seq)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(seq * 7 + i))
			return false;
	return true;
}

TEST(copies_keep_their_bytes_while_others_come_and_go)
{
	enum { N = 4096 };
	static uint8_t *copy[N];
	static size_t size[N];
	unsigned seq[N], next = 0;

	/* sizes from a header's 8 bytes to the largest record, in and out of order */
	for (int i = 0; i < N; i++) {
		size[i] = i % 97 == 0 ? 65528 : 8 + (size_t)(i * 37 % 600) * 8;
		copy[i] = rd_copy_alloc(size[i]);
		ASSERT_NE(NULL, copy[i]);
		ASSERT_EQ(0, (uintptr_t)copy[i] % 8);
		seq[i] = next++;
		fill(copy[i], size[i], seq[i]);
	}
	for (int round = 0; round < 8; round++) {
		/* every third goes, then comes back with new bytes */
		for (int i = round % 3; i < N; i += 3) {
			ASSERT_TRUE(intact(copy[i], size[i], seq[i])) TH_LOG("copy %d, round %d", i, round);
			rd_copy_free(copy[i]);
			copy[i] = rd_copy_alloc(size[i]);
			ASSERT_NE(NULL, copy[i]);
			seq[i] = next++;
			fill(copy[i], size[i], seq[i]);
		}
	}
	for (int i = 0; i < N; i++) {
		ASSERT_TRUE(intact(copy[i], size[i], seq[i])) TH_LOG("copy %d", i);
		rd_copy_free(copy[i]);
	}
	rd_copy_free(NULL);
}

TEST_HARNESS_MAIN
