// SPDX-License-Identifier: GPL-2.0
/*
 * The record codec round-trips: what lib/perfdata's encoders write, its
 * decoders (and the file reader) read back field for field, sample_id
 * trailer included.
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "perfdata/codec.h"
#include "reader_util.h"

static void attr_of(union pc_attr *a, uint64_t sample_type)
{
	memset(a, 0, sizeof(*a));
	a->attr.type = PERF_TYPE_SOFTWARE;
	a->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	a->attr.size = PERF_ATTR_SIZE_VER5;
	a->attr.sample_period = 1000;
	a->attr.sample_type = sample_type;
	a->attr.sample_id_all = 1;
}

FIXTURE(codec) {
	char *dir;
	char path[4096];
	union pc_attr a;
	struct pd_buf b;
	struct pd_reader r;
	struct pd_record rec;
	uint64_t pos;
	bool opened;
	struct pc_error err;
};

FIXTURE_SETUP(codec)
{
	self->dir = pc_test_mkdtemp("codec");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/c.data", self->dir);
	attr_of(&self->a, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			  PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD);
	memset(&self->b, 0, sizeof(self->b));
	self->opened = false;
	self->pos = 0;
}

FIXTURE_TEARDOWN(codec)
{
	if (self->opened)
		pd_reader_close(&self->r);
	pd_buf_free(&self->b);
	pc_test_rmdir(self->dir);
}

/* Writes the encoded records as a file and reads back the first one. */
static int first_record(struct __test_metadata *_metadata, FIXTURE_DATA(codec) *self)
{
	const struct perf_event_attr *attrs[1] = { &self->a.attr };
	uint64_t id = 0;
	struct synth d = { 0 };

	synth_put(&d, self->b.data, self->b.len);
	EXPECT_EQ(0, synth_write_file(self->path, attrs, &id, NULL, 1, &d));
	synth_free(&d);
	EXPECT_EQ(0, pd_reader_open(&self->r, self->path, &self->err)) TH_LOG("%s", self->err.msg);
	self->opened = true;
	return pd_reader_next(&self->r, &self->pos, &self->rec, &self->err);
}

static struct pd_sample trailer(void)
{
	struct pd_sample id = rt_id(100, 101, 5 * RT_SEC);

	id.cpu = 3;
	id.id = 0;
	return id;
}

static void same_trailer(struct __test_metadata *_metadata, const struct pd_sample *got)
{
	EXPECT_EQ(100, got->pid);
	EXPECT_EQ(101, got->tid);
	EXPECT_EQ(5 * RT_SEC, got->time);
	EXPECT_EQ(3, got->cpu);
}

