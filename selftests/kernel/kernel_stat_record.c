// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck stat record then perfcheck stat report, on the running kernel:
 * the report of the file prints the counts the run printed (its lines and
 * elapsed time; the user and sys times are the live run's alone, as
 * perf's), summed, per cpu (-a -A) and per interval (-I: the same times and
 * counts; the metrics differ on purpose, as perf 6.1's report takes no
 * interval as its wall time and divides rates by the clock's mean over
 * the rounds).  Record exits with the command's status, the file complete;
 * -r is refused before a file is made (perf's text and status), a command
 * that cannot run leaves none; -n records the maps and one round, -o - the
 * pipe format, which the report reads from stdin too.  The workloads
 * are modes of this binary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"

#define TOUCH 3000
#define EVENTS "task-clock,page-faults"

static int workload(char **argv)
{
	const char *mode = argv[0];
	int n = argv[1] ? atoi(argv[1]) : 0;

	if (!strcmp(mode, "touch"))
		return pc_test_touch_pages(n);
	if (!strcmp(mode, "exit"))
		return n;
	if (!strcmp(mode, "touch-sleep")) {
		int ret = pc_test_touch_pages(n);

		usleep(350 * 1000);
		_exit(ret);
	}
	return 2;
}

FIXTURE(sr) {
	char *dir;
	char path[512];
	struct pc_run rec, rep;
};

FIXTURE_SETUP(sr)
{
	memset(&self->rec, 0, sizeof(self->rec));
	memset(&self->rep, 0, sizeof(self->rep));
	self->dir = pc_test_mkdtemp("kernel-stat-record");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/stat.data", self->dir);
}

FIXTURE_TEARDOWN(sr)
{
	pc_run_free(&self->rec);
	pc_run_free(&self->rep);
	if (!getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(self->dir);
}

/* perfcheck stat record -o PATH -e EVENTS ARGS -- this binary --workload MODE N */
static int record(FIXTURE_DATA(sr) *self, const char *const *args, const char *mode, int n)
{
	char *argv[32], exe[64], num[16];
	int i = 0;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)getpid());
	snprintf(num, sizeof(num), "%d", n);
	argv[i++] = (char *)pc_test_perfcheck();
	argv[i++] = "stat";
	argv[i++] = "record";
	argv[i++] = "-o";
	argv[i++] = self->path;
	argv[i++] = "-e";
	argv[i++] = EVENTS;
	for (; args && *args && i < 24; args++)
		argv[i++] = (char *)*args;
	argv[i++] = "--";
	argv[i++] = exe;
	argv[i++] = "--workload";
	argv[i++] = (char *)mode;
	argv[i++] = num;
	argv[i] = NULL;
	pc_run_free(&self->rec);
	return pc_test_run(&self->rec, 60, argv);
}

static int report(FIXTURE_DATA(sr) *self, const char *opt)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "stat", "report", "-i", self->path,
			 (char *)opt, NULL };

	pc_run_free(&self->rep);
	return pc_test_run(&self->rep, 60, argv);
}

/* The counts' lines and the elapsed time: after the header's ":\n\n", to "elapsed\n" */
static char *counts_of(const char *out)
{
	const char *from = out ? strstr(out, "':\n\n") : NULL, *to;

	if (!from)
		return strdup("(no header)");
	from += 4;
	to = strstr(from, "seconds time elapsed\n");
	if (!to)
		return strdup("(no elapsed time)");
	return strndup(from, (size_t)(to - from) + strlen("seconds time elapsed\n"));
}

/* Each line cut at its metric (" # ") with its trailing blanks: times, counts, names */
static char *without_metrics(const char *out)
{
	char *copy = strdup(out ? out : ""), *dst = copy;

	for (const char *line = out ? out : ""; *line;) {
		const char *end = strchr(line, '\n'), *cut;
		size_t n;

		end = end ? end : line + strlen(line);
		cut = memmem(line, (size_t)(end - line), " # ", 3);
		n = (size_t)((cut && line[0] != '#' ? cut : end) - line);
		while (n && line[n - 1] == ' ')
			n--;
		memcpy(dst, line, n);
		dst += n;
		*dst++ = '\n';
		line = *end ? end + 1 : end;
	}
	*dst = '\0';
	return copy;
}

