// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop on any host, without a VM: fixtures/upstream holds files
 * written by Debian's perf 7.2 on the 7.2 kernel (with and without
 * --call-graph fp,defer) and by perf 6.12 on 6.12, with perf's own `perf
 * script` output beside each, harvested from matrix runs
 * (vm/upstream/harvest).  `perfcheck script` must print what perf printed:
 * the same samples, headers, callchain addresses (deferred user chains
 * merged, or shown as perf 7.2 shows them unmerged) and user symbols,
 * resolved here in the fixture's copy of the workload (--symfs).  Kernel
 * symbols are perf's alone: the guest's kallsyms is not kept.
 *
 * The comparison itself (interop_script.h) is tested here too, on the same
 * files: it must see a changed address, header or symbol, and a lost sample.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "interop_script.h"
#include "interop_tools.h"
#include "lib/perfcmp.h"

struct fx {
	char dir[PATH_MAX];
	char compat[8];
	char *perf_text;
};

/* The fixture NAME's directory, perf's script output (FILE) and the
 * layout of the perf that wrote it; -1 when the fixture is missing. */
static int fx_load(struct fx *x, const char *name, const char *file)
{
	char rel[256], path[PATH_MAX + 64];
	const char *dir;
	char *meta;

	memset(x, 0, sizeof(*x));
	/* a guest has the fixtures under /perfcheck too */
	snprintf(rel, sizeof(rel), "fixtures/upstream/%s/meta", name);
	dir = up_find_source(NULL, rel, rel);
	if (!dir)
		return -1;
	snprintf(x->dir, sizeof(x->dir), "%.*s", (int)(strlen(dir) - 5), dir);
	meta = pc_test_slurp(dir, NULL);
	snprintf(x->compat, sizeof(x->compat), "7.2");
	if (meta && strstr(meta, "perf version ")) {
		struct up_version v = { 0 };

		sscanf(strstr(meta, "perf version ") + 13, "%d.%d", &v.major, &v.minor);
		snprintf(x->compat, sizeof(x->compat), "%s", up_compat(&v));
	}
	free(meta);
	snprintf(path, sizeof(path), "%s/%s", x->dir, file);
	x->perf_text = pc_test_slurp(path, NULL);
	return x->perf_text ? 0 : -1;
}

static char *pc_script(struct __test_metadata *_metadata, const struct fx *x, bool no_merge)
{
	char data[PATH_MAX + 16], symfs[PATH_MAX + 16];
	char *argv[] = { (char *)pc_test_perfcheck(), "script", "--compat", (char *)x->compat,
			 "--symfs", symfs, "-i", data,
			 no_merge ? "--no-merge-callchains" : NULL, NULL };
	struct pc_run run;
	char *out;

	snprintf(data, sizeof(data), "%s/perf.data", x->dir);
	snprintf(symfs, sizeof(symfs), "%s/symfs", x->dir);
	if (up_run(&run, 300, argv))
		return NULL;
	EXPECT_EQ(0, run.exit_code) TH_LOG("perfcheck script: %s", run.err);
	EXPECT_STREQ("", run.err ? run.err : "");
	out = run.out;
	run.out = NULL;
	pc_run_free(&run);
	return out;
}

FIXTURE(upstream_file) {
	struct fx x;
};

FIXTURE_VARIANT(upstream_file) {
	const char *name;		/* fixtures/upstream/NAME */
	const char *file;		/* perf's output in it */
	bool no_merge;
	int min_samples;
	int min_deferred;		/* DEFERRED CALLCHAIN blocks (unmerged) */
};

FIXTURE_VARIANT_ADD(upstream_file, perf_7_2_fp) {
	.name = "7.2-fp", .file = "perf-script.txt", .min_samples = 50 };
FIXTURE_VARIANT_ADD(upstream_file, perf_7_2_fp_defer_merged) {
	.name = "7.2-fp-defer", .file = "perf-script.txt", .min_samples = 50 };
FIXTURE_VARIANT_ADD(upstream_file, perf_7_2_fp_defer_unmerged) {
	.name = "7.2-fp-defer-no-merge", .file = "perf-script-no-merge.txt", .no_merge = true,
	.min_samples = 50, .min_deferred = 20 };
FIXTURE_VARIANT_ADD(upstream_file, perf_6_12_fp) {
	.name = "6.12-fp", .file = "perf-script.txt", .min_samples = 50 };
/* arm64: perf 6.1's --call-graph dwarf file from the 6.1 arm64 guest, unwound here with libdw */
FIXTURE_VARIANT_ADD(upstream_file, perf_6_1_arm64_dwarf) {
	.name = "6.1-arm64-dwarf", .file = "perf-script.txt", .min_samples = 50 };
/* arm64: perf 7.2's -g file from the 7.2 arm64 guest: its chains hold the leaf's caller
 * that perf adds from the sampled LR (147 frames such as work_leaf+0x13 under mix+0x0) */
FIXTURE_VARIANT_ADD(upstream_file, perf_7_2_arm64_fp) {
	.name = "7.2-arm64-fp", .file = "perf-script.txt", .min_samples = 50 };
/* arm64: perf 6.1's -g file from the 6.1 arm64 guest: perf 6.1 adds the leaf's caller
 * (LR - 1) also where the leaf has stored its frame record (848 of 999 samples,
 * work_leaf+0x13 above work_leaf+0x14), which perf 7.2 does not */
FIXTURE_VARIANT_ADD(upstream_file, perf_6_1_arm64_fp) {
	.name = "6.1-arm64-fp", .file = "perf-script.txt", .min_samples = 50 };

/* perf 7.2 on this kind of host: a static-pie program with DWARF inline frames (see below) */
FIXTURE_VARIANT_ADD(upstream_file, perf_7_2_host_inline) {
	.name = "7.2-host-inline", .file = "perf-script.txt", .min_samples = 50 };

FIXTURE_SETUP(upstream_file)
{
	ASSERT_EQ(0, fx_load(&self->x, variant->name, variant->file))
		TH_LOG("fixtures/upstream/%s/%s is missing (vm/upstream/harvest)", variant->name,
		       variant->file);
}

FIXTURE_TEARDOWN(upstream_file)
{
	free(self->x.perf_text);
}

TEST_F(upstream_file, perfcheck_script_prints_what_upstream_perf_script_printed)
{
	char *ours = pc_script(_metadata, &self->x, variant->no_merge);
	struct is_cmp c;
	char sum[512];
	int ret;

	ASSERT_NE(NULL, ours);
	ret = is_compare_text(self->x.perf_text, ours, &c);
	is_cmp_summary(&c, sum, sizeof(sum));
	TH_LOG("%s: %s", variant->name, sum);
	if (ret)
		ksft_print_msg("%s\n", c.why);	/* the reason the matrix shows */
	EXPECT_EQ(0, ret) TH_LOG("%s: %s", variant->name, c.why);
	EXPECT_LE(variant->min_samples, c.samples);
	EXPECT_LE(variant->min_deferred, c.deferred_blocks);
	/* user frames resolved on both sides, in the fixture's workload */
	EXPECT_LT(0, c.sym_both);
	free(ours);
}

/* text without its "# captured on" line: the file's mtime, which a checkout resets */
static void drop_capture_time(char *t)
{
	char *p = t ? strstr(t, "# captured on") : NULL;
	char *nl = p ? strchr(p, '\n') : NULL;

	if (nl)
		memmove(p, nl + 1, strlen(nl + 1) + 1);
}

/*
 * report --header-only -I in the default layout against perf 7.2's on the
 * same files (kept as perf72-header-I.txt): the event lines with type and
 * config named (a hardware cycles event from the arm64 guest among them),
 * empty BPF features said, perf 7.2's CPU_DOMAIN_INFO, E_MACHINE, CLN_SIZE
 */
TEST(header_of_upstream_files_is_perf_7_2s)
{
	static const char *const dirs[] = { "7.2-fp", "7.2-arm64-fp", "6.1-arm64-dwarf" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		struct fx x;
		char path[PATH_MAX + 64], *perf;
		char *argv[] = { (char *)pc_test_perfcheck(), "report", "--header-only", "-I", "-i",
				 path, NULL };
		struct pc_run run;
		char first[800];

		ASSERT_EQ(0, fx_load(&x, dirs[i], "perf72-header-I.txt")) TH_LOG("%s", dirs[i]);
		perf = x.perf_text;
		snprintf(path, sizeof(path), "%s/perf.data", x.dir);
		ASSERT_EQ(0, up_run(&run, 120, argv));
		EXPECT_EQ(0, run.exit_code) TH_LOG("%s: %s", dirs[i], run.err);
		drop_capture_time(perf);
		drop_capture_time(run.out);
		EXPECT_NE(NULL, strstr(perf, "# event : name = ")) TH_LOG("%s", dirs[i]);
		EXPECT_TRUE(perfcmp_same(perf, run.out ? run.out : "", first, sizeof(first)))
			TH_LOG("%s: first difference at %s", dirs[i], first);
		pc_run_free(&run);
		free(x.perf_text);
	}
}

/*
 * ------------------------------------------- perf 7.2's layout, byte for byte
 *
 * fixtures/upstream/7.2-host-inline (its record.sh): perf 7.2 recorded a
 * static-pie program built with DWARF and frame pointers, user space only
 * (no kernel symbols to differ), whose hot loop is an always_inline
 * function, whose caller shown() calls it from an inlined helper, and
 * whose hidden() has its symbol removed.  perfcheck's default layout is
 * perf 7.2's: its output must be perf's, every byte (perf report's random
 * closing tip cut).
 */
FIXTURE(inline_file) {
	struct fx x;
	struct pc_run run;
};

FIXTURE_SETUP(inline_file)
{
	memset(&self->run, 0, sizeof(self->run));
	ASSERT_EQ(0, fx_load(&self->x, "7.2-host-inline", "perf-script.txt"))
		TH_LOG("fixtures/upstream/7.2-host-inline is missing (its record.sh)");
}

FIXTURE_TEARDOWN(inline_file)
{
	free(self->x.perf_text);
	pc_run_free(&self->run);
}

/*
 * perfcheck SUB [OPT [OPT2]] --symfs DIR/symfs -i DIR/perf.data in the
 * default layout, into run: its output (the exit status checked by the caller)
 */
static const char *pc_run_fixture(const struct fx *x, struct pc_run *run, const char *sub,
				  const char *opt, const char *opt2)
{
	char data[PATH_MAX + 16], symfs[PATH_MAX + 16];
	char *argv[9] = { (char *)pc_test_perfcheck(), (char *)sub, "--symfs", symfs, "-i", data,
			  (char *)opt, opt ? (char *)opt2 : NULL };

	snprintf(data, sizeof(data), "%s/perf.data", x->dir);
	snprintf(symfs, sizeof(symfs), "%s/symfs", x->dir);
	if (up_run(run, 300, argv))
		return NULL;
	return run->out ? run->out : "";
}

/* the same, exiting 0 */
static const char *pc_default(struct __test_metadata *_metadata, const struct fx *x,
			      struct pc_run *run, const char *sub, const char *opt,
			      const char *opt2)
{
	const char *out = pc_run_fixture(x, run, sub, opt, opt2);

	EXPECT_EQ(0, run->exit_code) TH_LOG("perfcheck %s: %s", sub, run->err);
	return out;
}

/* perf's output kept as FILE in the fixture, its closing tip cut */
static char *perf_kept(const struct fx *x, const char *file)
{
	char path[PATH_MAX + 64];
	char *text;

	snprintf(path, sizeof(path), "%s/%s", x->dir, file);
	text = pc_test_slurp(path, NULL);
	if (text)
		perfcmp_cut_tip(text);
	return text;
}

static void expect_same_text(struct __test_metadata *_metadata, const char *what,
			     const char *perf, const char *ours)
{
	char first[800];

	ASSERT_NE(NULL, ours);
	EXPECT_TRUE(perfcmp_same(perf, ours, first, sizeof(first)))
		TH_LOG("%s: first difference at %s", what, first);
}

/* perf 7.2 adds the inline frames at every user frame of a frame-pointer chain */
TEST_F(inline_file, script_adds_inline_frames_to_frame_pointer_chains_as_perf_7_2)
{
	const char *ours = pc_default(_metadata, &self->x, &self->run, "script", NULL, NULL);

	/* at the sampled address, and at a caller's return address */
	EXPECT_LE(50, pc_count_substr(self->x.perf_text, " mix+0x"));
	EXPECT_LE(10, pc_count_substr(self->x.perf_text, " twice+0x"));
	expect_same_text(_metadata, "perfcheck script", self->x.perf_text, ours);
}

/* --no-inline: the chains without their inlined entries, as perf 7.2 prints them */
TEST_F(inline_file, script_no_inline_leaves_the_inline_frames_out_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-script-no-inline.txt");
	const char *ours = pc_default(_metadata, &self->x, &self->run, "script", "--no-inline", NULL);

	ASSERT_NE(NULL, perf);
	EXPECT_EQ(0, pc_count_substr(perf, "(inlined)"));
	EXPECT_LE(50, pc_count_substr(perf, " main+0x"));
	expect_same_text(_metadata, "perfcheck script --no-inline", perf, ours);
	free(perf);
}

/* report --no-inline: no rows or graph nodes of inlined functions */
TEST_F(inline_file, report_no_inline_has_no_inlined_rows_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-no-inline.txt");
	const char *ours = pc_default(_metadata, &self->x, &self->run, "report", "--no-inline", NULL);

	ASSERT_NE(NULL, perf);
	EXPECT_EQ(0, pc_count_substr(perf, "(inlined)"));
	expect_same_text(_metadata, "perfcheck report --no-inline", perf, ours);
	free(perf);
}

/*
 * perf 7.2's Children rows: a row per inlined function, and an unresolved
 * caller frame is a row at its sampled address, apart from the row of
 * samples at that address (shown at the object's address)
 */
TEST_F(inline_file, report_children_rows_and_graphs_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report.txt");
	const char *ours = pc_default(_metadata, &self->x, &self->run, "report", NULL, NULL);

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "[.] twice (inlined)"));
	EXPECT_LE(2, pc_count_substr(perf, "[.] 0x00007f"));
	expect_same_text(_metadata, "perfcheck report", perf, ours);
	free(perf);
}

TEST_F(inline_file, report_self_rows_and_graphs_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-no-children.txt");
	const char *ours = pc_default(_metadata, &self->x, &self->run, "report", "--no-children", NULL);

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "mix (inlined)"));
	expect_same_text(_metadata, "perfcheck report --no-children", perf, ours);
	free(perf);
}

/*
 * -s srcline, Self rows: perf makes a row per sampled address and merges
 * the rows of one line afterwards, the later ones' call graphs without
 * their symbols (bare addresses); a sample in hidden(), which has no
 * symbol, still has its line
 */
TEST_F(inline_file, report_srcline_self_rows_merge_the_lines_of_many_addresses_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-srcline-no-children.txt");
	const char *ours = pc_default(_metadata, &self->x, &self->run, "report", "--no-children",
				      "--sort=srcline");

	ASSERT_NE(NULL, perf);
	EXPECT_EQ(NULL, strstr(perf, "??:0"));
	EXPECT_NE(NULL, strstr(perf, "--0x7ffb5a8a47a7\n            |          0x7ffb5a8a45c3"));
	expect_same_text(_metadata, "perfcheck report --no-children -s srcline", perf, ours);
	free(perf);
}

/*
 * -s srcline, Children: a callchain address is charged once per sample,
 * at the line of the real function there (spin's call of mix, not mix's
 * loop); a frame without a symbol is object[address] at its unmapped
 * address
 */
TEST_F(inline_file, report_srcline_children_rows_take_the_callers_line_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-srcline.txt");
	const char *ours = pc_default(_metadata, &self->x, &self->run, "report", "--sort=srcline",
				      NULL);

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "    91.89%     0.00%  work.c:27"));
	EXPECT_NE(NULL, strstr(perf, "    78.98%    78.98%  work.c:10"));
	EXPECT_NE(NULL, strstr(perf, "  work[7ffb5a8a475c]"));
	expect_same_text(_metadata, "perfcheck report -s srcline", perf, ours);
	free(perf);
}

/* -s srcline,sym: each entry of an inline expansion is a row at its own function's line */
TEST_F(inline_file, report_srcline_sym_rows_of_each_inlined_entry_at_its_line_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-srcline-sym.txt");
	const char *ours = pc_default(_metadata, &self->x, &self->run, "report",
				      "--sort=srcline,sym", NULL);

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "work.c:35           [.] twice (inlined)"));
	EXPECT_NE(NULL, strstr(perf, "work.c:50           [.] shown"));
	expect_same_text(_metadata, "perfcheck report -s srcline,sym", perf, ours);
	free(perf);
}

/*
 * -s srcfile, Children: perf looks a callchain entry's file up at its
 * unmapped address, as if it were the object's, and finds none there: every
 * entry's row (one per address and sample, as srcline's) is "", merged into
 * one row of 593%; only the samples' own rows name work.c
 */
TEST_F(inline_file, report_srcfile_children_rows_of_callchain_entries_have_no_file_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-srcfile.txt");
	const char *ours = pc_default(_metadata, &self->x, &self->run, "report", "--sort=srcfile",
				      NULL);

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "   593.09%     0.00%  \n"));
	EXPECT_NE(NULL, strstr(perf, "   100.00%   100.00%  work.c\n"));
	expect_same_text(_metadata, "perfcheck report -s srcfile", perf, ours);
	free(perf);
}

/*
 * -s srcfile, Self rows: a row per sampled address, the rows of one file
 * merged afterwards, their call graphs without symbols (bare addresses)
 */
TEST_F(inline_file, report_srcfile_self_rows_merge_the_files_of_many_addresses_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-srcfile-no-children.txt");
	const char *ours = pc_default(_metadata, &self->x, &self->run, "report", "--no-children",
				      "--sort=srcfile");

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "|--73.57%--0x7ffb5a8a4727\n"));
	expect_same_text(_metadata, "perfcheck report --no-children -s srcfile", perf, ours);
	free(perf);
}

/* -s srcfile,sym: each callchain entry a row of its symbol with no file */
TEST_F(inline_file, report_srcfile_sym_rows_of_callchain_entries_have_no_file_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-srcfile-sym.txt");
	const char *ours = pc_default(_metadata, &self->x, &self->run, "report",
				      "--sort=srcfile,sym", NULL);

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "    93.09%    93.09%  work.c       [.] spin\n"));
	EXPECT_NE(NULL, strstr(perf, "    93.09%     0.00%               [.] spin\n"));
	expect_same_text(_metadata, "perfcheck report -s srcfile,sym", perf, ours);
	free(perf);
}

/*
 * -s srcfile,srcline: a callchain entry has the line its inline expansion
 * gave it but no file, which perf looks up on its own at the unmapped
 * address
 */
TEST_F(inline_file, report_srcfile_of_a_callchain_entry_is_empty_beside_its_line_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-srcfile-srcline.txt");
	const char *ours = pc_default(_metadata, &self->x, &self->run, "report",
				      "--sort=srcfile,srcline", "--call-graph=none");

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "    91.89%     0.00%               work.c:27\n"));
	expect_same_text(_metadata, "perfcheck report -s srcfile,srcline -g none", perf, ours);
	free(perf);
}

/* The address record.sh kept for -S (the sampled address of most samples), "0x..." */
static void kept_address(const struct fx *x, char *buf, size_t size)
{
	char *text = perf_kept(x, "symbol-address.txt");

	snprintf(buf, size, "%.*s", text ? (int)strcspn(text, "\n") : 0, text ? text : "");
	free(text);
}

/*
 * -S with an address: perf moves entries that read as hex numbers from
 * its symbol list to an address list, which samples at that address pass
 * (with "spin" beside it: samples in spin too); the list of names is then
 * one entry, so the Symbol column is elided and "# symbol: spin" printed
 */
TEST_F(inline_file, report_symbol_filter_takes_an_address_as_perf_7_2)
{
	char addr[64], opt[96];
	char *perf = perf_kept(&self->x, "perf-report-symbol-address.txt");
	const char *ours;

	ASSERT_NE(NULL, perf);
	kept_address(&self->x, addr, sizeof(addr));
	ASSERT_EQ(0, strncmp(addr, "0x", 2)) TH_LOG("symbol-address.txt: '%s'", addr);
	snprintf(opt, sizeof(opt), "--symbols=spin,%s", addr);
	ours = pc_default(_metadata, &self->x, &self->run, "report", opt, NULL);
	EXPECT_NE(NULL, strstr(perf, "# symbol: spin\n"));
	expect_same_text(_metadata, "perfcheck report -S spin,ADDRESS", perf, ours);
	free(perf);
}

/* script -S ADDRESS --addr-range 8: the samples at ADDRESS and the 7 bytes after it */
TEST_F(inline_file, script_symbol_address_range_filter_as_perf_7_2)
{
	char addr[64], opt[96];
	char *perf = perf_kept(&self->x, "perf-script-symbol-address-range.txt");
	const char *ours;

	ASSERT_NE(NULL, perf);
	kept_address(&self->x, addr, sizeof(addr));
	snprintf(opt, sizeof(opt), "--symbols=%s", addr);
	ours = pc_default(_metadata, &self->x, &self->run, "script", opt, "--addr-range=8");
	EXPECT_LT(0, pc_count_substr(perf, " cpu-clock:u:"));
	expect_same_text(_metadata, "perfcheck script -S ADDRESS --addr-range 8", perf, ours);
	free(perf);
}

/*
 * ------------------------------------------------ perf 6.15+'s latency
 *
 * fixtures/upstream/7.2-host-latency (its record.sh): perf 7.2 recorded,
 * with context switch records, a static-pie process and its child
 * spinning side by side, then the parent alone.  perf 7.2's report divides
 * each sample's period by the threads running at the time (counted from
 * the switch and exit records) and sorts the rows by that latency after
 * each share (its hidden keys), and shows Latency columns where more than
 * 1% of the samples ran beside another thread; --latency puts each
 * Latency first and sorts by it.
 */
FIXTURE(latency_file) {
	struct fx x;
	struct pc_run run;
};

FIXTURE_SETUP(latency_file)
{
	memset(&self->run, 0, sizeof(self->run));
	ASSERT_EQ(0, fx_load(&self->x, "7.2-host-latency", "perf-report.txt"))
		TH_LOG("fixtures/upstream/7.2-host-latency is missing (its record.sh)");
}

FIXTURE_TEARDOWN(latency_file)
{
	free(self->x.perf_text);
	pc_run_free(&self->run);
}

static void expect_kept_report(struct __test_metadata *_metadata, FIXTURE_DATA(latency_file) *self,
			       const char *file, const char *opt, const char *opt2)
{
	char *perf = perf_kept(&self->x, file);
	const char *ours = pc_default(_metadata, &self->x, &self->run, "report", opt, opt2);

	ASSERT_NE(NULL, perf);
	/* the samples that ran beside the child: Latency columns */
	EXPECT_NE(NULL, strstr(perf, "Latency"));
	expect_same_text(_metadata, file, perf, ours);
	free(perf);
}

/* one key: rows of equal Overhead in the order of their latency, Latency shown */
TEST_F(latency_file, report_rows_of_equal_overhead_sort_by_latency_as_perf_7_2)
{
	expect_kept_report(_metadata, self, "perf-report-sym.txt", "--no-children", "--sort=sym");
}

TEST_F(latency_file, report_self_rows_show_latency_beside_overhead_as_perf_7_2)
{
	expect_kept_report(_metadata, self, "perf-report-no-children.txt", "--no-children", NULL);
}

/* Children's latency too, of every row a sample charges, twins merged */
TEST_F(latency_file, report_children_rows_show_latency_beside_each_share_as_perf_7_2)
{
	expect_kept_report(_metadata, self, "perf-report.txt", NULL, NULL);
}

/* --hierarchy: each level's rows by latency after their share, Latency beside Overhead */
TEST_F(latency_file, report_hierarchy_levels_show_and_sort_by_latency_as_perf_7_2)
{
	expect_kept_report(_metadata, self, "perf-report-hierarchy.txt", "--hierarchy",
			   "--no-children");
}

/* -F's latency and latency_children: columns, and the order where they come */
TEST_F(latency_file, report_fields_latency_columns_sort_where_named_as_perf_7_2)
{
	expect_kept_report(_metadata, self, "perf-report-fields.txt",
			   "--fields=latency_children,overhead_children,latency,sym", NULL);
}

/*
 * -s parallelism: a row per number of threads running, ascending; perf's
 * check of the rows a sample already charged never matches then (it
 * leaves the parallelism out of what it compares), so Children adds up
 * each frame: above 100%
 */
TEST_F(latency_file, report_parallelism_key_rows_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-parallelism.txt");

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "Parallelism"));
	EXPECT_NE(NULL, strstr(perf, "515.26%"));
	free(perf);
	expect_kept_report(_metadata, self, "perf-report-parallelism.txt", "--sort=parallelism",
			   NULL);
	pc_run_free(&self->run);
	expect_kept_report(_metadata, self, "perf-report-sym-parallelism.txt",
			   "--sort=sym,parallelism", "--call-graph=none");
}

/* --parallelism 2: the rows of the samples taken beside the child alone */
TEST_F(latency_file, report_parallelism_filter_keeps_those_levels_as_perf_7_2)
{
	expect_kept_report(_metadata, self, "perf-report-parallelism-2.txt", "--parallelism=2",
			   "--no-children");
}

/*
 * perf 6.15+ compares a row's filtered state before its keys: a hidden row
 * steers every search of its input tree, so the twins of a row (and where
 * their graphs merge as bare addresses) follow the filter.  -S spin hides
 * the file's first sample (__tls_init_tp) alone, yet the spin row's graph
 * names frames the unfiltered report shows as addresses, and side_by_side's
 * inlined twice takes 85.26% where unfiltered it has 84.21%.
 */
TEST_F(latency_file, report_symbol_filter_children_graphs_follow_the_hidden_row_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-symbol-filter.txt");

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "# symbol: spin"));
	/* the spin row's branch of alone: an address unfiltered, named here */
	EXPECT_EQ(1, pc_count_substr(self->x.perf_text, "--33.68%--0x7fb6e10e27ac"));
	EXPECT_EQ(0, pc_count_substr(perf, "--33.68%--0x7fb6e10e27ac"));
	EXPECT_NE(NULL, strstr(perf, "--85.26%--twice (inlined)"));
	EXPECT_EQ(NULL, strstr(self->x.perf_text, "--85.26%--twice (inlined)"));
	free(perf);
	expect_kept_report(_metadata, self, "perf-report-symbol-filter.txt", "--symbols=spin", NULL);
}

/* --parallelism 1 with Children: the rows of the samples beside the child hidden, apart */
TEST_F(latency_file, report_parallelism_filter_children_graphs_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-parallelism-1.txt");

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "45.79%   65.17%    40.00%    56.93%  par      par"));
	free(perf);
	expect_kept_report(_metadata, self, "perf-report-parallelism-1.txt", "--parallelism=1",
			   NULL);
}

/* --tid (the child's) with Children: the parent's rows hidden, apart from the child's */
TEST_F(latency_file, report_thread_filter_children_graphs_as_perf_7_2)
{
	expect_kept_report(_metadata, self, "perf-report-tid-filter.txt", "--tid=14818", NULL);
}

/*
 * -t: perf widens no object column for a row without a symbol (an
 * address's 16 without -t): the column is its title's 13, "Shared Object"
 * unpadded as the last one shown (-S spin leaves the Symbol column out)
 */
TEST_F(latency_file, report_separator_leaves_unresolved_rows_object_column_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-sep-symbol-filter.txt");

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "Latency,Command,Shared Object\n"));
	EXPECT_NE(NULL, strstr(perf, ",par    ,[unknown]    \n"));
	free(perf);
	expect_kept_report(_metadata, self, "perf-report-sep-symbol-filter.txt", "--field-separator=,",
			   "--symbols=spin");
}

/* --percentage relative: Latency too is of the rows shown (spin's Self latency 100%, not 99.25%) */
TEST_F(latency_file, report_relative_latency_is_of_the_rows_shown_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-symbol-filter-relative.txt");

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "166.67%   152.45%   100.00%   100.00%  par"));
	free(perf);
	expect_kept_report(_metadata, self, "perf-report-symbol-filter-relative.txt",
			   "--percentage=relative", "--symbols=spin");
}

TEST_F(latency_file, report_latency_option_puts_and_sorts_latency_first_as_perf_7_2)
{
	char *perf = perf_kept(&self->x, "perf-report-latency.txt");

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "# Latency  Children   Latency      Self"));
	free(perf);
	expect_kept_report(_metadata, self, "perf-report-latency.txt", "--latency", NULL);
}

/* -s srcline of two processes' samples: Children and Latency by line */
TEST_F(latency_file, report_srcline_children_rows_show_latency_as_perf_7_2)
{
	expect_kept_report(_metadata, self, "perf-report-srcline.txt", "--sort=srcline", NULL);
}

/*
 * -s srcline,sym: a row keeps the line of the frame that made it.  mix's
 * row, found again through the child's map, becomes spin's (its symbol
 * looked up again there) at mix's line, and perf's search then finds it
 * for spin's own entries, whose line is another: par.c:14 spin, not
 * par.c:29, takes most of spin's callchain entries
 */
TEST_F(latency_file, report_srcline_sym_rows_keep_the_line_of_the_frame_that_made_them)
{
	char *perf = perf_kept(&self->x, "perf-report-srcline-sym.txt");

	ASSERT_NE(NULL, perf);
	EXPECT_NE(NULL, strstr(perf, "   256.32%   241.20%    96.84%    96.63%  par.c:14 "));
	free(perf);
	expect_kept_report(_metadata, self, "perf-report-srcline-sym.txt", "--sort=srcline,sym",
			   NULL);
}

/* -s srcfile of two processes' samples: Children and Latency by file */
TEST_F(latency_file, report_srcfile_children_rows_show_latency_as_perf_7_2)
{
	expect_kept_report(_metadata, self, "perf-report-srcfile.txt", "--sort=srcfile", NULL);
}

/* a file without switch records has no latency: --latency refused as perf 7.2 refuses it */
TEST(report_latency_option_needs_switch_records)
{
	struct pc_run run = { 0 };
	struct fx x;

	ASSERT_EQ(0, fx_load(&x, "7.2-host-inline", "perf-script.txt"));
	pc_run_fixture(&x, &run, "report", "--latency", NULL);
	EXPECT_EQ(255, run.exit_code);
	EXPECT_STREQ("Error:\nUse of latency profile or parallelism requires --latency flag "
		     "during record.\n", run.err ? run.err : "");
	EXPECT_STREQ("", run.out ? run.out : "");
	pc_run_free(&run);
	free(x.perf_text);
}

/*
 * fixtures/upstream/7.2-host-adjacent-inline (its record.sh): page faults
 * (the same samples every time) in inlined functions nested four deep in
 * functions laid out side by side.  perf compares two inlined entries of
 * one name by their outer functions' ranges, ends included, so the
 * entries of one inlined function in two adjacent functions are one row of
 * the report: its Children the sum of both.
 */
/* perfcheck SUB OPT OPT2 on fixture NAME prints what perf printed into FILE there */
static void expect_fixture_output(struct __test_metadata *_metadata, const char *name,
				  const char *file, const char *sub, const char *opt,
				  const char *opt2)
{
	struct pc_run run = { 0 };
	struct fx x;
	char *perf;

	ASSERT_EQ(0, fx_load(&x, name, "perf-script.txt"))
		TH_LOG("fixtures/upstream/%s is missing", name);
	perf = perf_kept(&x, file);
	ASSERT_NE(NULL, perf);
	expect_same_text(_metadata, file, perf, pc_default(_metadata, &x, &run, sub, opt, opt2));
	free(perf);
	free(x.perf_text);
	pc_run_free(&run);
}

static void expect_adjacent(struct __test_metadata *_metadata, const char *file,
			    const char *sub, const char *opt)
{
	expect_fixture_output(_metadata, "7.2-host-adjacent-inline", file, sub, opt, NULL);
}

TEST(adjacent_inline_script_as_perf_7_2)
{
	expect_adjacent(_metadata, "perf-script.txt", "script", NULL);
}

/* "nest_three (inlined)" of outer_three and of outer_four: one row, as perf 7.2 */
TEST(adjacent_inline_entries_of_one_name_are_one_row_as_perf_7_2)
{
	expect_adjacent(_metadata, "perf-report.txt", "report", NULL);
}

TEST(adjacent_inline_self_rows_as_perf_7_2)
{
	expect_adjacent(_metadata, "perf-report-no-children.txt", "report", "--no-children");
}

/*
 * -s srcline of inlined functions nested four deep: a callchain address is
 * one row at its real function's line (outer_four's, not nest_three's)
 */
TEST(adjacent_inline_srcline_children_rows_at_the_real_functions_line_as_perf_7_2)
{
	expect_fixture_output(_metadata, "7.2-host-adjacent-inline", "perf-report-srcline.txt",
			      "report", "--sort=srcline", NULL);
}

TEST(adjacent_inline_srcline_self_rows_as_perf_7_2)
{
	expect_fixture_output(_metadata, "7.2-host-adjacent-inline",
			      "perf-report-srcline-no-children.txt", "report", "--no-children",
			      "--sort=srcline");
}

/*
 * -s srcfile: where addr2line answers "??:0" perf 7.2 shows "??" (it
 * compares the answer with its own unknown line, not the text); a row per
 * sampled address, merged by file
 */
TEST(adjacent_inline_srcfile_self_rows_of_an_unknown_line_are_question_marks_as_perf_7_2)
{
	expect_fixture_output(_metadata, "7.2-host-adjacent-inline",
			      "perf-report-srcfile-no-children.txt", "report", "--no-children",
			      "--sort=srcfile");
}

/*
 * fixtures/upstream/7.2-fp (perf 7.2.13's report -s srcline of it, with
 * --symfs, kept beside): pcwork has no DWARF, so perf 7.2 runs no
 * addr2line on it and a row is SYMBOL+OFFSET, a callchain row's offset
 * from its unmapped address, though a file symbol names pcwork.c
 */
TEST(fp_srcline_without_dwarf_is_symbol_and_offset_as_perf_7_2)
{
	expect_fixture_output(_metadata, "7.2-fp", "perf-report-srcline-no-children.txt",
			      "report", "--no-children", "--sort=srcline");
}

TEST(fp_srcline_children_rows_offset_from_the_unmapped_address_as_perf_7_2)
{
	expect_fixture_output(_metadata, "7.2-fp", "perf-report-srcline.txt", "report",
			      "--sort=srcline", NULL);
}

/*
 * -s srcfile of an object without DWARF (perf 7.2.13's report --stdio -s
 * srcfile --symfs symfs kept beside): no file, all rows one
 */
TEST(fp_srcfile_without_dwarf_is_one_row_of_no_file_as_perf_7_2)
{
	expect_fixture_output(_metadata, "7.2-fp", "perf-report-srcfile.txt", "report",
			      "--sort=srcfile", NULL);
}

/* ---------------------------------------------------- the comparison itself */

FIXTURE(comparison) {
	struct fx x;
};

FIXTURE_SETUP(comparison)
{
	ASSERT_EQ(0, fx_load(&self->x, "7.2-fp", "perf-script.txt"));
}

FIXTURE_TEARDOWN(comparison)
{
	free(self->x.perf_text);
}

/* perf's text with the first occurrence of from replaced by to. */
static char *edited(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t n = strlen(text) + strlen(to) + 1;
	char *out = malloc(n);

	if (!out || !at) {
		free(out);
		return NULL;
	}
	snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

/* The first callchain line of perf's text: "\t    ADDR SYM+OFF (DSO)". */
static int first_frame(const char *text, char *line, size_t len)
{
	const char *p = strstr(text, "\n\t");

	if (!p)
		return -1;
	p++;
	snprintf(line, len, "%.*s", (int)strcspn(p, "\n"), p);
	return 0;
}

TEST_F(comparison, agrees_with_itself)
{
	struct is_cmp c;

	EXPECT_EQ(0, is_compare_text(self->x.perf_text, self->x.perf_text, &c)) TH_LOG("%s", c.why);
	EXPECT_LT(50, c.samples);
}

TEST_F(comparison, sees_a_changed_callchain_address)
{
	char line[512], bad[1200], *text;
	struct is_cmp c;
	struct is_frame f;

	ASSERT_EQ(0, first_frame(self->x.perf_text, line, sizeof(line)));
	ASSERT_EQ(0, is_parse_frame(line, &f));
	snprintf(bad, sizeof(bad), "\t%16llx %s+%#llx (%s)", (unsigned long long)f.addr + 1, f.sym,
		 (unsigned long long)f.off, f.dso);
	text = edited(self->x.perf_text, line, bad);
	ASSERT_NE(NULL, text);
	EXPECT_NE(0, is_compare_text(self->x.perf_text, text, &c));
	EXPECT_NE(NULL, strstr(c.why, "address")) TH_LOG("%s", c.why);
	free(text);
}

TEST_F(comparison, sees_a_changed_symbol_both_resolve)
{
	char line[512], bad[1200], *text;
	struct is_cmp c;
	struct is_frame f;

	ASSERT_EQ(0, first_frame(self->x.perf_text, line, sizeof(line)));
	ASSERT_EQ(0, is_parse_frame(line, &f));
	ASSERT_STRNE("[unknown]", f.sym);
	snprintf(bad, sizeof(bad), "\t%16llx not_%s+%#llx (%s)", (unsigned long long)f.addr, f.sym,
		 (unsigned long long)f.off, f.dso);
	text = edited(self->x.perf_text, line, bad);
	ASSERT_NE(NULL, text);
	EXPECT_NE(0, is_compare_text(self->x.perf_text, text, &c));
	EXPECT_NE(NULL, strstr(c.why, "symbol")) TH_LOG("%s", c.why);
	free(text);
}

TEST_F(comparison, ignores_a_symbol_only_one_side_resolves)
{
	char line[512], bad[1200], *text;
	struct is_cmp c;
	struct is_frame f;

	ASSERT_EQ(0, first_frame(self->x.perf_text, line, sizeof(line)));
	ASSERT_EQ(0, is_parse_frame(line, &f));
	snprintf(bad, sizeof(bad), "\t%16llx [unknown] ([unknown])", (unsigned long long)f.addr);
	text = edited(self->x.perf_text, line, bad);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, is_compare_text(self->x.perf_text, text, &c)) TH_LOG("%s", c.why);
	EXPECT_EQ(1, c.sym_only_a);
	free(text);
}

TEST_F(comparison, sees_a_changed_time_and_a_lost_sample)
{
	struct is_script s;
	struct is_cmp c;
	char *copy = strdup(self->x.perf_text), *text, why[128], from[64], to[64];
	const char *second;

	ASSERT_EQ(0, is_parse(copy, &s, why, sizeof(why)));
	ASSERT_LT(2, s.nr);
	snprintf(from, sizeof(from), " %s: ", s.samples[0].time);
	snprintf(to, sizeof(to), " %s9: ", s.samples[0].time);
	is_free(&s);
	free(copy);
	text = edited(self->x.perf_text, from, to);
	ASSERT_NE(NULL, text);
	EXPECT_NE(0, is_compare_text(self->x.perf_text, text, &c));
	EXPECT_NE(NULL, strstr(c.why, "header")) TH_LOG("%s", c.why);
	free(text);

	/* the text from the second sample on: the first is lost */
	second = strstr(self->x.perf_text, "\n\n");
	ASSERT_NE(NULL, second);
	EXPECT_NE(0, is_compare_text(self->x.perf_text, second + 2, &c));
}

TEST_F(comparison, accepts_perf_6_1_and_7_2_column_widths)
{
	char *text, *copy = strdup(self->x.perf_text), why[128], from[96], to[96];
	struct is_script s;
	struct is_cmp c;

	ASSERT_EQ(0, is_parse(copy, &s, why, sizeof(why)));
	snprintf(from, sizeof(from), "%s ", s.samples[0].comm);
	snprintf(to, sizeof(to), "%s   ", s.samples[0].comm);
	is_free(&s);
	free(copy);
	text = edited(self->x.perf_text, from, to);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, is_compare_text(self->x.perf_text, text, &c)) TH_LOG("%s", c.why);
	free(text);
}

TEST_HARNESS_MAIN
