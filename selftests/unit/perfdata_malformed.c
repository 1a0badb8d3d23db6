// SPDX-License-Identifier: GPL-2.0
/*
 * Malformed perf.data: each defect gives "FILE: offset 0xOFF: what is
 * wrong" and an error return, never a crash or an out-of-bounds read (run
 * these under `make SAN=1 check` to have ASan and UBSan watch).
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/synth.h"
#include "lib/testutil.h"

FIXTURE(bad) {
	char *dir;
	char good[512];
	char path[512];
	uint8_t *buf;
	size_t len;
	uint64_t data_offset;
	uint64_t sample_offset;		/* file offset of the first SAMPLE */
};

static void attr_init(union pc_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->attr.type = PERF_TYPE_SOFTWARE;
	a->attr.size = PERF_ATTR_SIZE_VER7;
	a->attr.sample_period = 1000;
	a->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      PERF_SAMPLE_CALLCHAIN;
	a->attr.sample_id_all = 1;
}

FIXTURE_SETUP(bad)
{
	union pc_attr a;
	const struct perf_event_attr *attrs[1] = { &a.attr };
	uint64_t chain[3] = { PC_CONTEXT_USER, 0x401000, 0x402000 };
	struct pd_sample v = { 0 };
	struct synth data = { 0 };
	struct pd_file_header h;
	FILE *f;

	self->dir = pc_test_mkdtemp("malformed");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->good, sizeof(self->good), "%s/good.data", self->dir);
	snprintf(self->path, sizeof(self->path), "%s/bad.data", self->dir);
	attr_init(&a);
	v.pid = v.tid = 99;
	synth_comm(&data, &a.attr, 99, 99, "victim", &v);
	self->sample_offset = data.len;
	v.chain.ips = chain;
	v.chain.nr = 3;
	for (int i = 0; i < 4; i++) {
		v.time = 100 + i;
		synth_sample(&data, &a.attr, &v);
	}
	ASSERT_EQ(0, synth_write_file(self->good, attrs, NULL, NULL, 1, &data));
	synth_free(&data);
	f = fopen(self->good, "rb");
	ASSERT_NE(NULL, f);
	fseek(f, 0, SEEK_END);
	self->len = (size_t)ftell(f);
	rewind(f);
	self->buf = malloc(self->len);
	ASSERT_EQ(self->len, fread(self->buf, 1, self->len, f));
	fclose(f);
	memcpy(&h, self->buf, sizeof(h));
	self->data_offset = h.data.offset;
	self->sample_offset += h.data.offset;
}

FIXTURE_TEARDOWN(bad)
{
	free(self->buf);
	pc_test_rmdir(self->dir);
}

static void put(uint8_t *buf, size_t off, const void *v, size_t n)
{
	memcpy(buf + off, v, n);
}

/* Writes buf[0..len) to the bad file and reads it all; returns the error. */
static int read_all(const char *path, const uint8_t *buf, size_t len, struct pc_error *err)
{
	struct pd_reader r;
	struct pd_record rec;
	struct pd_sample s;
	struct pd_deferred d;
	uint64_t pos = 0;
	int fd, ret;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		return -99;
	close(fd);
	pc_error_clear(err);
	ret = pd_reader_open(&r, path, err);
	if (ret)
		return ret;
	while ((ret = pd_reader_next(&r, &pos, &rec, err)) == 1) {
		if (rec.header.type == PERF_RECORD_SAMPLE)
			ret = pd_parse_sample(&r, &rec, &s, err);
		else if (rec.header.type == PC_RECORD_CALLCHAIN_DEFERRED)
			ret = pd_parse_deferred(&r, &rec, &d, &s, err);
		else
			ret = pd_parse_sample_id(&r, &rec, &s, err);
		if (ret)
			break;
	}
	pd_reader_close(&r);
	return ret;
}

#define EXPECT_DEFECT(buf, len, what) do {					\
	struct pc_error __err;							\
	int __ret = read_all(self->path, (buf), (len), &__err);		\
	EXPECT_GT(0, __ret);							\
	EXPECT_NE(NULL, strstr(__err.msg, self->path)) TH_LOG("%s", __err.msg); \
	EXPECT_NE(NULL, strstr(__err.msg, (what))) TH_LOG("%s", __err.msg);	\
} while (0)

TEST_F(bad, intact_file_reads_cleanly)
{
	struct pc_error err;

	EXPECT_EQ(0, read_all(self->path, self->buf, self->len, &err)) TH_LOG("%s", err.msg);
}

TEST_F(bad, bad_magic_is_named)
{
	put(self->buf, 0, "NOTPERF!", 8);
	EXPECT_DEFECT(self->buf, self->len, "offset 0x0: bad magic");
}

TEST_F(bad, byte_swapped_file_is_refused_by_name)
{
	uint64_t m = PD_MAGIC_SWAPPED;

	put(self->buf, 0, &m, 8);
	EXPECT_DEFECT(self->buf, self->len, "byte-swapped");
}

TEST_F(bad, truncated_header_is_named)
{
	EXPECT_DEFECT(self->buf, 60, "truncated inside the 104-byte header");
}

