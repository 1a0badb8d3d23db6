// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck stat record / stat report against upstream perf's, for each
 * run shape (a command; -a; -a -A; -a --per-socket; -a --per-core;
 * -a --per-thread; -I 100; -a -A -I 100):
 *
 *   - perfcheck stat report on perf's file prints what perf stat report
 *     prints, byte for byte;
 *   - perf stat report on perfcheck's file prints what perfcheck stat
 *     report prints, byte for byte, with no warning;
 *   - perf script and script -D on our file print what perfcheck script
 *     --compat 6.1 prints, byte for byte;
 *   - perf stat report and perf script print the same lines for our file
 *     as for perf's own file of the same shape, with the numbers masked
 *     (counts differ run to run; the -I lines as a set, since a run may
 *     have one interval more).
 *
 * And for -r (perf 6.1 refuses it: its text and status), -n (no
 * counter) and -o - (the pipe, read from a file and from stdin): both
 * tools' reports of both files, byte for byte on one file, masked across.
 *
 * Measured with perf 6.1: that is the report layout reproduced.  Another
 * perf's report is not compared (perf 7.2.13 refuses 6.1's and its own
 * stat files here: "Invalid HEADER_COMPRESSED"); the tests skip saying so.
 * Where our file differs from perf's on purpose (attr size 64 and
 * read_format LOST as opened, no empty CLOCKID/COMPRESSED/BPF features)
 * no output compared here shows it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "interop_tools.h"
#include "testutil.h"

#define EVENTS "task-clock,page-faults,context-switches"

static int workload(char **argv)
{
	const char *mode = argv[0];
	int n = argv[1] ? atoi(argv[1]) : 0;

	if (!strcmp(mode, "touch"))
		return pc_test_touch_pages(n);
	if (!strcmp(mode, "busy")) {
		/* n ms on the cpu, so that every interval counts something */
		struct timespec t0, t;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			pc_test_touch_pages(1);
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < n);
		return 0;
	}
	return 2;
}

FIXTURE(sr) {
	const char *perf;
	char *dir;
	char theirs[512], ours[512];
	struct pc_run a, b;
};

FIXTURE_VARIANT(sr) {
	const char *opts[4];
	bool interval;
	bool perf_fails_its_own;	/* perf 6.1's report of its own file fails */
};

FIXTURE_VARIANT_ADD(sr, command) { .opts = { NULL } };
FIXTURE_VARIANT_ADD(sr, all_cpus) { .opts = { "-a" } };
FIXTURE_VARIANT_ADD(sr, each_cpu) { .opts = { "-a", "-A" } };
FIXTURE_VARIANT_ADD(sr, each_socket) { .opts = { "-a", "--per-socket" } };
FIXTURE_VARIANT_ADD(sr, each_core) { .opts = { "-a", "--per-core" } };
/* perf 6.1: "failed to process type: 0" on its own file; ours it reads */
FIXTURE_VARIANT_ADD(sr, threads_of_all_cpus) { .opts = { "-a", "--per-thread" },
						.perf_fails_its_own = true };
FIXTURE_VARIANT_ADD(sr, intervals) { .opts = { "-I", "100" }, .interval = true };
FIXTURE_VARIANT_ADD(sr, each_cpu_intervals) { .opts = { "-a", "-A", "-I", "100" },
					       .interval = true };

/* TOOL stat record -o PATH -e EVENTS OPTS -- this binary --workload (touch or busy) */
static int record(FIXTURE_DATA(sr) *self, const FIXTURE_VARIANT(sr) *variant, const char *tool,
		  const char *path)
{
	char *argv[24], exe[64];
	int i = 0;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)getpid());
	argv[i++] = (char *)tool;
	argv[i++] = "stat";
	argv[i++] = "record";
	argv[i++] = "-o";
	argv[i++] = (char *)path;
	argv[i++] = "-e";
	argv[i++] = EVENTS;
	for (int k = 0; k < 4 && variant->opts[k]; k++)
		argv[i++] = (char *)variant->opts[k];
	argv[i++] = "--";
	argv[i++] = exe;
	argv[i++] = "--workload";
	argv[i++] = variant->interval ? "busy" : "touch";
	argv[i++] = variant->interval ? "350" : "2000";
	argv[i] = NULL;
	pc_run_free(&self->a);
	if (up_run(&self->a, 60, argv))
		return -1;
	return self->a.exit_code;
}

