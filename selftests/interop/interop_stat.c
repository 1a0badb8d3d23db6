// SPDX-License-Identifier: GPL-2.0
/*
 * perf stat and perfcheck stat side by side on the same deterministic
 * workload (touching N pages): the same counts within 2%, and the same CSV
 * columns, so a script reading one reads the other.
 */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "cgroup_fresh.h"
#include "interop_tools.h"
#include "perfcmp.h"
#include "stat_layout.h"
#include "testutil.h"

#define TOUCH 4000

/* TOOL stat -x, -e EVENTS -- this binary --workload N */
static int stat_with(struct pc_run *run, const char *tool, const char *events)
{
	char self[64], num[16];
	char *argv[16];
	int i = 0;

	snprintf(self, sizeof(self), "/proc/%d/exe", (int)getpid());
	snprintf(num, sizeof(num), "%d", TOUCH);
	argv[i++] = (char *)tool;
	argv[i++] = "stat";
	argv[i++] = "-x,";
	argv[i++] = "-e";
	argv[i++] = (char *)events;
	argv[i++] = "--";
	argv[i++] = self;
	argv[i++] = "--workload";
	argv[i++] = num;
	argv[i] = NULL;
	return up_run(run, 60, argv);
}

/* The CSV line of event in text, copied into line; false when absent. */
static bool csv_line(const char *text, const char *event, char *line, size_t size)
{
	char needle[128];
	const char *p;

	snprintf(needle, sizeof(needle), ",%s,", event);
	p = strstr(text, needle);
	if (!p)
		return false;
	while (p > text && p[-1] != '\n')
		p--;
	snprintf(line, size, "%.*s", (int)strcspn(p, "\n"), p);
	return true;
}

/* Field n (0-based) of a CSV line. */
static void field(const char *line, int n, char *out, size_t size)
{
	for (; n > 0 && line; n--) {
		line = strchr(line, ',');
		if (line)
			line++;
	}
	snprintf(out, size, "%.*s", line ? (int)strcspn(line, ",") : 0, line ? line : "");
}

FIXTURE(interop_stat) {
	const char *perf;
	struct pc_run theirs, ours;
};

FIXTURE_SETUP(interop_stat)
{
	memset(&self->theirs, 0, sizeof(self->theirs));
	memset(&self->ours, 0, sizeof(self->ours));
	self->perf = up_perf();
	if (!self->perf)
		SKIP(return, "no upstream perf here (PERFCHECK_PERF, upstream/perf, or perf in PATH)");
}

FIXTURE_TEARDOWN(interop_stat)
{
	pc_run_free(&self->theirs);
	pc_run_free(&self->ours);
}

TEST_F(interop_stat, page_faults_agree_within_two_percent)
{
	char a[256], b[256], va[64], vb[64];
	double theirs, ours;

	stat_with(&self->theirs, self->perf, "page-faults");
	stat_with(&self->ours, pc_test_perfcheck(), "page-faults");
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	if (self->theirs.exit_code || !csv_line(self->theirs.err, "page-faults", a, sizeof(a)))
		SKIP(return, "perf stat could not count page-faults: %s", self->theirs.err);
	ASSERT_TRUE(csv_line(self->ours.err, "page-faults", b, sizeof(b))) TH_LOG("%s", self->ours.err);
	field(a, 0, va, sizeof(va));
	field(b, 0, vb, sizeof(vb));
	theirs = strtod(va, NULL);
	ours = strtod(vb, NULL);
	EXPECT_LE(TOUCH, ours);
	EXPECT_LE(theirs * 0.98, ours) TH_LOG("perf: %s / perfcheck: %s", a, b);
	EXPECT_GE(theirs * 1.02, ours) TH_LOG("perf: %s / perfcheck: %s", a, b);
}

