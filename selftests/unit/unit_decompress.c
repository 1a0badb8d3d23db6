// SPDX-License-Identifier: GPL-2.0
/*
 * lib/perfdata/decompress without a kernel: streams written here with
 * libzstd the way perf record -z writes them (one stream for the file,
 * flushed per push, a push cut into several COMPRESSED records), cut at
 * every kind of boundary, and every kind of bad input, each giving
 * "FILE: offset 0xOFF: what" and an error return.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <zstd.h>

#include "kselftest_harness.h"
#include "perfdata/decompress.h"

#define PATH "t.data"

/* A byte buffer that grows. */
struct buf {
	uint8_t *p;
	size_t len, cap;
};

static void buf_add(struct buf *b, const void *data, size_t len)
{
	if (b->len + len > b->cap) {
		b->cap = (b->len + len) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

/* Record i of a deterministic sequence: type 9 (SAMPLE) or 10, sizes 16..1040. */
static size_t make_record(uint64_t i, uint8_t *out)
{
	struct perf_event_header h;
	uint64_t x = i * 0x9e3779b97f4a7c15ULL;
	size_t words = 1 + (x >> 7) % 130;

	h.type = (i % 7) ? 9 : 10;
	h.misc = (uint16_t)i;
	h.size = (uint16_t)(8 + words * 8);
	memcpy(out, &h, 8);
	for (size_t w = 0; w < words; w++) {
		uint64_t v = i << 20 | w;

		if (w % 3 == 0)		/* some entropy, as addresses and times have */
			v ^= (x += 0xbf58476d1ce4e5b9ULL) >> 11;
		memcpy(out + 8 + w * 8, &v, 8);
	}
	return h.size;
}

/* Compresses src into stream `cs` (flushed, not ended), appended to out. */
static void compress_flush(ZSTD_CStream *cs, const void *src, size_t len, struct buf *out,
			   ZSTD_EndDirective end)
{
	ZSTD_inBuffer in = { src, len, 0 };
	size_t rem;

	do {
		uint8_t chunk[1 << 16];
		ZSTD_outBuffer o = { chunk, sizeof(chunk), 0 };

		rem = ZSTD_compressStream2(cs, &o, &in, end);
		if (ZSTD_isError(rem))
			abort();
		buf_add(out, chunk, o.pos);
	} while (rem || in.pos < in.size);
}

/* The decompressed records of a whole stream fed in pieces of `cut` bytes. */
struct run {
	uint64_t nr;
	uint64_t bytes;
	uint64_t bad_align;		/* records handed out misaligned */
	uint64_t mismatch;		/* records that differ from the source */
	uint64_t last_offset;
	int ret;
	struct pc_error err;
	struct pd_decomp_stats stats;
	size_t unfinished;		/* pd_decomp_unfinished() before finishing */
};

static void run_stream(const uint8_t *z, size_t zlen, size_t cut, const uint8_t *expect,
		       size_t expect_len, struct run *r)
{
	struct pd_decomp d;
	struct pd_record rec;
	size_t at = 0, exp_at = 0;

	memset(r, 0, sizeof(*r));
	r->ret = pd_decomp_init(&d, PATH, NULL, &r->err);
	if (r->ret)
		return;
	for (size_t off = 0; off < zlen && !r->ret; off += cut) {
		size_t len = zlen - off < cut ? zlen - off : cut;

		r->ret = pd_decomp_feed(&d, z + off, len, 0x1000 + off, &r->err);
		while (!r->ret && (r->ret = pd_decomp_next(&d, &rec, &r->err)) == 1) {
			r->ret = 0;
			r->nr++;
			r->bytes += rec.header.size;
			r->last_offset = rec.offset;
			r->bad_align += (uintptr_t)rec.data % 8 != 0;
			if (!expect || exp_at + rec.header.size > expect_len ||
			    memcmp(expect + exp_at, rec.data, rec.header.size))
				r->mismatch++;
			exp_at += rec.header.size;
		}
		at = off;
	}
	(void)at;
	r->unfinished = r->ret ? 0 : pd_decomp_unfinished(&d);
	if (!r->ret)
		r->ret = pd_decomp_finish(&d, &r->err);
	r->stats = d.stats;
	pd_decomp_fini(&d);
}

/* n records, compressed as perf does: one stream, a flush every `push` records */
static void make_stream(uint64_t n, uint64_t push, struct buf *plain, struct buf *z,
			ZSTD_EndDirective end)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	uint8_t rec[65536];
	size_t push_start = 0;

	ZSTD_CCtx_setParameter(cs, ZSTD_c_compressionLevel, 1);
	for (uint64_t i = 0; i < n; i++) {
		buf_add(plain, rec, make_record(i, rec));
		if ((i + 1) % push == 0 || i + 1 == n) {
			compress_flush(cs, plain->p + push_start, plain->len - push_start, z, end);
			push_start = plain->len;
		}
	}
	ZSTD_freeCStream(cs);
}

TEST(header_feature_gives_its_five_fields)
{
	uint32_t sec[6] = { 0, 1, 3, 7, 528384, 0xdead };
	struct pd_comp_header h;
	struct pc_error err = { 0 };

	ASSERT_EQ(0, pd_comp_header_parse(sec, sizeof(sec), PATH, 0x4000, &h, &err));
	EXPECT_EQ(0, h.version);
	EXPECT_EQ(PD_COMP_ZSTD, h.type);
	EXPECT_EQ(3, h.level);
	EXPECT_EQ(7, h.ratio);
	EXPECT_EQ(528384, h.mmap_len);
	EXPECT_STREQ("Zstd", pd_comp_type_name(h.type));
	EXPECT_EQ(NULL, pd_comp_type_name(7));
}

TEST(header_feature_cut_short_is_an_error_at_its_offset)
{
	uint32_t sec[5] = { 0, 1, 3, 7, 528384 };
	struct pd_comp_header h;
	struct pc_error err = { 0 };

	ASSERT_EQ(-EINVAL, pd_comp_header_parse(sec, 19, PATH, 0x4000, &h, &err));
	EXPECT_NE(NULL, strstr(err.msg, "t.data: offset 0x4000: COMPRESSED header section holds 19 bytes"))
		TH_LOG("%s", err.msg);
}

TEST(unknown_compression_type_is_refused)
{
	struct pd_comp_header h = { .type = 2 };
	struct pd_decomp d;
	struct pc_error err = { 0 };

	ASSERT_EQ(-EOPNOTSUPP, pd_decomp_init(&d, PATH, &h, &err));
	EXPECT_NE(NULL, strstr(err.msg, "compression type 2 is not supported")) TH_LOG("%s", err.msg);
}

TEST(compressed2_payload_is_data_size_bytes_before_the_padding)
{
	uint64_t r[4] = { 0 };
	struct perf_event_header h = { .type = PC_RECORD_COMPRESSED2, .size = 32 };
	struct pd_record rec = { .offset = 0x200, .data = r };
	struct pc_error err = { 0 };
	const void *p;
	size_t len;

	memcpy(r, &h, 8);
	r[1] = 13;			/* 16 + 13 = 29, padded to 32 */
	rec.header = h;
	ASSERT_EQ(0, pd_decomp_payload(&rec, PATH, &p, &len, &err));
	EXPECT_EQ((const uint8_t *)r + 16, (const uint8_t *)p);
	EXPECT_EQ(13, len);

	h.type = PC_RECORD_COMPRESSED;	/* 81: everything after the header */
	rec.header = h;
	ASSERT_EQ(0, pd_decomp_payload(&rec, PATH, &p, &len, &err));
	EXPECT_EQ((const uint8_t *)r + 8, (const uint8_t *)p);
	EXPECT_EQ(24, len);
}

TEST(compressed2_data_size_past_the_record_is_an_error)
{
	uint64_t r[4] = { 0 };
	struct pd_record rec = { .offset = 0x200, .data = r,
				 .header = { .type = PC_RECORD_COMPRESSED2, .size = 32 } };
	struct pc_error err = { 0 };
	const void *p;
	size_t len;

	r[1] = 17;
	ASSERT_EQ(-EINVAL, pd_decomp_payload(&rec, PATH, &p, &len, &err));
	EXPECT_NE(NULL, strstr(err.msg, "t.data: offset 0x200: COMPRESSED2 data_size 17 runs past the record"))
		TH_LOG("%s", err.msg);
	r[1] = 8;			/* 8 bytes of padding: not what perf writes */
	ASSERT_EQ(-EINVAL, pd_decomp_payload(&rec, PATH, &p, &len, &err));
	EXPECT_NE(NULL, strstr(err.msg, "leaves 8 bytes of padding")) TH_LOG("%s", err.msg);
	r[1] = ~0ULL;			/* would wrap a careless addition */
	ASSERT_EQ(-EINVAL, pd_decomp_payload(&rec, PATH, &p, &len, &err));
	rec.header.size = 12;		/* no room for data_size */
	ASSERT_EQ(-EINVAL, pd_decomp_payload(&rec, PATH, &p, &len, &err));
	EXPECT_NE(NULL, strstr(err.msg, "no room for its data_size")) TH_LOG("%s", err.msg);
}

TEST(records_come_out_whole_and_in_order_whatever_the_cuts)
{
	struct buf plain = { 0 }, z = { 0 };
	static const size_t cuts[] = { 1, 7, 64, 1000, 4093, 65519, 1 << 30 };
	struct run r;

	/* pushes of ~530 KB: zstd's 128 KiB blocks end inside records, and a
	 * block completes in a later payload than the one its first bytes came in */
	make_stream(3000, 1000, &plain, &z, ZSTD_e_flush);
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		run_stream(z.p, z.len, cuts[i], plain.p, plain.len, &r);
		ASSERT_EQ(0, r.ret) TH_LOG("cut %zu: %s", cuts[i], r.err.msg);
		EXPECT_EQ(3000, r.nr) TH_LOG("cut %zu", cuts[i]);
		EXPECT_EQ(plain.len, r.bytes);
		EXPECT_EQ(0, r.mismatch);
		EXPECT_EQ(0, r.bad_align);
		if (cuts[i] < z.len)	/* cut into payloads smaller than a push: some straddle */
			EXPECT_LT(0, r.stats.nr_straddling) TH_LOG("cut %zu", cuts[i]);
	}
	free(plain.p);
	free(z.p);
}

