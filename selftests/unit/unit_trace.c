// SPDX-License-Identifier: GPL-2.0
/*
 * lib/trace without a kernel: TRACING_DATA sections built here (formats
 * of our own, in tracefs's syntax), in both byte orders and both versions,
 * parsed and used to format raw sample data; every cut of a section and
 * every bad length, count, flag and field gives "FILE: offset 0xOFF: what"
 * and an error return, never a crash (run under make SAN=1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "trace/trace.h"

#define PATH "t.data"
#define SECTION_OFFSET 0x5000

static const char demo_format[] =
	"name: pc_demo\n"
	"ID: 42\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char who[8];\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int count;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] msg;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long func;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"who=%s count=%d msg=%s func=%pS\", REC->who, REC->count, __get_str(msg), REC->func\n";

static const char rel_format[] =
	"name: pc_rel\n"
	"ID: 43\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:__rel_loc char[] note;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"note=%s\", __get_rel_str(note)\n";

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

struct blob {
	uint8_t p[16384];
	size_t len;
	bool big;		/* numbers big-endian */
};

static void put(struct blob *b, const void *d, size_t n)
{
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void put32(struct blob *b, uint32_t v)
{
	put(b, &(uint32_t){ b->big ? __builtin_bswap32(v) : v }, 4);
}

static void put64(struct blob *b, uint64_t v)
{
	put(b, &(uint64_t){ b->big ? __builtin_bswap64(v) : v }, 8);
}

static void put_blob64(struct blob *b, const char *s)
{
	put64(b, strlen(s));
	put(b, s, strlen(s));
}

struct layout {
	size_t at_page_size, at_ftrace_count, at_systems, at_sys_name, at_format_size, at_kallsyms,
	       at_cmdlines;
};

/* A section in the layout perf writes: the demo and rel formats in system "perfcheck". */
static void build(struct blob *b, bool big, const char *version, const char *printk,
		  const char *cmdlines, struct layout *l)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct layout dummy;

	if (!l)
		l = &dummy;
	memset(b, 0, sizeof(*b));
	b->big = big;
	put(b, magic, 10);
	put(b, version, strlen(version) + 1);
	put(b, &(uint8_t){ big }, 1);
	put(b, &(uint8_t){ 8 }, 1);
	l->at_page_size = b->len;
	put32(b, 4096);
	put(b, "header_page", 12);
	put_blob64(b, header_page);
	put(b, "header_event", 13);
	put_blob64(b, "# compressed entry header\n");
	l->at_ftrace_count = b->len;
	put32(b, 0);
	l->at_systems = b->len;
	put32(b, 1);
	l->at_sys_name = b->len;
	put(b, "perfcheck", 10);
	put32(b, 2);
	l->at_format_size = b->len;
	put_blob64(b, demo_format);
	put_blob64(b, rel_format);
	l->at_kallsyms = b->len;
	put32(b, 0);
	put32(b, (uint32_t)strlen(printk));
	put(b, printk, strlen(printk));
	l->at_cmdlines = b->len;
	if (strcmp(version, "0.6") >= 0) {
		put64(b, strlen(cmdlines));
		put(b, cmdlines, strlen(cmdlines));
	}
}

/* Raw data of one pc_demo sample: who, count, msg (dynamic), func. */
static uint32_t demo_raw(uint8_t *raw, bool big, const char *who, int32_t count, const char *msg,
			 uint64_t func)
{
	uint16_t type = 42;
	uint32_t loc, len = (uint32_t)strlen(msg) + 1;
	int32_t pid = 1234;

	memset(raw, 0, 64);
	if (big) {
		type = __builtin_bswap16(type);
		pid = (int32_t)__builtin_bswap32((uint32_t)pid);
		count = (int32_t)__builtin_bswap32((uint32_t)count);
		func = __builtin_bswap64(func);
	}
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &pid, 4);
	strncpy((char *)raw + 8, who, 8);
	memcpy(raw + 16, &count, 4);
	loc = len << 16 | 32;
	if (big)
		loc = __builtin_bswap32(loc);
	memcpy(raw + 20, &loc, 4);
	memcpy(raw + 24, &func, 8);
	memcpy(raw + 32, msg, len);
	return (32 + len + 7) & ~7u;
}