FIXTURE_SETUP(sr)
{
	struct up_version v;

	memset(&self->a, 0, sizeof(self->a));
	memset(&self->b, 0, sizeof(self->b));
	self->dir = NULL;
	self->perf = up_perf();
	if (!self->perf)
		SKIP(return, "no upstream perf here (PERFCHECK_PERF, upstream/perf, or perf in PATH)");
	ASSERT_EQ(0, up_perf_version(&v));
	if (v.major != 6 || v.minor != 1)
		SKIP(return, "%s: stat report's layout is measured on perf 6.1 only (7.2.13 refuses "
		     "stat files here; 6.12 names events 'task-clock [software]')", v.text);
	self->dir = pc_test_mkdtemp("interop-stat-report");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->theirs, sizeof(self->theirs), "%s/theirs.data", self->dir);
	snprintf(self->ours, sizeof(self->ours), "%s/ours.data", self->dir);
	if (record(self, variant, self->perf, self->theirs))
		SKIP(return, "perf stat record failed (exit %d): %.300s", self->a.exit_code,
		     self->a.err ? self->a.err : "");
	ASSERT_EQ(0, record(self, variant, pc_test_perfcheck(), self->ours))
		TH_LOG("%s", self->a.err);
}

FIXTURE_TEARDOWN(sr)
{
	pc_run_free(&self->a);
	pc_run_free(&self->b);
	if (self->dir && !getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(self->dir);
}

/* perf's TOOL (a = perf, b = perfcheck) on path: "stat report" or "script" */
static void both(struct __test_metadata *_metadata, FIXTURE_DATA(sr) *self, const char *what,
		 const char *path)
{
	char *theirs[] = { (char *)self->perf, "stat", "report", "-i", (char *)path, NULL };
	char *ours[] = { (char *)pc_test_perfcheck(), "stat", "report", "-i", (char *)path, NULL };

	if (!strcmp(what, "script")) {
		theirs[1] = ours[1] = "script";
		theirs[2] = ours[2] = "-i";
		theirs[3] = ours[3] = (char *)path;
		theirs[4] = ours[4] = NULL;
	}
	pc_run_free(&self->a);
	pc_run_free(&self->b);
	ASSERT_EQ(0, up_run(&self->a, 60, theirs));
	ASSERT_EQ(0, pc_test_run(&self->b, 60, ours));
}

TEST_F(sr, ours_on_perfs_file_prints_perfs_report_byte_for_byte)
{
	if (variant->perf_fails_its_own)
		SKIP(return, "perf 6.1's report fails on its own file of this shape "
		     "(failed to process type: 0): nothing to compare with");
	both(_metadata, self, "stat report", self->theirs);
	ASSERT_EQ(0, self->a.exit_code) TH_LOG("%s", self->a.err);
	ASSERT_EQ(0, self->b.exit_code) TH_LOG("%s", self->b.err);
	EXPECT_STREQ(self->a.err, self->b.err);
}

TEST_F(sr, perfs_report_of_our_file_is_ours_byte_for_byte)
{
	both(_metadata, self, "stat report", self->ours);
	ASSERT_EQ(0, self->a.exit_code) TH_LOG("%s", self->a.err);
	ASSERT_EQ(0, self->b.exit_code) TH_LOG("%s", self->b.err);
	EXPECT_STREQ(self->b.err, self->a.err);
	EXPECT_EQ(NULL, strcasestr(self->a.err, "warning")) TH_LOG("%s", self->a.err);
}

/*
 * The lines with every number masked, blanks collapsed, the metric's
 * prefix (K/sec, M/sec) and the command line's paths left out; each line
 * once, sorted (the -I runs differ in their number of intervals), and the
 * "<not counted>" lines left out: an -I run whose command ends just after
 * an interval has one more interval that counted nothing, which the other
 * run may not have (the byte-for-byte tests above compare those lines)
 */
static char *masked(const char *out)
{
	struct pc_strv lines = { 0 };
	const char *p = out ? out : "";
	size_t cap = strlen(p) + 1, len = 0;
	char *res;

	while (*p) {
		const char *end = strchr(p, '\n');
		char *line = calloc(1, (end ? (size_t)(end - p) : strlen(p)) + 1), *d = line;

		end = end ? end : p + strlen(p);
		if (memmem(p, (size_t)(end - p), "<not counted>", 13)) {
			free(line);
			p = *end ? end + 1 : end;
			continue;
		}
		if (strstr(p, "Performance counter stats for") == p + 1 ||
		    strstr(p, "Performance counter stats for") == p) {
			strcpy(line, "(header)");
		} else {
			for (const char *s = p; s < end; s++) {
				if (isdigit((unsigned char)*s)) {
					while (s + 1 < end && (isdigit((unsigned char)s[1]) ||
							       s[1] == '.' || s[1] == ','))
						s++;
					*d++ = 'N';
				} else if (*s == ' ' && d > line && d[-1] == ' ') {
					continue;
				} else if ((*s == 'K' || *s == 'M' || *s == 'G') && s[1] == '/') {
					continue;
				} else {
					*d++ = *s;
				}
			}
			*d = '\0';
		}
		pc_strv_add(&lines, line);
		free(line);
		p = *end ? end + 1 : end;
	}
	pc_strv_sort(&lines);
	res = calloc(1, cap + 16);
	for (size_t i = 0; res && i < lines.n; i++) {
		size_t n = strlen(lines.v[i]);

		if (i && !strcmp(lines.v[i], lines.v[i - 1]))
			continue;
		if (len + n + 2 > cap + 16)
			break;
		memcpy(res + len, lines.v[i], n);
		len += n;
		res[len++] = '\n';
		res[len] = '\0';
	}
	pc_strv_free(&lines);
	return res;
}

TEST_F(sr, perfs_report_of_our_file_has_its_own_files_lines)
{
	char *theirs, *ours;

	if (variant->perf_fails_its_own)
		SKIP(return, "perf 6.1's report fails on its own file of this shape "
		     "(failed to process type: 0): nothing to compare with");
	both(_metadata, self, "stat report", self->theirs);
	theirs = masked(self->a.err);
	both(_metadata, self, "stat report", self->ours);
	ASSERT_EQ(0, self->a.exit_code) TH_LOG("%s", self->a.err);
	ours = masked(self->a.err);
	EXPECT_STREQ(theirs, ours);
	free(theirs);
	free(ours);
}

TEST_F(sr, perfs_script_of_our_file_has_its_own_files_lines)
{
	char *theirs, *ours;

	if (variant->perf_fails_its_own)
		SKIP(return, "perf 6.1's report fails on its own file of this shape "
		     "(failed to process type: 0): nothing to compare with");
	both(_metadata, self, "script", self->theirs);
	ASSERT_EQ(0, self->a.exit_code) TH_LOG("%s", self->a.err);
	theirs = masked(self->a.out);
	both(_metadata, self, "script", self->ours);
	ASSERT_EQ(0, self->a.exit_code) TH_LOG("%s", self->a.err);
	EXPECT_STREQ("", self->a.err ? self->a.err : "");
	ours = masked(self->a.out);
	EXPECT_STREQ(theirs, ours);
	EXPECT_NE(NULL, strstr(ours, " task-clock\n")) TH_LOG("%s", ours);
	free(theirs);
	free(ours);
}

/* perf script [-D] and perfcheck script --compat 6.1 [-D] on our file */
static void scripts(struct __test_metadata *_metadata, FIXTURE_DATA(sr) *self, bool dump)
{
	char *theirs[] = { (char *)self->perf, "script", "-i", self->ours, dump ? "-D" : NULL,
			   NULL };
	char *ours[] = { (char *)pc_test_perfcheck(), "script", "--compat", "6.1", "-i",
			 self->ours, dump ? "-D" : NULL, NULL };

	pc_run_free(&self->a);
	pc_run_free(&self->b);
	ASSERT_EQ(0, up_run(&self->a, 60, theirs));
	ASSERT_EQ(0, pc_test_run(&self->b, 60, ours));
	ASSERT_EQ(0, self->a.exit_code) TH_LOG("%s", self->a.err);
	ASSERT_EQ(0, self->b.exit_code) TH_LOG("%s", self->b.err);
	EXPECT_STREQ(self->a.out, self->b.out);
}

TEST_F(sr, perfs_script_of_our_file_is_ours_byte_for_byte)
{
	scripts(_metadata, self, false);
}

/* every record of our file decoded the same by perf and by the project's codec */
TEST_F(sr, perfs_dump_of_our_file_is_ours_byte_for_byte)
{
	scripts(_metadata, self, true);
}

/*
 * Shapes the run-shape fixture above cannot make: -r (refused by perf
 * 6.1), -n (no counter) and -o - (the pipe format), each by both tools.
 */
FIXTURE(shape) {
	const char *perf;
	char *dir;
	char theirs[512], ours[512];
	struct pc_run a, b;
};

FIXTURE_SETUP(shape)
{
	struct up_version v;

	memset(&self->a, 0, sizeof(self->a));
	memset(&self->b, 0, sizeof(self->b));
	self->dir = NULL;
	self->perf = up_perf();
	if (!self->perf)
		SKIP(return, "no upstream perf here (PERFCHECK_PERF, upstream/perf, or perf in PATH)");
	ASSERT_EQ(0, up_perf_version(&v));
	if (v.major != 6 || v.minor != 1)
		SKIP(return, "%s: stat record/report measured on perf 6.1 only", v.text);
	self->dir = pc_test_mkdtemp("interop-stat-shape");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->theirs, sizeof(self->theirs), "%s/theirs.data", self->dir);
	snprintf(self->ours, sizeof(self->ours), "%s/ours.data", self->dir);
}