TEST(a_record_completes_in_the_payload_that_ends_it)
{
	struct buf plain = { 0 }, z = { 0 };
	struct run r;

	make_stream(50, 50, &plain, &z, ZSTD_e_flush);
	ASSERT_LT(2, z.len);
	/* two payloads: the second holds only the stream's last two bytes */
	run_stream(z.p, z.len, z.len - 2, plain.p, plain.len, &r);
	ASSERT_EQ(0, r.ret) TH_LOG("%s", r.err.msg);
	EXPECT_EQ(50, r.nr);
	EXPECT_EQ(0x1000 + z.len - 2, r.last_offset);
	free(plain.p);
	free(z.p);
}

TEST(ended_frames_one_after_another_continue_the_stream)
{
	struct buf plain = { 0 }, z = { 0 };
	struct run r;

	make_stream(1000, 37, &plain, &z, ZSTD_e_end);
	run_stream(z.p, z.len, 333, plain.p, plain.len, &r);
	ASSERT_EQ(0, r.ret) TH_LOG("%s", r.err.msg);
	EXPECT_EQ(1000, r.nr);
	EXPECT_EQ(0, r.mismatch);
	free(plain.p);
	free(z.p);
}

TEST(a_record_of_unaligned_size_is_handed_out_aligned)
{
	uint8_t plain[64] = { 0 };
	struct perf_event_header h1 = { .type = 70, .size = 12 }, h2 = { .type = 9, .size = 24 };
	uint8_t zb[256];
	size_t zlen;
	struct run r;

	memcpy(plain, &h1, 8);
	memcpy(plain + 8, "abcd", 4);
	memcpy(plain + 12, &h2, 8);
	memset(plain + 20, 0x5a, 16);
	zlen = ZSTD_compress(zb, sizeof(zb), plain, 36, 1);
	ASSERT_FALSE(ZSTD_isError(zlen));
	run_stream(zb, zlen, zlen, plain, 36, &r);
	ASSERT_EQ(0, r.ret) TH_LOG("%s", r.err.msg);
	EXPECT_EQ(2, r.nr);
	EXPECT_EQ(0, r.bad_align);
	EXPECT_EQ(0, r.mismatch);
}