TEST_F(interop_stat, csv_columns_are_perfs)
{
	char a[256], b[256];

	stat_with(&self->theirs, self->perf, "task-clock,page-faults");
	stat_with(&self->ours, pc_test_perfcheck(), "task-clock,page-faults");
	if (self->theirs.exit_code)
		SKIP(return, "perf stat failed: %s", self->theirs.err);
	for (int e = 0; e < 2; e++) {
		const char *ev = e ? "page-faults" : "task-clock";

		ASSERT_TRUE(csv_line(self->theirs.err, ev, a, sizeof(a))) TH_LOG("%s", self->theirs.err);
		ASSERT_TRUE(csv_line(self->ours.err, ev, b, sizeof(b))) TH_LOG("%s", self->ours.err);
		/* as many columns */
		EXPECT_EQ(pc_count_substr(a, ","), pc_count_substr(b, ","))
			TH_LOG("perf '%s' / perfcheck '%s'", a, b);
		/* unit, event, and metric unit agree; the values are measurements */
		for (int f = 1; f < 8; f += (f == 2 ? 4 : 1)) {
			char fa[64], fb[64];

			field(a, f, fa, sizeof(fa));
			field(b, f, fb, sizeof(fb));
			/*
			 * perf 7.x takes its metrics from its tables for the CPU it runs
			 * on: in the arm64 guests (QEMU -cpu max) it has none and leaves
			 * the metric columns empty, where perf 6.1 and x86 print them
			 */
			if (f >= 6 && !fa[0]) {
				TH_LOG("%s: perf printed no metric (%s); perfcheck's: '%s'", ev, a, fb);
				continue;
			}
			EXPECT_STREQ(fa, fb) TH_LOG("field %d: perf '%s' / perfcheck '%s'", f, a, b);
		}
	}
}

/* TOOL stat [--compat C] -a MODE [FMT] -e task-clock,context-switches -- sleep 0.1 */
static void aggregated(struct pc_run *run, const char *tool, const char *compat, const char *mode,
		       const char *fmt)
{
	char *argv[16];
	int i = 0;

	argv[i++] = (char *)tool;
	argv[i++] = "stat";
	if (compat) {
		argv[i++] = "--compat";
		argv[i++] = (char *)compat;
	}
	argv[i++] = "-a";
	argv[i++] = (char *)mode;
	if (fmt)
		argv[i++] = (char *)fmt;
	argv[i++] = "-e";
	argv[i++] = "task-clock,context-switches";
	argv[i++] = "--";
	argv[i++] = "sleep";
	argv[i++] = "0.1";
	argv[i] = NULL;
	up_run(run, 60, argv);
}

TEST_F(interop_stat, aggregated_layouts_are_perfs)
{
	static const char *const modes[] = { "-A", "--per-socket", "--per-die", "--per-core",
					     "--per-node" };
	static const char *const fmts[] = { NULL, "-x,", "-j" };
	static char a[16384], b[16384];
	char why[400] = "";
	struct up_version v;
	const char *compat = NULL;
	int compared = 0;

	/*
	 * perfcheck stat prints perf 6.1's layout, 6.12's with --compat 6.12
	 * and 7.2's with --compat 7.2; the perfs between reworked it step by
	 * step, each its own
	 */
	ASSERT_EQ(0, up_perf_version(&v));
	if (v.major == 7 && v.minor == 2)
		compat = "7.2";
	else if (v.major == 6 && v.minor == 12)
		compat = "6.12";
	else if (v.major > 6 || (v.major == 6 && v.minor > 1))
		SKIP(return, "%s: its stat layout is none of perf 6.1's, 6.12's and 7.2's, which "
		     "perfcheck stat prints", v.text);
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
			pc_run_free(&self->theirs);
			pc_run_free(&self->ours);
			aggregated(&self->theirs, self->perf, NULL, modes[m], fmts[f]);
			/* a layout this perf lacks (perf 5.10: -j): the others are compared */
			if (self->theirs.exit_code) {
				snprintf(why, sizeof(why), "perf stat -a %s %s failed: %.300s", modes[m],
					 fmts[f] ? fmts[f] : "", self->theirs.err);
				continue;
			}
			compared++;
			aggregated(&self->ours, pc_test_perfcheck(), compat, modes[m], fmts[f]);
			ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
			up_stat_layout_of(self->theirs.err, a, sizeof(a));
			up_stat_layout_of(self->ours.err, b, sizeof(b));
			EXPECT_STREQ(a, b) TH_LOG("stat -a %s %s", modes[m], fmts[f] ? fmts[f] : "");
		}
	}
	if (!compared)
		SKIP(return, "%s", why);
	if (why[0])
		TH_LOG("compared %d layouts; not: %s", compared, why);
}