static void expect_same_counts(struct __test_metadata *_metadata, FIXTURE_DATA(sr) *self)
{
	char *live, *file;

	ASSERT_EQ(0, report(self, NULL));
	ASSERT_EQ(0, self->rep.exit_code) TH_LOG("%s", self->rep.err);
	live = counts_of(self->rec.err);
	file = counts_of(self->rep.err);
	EXPECT_STREQ(live, file);
	free(live);
	free(file);
}

TEST_F(sr, report_prints_the_counts_the_run_printed)
{
	ASSERT_EQ(0, record(self, NULL, "touch", TOUCH));
	ASSERT_EQ(0, self->rec.exit_code) TH_LOG("%s", self->rec.err);
	expect_same_counts(_metadata, self);
}

TEST_F(sr, report_counts_the_pages_the_command_touched)
{
	const char *line;

	ASSERT_EQ(0, record(self, NULL, "touch", TOUCH));
	ASSERT_EQ(0, report(self, "-x,"));
	ASSERT_EQ(0, self->rep.exit_code) TH_LOG("%s", self->rep.err);
	line = strstr(self->rep.err, ",page-faults,");
	ASSERT_NE(NULL, line) TH_LOG("%s", self->rep.err);
	while (line > self->rep.err && line[-1] != '\n')
		line--;
	EXPECT_LE(TOUCH, atol(line)) TH_LOG("%s", self->rep.err);
}

TEST_F(sr, report_names_the_recording_command_line)
{
	ASSERT_EQ(0, record(self, NULL, "touch", 10));
	ASSERT_EQ(0, report(self, NULL));
	EXPECT_NE(NULL, strstr(self->rep.err, " stat record -o ")) TH_LOG("%s", self->rep.err);
	EXPECT_NE(NULL, strstr(self->rep.err, " --workload touch 10':\n")) TH_LOG("%s", self->rep.err);
	/* the live run's user and sys times are not in the file */
	EXPECT_EQ(NULL, strstr(self->rep.err, "seconds user"));
}

TEST_F(sr, report_of_a_per_cpu_run_prints_each_cpu_as_the_run)
{
	static const char *const a[] = { "-a", "-A", NULL };

	ASSERT_EQ(0, record(self, a, "touch", TOUCH));
	ASSERT_EQ(0, self->rec.exit_code) TH_LOG("%s", self->rec.err);
	expect_same_counts(_metadata, self);
	EXPECT_NE(NULL, strstr(self->rep.err, "CPU0 ")) TH_LOG("%s", self->rep.err);
}

TEST_F(sr, report_of_intervals_prints_each_interval_of_the_run)
{
	static const char *const a[] = { "-I", "100", NULL };
	char *live, *file;

	ASSERT_EQ(0, record(self, a, "touch-sleep", TOUCH));
	ASSERT_EQ(0, self->rec.exit_code) TH_LOG("%s", self->rec.err);
	ASSERT_EQ(0, report(self, NULL));
	ASSERT_EQ(0, self->rep.exit_code) TH_LOG("%s", self->rep.err);
	live = without_metrics(self->rec.err);
	file = without_metrics(self->rep.err);
	EXPECT_STREQ(live, file);
	EXPECT_LE(3, pc_count_substr(file, " task-clock\n")) TH_LOG("%s", file);
	free(live);
	free(file);
}

TEST_F(sr, record_exits_with_the_commands_status_and_a_whole_file)
{
	ASSERT_EQ(0, record(self, NULL, "exit", 3));
	EXPECT_EQ(3, self->rec.exit_code) TH_LOG("%s", self->rec.err);
	expect_same_counts(_metadata, self);
}