FIXTURE(tr) {
	struct blob b;
	struct layout l;
	struct tr_events t;
	struct pc_error err;
	bool opened;
};

FIXTURE_SETUP(tr)
{
	build(&self->b, false, "0.6", "0xffffffff81000000 : \"hello %d\\n\"\n", "1234 democomm\n",
	      &self->l);
	memset(&self->err, 0, sizeof(self->err));
	self->opened = false;
}

FIXTURE_TEARDOWN(tr)
{
	if (self->opened)
		tr_close(&self->t);
}

static int open_blob(FIXTURE_DATA(tr) *self)
{
	int ret = tr_open(&self->t, self->b.p, self->b.len, PATH, SECTION_OFFSET, &self->err);

	self->opened = !ret;
	return ret;
}

TEST_F(tr, a_section_gives_its_header_fields_and_formats)
{
	char name[64];

	ASSERT_EQ(0, open_blob(self)) TH_LOG("%s", self->err.msg);
	EXPECT_STREQ("0.6", self->t.version);
	EXPECT_FALSE(self->t.file_bigendian);
	EXPECT_EQ(8, self->t.long_size);
	EXPECT_EQ(4096, self->t.page_size);
	EXPECT_EQ(2, self->t.nr_formats);
	EXPECT_EQ(0, self->t.nr_failed) TH_LOG("%s", self->t.failed);
	EXPECT_STREQ("perfcheck:pc_demo", tr_event_name(&self->t, 42, name, sizeof(name)));
	EXPECT_STREQ("perfcheck:pc_rel", tr_event_name(&self->t, 43, name, sizeof(name)));
	EXPECT_EQ(NULL, tr_event_name(&self->t, 44, name, sizeof(name)));
}

TEST_F(tr, a_sample_is_formatted_by_its_print_fmt)
{
	uint8_t raw[64];
	uint32_t n = demo_raw(raw, false, "abc", -5, "hello", 0xffffffff81000010ULL);
	const char *text = NULL;
	int len;

	ASSERT_EQ(0, open_blob(self)) TH_LOG("%s", self->err.msg);
	len = tr_format(&self->t, 42, raw, n, 0, 0x100, &text, &self->err);
	ASSERT_LT(0, len) TH_LOG("%s", self->err.msg);
	EXPECT_STREQ("who=abc count=-5 msg=hello func=0xffffffff81000010", text);
	EXPECT_EQ((int)strlen(text), len);
}

TEST_F(tr, a_rel_loc_field_is_relative_to_its_end)
{
	uint8_t raw[32] = { 43 };	/* common_type */
	uint32_t loc = 6u << 16 | 0;	/* right after the 4-byte field at 8 */
	const char *text = NULL;

	memcpy(raw + 8, &loc, 4);
	memcpy(raw + 12, "world", 6);
	ASSERT_EQ(0, open_blob(self)) TH_LOG("%s", self->err.msg);
	ASSERT_LT(0, tr_format(&self->t, 43, raw, 24, 0, 0x100, &text, &self->err))
		TH_LOG("%s", self->err.msg);
	EXPECT_STREQ("note=world", text);
}

static char *resolve(void *ctx, unsigned long long *addr, char **mod)
{
	(void)ctx;
	if (*addr < 0xffffffff81000000ULL || *addr >= 0xffffffff81000100ULL)
		return NULL;
	*addr = 0xffffffff81000000ULL;
	*mod = NULL;
	return "pc_func";
}

TEST_F(tr, kernel_addresses_go_through_the_resolver)
{
	uint8_t raw[64];
	uint32_t n = demo_raw(raw, false, "abc", 1, "x", 0xffffffff81000010ULL);
	const char *text = NULL;

	ASSERT_EQ(0, open_blob(self)) TH_LOG("%s", self->err.msg);
	ASSERT_EQ(0, tr_set_resolver(&self->t, resolve, NULL));
	ASSERT_LT(0, tr_format(&self->t, 42, raw, n, 0, 0x100, &text, &self->err));
	EXPECT_STREQ("who=abc count=1 msg=x func=pc_func+0x10", text);
}