FIXTURE_TEARDOWN(shape)
{
	pc_run_free(&self->a);
	pc_run_free(&self->b);
	if (self->dir && !getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(self->dir);
}

/* sh -c "exec ARGS... [< in]": run's stdout and stderr */
static int sh_run(struct pc_run *run, bool upstream, const char *const *args, const char *in)
{
	char cmd[4096];
	size_t n = snprintf(cmd, sizeof(cmd), "exec");

	for (; *args && n < sizeof(cmd); args++)
		n += snprintf(cmd + n, sizeof(cmd) - n, " '%s'", *args);
	if (in && n < sizeof(cmd))
		snprintf(cmd + n, sizeof(cmd) - n, " < '%s'", in);
	pc_run_free(run);
	return upstream ? up_run(run, 60, (char *[]){ "/bin/sh", "-c", cmd, NULL })
			: pc_test_run(run, 60, (char *[]){ "/bin/sh", "-c", cmd, NULL });
}

/* TOOL stat record -o OUT [opt] [-e EVENTS] -- this binary --workload touch 1000; 0 or exit */
static int shape_record(FIXTURE_DATA(shape) *self, bool upstream, const char *out,
			const char *opt, bool events)
{
	char exe[64];
	const char *argv[16];
	int i = 0;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)getpid());
	argv[i++] = upstream ? self->perf : pc_test_perfcheck();
	argv[i++] = "stat";
	argv[i++] = "record";
	argv[i++] = "-o";
	argv[i++] = out;
	if (opt)
		argv[i++] = opt;
	if (events) {
		argv[i++] = "-e";
		argv[i++] = EVENTS;
	}
	argv[i++] = "--";
	argv[i++] = exe;
	argv[i++] = "--workload";
	argv[i++] = "touch";
	argv[i++] = "1000";
	argv[i] = NULL;
	if (sh_run(&self->a, upstream, argv, NULL))
		return -1;
	return self->a.exit_code;
}