/*
 * The stream cut into COMPRESSED2 records as perf 6.16+ writes them: data_size,
 * then padding to 8.  (At most 65512 bytes each: perf's own limit, 65519,
 * makes header.size overflow its u16 to 0 when aligned.)
 */
TEST(compressed2_records_decode_like_compressed_ones)
{
	struct buf plain = { 0 }, z = { 0 };
	uint64_t rec_buf[65536 / 8];
	struct pd_decomp d;
	struct pd_record rec, in;
	struct pc_error err = { 0 };
	uint64_t n = 0, bytes = 0, nr_recs = 0;
	size_t exp_at = 0, mismatch = 0;
	int ret = 0;

	make_stream(2000, 700, &plain, &z, ZSTD_e_flush);
	ASSERT_EQ(0, pd_decomp_init(&d, PATH, NULL, &err));
	for (size_t off = 0; off < z.len; off += 65512) {
		size_t len = z.len - off < 65512 ? z.len - off : 65512;
		struct perf_event_header h = { .type = PC_RECORD_COMPRESSED2,
					       .size = (uint16_t)((16 + len + 7) & ~7ul) };
		uint64_t data_size = len;

		memset(rec_buf, 0xee, h.size);	/* padding is not read */
		memcpy(rec_buf, &h, 8);
		memcpy(rec_buf + 1, &data_size, 8);
		memcpy(rec_buf + 2, z.p + off, len);
		rec = (struct pd_record){ .offset = 0x2000 + off, .header = h, .data = rec_buf };
		ASSERT_EQ(0, pd_decomp_feed_record(&d, &rec, &err)) TH_LOG("%s", err.msg);
		nr_recs++;
		while ((ret = pd_decomp_next(&d, &in, &err)) == 1) {
			n++;
			bytes += in.header.size;
			mismatch += exp_at + in.header.size > plain.len ||
				    memcmp(plain.p + exp_at, in.data, in.header.size);
			exp_at += in.header.size;
		}
		ASSERT_EQ(0, ret) TH_LOG("%s", err.msg);
	}
	EXPECT_EQ(0, pd_decomp_finish(&d, &err)) TH_LOG("%s", err.msg);
	EXPECT_LT(1, nr_recs);
	EXPECT_EQ(2000, n);
	EXPECT_EQ(plain.len, bytes);
	EXPECT_EQ(0, mismatch);
	pd_decomp_fini(&d);
	free(plain.p);
	free(z.p);
}