/* perf 6.1 refuses -r N (N != 1) with this line alone and -1, before a file is made */
TEST_F(sr, repeats_are_refused_with_perfs_text_before_a_file_is_made)
{
	static const char *const a[] = { "-r", "2", NULL };

	ASSERT_EQ(0, record(self, a, "touch", 1));
	EXPECT_EQ(255, self->rec.exit_code);
	EXPECT_STREQ("Cannot use -r option with perf stat record.\n", self->rec.err);
	EXPECT_NE(0, access(self->path, F_OK));
}

/* -r 0 (for ever) is refused alike */
TEST_F(sr, forever_is_refused_with_perfs_text_before_a_file_is_made)
{
	static const char *const a[] = { "-r", "0", NULL };

	ASSERT_EQ(0, record(self, a, "touch", 1));
	EXPECT_EQ(255, self->rec.exit_code);
	EXPECT_STREQ("Cannot use -r option with perf stat record.\n", self->rec.err);
	EXPECT_NE(0, access(self->path, F_OK));
}

/* TOOL ARGS... with stdin from in (NULL: as is), through sh */
static int run_sh(struct pc_run *run, const char *const *args, const char *in)
{
	char cmd[4096];
	size_t n = 0;

	n += snprintf(cmd + n, sizeof(cmd) - n, "exec");
	for (; *args && n < sizeof(cmd); args++)
		n += snprintf(cmd + n, sizeof(cmd) - n, " '%s'", *args);
	if (in && n < sizeof(cmd))
		snprintf(cmd + n, sizeof(cmd) - n, " < '%s'", in);
	pc_run_free(run);
	return pc_test_run(run, 60, (char *[]){ "/bin/sh", "-c", cmd, NULL });
}

/* perfcheck script -D of path: how many of each record there are */
static char *dump_of(const char *path)
{
	struct pc_run d = { 0 };
	char *argv[] = { (char *)pc_test_perfcheck(), "script", "--compat", "6.1", "-D", "-i",
			 (char *)path, NULL };
	char *res = NULL;

	if (!pc_test_run(&d, 60, argv) && !d.exit_code && d.out &&
	    asprintf(&res, "attr %d thread_map %d cpu_map %d stat_config %d stat %d round %d",
		     pc_count_substr(d.out, ": PERF_RECORD_ATTR"),
		     pc_count_substr(d.out, ": PERF_RECORD_THREAD_MAP"),
		     pc_count_substr(d.out, ": PERF_RECORD_CPU_MAP"),
		     pc_count_substr(d.out, ": PERF_RECORD_STAT_CONFIG"),
		     pc_count_substr(d.out, ": PERF_RECORD_STAT\n"),
		     pc_count_substr(d.out, ": PERF_RECORD_STAT_ROUND")) < 0)
		res = NULL;
	pc_run_free(&d);
	return res ? res : strdup("(no dump)");
}

/*
 * -n (perf 6.1 records it): no attr, no STAT; the maps, STAT_CONFIG and
 * one final round, whose time the report prints under an empty table
 */