/* Writes a run's stdout (a pipe's data) to path. */
static int save_out(const struct pc_run *run, const char *path)
{
	return up_write_file(path, run->out ? run->out : "", run->out_len);
}

/* perf's and ours stat report -i path (in: stdin, path "-"): a = perf, b = ours */
static void shape_reports(struct __test_metadata *_metadata, FIXTURE_DATA(shape) *self,
			  const char *path, bool from_stdin)
{
	const char *theirs[] = { self->perf, "stat", "report", "-i", from_stdin ? "-" : path, NULL };
	const char *ours[] = { pc_test_perfcheck(), "stat", "report", "-i", from_stdin ? "-" : path,
			       NULL };

	ASSERT_EQ(0, sh_run(&self->a, true, theirs, from_stdin ? path : NULL));
	ASSERT_EQ(0, sh_run(&self->b, false, ours, from_stdin ? path : NULL));
	ASSERT_EQ(0, self->a.exit_code) TH_LOG("%s", self->a.err);
	ASSERT_EQ(0, self->b.exit_code) TH_LOG("%s", self->b.err);
}

/* perf 6.1 refuses -r N (N != 1) in stat record; ours says and exits the same, and makes no file */
TEST_F(shape, repeat_is_refused_with_perfs_text_and_status)
{
	char *theirs_err;
	int theirs;

	theirs = shape_record(self, true, self->theirs, "-r3", true);
	theirs_err = strdup(self->a.err ? self->a.err : "");
	EXPECT_EQ(theirs, shape_record(self, false, self->ours, "-r3", true));
	EXPECT_EQ(255, theirs);
	EXPECT_STREQ(theirs_err, self->a.err ? self->a.err : "");
	EXPECT_NE(0, access(self->theirs, F_OK));
	EXPECT_NE(0, access(self->ours, F_OK));
	free(theirs_err);
}

