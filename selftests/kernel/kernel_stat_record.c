// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck stat record then perfcheck stat report, on the running kernel:
 * the report of the file prints the counts the run printed (its lines and
 * elapsed time; the user and sys times are the live run's alone, as
 * perf's), summed, per cpu (-a -A) and per interval (-I: the same times and
 * counts; the metrics differ on purpose, as perf 6.1's report takes no
 * interval as its wall time and divides rates by the clock's mean over
 * the rounds).  Record exits with the command's status, the file complete;
 * what it cannot record is refused before a file is made, and a command
 * that cannot run leaves none.  The workloads
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

TEST_F(sr, repeats_are_refused_before_a_file_is_made)
{
	static const char *const a[] = { "-r", "2", NULL };

	ASSERT_EQ(0, record(self, a, "touch", 1));
	EXPECT_EQ(129, self->rec.exit_code);
	EXPECT_NE(NULL, strstr(self->rec.err, "-r cannot be recorded")) TH_LOG("%s", self->rec.err);
	EXPECT_NE(0, access(self->path, F_OK));
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