TEST_F(sr, null_run_records_the_maps_and_one_round_and_reports_the_elapsed_time)
{
	const char *const argv[] = { pc_test_perfcheck(), "stat", "record", "-n", "-o", self->path,
				     "true", NULL };
	char *dump;

	ASSERT_EQ(0, run_sh(&self->rec, argv, NULL));
	ASSERT_EQ(0, self->rec.exit_code) TH_LOG("%s", self->rec.err);
	EXPECT_NE(NULL, strstr(self->rec.err, "seconds time elapsed")) TH_LOG("%s", self->rec.err);
	dump = dump_of(self->path);
	EXPECT_STREQ("attr 0 thread_map 1 cpu_map 1 stat_config 1 stat 0 round 1", dump);
	free(dump);
	ASSERT_EQ(0, report(self, NULL));
	ASSERT_EQ(0, self->rep.exit_code) TH_LOG("%s", self->rep.err);
	EXPECT_EQ(self->rep.err, strstr(self->rep.err, "\n Performance counter stats for '"))
		TH_LOG("%s", self->rep.err);
	EXPECT_NE(NULL, strstr(self->rep.err, " -n -o ")) TH_LOG("%s", self->rep.err);
	EXPECT_NE(NULL, strstr(self->rep.err, "':\n\n\n       ")) TH_LOG("%s", self->rep.err);
	EXPECT_EQ(1, pc_count_substr(self->rep.err, " seconds time elapsed\n\n"));
	EXPECT_EQ(NULL, strstr(self->rep.err, "msec")) TH_LOG("%s", self->rep.err);
}

/*
 * -o -: the pipe format on stdout and nothing on stderr (perf prints no
 * counts into its data); the report reads it from a file and from stdin alike
 */
TEST_F(sr, pipe_output_prints_nothing_and_reports_from_stdin_as_from_a_file)
{
	char exe[64];
	const char *const argv[] = { pc_test_perfcheck(), "stat", "record", "-o", "-", "-e", EVENTS,
				     "--", exe, "--workload", "touch", "1000", NULL };
	const char *const rep[] = { pc_test_perfcheck(), "stat", "report", "-i", "-", NULL };
	struct pc_run stdin_rep = { 0 };
	char *dump;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)getpid());
	ASSERT_EQ(0, run_sh(&self->rec, argv, NULL));
	ASSERT_EQ(0, self->rec.exit_code) TH_LOG("%s", self->rec.err);
	EXPECT_STREQ("", self->rec.err ? self->rec.err : "");
	ASSERT_LT(16, self->rec.out_len);
	/* PERFILE2, header size 16: the pipe format */
	EXPECT_EQ(0, memcmp(self->rec.out, "PERFILE2\x10\0\0\0\0\0\0\0", 16));
	{
		FILE *f = fopen(self->path, "w");

		ASSERT_NE(NULL, f);
		ASSERT_EQ(1, fwrite(self->rec.out, self->rec.out_len, 1, f));
		fclose(f);
	}
	dump = dump_of(self->path);
	EXPECT_STREQ("attr 2 thread_map 1 cpu_map 1 stat_config 1 stat 2 round 1", dump);
	free(dump);
	ASSERT_EQ(0, report(self, NULL));
	ASSERT_EQ(0, self->rep.exit_code) TH_LOG("%s", self->rep.err);
	ASSERT_EQ(0, run_sh(&stdin_rep, rep, self->path));
	EXPECT_EQ(0, stdin_rep.exit_code) TH_LOG("%s", stdin_rep.err);
	EXPECT_STREQ(self->rep.err, stdin_rep.err);
	/* no CMDLINE in a pipe: perf's report names the command 'pipe' */
	EXPECT_NE(NULL, strstr(self->rep.err, " Performance counter stats for 'pipe':\n"));
	EXPECT_EQ(1, pc_count_substr(self->rep.err, " task-clock ")) TH_LOG("%s", self->rep.err);
	EXPECT_EQ(1, pc_count_substr(self->rep.err, " page-faults")) TH_LOG("%s", self->rep.err);
	pc_run_free(&stdin_rep);
}

TEST_F(sr, a_command_that_cannot_run_leaves_no_file)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "stat", "record", "-o", self->path, "-e",
			 EVENTS, "--", "/nonexistent/command", NULL };

	ASSERT_EQ(0, pc_test_run(&self->rec, 60, argv));
	EXPECT_EQ(127, self->rec.exit_code) TH_LOG("%s", self->rec.err);
	EXPECT_NE(0, access(self->path, F_OK));
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--workload"))
		return workload(argv + 2);
	return test_harness_run(argc, argv);
}
