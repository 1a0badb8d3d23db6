// SPDX-License-Identifier: GPL-2.0
/*
 * The pieces of the BPF program synthesis that need no kernel: the
 * KSYMBOL and BPF_EVENT encoders (layout as perf reads it, the sample_id
 * trailer, padding), the BPF_PROG_INFO and BPF_BTF entry encoders, and the
 * BTF type-name lookup on good and malformed BTF (every length checked),
 * and the trampolines and dispatchers taken from a kallsyms file.
 */
#include <linux/btf.h>
#include <string.h>

#include "kselftest_harness.h"
#include "perfdata/btf.h"
#include "perfdata/codec.h"
#include "recorder/bpf_progs.h"
#include "recorder/synth_bpf.h"
#include "lib/testutil.h"

static const struct perf_event_attr trailer_attr = {
	.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID,
	.sample_id_all = 1,
};

/* KSYMBOL: addr, len, type, flags, the name padded to 8, then the trailer. */
TEST(ksymbol_layout)
{
	struct pd_ksymbol k = { 0xffffffffc0001000ULL, 20, PERF_RECORD_KSYMBOL_TYPE_BPF, 0,
				"bpf_prog_0123456789abcdef_x" };
	struct pd_sample id = { .id = 77 };
	struct pd_buf b = { 0 };
	struct perf_event_header h;
	uint64_t addr, idv;
	uint32_t len;
	uint16_t type;

	ASSERT_EQ(0, pd_encode_ksymbol(&b, &trailer_attr, &k, &id));
	memcpy(&h, b.data, sizeof(h));
	EXPECT_EQ(PC_RECORD_KSYMBOL, h.type);
	/* 8 header + 16 + name 27+1 padded to 32 + trailer 24 */
	EXPECT_EQ(8 + 16 + 32 + 24, h.size);
	EXPECT_EQ(b.len, h.size);
	memcpy(&addr, b.data + 8, 8);
	memcpy(&len, b.data + 16, 4);
	memcpy(&type, b.data + 20, 2);
	EXPECT_EQ(k.addr, addr);
	EXPECT_EQ(20, len);
	EXPECT_EQ(PERF_RECORD_KSYMBOL_TYPE_BPF, type);
	EXPECT_STREQ(k.name, (const char *)b.data + 24);
	memcpy(&idv, b.data + h.size - 8, 8);
	EXPECT_EQ(77, idv);
	pd_buf_free(&b);
}

/* BPF_EVENT: type, flags, id, tag (24 bytes), no trailer without sample_id_all. */
TEST(bpf_event_layout)
{
	struct pd_bpf_event ev = { PERF_BPF_EVENT_PROG_LOAD, 0, 467, { 1, 2, 3, 4, 5, 6, 7, 8 } };
	struct perf_event_attr none = { 0 };
	struct pd_buf b = { 0 };
	struct perf_event_header h;
	uint32_t id;

	ASSERT_EQ(0, pd_encode_bpf_event(&b, &none, &ev, NULL));
	memcpy(&h, b.data, sizeof(h));
	EXPECT_EQ(PC_RECORD_BPF_EVENT, h.type);
	EXPECT_EQ(24, h.size);
	memcpy(&id, b.data + 12, 4);
	EXPECT_EQ(467, id);
	EXPECT_EQ(0, memcmp(b.data + 16, ev.tag, 8));
	pd_buf_free(&b);
}