TEST_F(codec, comm_round_trips_with_its_sample_id)
{
	struct pd_comm c = { 100, 101, "a-long-command" }, out;
	struct pd_sample id = trailer(), got;

	ASSERT_EQ(0, pd_encode_comm(&self->b, &self->a.attr, PERF_RECORD_MISC_COMM_EXEC, &c, &id));
	EXPECT_EQ(0, self->b.len % 8);
	ASSERT_EQ(1, first_record(_metadata, self));
	EXPECT_EQ(PERF_RECORD_COMM, self->rec.header.type);
	EXPECT_EQ(PERF_RECORD_MISC_COMM_EXEC, self->rec.header.misc);
	ASSERT_EQ(0, pd_parse_comm(&self->r, &self->rec, &out, &got, &self->err)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(100, out.pid);
	EXPECT_EQ(101, out.tid);
	EXPECT_STREQ("a-long-command", out.comm);
	same_trailer(_metadata, &got);
}

TEST_F(codec, fork_and_exit_round_trip)
{
	struct pd_task t = { 200, 100, 201, 101, 7 * RT_SEC }, out;
	struct pd_sample id = trailer(), got;

	ASSERT_EQ(0, pd_encode_task(&self->b, &self->a.attr, PERF_RECORD_EXIT, 0, &t, &id));
	ASSERT_EQ(1, first_record(_metadata, self));
	EXPECT_EQ(PERF_RECORD_EXIT, self->rec.header.type);
	ASSERT_EQ(0, pd_parse_task(&self->r, &self->rec, &out, &got, &self->err));
	EXPECT_EQ(0, memcmp(&t, &out, sizeof(t)));
	same_trailer(_metadata, &got);
}

TEST_F(codec, mmap2_with_inode_round_trips)
{
	struct pd_mmap m = { .pid = 100, .tid = 101, .start = 0x400000, .len = 0x2000,
			     .pgoff = 0x1000, .maj = 8, .min = 1, .ino = 1234, .ino_generation = 9,
			     .prot = 5, .flags = 2, .filename = "/usr/bin/true" }, out;
	struct pd_sample id = trailer(), got;

	ASSERT_EQ(0, pd_encode_mmap(&self->b, &self->a.attr, PERF_RECORD_MMAP2,
				    PERF_RECORD_MISC_USER, &m, &id));
	ASSERT_EQ(1, first_record(_metadata, self));
	ASSERT_EQ(0, pd_parse_mmap(&self->r, &self->rec, &out, &got, &self->err));
	EXPECT_EQ(m.start, out.start);
	EXPECT_EQ(m.len, out.len);
	EXPECT_EQ(m.pgoff, out.pgoff);
	EXPECT_EQ(8, out.maj);
	EXPECT_EQ(1, out.min);
	EXPECT_EQ(1234, out.ino);
	EXPECT_EQ(9, out.ino_generation);
	EXPECT_EQ(5, out.prot);
	EXPECT_EQ(2, out.flags);
	EXPECT_STREQ("/usr/bin/true", out.filename);
	same_trailer(_metadata, &got);
}

TEST_F(codec, mmap2_with_build_id_round_trips)
{
	struct pd_mmap m = { .pid = 1, .tid = 1, .start = 0x1000, .len = 0x1000,
			     .build_id_size = 20, .filename = "/lib/x.so" }, out;

	for (int i = 0; i < 20; i++)
		m.build_id[i] = (uint8_t)(0xa0 + i);
	ASSERT_EQ(0, pd_encode_mmap(&self->b, &self->a.attr, PERF_RECORD_MMAP2,
				    PERF_RECORD_MISC_USER, &m, NULL));
	ASSERT_EQ(1, first_record(_metadata, self));
	EXPECT_TRUE(self->rec.header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
	ASSERT_EQ(0, pd_parse_mmap(&self->r, &self->rec, &out, NULL, &self->err));
	EXPECT_EQ(20, out.build_id_size);
	EXPECT_EQ(0, memcmp(m.build_id, out.build_id, 20));
	EXPECT_STREQ("/lib/x.so", out.filename);
}

TEST_F(codec, kernel_mmap_round_trips)
{
	struct pd_mmap m = { .pid = (uint32_t)-1, .start = 0xffffffff81000000ULL,
			     .len = 0x1000000, .pgoff = 0xffffffff81000000ULL,
			     .filename = "[kernel.kallsyms]_text" }, out;

	ASSERT_EQ(0, pd_encode_mmap(&self->b, &self->a.attr, PERF_RECORD_MMAP,
				    PERF_RECORD_MISC_KERNEL, &m, NULL));
	ASSERT_EQ(1, first_record(_metadata, self));
	EXPECT_EQ(PERF_RECORD_MMAP, self->rec.header.type);
	ASSERT_EQ(0, pd_parse_mmap(&self->r, &self->rec, &out, NULL, &self->err));
	EXPECT_EQ((uint32_t)-1, out.pid);
	EXPECT_EQ(m.start, out.start);
	EXPECT_STREQ("[kernel.kallsyms]_text", out.filename);
}

TEST_F(codec, lost_round_trips)
{
	struct pd_lost l = { 0, 4242 }, out;
	struct pd_sample id = trailer(), got;

	ASSERT_EQ(0, pd_encode_lost(&self->b, &self->a.attr, &l, &id));
	ASSERT_EQ(1, first_record(_metadata, self));
	ASSERT_EQ(0, pd_parse_lost(&self->r, &self->rec, &out, &got, &self->err));
	EXPECT_EQ(4242, out.lost);
	same_trailer(_metadata, &got);
}

/* NAMESPACES as the ABI lays it out: pid, tid, nr, then nr (dev, inode) pairs */
TEST_F(codec, namespaces_record_has_the_abi_layout_and_its_sample_id)
{
	uint64_t links[4] = { 3, 4026531840ULL, 3, 4026531841ULL }, nr, got_links[4];
	struct pd_namespaces n = { 100, 101, 2, links };
	struct pd_sample id = trailer(), got;
	const uint8_t *body;
	uint32_t pt[2];

	ASSERT_EQ(0, pd_encode_namespaces(&self->b, &self->a.attr, &n, &id));
	ASSERT_EQ(1, first_record(_metadata, self));
	EXPECT_EQ(PERF_RECORD_NAMESPACES, self->rec.header.type);
	ASSERT_EQ(8 + 16 + sizeof(links) + self->r.evsels[0].sample_id_size,
		  self->rec.header.size);
	body = (const uint8_t *)self->rec.data + 8;
	memcpy(pt, body, 8);
	memcpy(&nr, body + 8, 8);
	memcpy(got_links, body + 16, sizeof(got_links));
	EXPECT_EQ(100, pt[0]);
	EXPECT_EQ(101, pt[1]);
	EXPECT_EQ(2, nr);
	EXPECT_EQ(0, memcmp(links, got_links, sizeof(links)));
	ASSERT_EQ(0, pd_parse_sample_id(&self->r, &self->rec, &got, &self->err)) TH_LOG("%s", self->err.msg);
	same_trailer(_metadata, &got);
}

/* CGROUP: the id, then the path NUL-terminated and padded to 8 bytes */
TEST_F(codec, cgroup_record_has_the_abi_layout_and_its_sample_id)
{
	struct pd_cgroup c = { 0x1234, "/system.slice/x.service" };
	struct pd_sample id = trailer(), got;
	const uint8_t *body;
	uint64_t cgid;

	ASSERT_EQ(0, pd_encode_cgroup(&self->b, &self->a.attr, &c, &id));
	ASSERT_EQ(1, first_record(_metadata, self));
	EXPECT_EQ(PC_RECORD_CGROUP, self->rec.header.type);
	/* 23 characters and the NUL: 24 bytes, already a multiple of 8 */
	ASSERT_EQ(8 + 8 + 24 + self->r.evsels[0].sample_id_size, self->rec.header.size);
	body = (const uint8_t *)self->rec.data + 8;
	memcpy(&cgid, body, 8);
	EXPECT_EQ(0x1234, cgid);
	EXPECT_STREQ("/system.slice/x.service", (const char *)body + 8);
	ASSERT_EQ(0, pd_parse_sample_id(&self->r, &self->rec, &got, &self->err)) TH_LOG("%s", self->err.msg);
	same_trailer(_metadata, &got);
}

TEST_F(codec, deferred_callchain_round_trips)
{
	uint64_t ips[3] = { PC_CONTEXT_USER, 0x401000, 0x402000 };
	struct pd_deferred d = { 77, 3, ips }, out;
	struct pd_sample id = trailer(), got;

	ASSERT_EQ(0, pd_encode_deferred(&self->b, &self->a.attr, &d, &id));
	ASSERT_EQ(1, first_record(_metadata, self));
	ASSERT_EQ(0, pd_parse_deferred(&self->r, &self->rec, &out, &got, &self->err));
	EXPECT_EQ(77, out.cookie);
	ASSERT_EQ(3, out.nr);
	EXPECT_EQ(0, memcmp(ips, out.ips, sizeof(ips)));
	same_trailer(_metadata, &got);
}

TEST_F(codec, sample_round_trips_every_fixed_field_and_the_chain)
{
	uint64_t chain[3] = { PC_CONTEXT_USER, 0x401000, 0x402000 };
	struct pd_sample v = trailer(), got;
	uint32_t raw = 0xdeadbeef;

	attr_of(&self->a, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			  PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
			  PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW);
	v.ip = 0x401000;
	v.addr = 0x7000;
	v.period = 999;
	v.chain.ips = chain;
	v.chain.nr = 3;
	v.raw.data = &raw;
	v.raw.size = 4;
	ASSERT_EQ(0, pd_encode_sample(&self->b, &self->a.attr, PERF_RECORD_MISC_USER, &v));
	ASSERT_EQ(1, first_record(_metadata, self));
	ASSERT_EQ(0, pd_parse_sample(&self->r, &self->rec, &got, &self->err)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(v.ip, got.ip);
	EXPECT_EQ(v.addr, got.addr);
	EXPECT_EQ(v.period, got.period);
	same_trailer(_metadata, &got);
	ASSERT_EQ(3, got.chain.nr);
	EXPECT_EQ(0, memcmp(chain, got.chain.ips, sizeof(chain)));
	ASSERT_EQ(4, got.raw.size);
	EXPECT_EQ(0, memcmp(&raw, got.raw.data, 4));
}

TEST_F(codec, pipe_attr_record_round_trips)
{
	uint64_t ids[2] = { 11, 12 };
	struct pd_sample v = trailer(), got;
	FILE *f;

	self->a.attr.sample_type |= PERF_SAMPLE_ID;
	ASSERT_EQ(0, pd_encode_pipe_header(&self->b));
	ASSERT_EQ(0, pd_encode_attr(&self->b, &self->a.attr, ids, 2));
	v.id = 12;
	ASSERT_EQ(0, pd_encode_sample(&self->b, &self->a.attr, PERF_RECORD_MISC_USER, &v));
	ASSERT_EQ(0, pd_encode_finished_round(&self->b));
	f = fopen(self->path, "wb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(self->b.len, fwrite(self->b.data, 1, self->b.len, f));
	fclose(f);
	ASSERT_EQ(0, pd_reader_open(&self->r, self->path, &self->err));
	self->opened = true;
	ASSERT_EQ(1, pd_reader_next(&self->r, &self->pos, &self->rec, &self->err));
	EXPECT_EQ(PC_RECORD_HEADER_ATTR, self->rec.header.type);
	ASSERT_EQ(1, self->r.nr_evsels);
	EXPECT_EQ(0, memcmp(&self->a.attr, &self->r.evsels[0].attr, PERF_ATTR_SIZE_VER5));
	ASSERT_EQ(2, self->r.evsels[0].nr_ids);
	EXPECT_EQ(12, self->r.evsels[0].ids[1]);
	ASSERT_EQ(1, pd_reader_next(&self->r, &self->pos, &self->rec, &self->err));
	ASSERT_EQ(0, pd_parse_sample(&self->r, &self->rec, &got, &self->err));
	EXPECT_EQ(12, got.id);
	ASSERT_EQ(1, pd_reader_next(&self->r, &self->pos, &self->rec, &self->err));
	EXPECT_EQ(PC_RECORD_FINISHED_ROUND, self->rec.header.type);
	EXPECT_EQ(8, self->rec.header.size);
}

TEST(evsel_layout_places_the_fixed_fields_of_a_sample_and_its_trailer)
{
	struct pd_evsel e;

	memset(&e, 0, sizeof(e));
	e.attr.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				  PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	e.attr.attr.sample_id_all = 1;
	pd_evsel_init_layout(&e);
	/* SAMPLE: IP TID TIME ID CPU PERIOD */
	EXPECT_EQ(0, e.layout.sample.ip);
	EXPECT_EQ(1, e.layout.sample.tid);
	EXPECT_EQ(2, e.layout.sample.time);
	EXPECT_EQ(3, e.layout.sample.id);
	EXPECT_EQ(4, e.layout.sample.cpu);
	EXPECT_EQ(5, e.layout.sample.period);
	EXPECT_EQ(-1, e.layout.sample.addr);
	/* trailer: TID TIME ID CPU */
	EXPECT_EQ(0, e.layout.trailer.tid);
	EXPECT_EQ(1, e.layout.trailer.time);
	EXPECT_EQ(2, e.layout.trailer.id);
	EXPECT_EQ(3, e.layout.trailer.cpu);
	EXPECT_EQ(4, e.layout.trailer_words);
	EXPECT_EQ(32, e.sample_id_size);
	EXPECT_EQ(3, e.id_pos);
	EXPECT_EQ(2, e.is_pos);	/* from the end: ID, CPU */
}

TEST(evsel_layout_puts_identifier_first_in_a_sample_and_last_in_a_trailer)
{
	struct pd_evsel e;

	memset(&e, 0, sizeof(e));
	e.attr.attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				  PERF_SAMPLE_TIME | PERF_SAMPLE_ID;
	pd_evsel_init_layout(&e);
	EXPECT_EQ(0, e.layout.sample.id);
	EXPECT_EQ(1, e.layout.sample.ip);
	EXPECT_EQ(0, e.id_pos);
	EXPECT_EQ(1, e.is_pos);
	/* without sample_id_all no trailer at all */
	EXPECT_EQ(0, e.layout.trailer_words);
	EXPECT_EQ(-1, e.layout.trailer.time);
	EXPECT_EQ(0, e.sample_id_size);
}

TEST_HARNESS_MAIN