/* The first two fields (aggregate, cpus) of every CSV line of a and b are equal. */
static void expect_same_aggregates(struct __test_metadata *_metadata, const char *a,
				   const char *b, const char *mode)
{
	int lines = 0;

	while (*a && *b) {
		char fa[128], fb[128];

		field(a, 0, fa, sizeof(fa));
		field(b, 0, fb, sizeof(fb));
		EXPECT_STREQ(fa, fb) TH_LOG("stat -a %s -x,: aggregate", mode);
		field(a, 1, fa, sizeof(fa));
		field(b, 1, fb, sizeof(fb));
		EXPECT_STREQ(fa, fb) TH_LOG("stat -a %s -x,: cpus", mode);
		a = strchr(a, '\n') ? strchr(a, '\n') + 1 : "";
		b = strchr(b, '\n') ? strchr(b, '\n') + 1 : "";
		lines++;
	}
	EXPECT_EQ(*a, *b) TH_LOG("stat -a %s -x,: %d lines, then one ends", mode, lines);
	EXPECT_LT(0, lines);
}

/*
 * --per-cluster and --per-cache[=LN] (perf 6.4 and later): the aggregates
 * named and ordered as perf names them (S0-D0-CLS1, S0-D0-L3-ID0; L-1-ID-1
 * where sysfs has no caches, an ID of -1 where it has none of the level
 * asked), in the std, CSV and JSON layouts.  Compared with the upstream perf
 * where it is 6.12 or 7.2 (the matrix's guests, their caches), else with
 * perf 7.2 beside it (perfcmp_perf72).
 */
TEST_F(interop_stat, cluster_and_cache_aggregates_are_perfs)
{
	static const char *const modes[] = { "--per-cluster", "--per-cache", "--per-cache=L1",
					     "--per-cache=L2", "--per-cache=L4" };
	static const char *const fmts[] = { NULL, "-x,", "-j" };
	static char a[16384], b[16384];
	const char *perf = self->perf, *compat = NULL;
	struct up_version v;

	ASSERT_EQ(0, up_perf_version(&v));
	if (v.major == 7 && v.minor == 2)
		compat = "7.2";
	else if (v.major == 6 && v.minor == 12)
		compat = "6.12";
	else if (perfcmp_perf72())
		perf = perfcmp_perf72(), compat = "7.2";
	else
		SKIP(return, "%s has no --per-cache layout perfcheck prints (6.12's or 7.2's), and "
		     "no perf 7.2 is beside it", v.text);
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
			/* perf 6.12's JSON has "(null)" units perfcheck leaves out (stat/print.c) */
			if (fmts[f] && !strcmp(fmts[f], "-j") && !strcmp(compat, "6.12"))
				continue;
			pc_run_free(&self->theirs);
			pc_run_free(&self->ours);
			aggregated(&self->theirs, perf, NULL, modes[m], fmts[f]);
			ASSERT_EQ(0, self->theirs.exit_code) TH_LOG("%s", self->theirs.err);
			aggregated(&self->ours, pc_test_perfcheck(), compat, modes[m], fmts[f]);
			ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
			up_stat_layout_of(self->theirs.err, a, sizeof(a));
			up_stat_layout_of(self->ours.err, b, sizeof(b));
			EXPECT_STREQ(a, b) TH_LOG("stat -a %s %s", modes[m], fmts[f] ? fmts[f] : "");
			/* the layout hides numbers: the CSV's names and cpus of the aggregates, whole */
			if (fmts[f] && !strcmp(fmts[f], "-x,"))
				expect_same_aggregates(_metadata, self->theirs.err, self->ours.err,
						       modes[m]);
		}
	}
}

/* perf 6.1 has neither option: with its layout (the default) both are unknown, as there */
TEST_F(interop_stat, cluster_and_cache_are_unknown_to_the_6_1_layout)
{
	aggregated(&self->ours, pc_test_perfcheck(), NULL, "--per-cache", NULL);
	EXPECT_EQ(129, self->ours.exit_code);
	EXPECT_NE(NULL, strstr(self->ours.err, "unknown option '--per-cache'"));
	pc_run_free(&self->ours);
	aggregated(&self->ours, pc_test_perfcheck(), NULL, "--per-cluster", NULL);
	EXPECT_EQ(129, self->ours.exit_code);
	EXPECT_NE(NULL, strstr(self->ours.err, "unknown option '--per-cluster'"));
}