/* -n: both files report the same, byte for byte by both tools, masked across them */
TEST_F(shape, null_run_file_reports_as_perfs)
{
	char *theirs, *ours;

	if (shape_record(self, true, self->theirs, "-n", false))
		SKIP(return, "perf stat record -n failed: %.300s", self->a.err);
	ASSERT_EQ(0, shape_record(self, false, self->ours, "-n", false)) TH_LOG("%s", self->a.err);
	shape_reports(_metadata, self, self->theirs, false);
	EXPECT_STREQ(self->a.err, self->b.err);
	theirs = masked(self->a.err);
	shape_reports(_metadata, self, self->ours, false);
	EXPECT_STREQ(self->a.err, self->b.err);
	EXPECT_EQ(NULL, strcasestr(self->a.err, "warning")) TH_LOG("%s", self->a.err);
	ours = masked(self->a.err);
	EXPECT_STREQ(theirs, ours);
	/* the header, an empty table and the elapsed time */
	EXPECT_STREQ("\n N seconds time elapsed\n(header)\n", ours);
	free(theirs);
	free(ours);
}

/* -o -: perf stat report reads our pipe as its own, and ours perf's, from stdin as from a file */
TEST_F(shape, pipe_output_is_read_by_perf_stat_report)
{
	char *theirs, *ours;

	if (shape_record(self, true, "-", NULL, true))
		SKIP(return, "perf stat record -o - failed: %.300s", self->a.err);
	ASSERT_EQ(0, save_out(&self->a, self->theirs));
	EXPECT_STREQ("", self->a.err ? self->a.err : "");
	ASSERT_EQ(0, shape_record(self, false, "-", NULL, true)) TH_LOG("%s", self->a.err);
	EXPECT_STREQ("", self->a.err ? self->a.err : "");
	ASSERT_EQ(0, save_out(&self->a, self->ours));
	for (int in = 0; in < 2; in++) {
		shape_reports(_metadata, self, self->theirs, in);
		EXPECT_STREQ(self->a.err, self->b.err);
		theirs = masked(self->a.err);
		shape_reports(_metadata, self, self->ours, in);
		EXPECT_STREQ(self->a.err, self->b.err);
		EXPECT_EQ(NULL, strcasestr(self->a.err, "warning")) TH_LOG("%s", self->a.err);
		EXPECT_NE(NULL, strstr(self->a.err, "Performance counter stats for 'pipe':\n"));
		ours = masked(self->a.err);
		EXPECT_STREQ(theirs, ours);
		EXPECT_NE(NULL, strstr(ours, " N msec task-clock # N CPUs utilized \n"))
			TH_LOG("%s", ours);
		EXPECT_NE(NULL, strstr(ours, " N page-faults # N /sec \n")) TH_LOG("%s", ours);
		free(theirs);
		free(ours);
	}
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--workload"))
		return workload(argv + 2);
	return test_harness_run(argc, argv);
}