TEST_F(tr, a_big_endian_section_and_sample_read_the_same)
{
	uint8_t raw[64];
	uint32_t n = demo_raw(raw, true, "abc", -5, "hello", 0xffffffff81000010ULL);
	const char *text = NULL;

	build(&self->b, true, "0.6", "", "", NULL);
	ASSERT_EQ(0, open_blob(self)) TH_LOG("%s", self->err.msg);
	EXPECT_TRUE(self->t.file_bigendian);
	EXPECT_EQ(2, self->t.nr_formats);
	ASSERT_LT(0, tr_format(&self->t, 42, raw, n, 0, 0x100, &text, &self->err))
		TH_LOG("%s", self->err.msg);
	EXPECT_STREQ("who=abc count=-5 msg=hello func=0xffffffff81000010", text);
}

TEST_F(tr, version_0_5_has_no_saved_cmdlines)
{
	build(&self->b, false, "0.5", "", "", NULL);
	ASSERT_EQ(0, open_blob(self)) TH_LOG("%s", self->err.msg);
	EXPECT_STREQ("0.5", self->t.version);
	EXPECT_EQ(2, self->t.nr_formats);
}

TEST_F(tr, a_format_libtraceevent_cannot_parse_is_counted_not_fatal)
{
	struct blob b;
	const char *bad = "name: pc_broken\nID: 77\nformat:\n\tfield:int x;\toffset:0;\tsize:4;\t"
			  "signed:1;\n\nprint fmt: \"x=%d\", ((((\n";

	build(&b, false, "0.6", "", "", NULL);
	/* the demo format replaced by one whose print fmt does not parse */
	memcpy(&self->b, &b, sizeof(b));
	self->b.len = self->l.at_format_size;
	put_blob64(&self->b, bad);
	put_blob64(&self->b, rel_format);
	put32(&self->b, 0);
	put32(&self->b, 0);
	put64(&self->b, 0);
	ASSERT_EQ(0, open_blob(self)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(2, self->t.nr_formats);
	EXPECT_EQ(1, self->t.nr_failed);
	EXPECT_STREQ("perfcheck:pc_broken", self->t.failed);
}

/* ------------------------------------------------------------ bad input */

TEST_F(tr, every_cut_of_the_section_is_an_error_at_an_offset_inside_it)
{
	size_t full = self->b.len;
	char want[64];

	for (size_t cut = 0; cut < full; cut++) {
		struct tr_events t;
		unsigned long long off = 0;
		const char *o;
		int ret = tr_open(&t, self->b.p, cut, PATH, SECTION_OFFSET, &self->err);

		ASSERT_EQ(-EINVAL, ret) TH_LOG("cut at %zu of %zu parsed", cut, full);
		snprintf(want, sizeof(want), "%s: offset 0x", PATH);
		ASSERT_EQ(0, strncmp(self->err.msg, want, strlen(want))) TH_LOG("%s", self->err.msg);
		o = self->err.msg + strlen(PATH) + 9;
		off = strtoull(o, NULL, 16);
		ASSERT_LE(SECTION_OFFSET, off) TH_LOG("%s", self->err.msg);
		ASSERT_GE(SECTION_OFFSET + cut, off) TH_LOG("%s", self->err.msg);
	}
	ASSERT_EQ(0, tr_open(&self->t, self->b.p, full, PATH, SECTION_OFFSET, &self->err));
	self->opened = true;
}

/*
 * Flipped bytes anywhere (lengths, counts, format text): an error or a parse,
 * never a crash.  Some flips make libtraceevent itself crash: lib/trace
 * tries the section in a child first (a fork per section, slow under ASan:
 * fewer rounds there).
 */
#ifdef __SANITIZE_ADDRESS__
#define FLIP_ROUNDS 250
#else
#define FLIP_ROUNDS 1000
#endif

TEST_F_TIMEOUT(tr, random_byte_flips_never_crash, 120)
{
	uint64_t x = 0x2545f4914f6cdd1dULL;
	uint8_t raw[64];
	uint32_t n = demo_raw(raw, false, "abc", 7, "hello", 0xffffffff81000010ULL);
	struct blob orig = self->b;
	int opened = 0;

	for (int i = 0; i < FLIP_ROUNDS; i++) {
		struct tr_events t;
		const char *text;

		self->b = orig;
		for (int k = 0; k < 1 + i % 4; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			self->b.p[x % orig.len] ^= (uint8_t)(x >> 32) | 1;
		}
		if (tr_open(&t, self->b.p, self->b.len, PATH, SECTION_OFFSET, &self->err)) {
			ASSERT_EQ(0, strncmp(self->err.msg, "t.data: offset 0x", 17)) TH_LOG("%s", self->err.msg);
			continue;
		}
		opened++;
		tr_format(&t, 42, raw, n, 0, 0x100, &text, &self->err);
		tr_format(&t, 43, raw, n, 0, 0x100, &text, &self->err);
		tr_close(&t);
	}
	TH_LOG("%d of %d mutated sections parsed", opened, FLIP_ROUNDS);
	EXPECT_LT(0, opened);
}

TEST_F(tr, bad_magic_is_an_error)
{
	self->b.p[3] = 'T';
	ASSERT_EQ(-EINVAL, open_blob(self));
	EXPECT_STREQ("t.data: offset 0x5000: TRACING_DATA: bad magic (not \\x17\\x08\\x44tracing)",
		     self->err.msg);
}

TEST_F(tr, impossible_long_size_endianness_and_page_size_are_errors)
{
	size_t flags = self->l.at_page_size - 2;

	self->b.p[flags + 1] = 3;
	ASSERT_EQ(-EINVAL, open_blob(self));
	EXPECT_NE(NULL, strstr(self->err.msg, "long size 3 is neither 4 nor 8")) TH_LOG("%s", self->err.msg);
	self->b.p[flags + 1] = 8;
	self->b.p[flags] = 2;
	ASSERT_EQ(-EINVAL, open_blob(self));
	EXPECT_NE(NULL, strstr(self->err.msg, "big-endian flag 2")) TH_LOG("%s", self->err.msg);
	self->b.p[flags] = 0;
	memcpy(self->b.p + self->l.at_page_size, &(uint32_t){ 3000 }, 4);
	ASSERT_EQ(-EINVAL, open_blob(self));
	EXPECT_NE(NULL, strstr(self->err.msg, "page size 3000 is not a power of two"))
		TH_LOG("%s", self->err.msg);
	memcpy(self->b.p + self->l.at_page_size, &(uint32_t){ 0 }, 4);
	ASSERT_EQ(-EINVAL, open_blob(self));
}

TEST_F(tr, a_format_size_past_the_end_is_an_error_at_its_offset)
{
	char want[160];

	memcpy(self->b.p + self->l.at_format_size, &(uint64_t){ ~0ULL }, 8);
	ASSERT_EQ(-EINVAL, open_blob(self));
	snprintf(want, sizeof(want),
		 "t.data: offset 0x%zx: TRACING_DATA: an event format of 18446744073709551615 bytes runs past the end",
		 SECTION_OFFSET + self->l.at_format_size);
	EXPECT_EQ(0, strncmp(self->err.msg, want, strlen(want))) TH_LOG("%s", self->err.msg);
}

TEST_F(tr, a_huge_count_ends_at_the_end_of_the_section)
{
	memcpy(self->b.p + self->l.at_ftrace_count, &(uint32_t){ 0xffffffff }, 4);
	ASSERT_EQ(-EINVAL, open_blob(self));
	EXPECT_NE(NULL, strstr(self->err.msg, "TRACING_DATA: ")) TH_LOG("%s", self->err.msg);
	build(&self->b, false, "0.6", "", "", &self->l);
	memcpy(self->b.p + self->l.at_systems, &(uint32_t){ 0xffffffff }, 4);
	ASSERT_EQ(-EINVAL, open_blob(self));
}

TEST_F(tr, a_system_name_without_its_nul_is_an_error)
{
	/* the section ends inside the system name */
	ASSERT_EQ(-EINVAL, tr_open(&self->t, self->b.p, self->l.at_sys_name + 4, PATH, SECTION_OFFSET,
				   &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "a system name is not NUL-terminated"))
		TH_LOG("%s", self->err.msg);
}

TEST_F(tr, a_wrong_header_page_tag_is_an_error)
{
	self->b.p[self->l.at_page_size + 4] = 'H';
	ASSERT_EQ(-EINVAL, open_blob(self));
	EXPECT_NE(NULL, strstr(self->err.msg, "\"header_page\" tag expected")) TH_LOG("%s", self->err.msg);
}

TEST_F(tr, an_unknown_tracepoint_id_is_enoent)
{
	uint8_t raw[64];
	uint32_t n = demo_raw(raw, false, "a", 1, "b", 0);
	const char *text;

	ASSERT_EQ(0, open_blob(self));
	ASSERT_EQ(-ENOENT, tr_format(&self->t, 99, raw, n, 0, 0x1230, &text, &self->err));
	EXPECT_STREQ("t.data: offset 0x1230: tracepoint id 99 has no format in TRACING_DATA",
		     self->err.msg);
}

TEST_F(tr, raw_data_shorter_than_the_fields_is_an_error)
{
	uint8_t raw[64];
	const char *text;

	demo_raw(raw, false, "a", 1, "b", 0);
	ASSERT_EQ(0, open_blob(self));
	ASSERT_EQ(-EINVAL, tr_format(&self->t, 42, raw, 22, 0, 0x1230, &text, &self->err));
	EXPECT_STREQ("t.data: offset 0x1230: perfcheck:pc_demo raw data of 22 bytes does not hold field msg (bytes 20..24)",
		     self->err.msg);
	ASSERT_EQ(-EINVAL, tr_format(&self->t, 42, raw, 1, 0, 0x1230, &text, &self->err));
	ASSERT_EQ(-EINVAL, tr_format(&self->t, 42, NULL, 0, 0, 0x1230, &text, &self->err));
}

TEST_F(tr, a_dynamic_field_pointing_out_of_the_raw_data_is_an_error)
{
	uint8_t raw[64];
	uint32_t n = demo_raw(raw, false, "a", 1, "b", 0);
	uint32_t loc = 200u << 16 | 32;
	const char *text;

	memcpy(raw + 20, &loc, 4);
	ASSERT_EQ(0, open_blob(self));
	ASSERT_EQ(-EINVAL, tr_format(&self->t, 42, raw, n, 0, 0x1230, &text, &self->err));
	EXPECT_STREQ("t.data: offset 0x1230: perfcheck:pc_demo dynamic field msg (200 bytes at 32) runs past the raw data of 40 bytes",
		     self->err.msg);
	loc = 4u << 16 | 60;
	memcpy(raw + 20, &loc, 4);
	ASSERT_EQ(-EINVAL, tr_format(&self->t, 42, raw, n, 0, 0x1230, &text, &self->err));
}

TEST_F(tr, raw_data_of_another_tracepoint_is_an_error)
{
	uint8_t raw[64];
	uint32_t n = demo_raw(raw, false, "a", 1, "b", 0);
	const char *text;

	raw[0] = 43;		/* common_type says pc_rel, the evsel says pc_demo */
	ASSERT_EQ(0, open_blob(self));
	ASSERT_EQ(-EINVAL, tr_format(&self->t, 42, raw, n, 0, 0x1230, &text, &self->err));
	EXPECT_STREQ("t.data: offset 0x1230: perfcheck:pc_demo sample's raw data has common_type 43, not the tracepoint id 42",
		     self->err.msg);
}

TEST_F(tr, a_string_without_its_nul_stops_at_the_end_of_the_raw_data)
{
	uint8_t raw[64];
	uint32_t n = demo_raw(raw, false, "abcdefgh", 1, "hello", 0);
	const char *text = NULL;

	/* who[8] is full (no NUL), msg's NUL overwritten: both end at the raw data's end */
	raw[32 + 5] = 'X';
	raw[32 + 6] = 'Y';
	raw[32 + 7] = 'Z';
	memset(raw + 40, 'Q', 24);	/* the caller's bytes past raw_size are not read */
	ASSERT_EQ(0, open_blob(self));
	ASSERT_LT(0, tr_format(&self->t, 42, raw, n, 0, 0x100, &text, &self->err));
	EXPECT_NE(NULL, strstr(text, "msg=helloXYZ func=")) TH_LOG("%s", text);
}

TEST_HARNESS_MAIN