TEST(memory_stays_bounded_on_a_long_stream)
{
	struct buf plain = { 0 }, z = { 0 };
	struct rusage before, after;
	struct pd_decomp d;
	struct pd_record rec;
	struct pc_error err = { 0 };
	uint64_t out = 0, n = 0;
	int ret;

	/* 1 MiB of records in one ended frame, fed 256 times: a 256 MiB stream */
	make_stream(2000, 2000, &plain, &z, ZSTD_e_end);
	ASSERT_EQ(0, pd_decomp_init(&d, PATH, NULL, &err));
	getrusage(RUSAGE_SELF, &before);
	for (int i = 0; out < (256ULL << 20); i++) {
		ASSERT_EQ(0, pd_decomp_feed(&d, z.p, z.len, 0x100 + i, &err)) TH_LOG("%s", err.msg);
		while ((ret = pd_decomp_next(&d, &rec, &err)) == 1) {
			out += rec.header.size;
			n++;
		}
		ASSERT_EQ(0, ret) TH_LOG("%s", err.msg);
	}
	getrusage(RUSAGE_SELF, &after);
	EXPECT_EQ(0, pd_decomp_finish(&d, &err));
	EXPECT_EQ(out, d.stats.bytes_out);
	EXPECT_EQ(4 * 65536, d.win_cap);
	TH_LOG("%llu records, %llu MiB decompressed, max RSS grew by %ld KiB",
	       (unsigned long long)n, (unsigned long long)(out >> 20),
	       after.ru_maxrss - before.ru_maxrss);
	EXPECT_GT(16 * 1024, after.ru_maxrss - before.ru_maxrss);
	pd_decomp_fini(&d);
	free(plain.p);
	free(z.p);
}