/* TOOL stat -a [MODE] [FMT] -e task-clock,context-switches -G CGROUPS -- sleep 0.1 */
static void in_cgroups(struct pc_run *run, const char *tool, const char *mode, const char *fmt,
		       const char *cgroups)
{
	char *argv[16];
	int i = 0;

	argv[i++] = (char *)tool;
	argv[i++] = "stat";
	argv[i++] = "-a";
	if (mode)
		argv[i++] = (char *)mode;
	if (fmt)
		argv[i++] = (char *)fmt;
	argv[i++] = "-e";
	argv[i++] = "task-clock,context-switches";
	argv[i++] = "-G";
	argv[i++] = (char *)cgroups;
	argv[i++] = "--";
	argv[i++] = "sleep";
	argv[i++] = "0.1";
	argv[i] = NULL;
	up_run(run, 60, argv);
}

/*
 * -G: each line names its event's cgroup after the event (an empty name:
 * the event's, with no cgroup) in perf 6.1's std, CSV and JSON layouts,
 * with -A too; the fresh cgroup runs nothing, so its event is <not counted>
 * in both
 */
TEST_F(interop_stat, cgroup_column_follows_the_event_as_perf)
{
	static const char *const modes[] = { NULL, "-A" };
	static const char *const fmts[] = { NULL, "-x,", "-j" };
	static char a[16384], b[16384];
	struct pc_test_cgroup cg;
	struct up_version v;
	char why[1000], names[2][160];

	ASSERT_EQ(0, up_perf_version(&v));
	if (v.major != 6 || v.minor != 1)
		SKIP(return, "%s: perfcheck stat -G prints perf 6.1's layout alone", v.text);
	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events are not allowed (not root, perf_event_paranoid > 0)");
	if (pc_test_cgroup_new(&cg, "interop", why, sizeof(why)))
		SKIP(return, "%s", why);
	snprintf(names[0], sizeof(names[0]), "/,%s", cg.name);
	snprintf(names[1], sizeof(names[1]), ",%s", cg.name);
	for (int n = 0; n < 2; n++) {
		for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
				pc_run_free(&self->theirs);
				pc_run_free(&self->ours);
				in_cgroups(&self->theirs, self->perf, modes[m], fmts[f], names[n]);
				in_cgroups(&self->ours, pc_test_perfcheck(), modes[m], fmts[f], names[n]);
				EXPECT_EQ(0, self->theirs.exit_code) TH_LOG("%s", self->theirs.err);
				EXPECT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
				up_stat_layout_cgroup_of(self->theirs.err, a, sizeof(a));
				up_stat_layout_cgroup_of(self->ours.err, b, sizeof(b));
				EXPECT_STREQ(a, b) TH_LOG("stat -a %s %s -G %s", modes[m] ? modes[m] : "",
							  fmts[f] ? fmts[f] : "", names[n]);
			}
		}
	}
	pc_test_cgroup_remove(&cg);
}

/* TOOL stat [--compat COMPAT] ARGS... (NULL-terminated, at most 10) */
static void stat_args(struct pc_run *run, const char *tool, const char *compat,
		      const char *const *args)
{
	char *argv[18];
	int i = 0;

	argv[i++] = (char *)tool;
	argv[i++] = "stat";
	if (compat) {
		argv[i++] = "--compat";
		argv[i++] = (char *)compat;
	}
	for (; *args && i < 16; args++)
		argv[i++] = (char *)*args;
	argv[i] = NULL;
	up_run(run, 60, argv);
}

/*
 * Both tools' stat ARGS, each run's earlier result freed first; perfcheck
 * as perf 7.2 where perf is 7.2 (its exit statuses differ from 6.1's)
 */
static void both_stat(FIXTURE_DATA(interop_stat) *self, const char *const *args)
{
	struct up_version v;
	bool is_7_2 = !up_perf_version(&v) && v.major == 7 && v.minor == 2;

	pc_run_free(&self->theirs);
	pc_run_free(&self->ours);
	stat_args(&self->theirs, self->perf, NULL, args);
	stat_args(&self->ours, pc_test_perfcheck(), is_7_2 ? "7.2" : NULL, args);
}

/*
 * Case c (stat ARGS) is refused by both as perf refuses it: its exit status,
 * and its message (its first line, before its usage) in ours; where perf
 * may print none (a blank first line), only when says_why is false
 */
