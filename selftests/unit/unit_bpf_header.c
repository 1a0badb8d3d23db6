// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF side band in perfcheck's text, on synthesized files (no perf, no
 * kernel): script --show-bpf-events prints KSYMBOL and BPF_EVENT lines with
 * perf's start columns (thread -1 and time 0 without sample_id_all), and the
 * header listing (report --header-only, script --header) prints the
 * BPF_PROG_INFO blocks in id order (one line for a program of one function,
 * sub_prog lines otherwise, names from the tag and BTF, "_F" without BTF)
 * ("# bpf_prog_info ID:" alone for none) and the BPF_BTF ids, the first
 * entry of an id only; the expected text was checked against perf 6.1's
 * perf report --header-only and perf script --show-bpf-events on these
 * files.  A malformed feature is refused with its offset, exit 2.
 */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stddef.h>

#include "kselftest_harness.h"
#include "perfdata/codec.h"
#include "reader_util.h"

/* BTF: int, a func proto, two funcs (type 3 pc_main, type 4 pc_sub) */
static const char strs[] = "\0int\0pc_main\0pc_sub";
static const uint32_t types[] = {
	1, BTF_KIND_INT << 24, 4, 0x01000020,		/* 1 int */
	0, BTF_KIND_FUNC_PROTO << 24 | 1, 1, 0, 1,	/* 2 int (int) */
	5, BTF_KIND_FUNC << 24, 2,			/* 3 pc_main */
	13, BTF_KIND_FUNC << 24, 2,			/* 4 pc_sub */
};

#define TYPE_PC_SUB (sizeof(struct btf_header) + 12 * 4)	/* type 4's name_off */

static size_t make_btf(uint8_t *out)
{
	struct btf_header h = { .magic = BTF_MAGIC, .version = 1, .hdr_len = sizeof(h),
				.type_len = sizeof(types), .str_off = sizeof(types),
				.str_len = sizeof(strs) };

	memcpy(out, &h, sizeof(h));
	memcpy(out + sizeof(h), types, sizeof(types));
	memcpy(out + sizeof(h) + sizeof(types), strs, sizeof(strs));
	return sizeof(h) + sizeof(types) + sizeof(strs);
}

/* A program of nr functions: ksyms, lens, tags (and func_info when btf_id). */
struct prog {
	uint32_t id, btf_id, nr;
	const char *name;
	uint64_t addr;
	bool no_ksyms;		/* the jited_ksyms array absent */
};

/* How to break the entry (0: not at all). */
enum { GOOD, FUNC_INFO_PAST_DATA, FEW_TAGS, DATA_PAST_END, NO_KSYMS };
/* How to break the BTF (a positive value: cut the last entry to that many bytes). */
enum { BTF_NAME_PAST = -1, BTF_KIND_BAD = -2 };

static void put_prog(struct pd_buf *b, const struct prog *p, int bad)
{
	struct bpf_prog_info info = { .id = p->id, .btf_id = p->btf_id };
	uint8_t data[256] = { 0 };
	uint32_t at = 0;
	uint64_t arrays = (p->no_ksyms || bad == NO_KSYMS ? 0 : 1 << 3) | 1 << 4 | 1 << 8;
	struct pd_bpf_prog_info e;

	strncpy(info.name, p->name, sizeof(info.name) - 1);
	info.nr_jited_ksyms = info.nr_jited_func_lens = info.nr_prog_tags = p->nr;
	info.jited_ksyms = at;
	for (uint32_t i = 0; i < p->nr; i++, at += 8) {
		uint64_t a = p->addr + 0x40 * i;

		memcpy(data + at, &a, 8);
	}
	info.jited_func_lens = at;
	for (uint32_t i = 0; i < p->nr; i++, at += 4) {
		uint32_t len = 20 + i;

		memcpy(data + at, &len, 4);
	}
	at = (at + 7) & ~7u;
	info.prog_tags = at;
	for (uint32_t i = 0; i < p->nr * 8; i++)
		data[at++] = (uint8_t)(p->id + 0x11 * i);
	if (p->btf_id) {
		arrays |= 1 << 5;
		info.func_info = at;
		info.func_info_rec_size = sizeof(struct bpf_func_info);
		info.nr_func_info = p->nr;
		for (uint32_t i = 0; i < p->nr; i++, at += 8) {
			struct bpf_func_info fi = { i * 4, 3 + i };

			memcpy(data + at, &fi, 8);
		}
	}
	if (bad == FUNC_INFO_PAST_DATA)
		info.nr_func_info = 100;
	if (bad == FEW_TAGS)
		info.nr_prog_tags = p->nr - 1;
	e = (struct pd_bpf_prog_info){ &info, sizeof(info), arrays, data, at };
	if (bad == DATA_PAST_END)
		e.data_len = at + 8;
	pd_encode_bpf_prog_info(b, &e);
	if (bad == DATA_PAST_END)
		b->len -= 8;
}

