// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record with every option family, on whatever kernel this is:
 * each recording succeeds (the open ladder clears what the kernel lacks),
 * gives the exit code it should, leaves a valid file, and the file's
 * PERFCHECK_OPEN section says exactly which requested features were
 * cleared: those the probe finds missing on this kernel, and no other.
 */
#include "kselftest_harness.h"
#include "xk_common.h"

FIXTURE(rec)
{
	struct xk_dir d;
};

FIXTURE_VARIANT(rec)
{
	const char *opts[12];
	const char *wl[4];
	int exit_code;
	int samples;		/* 1: the file holds samples, -1: none, 0: either */
	int needs;		/* 1 + a feature that is never dropped: refused where missing */
};

#define SPIN { "spin", "300", NULL }

FIXTURE_VARIANT_ADD(rec, period) {
	.opts = { "-e", "cpu-clock", "-c", "1000000", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, frequency) {
	.opts = { "-e", "cpu-clock", "-F", "500", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, callgraph_fp) {
	.opts = { "-c", "1000000", "-g", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, callgraph_fp_defer) {
	.opts = { "-c", "1000000", "--call-graph", "fp,defer", NULL },
	.wl = { "syscalls", "300", NULL }, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, stat_inherit_sample_read) {
	.opts = { "-c", "1000000", "-s", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, no_inherit) {
	.opts = { "-c", "1000000", "--no-inherit", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, switch_events) {
	.opts = { "-c", "1000000", "--switch-events", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, several_events) {
	.opts = { "-e", "cpu-clock,task-clock,page-faults", "-c", "1000000", NULL }, .wl = SPIN,
	.samples = 1 };
FIXTURE_VARIANT_ADD(rec, user_only_modifier) {
	.opts = { "-e", "cpu-clock:u", "-c", "1000000", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, hardware_event_falls_back) {
	.opts = { "-e", "cycles", "-c", "1000000", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, mmap_pages) {
	.opts = { "-m", "8", "-c", "1000000", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, system_wide) {
	.opts = { "-a", "-c", "1000000", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, cpu_list) {
	.opts = { "-C", "0", "-c", "1000000", NULL }, .wl = SPIN, .samples = 0 };
FIXTURE_VARIANT_ADD(rec, timeout) {
	.opts = { "-c", "1000000", "--timeout", "1", NULL }, .wl = { "spin", "60000", NULL },
	.exit_code = 124, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, snapshot_without_signal) {
	.opts = { "-c", "1000000", "-M", "64k", NULL }, .wl = SPIN, .samples = -1 };
/* issue 14's families: cleared where the kernel lacks them, or refused naming them */
FIXTURE_VARIANT_ADD(rec, group_leader_sampling) {
	.opts = { "-e", "{cpu-clock,page-faults}:S", "-c", "1000000", NULL }, .wl = SPIN,
	.samples = 1 };
FIXTURE_VARIANT_ADD(rec, pmu_terms) {
	.opts = { "-e", "cpu-clock/period=1000000,name=pc/", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, weight) {
	.opts = { "-c", "1000000", "-W", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, data_addr_and_cpu) {
	.opts = { "-c", "1000000", "-d", "--sample-cpu", "--phys-data", NULL }, .wl = SPIN,
	.samples = 1 };
FIXTURE_VARIANT_ADD(rec, registers) {
	.opts = { "-c", "1000000", "--user-regs", "-I", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, callgraph_dwarf) {
	.opts = { "-c", "1000000", "--call-graph", "dwarf", NULL }, .wl = SPIN, .samples = 1 };
FIXTURE_VARIANT_ADD(rec, namespaces_and_clockid) {
	.opts = { "-c", "1000000", "--namespaces", "-k", "mono", NULL }, .wl = SPIN,
	.samples = 1 };
FIXTURE_VARIANT_ADD(rec, all_cgroups) {
	.opts = { "-c", "1000000", "--all-cgroups", NULL }, .wl = SPIN, .samples = 1,
	.needs = 1 + PC_FEAT_CGROUP };
FIXTURE_VARIANT_ADD(rec, page_sizes) {
	.opts = { "-c", "1000000", "--data-page-size", NULL }, .wl = SPIN, .samples = 1,
	.needs = 1 + PC_FEAT_DATA_PAGE_SIZE };
FIXTURE_VARIANT_ADD(rec, per_thread) {
	.opts = { "-c", "1000000", "--per-thread", NULL }, .wl = SPIN, .samples = 1 };

FIXTURE_SETUP(rec)
{
	ASSERT_EQ(0, xk_dir_make(&self->d, "xk-record"));
}

FIXTURE_TEARDOWN(rec)
{
	xk_dir_free(&self->d);
}

TEST_F(rec, succeeds_and_the_file_names_exactly_what_was_cleared)
{
	struct pc_run run;
	struct xk_file f;
	int checked = 0;

	ASSERT_EQ(0, xk_record(&run, self->d.data, variant->opts, variant->wl, 120));
	if (variant->needs && pc_feature_probe(variant->needs - 1, NULL) == PC_FEATURE_MISSING) {
		/* never switched off silently: the open fails naming it */
		EXPECT_EQ(255, run.exit_code) TH_LOG("stderr: %s", run.err);
		EXPECT_NE(NULL, strstr(run.err, pc_feature_name(variant->needs - 1)))
			TH_LOG("the missing %s is not named: %s", pc_feature_name(variant->needs - 1),
			       run.err);
		pc_run_free(&run);
		return;
	}
	ASSERT_EQ(variant->exit_code, run.exit_code) TH_LOG("stderr: %s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, xk_read(self->d.data, &f)) TH_LOG("%s", f.err);
	if (variant->samples > 0)
		EXPECT_LT(0, f.samples);
	if (variant->samples < 0)
		EXPECT_EQ(0, f.samples);
	ASSERT_NE(0, f.open_line[0]) TH_LOG("no PERFCHECK_OPEN section");
	TH_LOG("%s", f.open_line);
	/* one line per event */
	for (char *line = strtok(f.open_line, "\n"); line; line = strtok(NULL, "\n")) {
		for (int i = 0; i < PC_FEAT__COUNT; i++) {
			const char *name = pc_feature_name(i);
			enum pc_feature_status st = pc_feature_probe(i, NULL);
			bool req = xk_listed(line, "requested ", name);
			bool clr = xk_listed(line, "cleared ", name);

			EXPECT_FALSE(clr && !req) TH_LOG("%s cleared but never requested", name);
			if (!req || st == PC_FEATURE_UNKNOWN)
				continue;
			checked++;
			EXPECT_EQ(st == PC_FEATURE_MISSING, clr)
				TH_LOG("%s: %s here, %s in the file (%s)", name,
				       pc_feature_status_name(st), clr ? "cleared" : "kept", line);
		}
	}
	EXPECT_LT(0, checked);
}

TEST_HARNESS_MAIN