static void same_refusal(struct __test_metadata *_metadata, FIXTURE_DATA(interop_stat) *self,
			 const char *const *args, size_t c, bool says_why)
{
	char msg[256];

	both_stat(self, args);
	EXPECT_NE(0, self->theirs.exit_code) TH_LOG("case %zu: %s", c, self->theirs.err);
	EXPECT_EQ(self->theirs.exit_code, self->ours.exit_code)
		TH_LOG("case %zu: perf '%s' / perfcheck '%s'", c, self->theirs.err, self->ours.err);
	snprintf(msg, sizeof(msg), "%.*s", (int)strcspn(self->theirs.err, "\n"), self->theirs.err);
	if (msg[0] || says_why)
		EXPECT_NE(NULL, strstr(self->ours.err, msg))
			TH_LOG("case %zu: perf '%s' / perfcheck '%s'", c, msg, self->ours.err);
}

/*
 * -G's refusals are perf's: its exit status, and its message where it
 * prints one (events must come first, -a or -C needed, a cgroup that is not
 * there, more cgroups than events: no text)
 */
TEST_F(interop_stat, cgroup_errors_are_perfs)
{
	struct pc_test_cgroup cg;
	char why[1000], two[160], missing[160];
	const char *const cases[][8] = {
		{ "-G", "/", "-e", "task-clock", "true", NULL },
		{ "-a", "-G", "/", "true", NULL },
		{ "-e", "task-clock", "-G", "/", "true", NULL },
		{ "-a", "-e", "task-clock", "-G", two, "true", NULL },
		{ "-a", "-e", "task-clock", "-G", missing, "true", NULL },
	};

	if (pc_test_cgroup_new(&cg, "errors", why, sizeof(why)))
		SKIP(return, "%s", why);
	snprintf(two, sizeof(two), "/,%s", cg.name);
	snprintf(missing, sizeof(missing), "%s-not-there", cg.name);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		same_refusal(_metadata, self, cases[c], c, false);
	pc_test_cgroup_remove(&cg);
}

/*
 * --for-each-cgroup: perf's default set (no -e) counted in each cgroup,
 * cgroup after cgroup, laid out as perf 6.1's (std, CSV, JSON), numbers
 * masked; the fresh cgroup runs nothing (<not counted> in both)
 */
TEST_F(interop_stat, for_each_cgroup_lists_every_event_per_cgroup_as_perf)
{
	static const char *const fmts[] = { NULL, "-x,", "-j" };
	static char a[16384], b[16384];
	struct pc_test_cgroup cg;
	struct up_version v;
	char why[1000], list[160];

	ASSERT_EQ(0, up_perf_version(&v));
	if (v.major != 6 || v.minor != 1)
		SKIP(return, "%s: perfcheck stat --for-each-cgroup prints perf 6.1's layout alone",
		     v.text);
	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events are not allowed (not root, perf_event_paranoid > 0)");
	if (pc_test_cgroup_new(&cg, "each", why, sizeof(why)))
		SKIP(return, "%s", why);
	snprintf(list, sizeof(list), "/,%s", cg.name);
	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		const char *args[] = { "-a", "--for-each-cgroup", list, fmts[f] ? fmts[f] : "--",
				       fmts[f] ? "--" : "sleep", fmts[f] ? "sleep" : "0.1",
				       fmts[f] ? "0.1" : NULL, NULL };

		both_stat(self, args);
		EXPECT_EQ(0, self->theirs.exit_code) TH_LOG("%s", self->theirs.err);
		EXPECT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
		up_stat_layout_cgroup_of(self->theirs.err, a, sizeof(a));
		up_stat_layout_cgroup_of(self->ours.err, b, sizeof(b));
		EXPECT_STREQ(a, b) TH_LOG("stat -a --for-each-cgroup %s %s", list,
					  fmts[f] ? fmts[f] : "");
	}
	pc_test_cgroup_remove(&cg);
}

/*
 * Refusals of what needs a wider target, perf's: its exit status (-EINVAL:
 * 234 from perf 6.1, 22 from 7.2) and its message
 */