/* Feature entries: sizes first, then the bytes, unpadded; appended one after the other. */
TEST(feature_entries_layout)
{
	uint8_t info[REC_BPF_INFO_LEN] = { 0xaa }, data[24] = { 0xbb };
	struct pd_bpf_prog_info p = { info, sizeof(info), 0x1f9, data, sizeof(data) };
	struct pd_buf b = { 0 };
	uint32_t v;
	uint64_t arrays;

	ASSERT_EQ(0, pd_encode_bpf_prog_info(&b, &p));
	ASSERT_EQ(16 + sizeof(info) + sizeof(data), b.len);
	memcpy(&v, b.data, 4);
	EXPECT_EQ(REC_BPF_INFO_LEN, v);
	memcpy(&v, b.data + 4, 4);
	EXPECT_EQ(24, v);
	memcpy(&arrays, b.data + 8, 8);
	EXPECT_EQ(0x1f9, arrays);
	EXPECT_EQ(0xaa, b.data[16]);
	EXPECT_EQ(0xbb, b.data[16 + sizeof(info)]);
	ASSERT_EQ(0, pd_encode_btf(&b, 14, "abc", 3));
	ASSERT_EQ(16 + sizeof(info) + sizeof(data) + 11, b.len);
	memcpy(&v, b.data + b.len - 11, 4);
	EXPECT_EQ(14, v);
	memcpy(&v, b.data + b.len - 7, 4);
	EXPECT_EQ(3, v);
	pd_buf_free(&b);
}

/* A BTF object: int, a struct of two members, a func proto of one param, two funcs. */
static const char strs[] = "\0int\0pair\0a\0b\0pc_main\0a_much_longer_function_name";
static const uint32_t types[] = {
	1, BTF_KIND_INT << 24, 4, 0x01000020,			/* 1 int */
	5, BTF_KIND_STRUCT << 24 | 2, 8, 10, 1, 0, 12, 1, 32,	/* 2 struct pair {a, b} */
	0, BTF_KIND_FUNC_PROTO << 24 | 1, 1, 0, 1,		/* 3 int (int) */
	14, BTF_KIND_FUNC << 24, 3,				/* 4 pc_main */
	22, BTF_KIND_FUNC << 24, 3,				/* 5 a_much_longer... */
};

static size_t make_btf(uint8_t *out, size_t type_len, size_t str_len)
{
	struct btf_header h = { .magic = BTF_MAGIC, .version = 1, .hdr_len = sizeof(h),
				.type_off = 0, .type_len = (uint32_t)type_len,
				.str_off = (uint32_t)type_len, .str_len = (uint32_t)str_len };

	memcpy(out, &h, sizeof(h));
	memcpy(out + sizeof(h), types, type_len);
	memcpy(out + sizeof(h) + type_len, strs, str_len);
	return sizeof(h) + type_len + str_len;
}

TEST(btf_names_found_past_members)
{
	struct pd_btf_fault f = { 0 };
	uint8_t btf[512];
	size_t n = make_btf(btf, sizeof(types), sizeof(strs));
	const char *name;

	ASSERT_EQ(0, pd_btf_type_name(btf, n, 4, &name, NULL));
	EXPECT_STREQ("pc_main", name);
	ASSERT_EQ(0, pd_btf_type_name(btf, n, 5, &name, NULL));
	EXPECT_STREQ("a_much_longer_function_name", name);
	ASSERT_EQ(0, pd_btf_type_name(btf, n, 2, &name, NULL));
	EXPECT_STREQ("pair", name);
	/* 0 is void, named "" as libbpf names it; past the last type: malformed for the caller */
	ASSERT_EQ(0, pd_btf_type_name(btf, n, 0, &name, NULL));
	EXPECT_STREQ("", name);
	EXPECT_EQ(-EINVAL, pd_btf_type_name(btf, n, 6, &name, &f));
	EXPECT_STREQ("type id past the type section", f.what);
	EXPECT_EQ(6, f.value);
}