TEST(decoding_speed_is_printed)
{
	struct buf plain = { 0 }, z = { 0 };
	struct timespec t0, t1;
	struct run r;
	double s;

	make_stream(100000, 500, &plain, &z, ZSTD_e_flush);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run_stream(z.p, z.len, 65519, NULL, 0, &r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_EQ(0, r.ret) TH_LOG("%s", r.err.msg);
	EXPECT_EQ(100000, r.nr);
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	ksft_print_msg("decompress: %.1f MB in %.3f s: %.0f MB/s out (ratio %.1f), %.0f krecords/s\n",
		       plain.len / 1e6, s, plain.len / 1e6 / s, (double)plain.len / z.len,
		       r.nr / 1e3 / s);
	free(plain.p);
	free(z.p);
}

/* ------------------------------------------------------------ bad input */

TEST(a_payload_that_is_not_zstd_is_an_error_at_its_record)
{
	static const uint8_t junk[64] = "this is not a zstd frame at all, just text";
	struct run r;

	run_stream(junk, sizeof(junk), sizeof(junk), NULL, 0, &r);
	ASSERT_EQ(-EINVAL, r.ret);
	EXPECT_NE(NULL, strstr(r.err.msg, "t.data: offset 0x1000: zstd: ")) TH_LOG("%s", r.err.msg);
}

TEST(a_corrupted_frame_is_an_error_at_its_record)
{
	struct buf plain = { 0 }, z = { 0 };
	int failed = 0;
	struct run r;

	make_stream(400, 400, &plain, &z, ZSTD_e_end);
	/* every byte flipped in turn past the frame header: an error or, where
	 * zstd cannot tell, records that differ; never a crash (ASan watches) */
	for (size_t at = 8; at < z.len; at += 97) {
		z.p[at] ^= 0xa5;
		run_stream(z.p, z.len, 4096, plain.p, plain.len, &r);
		if (r.ret) {
			failed++;
			EXPECT_EQ(-EINVAL, r.ret);
			EXPECT_NE(NULL, strstr(r.err.msg, "t.data: offset 0x")) TH_LOG("%s", r.err.msg);
		}
		z.p[at] ^= 0xa5;
	}
	EXPECT_LT(0, failed);
	/* the last block cut: a frame that never ends, records cut short */
	run_stream(z.p, z.len - 40, 4096, plain.p, plain.len, &r);
	ASSERT_EQ(-EINVAL, r.ret);
	EXPECT_NE(NULL, strstr(r.err.msg, "ends inside a record")) TH_LOG("%s", r.err.msg);
	free(plain.p);
	free(z.p);
}

TEST(a_frame_content_size_that_lies_is_an_error)
{
	uint8_t plain[4096], zb[8192];
	size_t zlen, pos;
	uint8_t fhd;
	struct run r;

	for (size_t i = 0; i < sizeof(plain); i += 32) {
		struct perf_event_header h = { .type = 9, .size = 32 };

		memcpy(plain + i, &h, 8);
		memset(plain + i + 8, (int)(i / 32), 24);
	}
	zlen = ZSTD_compress(zb, sizeof(zb), plain, sizeof(plain), 1);
	ASSERT_FALSE(ZSTD_isError(zlen));
	/* frame header: magic, descriptor, [window], [dict id], content size */
	fhd = zb[4];
	ASSERT_EQ(1, fhd >> 6) TH_LOG("descriptor %#x: expected a 2-byte content size", fhd);
	pos = 5 + !(fhd & 0x20) + (size_t[]){ 0, 1, 2, 4 }[fhd & 3];
	ASSERT_EQ(sizeof(plain) - 256, (size_t)(zb[pos] | zb[pos + 1] << 8));
	zb[pos] += 32;			/* claims one more record than the frame holds */
	run_stream(zb, zlen, zlen, plain, sizeof(plain), &r);
	ASSERT_EQ(-EINVAL, r.ret);
	EXPECT_NE(NULL, strstr(r.err.msg, "t.data: offset 0x1000: zstd: ")) TH_LOG("%s", r.err.msg);
}

static void one_bad_record(struct perf_event_header bad, struct run *r)
{
	uint8_t plain[64] = { 0 }, zb[256];
	struct perf_event_header ok = { .type = 9, .size = 16 };
	size_t zlen;

	memcpy(plain, &ok, 8);
	memcpy(plain + 16, &bad, 8);
	zlen = ZSTD_compress(zb, sizeof(zb), plain, sizeof(plain), 1);
	run_stream(zb, zlen, zlen, plain, sizeof(plain), r);
}

TEST(a_record_smaller_than_its_header_is_an_error)
{
	struct run r;

	one_bad_record((struct perf_event_header){ .type = 9, .size = 4 }, &r);
	ASSERT_EQ(-EINVAL, r.ret);
	EXPECT_EQ(1, r.nr);
	EXPECT_NE(NULL, strstr(r.err.msg,
			       "t.data: offset 0x1000: decompressed record at stream byte 16: size 4 is smaller than a record header"))
		TH_LOG("%s", r.err.msg);
	one_bad_record((struct perf_event_header){ .type = 9, .size = 0 }, &r);
	ASSERT_EQ(-EINVAL, r.ret);
}

TEST(a_compressed_record_inside_the_stream_is_an_error)
{
	struct run r;

	one_bad_record((struct perf_event_header){ .type = PC_RECORD_COMPRESSED, .size = 16 }, &r);
	ASSERT_EQ(-EINVAL, r.ret);
	EXPECT_NE(NULL, strstr(r.err.msg, "is itself a compressed record")) TH_LOG("%s", r.err.msg);
}

TEST(a_record_longer_than_the_stream_is_an_error_at_the_end)
{
	struct run r;

	one_bad_record((struct perf_event_header){ .type = 9, .size = 4000 }, &r);
	ASSERT_EQ(-EINVAL, r.ret);
	EXPECT_EQ(1, r.nr);
	EXPECT_NE(NULL, strstr(r.err.msg,
			       "t.data: offset 0x1000: the compressed stream ends inside a record: 48 of its 4000 bytes"))
		TH_LOG("%s", r.err.msg);
}

/* what perf's writer leaves after its last push: the reader drops it, as perf, by its count */
TEST(an_unfinished_last_record_is_counted_for_the_reader_to_drop)
{
	struct run r;

	one_bad_record((struct perf_event_header){ .type = 9, .size = 4000 }, &r);
	EXPECT_EQ(1, r.nr);
	EXPECT_EQ(48, r.unfinished);
	one_bad_record((struct perf_event_header){ .type = 9, .size = 48 }, &r);
	EXPECT_EQ(0, r.ret) TH_LOG("%s", r.err.msg);
	EXPECT_EQ(2, r.nr);
	EXPECT_EQ(0, r.unfinished);
}

TEST(feeding_before_draining_is_refused)
{
	struct buf plain = { 0 }, z = { 0 };
	struct pd_decomp d;
	struct pd_record rec;
	struct pc_error err = { 0 };

	make_stream(100, 100, &plain, &z, ZSTD_e_flush);
	ASSERT_EQ(0, pd_decomp_init(&d, PATH, NULL, &err));
	ASSERT_EQ(0, pd_decomp_feed(&d, z.p, z.len, 0x10, &err));
	ASSERT_EQ(1, pd_decomp_next(&d, &rec, &err));
	EXPECT_EQ(-EBUSY, pd_decomp_feed(&d, z.p, z.len, 0x20, &err));
	EXPECT_EQ(-EBUSY, pd_decomp_finish(&d, &err));
	pd_decomp_fini(&d);
	free(plain.p);
	free(z.p);
}

TEST_HARNESS_MAIN