TEST_F(interop_stat, target_errors_are_perfs)
{
	const char *const cases[][4] = {
		{ "--per-thread", "true", NULL },
		{ "-A", "true", NULL },
		{ "--per-core", "true", NULL },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		same_refusal(_metadata, self, cases[c], c, true);
}

/*
 * --for-each-cgroup's refusals are perf's: exit status and message (no -a
 * or -C, with -G before or after it, a cgroup that is not there)
 */
TEST_F(interop_stat, for_each_cgroup_errors_are_perfs)
{
	struct pc_test_cgroup cg;
	char why[1000], missing[160];
	const char *const cases[][10] = {
		{ "-e", "task-clock", "--for-each-cgroup", "/", "true", NULL },
		{ "-a", "-e", "task-clock", "--for-each-cgroup", "/", "-G", "/", "true", NULL },
		{ "-a", "-e", "task-clock", "-G", "/", "--for-each-cgroup", "/", "true", NULL },
		{ "-a", "-e", "task-clock", "--for-each-cgroup", missing, "true", NULL },
	};

	if (pc_test_cgroup_new(&cg, "eacherr", why, sizeof(why)))
		SKIP(return, "%s", why);
	snprintf(missing, sizeof(missing), "%s-not-there", cg.name);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		same_refusal(_metadata, self, cases[c], c, false);
	pc_test_cgroup_remove(&cg);
}

/*
 * --for-each-cgroup with patterns (a list holding any of {}[]()|*+?^$) as
 * perf's: the cgroups whose names a basic regular expression finds, in the
 * hierarchy's order whatever the patterns' (NAME before NAME/sub), the
 * root as "" for an empty entry; without patterns an empty entry is the
 * root "/".  Exit status and layout (numbers masked) equal to perf 6.1's,
 * and its refusals: nothing matched, a pattern that does not compile.
 */
TEST_F(interop_stat, for_each_cgroup_patterns_pick_cgroups_as_perf)
{
	static char a[16384], b[16384];
	struct pc_test_cgroup cg;
	struct up_version v;
	char why[1000], sub[4300], lists[7][200];

	ASSERT_EQ(0, up_perf_version(&v));
	if (v.major != 6 || v.minor != 1)
		SKIP(return, "%s: perfcheck stat --for-each-cgroup prints perf 6.1's layout alone",
		     v.text);
	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events are not allowed (not root, perf_event_paranoid > 0)");
	if (pc_test_cgroup_new(&cg, "pattern", why, sizeof(why)))
		SKIP(return, "%s", why);
	snprintf(sub, sizeof(sub), "%s/sub", cg.dir);
	ASSERT_EQ(0, mkdir(sub, 0755)) TH_LOG("%s: %s", sub, strerror(errno));
	snprintf(lists[0], sizeof(lists[0]), "^%s", cg.name);
	snprintf(lists[1], sizeof(lists[1]), "%s/s.b$,^%s$", cg.name, cg.name);
	snprintf(lists[2], sizeof(lists[2]), "^%s/sub$,,^%s$", cg.name, cg.name);
	snprintf(lists[3], sizeof(lists[3]), ",%s", cg.name);
	snprintf(lists[4], sizeof(lists[4]), "%s/sub,", cg.name);
	snprintf(lists[5], sizeof(lists[5]), "^%s-not-there$", cg.name);
	snprintf(lists[6], sizeof(lists[6]), "%s[", cg.name);
	for (size_t c = 0; c < sizeof(lists) / sizeof(lists[0]); c++) {
		const char *args[] = { "-a", "-e", "task-clock", "--for-each-cgroup", lists[c],
				       "--", "true", NULL };

		both_stat(self, args);
		EXPECT_EQ(self->theirs.exit_code, self->ours.exit_code)
			TH_LOG("%s: perf '%s' / perfcheck '%s'", lists[c], self->theirs.err, self->ours.err);
		if (self->theirs.exit_code) {
			/* perf's words, where it gives some (a bad pattern: its usage alone) */
			if (!strncmp(self->theirs.err, "no cgroup matched: ", 19))
				EXPECT_NE(NULL, strstr(self->ours.err, "no cgroup matched: "))
					TH_LOG("%s: %s", lists[c], self->ours.err);
			continue;
		}
		up_stat_layout_cgroup_of(self->theirs.err, a, sizeof(a));
		up_stat_layout_cgroup_of(self->ours.err, b, sizeof(b));
		EXPECT_STREQ(a, b) TH_LOG("stat -a --for-each-cgroup %s", lists[c]);
	}
	EXPECT_EQ(0, rmdir(sub));
	pc_test_cgroup_remove(&cg);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--workload"))
		return pc_test_touch_pages(atoi(argv[2]));
	return test_harness_run(argc, argv);
}