/* Cut anywhere, a bad magic, a string offset past the strings: errors, never a read past. */
TEST(btf_malformed_rejected)
{
	uint8_t btf[512];
	size_t n = make_btf(btf, sizeof(types), sizeof(strs));
	const char *name;
	struct btf_header h;

	for (size_t cut = 0; cut < n; cut++) {
		EXPECT_GT(0, pd_btf_type_name(btf, cut, 5, &name, NULL)) TH_LOG("cut at %zu", cut);
	}
	/* a type section that ends inside type 5 */
	n = make_btf(btf, sizeof(types) - 4, sizeof(strs));
	EXPECT_GT(0, pd_btf_type_name(btf, n, 5, &name, NULL));
	/* a string section without the terminating NUL of the last name */
	n = make_btf(btf, sizeof(types), sizeof(strs) - 1);
	EXPECT_EQ(-EINVAL, pd_btf_type_name(btf, n, 5, &name, NULL));
	n = make_btf(btf, sizeof(types), sizeof(strs));
	memcpy(&h, btf, sizeof(h));
	h.magic = 0x9feb;
	memcpy(btf, &h, sizeof(h));
	EXPECT_EQ(-EINVAL, pd_btf_type_name(btf, n, 4, &name, NULL));
	/* an unknown kind before the type asked for */
	n = make_btf(btf, sizeof(types), sizeof(strs));
	btf[sizeof(h) + 4 + 3] = 31;	/* type 1's kind byte */
	EXPECT_EQ(-EINVAL, pd_btf_type_name(btf, n, 4, &name, NULL));
}

struct captured {
	uint8_t buf[65536];
	size_t len;
};

static int capture(void *ctx, const void *recs, size_t len)
{
	struct captured *c = ctx;

	if (c->len + len > sizeof(c->buf))
		return -E2BIG;
	memcpy(c->buf + c->len, recs, len);
	c->len += len;
	return 0;
}

/* KSYMBOL name -> its length, or -1 when there is no such record */
static long ksym_len(const struct captured *c, const char *name)
{
	for (size_t off = 0; off + 8 <= c->len;) {
		struct perf_event_header h;
		uint32_t len;

		memcpy(&h, c->buf + off, sizeof(h));
		if (h.size < 8 || off + h.size > c->len)
			return -2;
		if (h.type == PC_RECORD_KSYMBOL && h.size > 24 &&
		    !strcmp((const char *)c->buf + off + 24, name)) {
			memcpy(&len, c->buf + off + 16, 4);
			return len;
		}
		off += h.size;
	}
	return -1;
}

/*
 * BPF trampolines and dispatchers: a KSYMBOL of a page each, as perf; not
 * the programs' own [bpf] lines (they come from bpf()), not other modules.
 */
TEST(trampolines_and_dispatchers_from_kallsyms)
{
	static const char lines[] =
		"ffffffff81000000 T _text\n"
		"ffffffffc0001000 t bpf_trampoline_6442_1\t[bpf]\n"
		"ffffffffc0003000 t bpf_dispatcher_xdp\t[bpf]\n"
		"ffffffffc0005000 t bpf_prog_0123456789abcdef_x\t[bpf]\n"
		"ffffffffc0007000 t bpf_trampoline_like\t[other]\n";
	static struct captured c;
	char *dir = pc_test_mkdtemp("unit-bpf"), path[512];
	struct rec_synth_bpf in = { &trailer_attr, 1, capture, &c, NULL, path };
	struct pc_error err = { 0 };
	long page = sysconf(_SC_PAGESIZE);
	FILE *f;

	ASSERT_NE(NULL, dir);
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fputs(lines, f);
	fclose(f);
	/* the programs loaded on this machine come first, if bpf() answers */
	ASSERT_EQ(0, rec_synth_bpf(&in, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(page, ksym_len(&c, "bpf_trampoline_6442_1"));
	EXPECT_EQ(page, ksym_len(&c, "bpf_dispatcher_xdp"));
	EXPECT_EQ(-1, ksym_len(&c, "bpf_prog_0123456789abcdef_x"));
	EXPECT_EQ(-1, ksym_len(&c, "bpf_trampoline_like"));
	EXPECT_EQ(-1, ksym_len(&c, "_text"));
	pc_test_rmdir(dir);
}

TEST_HARNESS_MAIN