TEST_F(bad, attr_size_that_does_not_divide_the_attrs_section)
{
	uint64_t attr_size = 136;

	put(self->buf, offsetof(struct pd_file_header, attr_size), &attr_size, 8);
	EXPECT_DEFECT(self->buf, self->len, "not a multiple of attr_size");
}

TEST_F(bad, attr_size_field_larger_than_its_slot)
{
	struct pd_file_header h;
	uint32_t size = 256;

	memcpy(&h, self->buf, sizeof(h));
	put(self->buf, h.attrs.offset + 4, &size, 4);
	EXPECT_DEFECT(self->buf, self->len, "larger than its slot");
}

TEST_F(bad, record_size_zero_is_an_error_not_a_loop)
{
	uint16_t zero = 0;

	put(self->buf, self->sample_offset + 6, &zero, 2);
	EXPECT_DEFECT(self->buf, self->len, "smaller than a record header");
}

TEST_F(bad, record_size_past_the_end_of_the_data)
{
	uint16_t huge = 0xfff8;

	put(self->buf, self->sample_offset + 6, &huge, 2);
	EXPECT_DEFECT(self->buf, self->len, "runs past the end of the data section");
}

TEST_F(bad, callchain_nr_larger_than_the_record)
{
	/* header(8) ip(8) tid(8) time(8) then callchain nr */
	uint64_t nr = 1ULL << 40;

	put(self->buf, self->sample_offset + 32, &nr, 8);
	EXPECT_DEFECT(self->buf, self->len, "callchain of 1099511627776 entries is larger than the record");
}

TEST_F(bad, absurd_data_section_offset)
{
	uint64_t off = 1ULL << 60;

	put(self->buf, offsetof(struct pd_file_header, data), &off, 8);
	EXPECT_DEFECT(self->buf, self->len, "data section");
}

TEST_F(bad, absurd_attrs_section_size)
{
	uint64_t size = ~0ULL - 7;

	put(self->buf, offsetof(struct pd_file_header, attrs) + 8, &size, 8);
	EXPECT_DEFECT(self->buf, self->len, "attrs section");
}

TEST_F(bad, absurd_feature_section_offset)
{
	struct pd_file_header h;
	uint64_t off = 1ULL << 62;

	memcpy(&h, self->buf, sizeof(h));
	ASSERT_NE(0, h.adds_features[0]);
	/* the first entry of the feature table, after the data */
	put(self->buf, h.data.offset + h.data.size, &off, 8);
	EXPECT_DEFECT(self->buf, self->len, "lies outside the file");
}

TEST_F(bad, torn_record_in_a_finalized_file_is_an_error)
{
	struct pd_file_header h;

	memcpy(&h, self->buf, sizeof(h));
	h.data.size -= 4;
	h.adds_features[0] = 0;
	put(self->buf, 0, &h, sizeof(h));
	EXPECT_DEFECT(self->buf, self->len, "runs past the end of the data section");
}

TEST_F(bad, unknown_nonzero_attr_tail_is_refused_and_a_zero_tail_accepted)
{
	/* rebuild the file with a 160-byte attr: 16 bytes beyond what this reader knows */
	struct pd_file_header h;
	size_t grow = 32, len = self->len + grow;
	uint8_t *buf = calloc(1, len);
	uint32_t size = PC_ATTR_SIZE_MAX + 16;
	struct pc_error err;

	memcpy(&h, self->buf, sizeof(h));
	ASSERT_EQ(1, h.attrs.size / h.attr_size);
	/* header | ids (none) | attr slot | data... : shift everything after the attr */
	memcpy(buf, self->buf, h.attrs.offset + h.attr_size - 16);
	memcpy(buf + h.attrs.offset + h.attr_size + grow - 16,
	       self->buf + h.attrs.offset + h.attr_size - 16,
	       self->len - (h.attrs.offset + h.attr_size - 16));
	h.attr_size += grow;
	h.attrs.size += grow;
	h.data.offset += grow;
	for (int i = 0; i < 4; i++)
		h.adds_features[i] = 0;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + h.attrs.offset + 4, &size, 4);
	EXPECT_EQ(0, read_all(self->path, buf, len, &err)) TH_LOG("%s", err.msg);
	buf[h.attrs.offset + PC_ATTR_SIZE_MAX + 3] = 1;
	EXPECT_DEFECT(buf, len, "non-zero byte beyond");
	free(buf);
}

TEST_F(bad, every_single_byte_corruption_is_an_error_or_a_clean_read)
{
	/* exhaustive: no corruption of any byte may crash the reader */
	static const uint8_t values[] = { 0x00, 0xff, 0x80, 0x07 };
	uint8_t *copy = malloc(self->len);
	struct pc_error err;
	int errors = 0;

	for (size_t off = 0; off < self->len; off++) {
		for (size_t v = 0; v < sizeof(values); v++) {
			memcpy(copy, self->buf, self->len);
			if (copy[off] == values[v])
				continue;
			copy[off] = values[v];
			if (read_all(self->path, copy, self->len, &err)) {
				errors++;
				ASSERT_NE(NULL, strstr(err.msg, self->path)) TH_LOG("%s", err.msg);
			}
		}
	}
	EXPECT_LT(0, errors);
	free(copy);
}

TEST_HARNESS_MAIN