static const struct prog progs[] = {
	{ 20, 0, 1, "pc_one", 0xffffffffc0002000ULL },
	{ 10, 7, 2, "pc_btf", 0xffffffffc0001000ULL },
	{ 30, 0, 2, "pc_two", 0xffffffffc0003000ULL },
	{ 40, 0, 0, "pc_none", 0 },			/* no JITed function: a bare line */
	{ 50, 0, 0, "pc_empty", 0, true },		/* no arrays, no functions: the same */
	{ 20, 0, 1, "pc_dup", 0xffffffffc0009000ULL },	/* a second id 20: not shown */
};

#define NPROGS (sizeof(progs) / sizeof(progs[0]))

FIXTURE(bh) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct pc_run run;
};

FIXTURE_SETUP(bh)
{
	self->dir = pc_test_mkdtemp("unit-bpf-header");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->run, 0, sizeof(self->run));
	rt_plain_attr(&self->a, PERF_SAMPLE_PERIOD);
}

FIXTURE_TEARDOWN(bh)
{
	pc_run_free(&self->run);
	if (self->dir && !getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(self->dir);
}

/*
 * The file: KSYMBOL and BPF_EVENT of program 20 at 1.000001 s, a sample at
 * 1.000002 s; BPF_PROG_INFO of progs (entry bad_at broken by bad), BPF_BTF
 * of ids 7, 3, 7 (the last cut to btf_cut bytes of its BTF when > 0; all
 * with pc_sub's type broken when btf_cut is BTF_NAME_PAST or BTF_KIND_BAD).
 */
static int write_file(FIXTURE_DATA(bh) *self, int bad_at, int bad, int btf_cut)
{
	struct pd_sample id = rt_id(100, 100, RT_SEC + 1000), smp = rt_id(100, 100, RT_SEC + 2000);
	struct pd_ksymbol k = { 0xffffffffc0002000ULL, 20, PERF_RECORD_KSYMBOL_TYPE_BPF, 0,
				"bpf_prog_1425364758697a8b_pc_one" };
	struct pd_bpf_event ev = { PERF_BPF_EVENT_PROG_LOAD, 0, 20, { 0 } };
	struct pd_buf rec = { 0 }, pi = { 0 }, bt = { 0 };
	uint32_t count = NPROGS, nbtf = 3;
	uint8_t btf[512];
	size_t n = make_btf(btf);
	struct pd_writer w;
	struct pc_error err;
	int ret;

	smp.ip = RT_KIP(1);
	pd_encode_comm(&rec, &self->a.attr, 0, &(struct pd_comm){ 100, 100, "alpha" }, &id);
	pd_encode_ksymbol(&rec, &self->a.attr, &k, &id);
	pd_encode_bpf_event(&rec, &self->a.attr, &ev, &id);
	pd_encode_sample(&rec, &self->a.attr, PERF_RECORD_MISC_USER, &smp);
	pd_buf_put(&pi, &count, 4);
	for (size_t i = 0; i < NPROGS; i++)
		put_prog(&pi, &progs[i], (int)i == bad_at ? bad : GOOD);
	pd_buf_put(&bt, &nbtf, 4);
	if (btf_cut == BTF_NAME_PAST) {
		uint32_t off = sizeof(strs) + 5;

		memcpy(btf + TYPE_PC_SUB, &off, 4);
	} else if (btf_cut == BTF_KIND_BAD) {
		uint32_t info = 25u << 24;

		memcpy(btf + TYPE_PC_SUB + 4, &info, 4);
	}
	pd_encode_btf(&bt, 7, btf, (uint32_t)n);
	pd_encode_btf(&bt, 3, btf, (uint32_t)n);
	pd_encode_btf(&bt, 7, btf, (uint32_t)n);
	if (btf_cut > 0)
		bt.len -= n - (size_t)btf_cut;
	ret = pd_writer_open(&w, self->path, &err);
	if (!ret)
		ret = pd_writer_add_evsel(&w, &self->a.attr, NULL, 0, "cpu-clock", &err);
	if (!ret)
		ret = pd_writer_set_host_features(&w, "perfcheck-selftest");
	if (!ret)
		ret = pd_writer_set_feature(&w, PD_FEAT_BPF_PROG_INFO, pi.data, pi.len);
	if (!ret)
		ret = pd_writer_set_feature(&w, PD_FEAT_BPF_BTF, bt.data, bt.len);
	if (!ret)
		ret = pd_writer_begin_data(&w, &err);
	if (!ret)
		ret = pd_writer_write(&w, rec.data, rec.len, &err);
	if (!ret)
		ret = pd_writer_finish(&w, &err);
	else
		pd_writer_abort(&w);
	pd_buf_free(&rec);
	pd_buf_free(&pi);
	pd_buf_free(&bt);
	return ret;
}

/* The file offset of the feature's entry n (BPF_PROG_INFO or BPF_BTF). */
static uint64_t entry_offset(const char *path, int feat, int n)
{
	struct pd_reader r;
	struct pc_error err;
	uint64_t off;
	const uint8_t *p;

	if (pd_reader_open(&r, path, &err))
		return 0;
	off = r.features[feat].offset + 4;
	p = r.base + off;
	for (int i = 0; i < n; i++) {
		uint32_t a, b;

		memcpy(&a, p, 4);
		memcpy(&b, p + 4, 4);
		if (feat == PD_FEAT_BPF_PROG_INFO) {
			off += 16 + (uint64_t)a + b;
			p += 16 + (size_t)a + b;
		} else {
			off += 8 + (uint64_t)b;
			p += 8 + (size_t)b;
		}
	}
	pd_reader_close(&r);
	return off;
}

/* The lines of text that start with one of perf's BPF header prefixes. */
static char *bpf_lines(const char *text)
{
	char *out = calloc(1, strlen(text) + 1), *copy = strdup(text), *save = NULL;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (!strncmp(l, "# bpf_prog_info", 15) || !strncmp(l, "# \tsub_prog", 11) ||
		    !strncmp(l, "# btf info", 10)) {
			strcat(out, l);
			strcat(out, "\n");
		}
	free(copy);
	return out;
}

#define HEADER_LINES \
	"# bpf_prog_info 10:\n" \
	"# \tsub_prog 0: bpf_prog_0a1b2c3d4e5f7081_pc_main addr 0xffffffffc0001000 size 20\n" \
	"# \tsub_prog 1: bpf_prog_92a3b4c5d6e7f809_pc_sub addr 0xffffffffc0001040 size 21\n" \
	"# bpf_prog_info 20: bpf_prog_1425364758697a8b_pc_one addr 0xffffffffc0002000 size 20\n" \
	"# bpf_prog_info 30:\n" \
	"# \tsub_prog 0: bpf_prog_1e2f405162738495_F addr 0xffffffffc0003000 size 20\n" \
	"# \tsub_prog 1: bpf_prog_a6b7c8d9eafb0c1d_F addr 0xffffffffc0003040 size 21\n" \
	"# bpf_prog_info 40:\n" \
	"# bpf_prog_info 50:\n" \
	"# btf info of id 3\n" \
	"# btf info of id 7\n"

TEST_F(bh, report_header_shows_programs_in_id_order_and_btf_ids)
{
	char *lines;

	ASSERT_EQ(0, write_file(self, -1, GOOD, 0));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "--header-only", "-i", self->path, NULL,
				  NULL, NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	lines = bpf_lines(self->run.out);
	EXPECT_STREQ(HEADER_LINES, lines);
	free(lines);
}

TEST_F(bh, script_header_shows_the_same_lines)
{
	char *lines;

	ASSERT_EQ(0, write_file(self, -1, GOOD, 0));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--header", "-i", self->path, NULL, NULL,
				  NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	lines = bpf_lines(self->run.out);
	EXPECT_STREQ(HEADER_LINES, lines);
	free(lines);
}

#define KSYM_LINE "           alpha   100     1.000001: PERF_RECORD_KSYMBOL addr " \
	"ffffffffc0002000 len 20 type 1 flags 0x0 name bpf_prog_1425364758697a8b_pc_one\n"
#define BPF_LINE "           alpha   100     1.000001: PERF_RECORD_BPF_EVENT type 1, " \
	"flags 0, id 20\n"
#define SAMPLE_LINE "           alpha   100     1.000002:     250000 cpu-clock:  " \
	"ffff888000001010 [unknown] ([unknown])\n"

TEST_F(bh, show_bpf_events_prints_ksymbol_and_bpf_event_among_samples)
{
	ASSERT_EQ(0, write_file(self, -1, GOOD, 0));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--compat", "6.1", "--show-bpf-events",
				  "-i", self->path, NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(KSYM_LINE BPF_LINE SAMPLE_LINE, self->run.out);
}

TEST_F(bh, without_the_option_only_samples_show)
{
	ASSERT_EQ(0, write_file(self, -1, GOOD, 0));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--compat", "6.1", "-i", self->path,
				  NULL, NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_EQ(NULL, strstr(self->run.out, "PERF_RECORD_")) TH_LOG("%s", self->run.out);
}

/* perf 6.1 takes thread -1 (":-1") and time 0 for them */
TEST_F(bh, without_sample_id_all_the_thread_is_minus_one)
{
	pc_attr_set(&self->a.attr, PC_ATTR_sample_id_all, 0);
	ASSERT_EQ(0, write_file(self, -1, GOOD, 0));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--compat", "6.1", "--show-bpf-events",
				  "-i", self->path, NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_EQ(self->run.out, strstr(self->run.out,
		"             :-1    -1     0.000000: PERF_RECORD_KSYMBOL addr ffffffffc0002000 "
		"len 20 type 1 flags 0x0 name bpf_prog_1425364758697a8b_pc_one\n"
		"             :-1    -1     0.000000: PERF_RECORD_BPF_EVENT type 1, flags 0, "
		"id 20\n")) TH_LOG("%s", self->run.out);
}

static void expect_refused(struct __test_metadata *_metadata, FIXTURE_DATA(bh) *self,
			   uint64_t off, const char *what)
{
	char want[640];

	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "--header-only", "-i", self->path, NULL,
				  NULL, NULL));
	EXPECT_EQ(2, self->run.exit_code);
	snprintf(want, sizeof(want), "%s: offset 0x%llx: ", self->path, (unsigned long long)off);
	EXPECT_NE(NULL, strstr(self->run.err, want)) TH_LOG("want %s in: %s", want, self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, what)) TH_LOG("want %s in: %s", what, self->run.err);
}

TEST_F(bh, func_info_past_the_entry_data_is_refused)
{
	ASSERT_EQ(0, write_file(self, 1, FUNC_INFO_PAST_DATA, 0));
	expect_refused(_metadata, self, entry_offset(self->path, PD_FEAT_BPF_PROG_INFO, 1),
		       "bpf_prog_info 10: func_info");
}

TEST_F(bh, fewer_prog_tags_than_functions_is_refused)
{
	ASSERT_EQ(0, write_file(self, 2, FEW_TAGS, 0));
	expect_refused(_metadata, self, entry_offset(self->path, PD_FEAT_BPF_PROG_INFO, 2),
		       "1 prog_tags for 2 JITed functions");
}

/* (perf 6.1 reads address 0 there and crashes) */
TEST_F(bh, functions_without_their_ksyms_array_are_refused)
{
	ASSERT_EQ(0, write_file(self, 0, NO_KSYMS, 0));
	expect_refused(_metadata, self, entry_offset(self->path, PD_FEAT_BPF_PROG_INFO, 0),
		       "bpf_prog_info 20: 1 JITed functions but no jited_ksyms array");
}

TEST_F(bh, entry_running_past_the_feature_is_refused)
{
	ASSERT_EQ(0, write_file(self, 5, DATA_PAST_END, 0));
	expect_refused(_metadata, self, entry_offset(self->path, PD_FEAT_BPF_PROG_INFO, 5),
		       "run past the feature's end");
}

TEST_F(bh, btf_entry_cut_short_is_refused)
{
	ASSERT_EQ(0, write_file(self, -1, GOOD, 30));
	expect_refused(_metadata, self, entry_offset(self->path, PD_FEAT_BPF_BTF, 2),
		       "bytes of BTF run past the feature's end");
}

TEST_F(bh, btf_name_offset_past_the_strings_is_refused)
{
	ASSERT_EQ(0, write_file(self, -1, GOOD, BTF_NAME_PAST));
	/* program 10's second function is named by BTF id 7's type 4 */
	expect_refused(_metadata, self, entry_offset(self->path, PD_FEAT_BPF_BTF, 0),
		       "a type's name offset is past the strings");
}

/* (perf 6.1's libbpf rejects such BTF and names the functions "_F") */
TEST_F(bh, btf_type_of_unknown_kind_is_refused)
{
	ASSERT_EQ(0, write_file(self, -1, GOOD, BTF_KIND_BAD));
	expect_refused(_metadata, self, entry_offset(self->path, PD_FEAT_BPF_BTF, 0),
		       "a type of unknown kind, type id (4)");
}

TEST_HARNESS_MAIN
