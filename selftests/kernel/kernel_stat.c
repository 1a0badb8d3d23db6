// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck stat on the running kernel: the counts of a workload that does
 * a known amount of work (touching N pages), inherit across fork and exec,
 * the exit status, and perf stat's std, CSV (-x), JSON (-j), -I and -r
 * layouts.  The workloads are modes of this binary.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/cgroup_fresh.h"
#include "lib/testutil.h"

#define TOUCH 3000

/* Spins until this thread has run ms of cpu time. */
static void burn_cpu_ms(int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (volatile int i = 0; i < 10000; i++)
			;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000.0 + (t.tv_nsec - t0.tv_nsec) / 1e6 < ms);
}

/*
 * burn-in-cgroup MS DIR: a child moved into the cgroup DIR spins MS ms
 * of cpu while this process, outside it, spins twice as long
 */
static int burn_in_cgroup(int ms, const char *dir)
{
	struct pc_test_cgroup cg;
	pid_t pid;
	int st;

	snprintf(cg.dir, sizeof(cg.dir), "%s", dir);
	pid = fork();
	if (pid == 0) {
		if (pc_test_cgroup_enter(&cg, 0))
			_exit(3);
		burn_cpu_ms(ms);
		_exit(0);
	}
	if (pid < 0)
		return 4;
	burn_cpu_ms(2 * ms);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 5;
	return WEXITSTATUS(st);
}

static int workload(char **argv)
{
	const char *mode = argv[0];
	int n = argv[1] ? atoi(argv[1]) : 0;

	if (!strcmp(mode, "touch"))
		return pc_test_touch_pages(n);
	if (!strcmp(mode, "fork-touch")) {
		pid_t pid = fork();
		int st;

		if (pid == 0)
			_exit(pc_test_touch_pages(n));
		waitpid(pid, &st, 0);
		return 0;
	}
	if (!strcmp(mode, "exec-touch")) {
		char self[64], num[16];

		snprintf(self, sizeof(self), "/proc/%d/exe", (int)getpid());
		snprintf(num, sizeof(num), "%d", n);
		execl(self, self, "--workload", "touch", num, (char *)NULL);
		return 126;
	}
	if (!strcmp(mode, "touch-sleep")) {
		int ret = pc_test_touch_pages(n);

		usleep(2000 * 1000);
		/* no exit-time work after the count began (a sanitizer's leak scan faults too) */
		_exit(ret);
	}
	if (!strcmp(mode, "exit"))
		return n;
	if (!strcmp(mode, "burn-in-cgroup") && argv[1] && argv[2])
		return burn_in_cgroup(n, argv[2]);
	if (!strcmp(mode, "sleep"))
		return usleep((useconds_t)n * 1000);
	if (!strcmp(mode, "loop")) {
		for (volatile long i = 0; i < (long)n * 1000; i++)
			;
		return 0;
	}
	return 2;
}

/* perfcheck stat ARGS -- this binary --workload MODE N; stderr holds the counts. */
static int stat_run(struct pc_run *run, const char *const *args, const char *mode, int n)
{
	char *argv[32], self[64], num[16];
	int i = 0;

	snprintf(self, sizeof(self), "/proc/%d/exe", (int)getpid());
	snprintf(num, sizeof(num), "%d", n);
	argv[i++] = (char *)pc_test_perfcheck();
	argv[i++] = "stat";
	for (; *args && i < 24; args++)
		argv[i++] = (char *)*args;
	argv[i++] = "--";
	argv[i++] = self;
	argv[i++] = "--workload";
	argv[i++] = (char *)mode;
	argv[i++] = num;
	argv[i] = NULL;
	return pc_test_run(run, 60, argv);
}

/* The value of EVENT in CSV lines (value,unit,event,...); -1 when absent or not counted. */
static double csv_value(const char *text, const char *event)
{
	char needle[128];
	const char *p;

	snprintf(needle, sizeof(needle), ",%s,", event);
	for (p = text; (p = strstr(p, needle)); p++) {
		const char *bol = p;

		while (bol > text && bol[-1] != '\n')
			bol--;
		/* value,unit,event: the event is the third field */
		if (strchr(bol, ',') && strchr(strchr(bol, ',') + 1, ',') + 0 == p)
			return (bol[0] == '<') ? -1 : strtod(bol, NULL);
	}
	return -1;
}

static int nr_fields(const char *line, char sep)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == sep;
	return n;
}

FIXTURE(stat) {
	struct pc_run run, base;
};

FIXTURE_SETUP(stat)
{
	static const char *const args[] = { "-x,", "-e", "page-faults", NULL };

	memset(&self->run, 0, sizeof(self->run));
	memset(&self->base, 0, sizeof(self->base));
	/* the workload's own cost: everything but the touching */
	ASSERT_EQ(0, stat_run(&self->base, args, "touch", 0));
	if (self->base.exit_code != 0 || csv_value(self->base.err, "page-faults") < 0)
		SKIP(return, "page-faults cannot be counted here: %s", self->base.err);
}

FIXTURE_TEARDOWN(stat)
{
	pc_run_free(&self->run);
	pc_run_free(&self->base);
}

TEST_F(stat, page_faults_count_each_page_the_workload_touches)
{
	static const char *const args[] = { "-x,", "-e", "page-faults", NULL };
	double base = csv_value(self->base.err, "page-faults"), n;

	ASSERT_EQ(0, stat_run(&self->run, args, "touch", TOUCH));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	n = csv_value(self->run.err, "page-faults") - base;
	/* within 2%: the same binary, the same start, TOUCH more pages */
	EXPECT_LE(TOUCH * 0.98, n) TH_LOG("%.0f faults for %d pages", n, TOUCH);
	EXPECT_GE(TOUCH * 1.02, n) TH_LOG("%.0f faults for %d pages", n, TOUCH);
}

TEST_F(stat, inherit_counts_a_forked_child)
{
	static const char *const args[] = { "-x,", "-e", "page-faults", NULL };
	double base = csv_value(self->base.err, "page-faults");

	ASSERT_EQ(0, stat_run(&self->run, args, "fork-touch", TOUCH));
	EXPECT_LE(base + TOUCH * 0.98, csv_value(self->run.err, "page-faults"))
		TH_LOG("%s", self->run.err);
}

TEST_F(stat, no_inherit_leaves_the_child_out)
{
	static const char *const args[] = { "-x,", "-i", "-e", "page-faults", NULL };

	ASSERT_EQ(0, stat_run(&self->run, args, "fork-touch", TOUCH));
	EXPECT_GT(TOUCH / 2, csv_value(self->run.err, "page-faults")) TH_LOG("%s", self->run.err);
}

TEST_F(stat, counting_goes_on_across_exec)
{
	static const char *const args[] = { "-x,", "-e", "page-faults", NULL };
	double base = csv_value(self->base.err, "page-faults");

	ASSERT_EQ(0, stat_run(&self->run, args, "exec-touch", TOUCH));
	/* two starts of the binary (before and after exec), then the pages */
	EXPECT_LE(base + TOUCH * 0.98, csv_value(self->run.err, "page-faults"))
		TH_LOG("%s", self->run.err);
}

TEST_F(stat, a_group_is_read_as_one_and_shares_its_running_time)
{
	static const char *const args[] = { "-x,", "-e",
					    "{task-clock,page-faults,minor-faults,major-faults}", NULL };
	char run_a[32] = "", run_b[32] = "", run_c[32] = "";
	const char *l;

	ASSERT_EQ(0, stat_run(&self->run, args, "touch", 100));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	/* value,unit,event,run,pcnt,...: the run time of the fourth field */
	l = strstr(self->run.err, ",task-clock,");
	ASSERT_NE(NULL, l) TH_LOG("%s", self->run.err);
	sscanf(l + strlen(",task-clock,"), "%31[0-9]", run_a);
	l = strstr(self->run.err, ",page-faults,");
	ASSERT_NE(NULL, l);
	sscanf(l + strlen(",page-faults,"), "%31[0-9]", run_b);
	l = strstr(self->run.err, ",minor-faults,");
	ASSERT_NE(NULL, l);
	sscanf(l + strlen(",minor-faults,"), "%31[0-9]", run_c);
	EXPECT_STRNE("", run_a);
	EXPECT_STREQ(run_a, run_b);
	EXPECT_STREQ(run_a, run_c);
	/* read as one: every fault counted once, as minor or major (a binary read from a disk faults major) */
	EXPECT_EQ(csv_value(self->run.err, "page-faults"),
		  csv_value(self->run.err, "minor-faults") + csv_value(self->run.err, "major-faults"))
		TH_LOG("%s", self->run.err);
}

TEST_F(stat, a_member_the_machine_cannot_count_leaves_the_rest_of_its_group)
{
	static const char *const args[] = { "-x,", "-e", "{task-clock,cycles,page-faults}", NULL };

	ASSERT_EQ(0, stat_run(&self->run, args, "touch", 100));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	if (!strstr(self->run.err, "<not supported>,,cycles,"))
		SKIP(return, "this machine counts cycles (a PMU): no member is refused");
	/* perf 6.1 shows the whole group <not counted> here; we count what opened */
	EXPECT_LE(100, csv_value(self->run.err, "page-faults")) TH_LOG("%s", self->run.err);
	EXPECT_LT(0, csv_value(self->run.err, "task-clock"));
}

/* twelve counters of one event: more than a PMU has, so that they multiplex */
#define TWELVE_INSTRUCTIONS                                                                \
	"instructions,instructions,instructions,instructions,instructions,instructions,"   \
	"instructions,instructions,instructions,instructions,instructions,instructions"

/*
 * The value and the percentage it ran of each "instructions" line of CSV
 * text (value,,instructions,run,pcnt,...), at most max; how many
 */
static int instructions_lines(const char *text, double *value, double *pcnt, int max)
{
	int n = 0;

	for (const char *p = text; n < max && (p = strstr(p, ",,instructions,")); p++, n++) {
		const char *bol = p;
		char *end;

		while (bol > text && bol[-1] != '\n')
			bol--;
		value[n] = strtod(bol, NULL);
		/* the run time, then the percentage it ran */
		strtoull(p + strlen(",,instructions,"), &end, 10);
		pcnt[n] = strtod(end + 1, NULL);
	}
	return n;
}

/* stat ARGS of a loop, then its instructions lines into lines, value, pcnt; SKIP without a PMU */
#define RUN_INSTRUCTIONS(args, lines, value, pcnt)                                          \
	do {                                                                                \
		ASSERT_EQ(0, stat_run(&self->run, args, "loop", 30000));                    \
		ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);              \
		if (strstr(self->run.err, "<not supported>,,instructions,"))                \
			SKIP(return, "no PMU counts instructions here (perfcheck stat: "    \
				     "<not supported>)");                                   \
		lines = instructions_lines(self->run.err, value, pcnt, 64);                 \
	} while (0)

TEST_F(stat, more_events_than_counters_are_scaled_and_show_their_share)
{
	static const char *const args[] = { "-x,", "-e", TWELVE_INSTRUCTIONS, NULL };
	double lo = 0, hi = 0, value[64], pcnt[64];
	int partial = 0, lines;

	RUN_INSTRUCTIONS(args, lines, value, pcnt);
	for (int i = 0; i < lines; i++) {
		partial += pcnt[i] < 100.0;
		lo = i && lo < value[i] ? lo : value[i];
		hi = hi > value[i] ? hi : value[i];
	}
	EXPECT_EQ(12, lines) TH_LOG("%s", self->run.err);
	EXPECT_LT(0, partial) TH_LOG("12 counters and none shared the PMU: %s", self->run.err);
	/* each is the same count, estimated: within 25% of each other */
	EXPECT_GT(1.25, hi / lo) TH_LOG("%s", self->run.err);
}

/* --no-scale: each multiplexed count as it was read, the share it ran unapplied */
TEST_F(stat, no_scale_shows_multiplexed_counts_as_read)
{
	static const char *const args[] = { "--no-scale", "-x,", "-e", TWELVE_INSTRUCTIONS, NULL };
	double full_lo = 0, full_hi = 0, raw_lo = 0, value[64], pcnt[64];
	int partial = 0, lines;

	RUN_INSTRUCTIONS(args, lines, value, pcnt);
	for (int i = 0; i < lines; i++) {
		double full;

		if (pcnt[i] >= 100.0 || pcnt[i] <= 0)
			continue;
		full = value[i] * 100.0 / pcnt[i];
		full_lo = partial && full_lo < full ? full_lo : full;
		full_hi = full_hi > full ? full_hi : full;
		raw_lo = partial && raw_lo < value[i] ? raw_lo : value[i];
		partial++;
	}
	ASSERT_LT(0, partial) TH_LOG("12 counters and none shared the PMU: %s", self->run.err);
	/* scaled here, they estimate one count; as printed, the least is well below it */
	EXPECT_GT(1.25, full_hi / full_lo) TH_LOG("%s", self->run.err);
	EXPECT_GT(0.9 * full_lo, raw_lo) TH_LOG("%s", self->run.err);
}

/*
 * --control fifo:CTL,ACK with -D -1: counted only between the command's own
 * "enable" and "disable" (each acked), not the larger loop after them
 */
TEST_F(stat, control_counts_only_while_enabled)
{
	static const char loop[] = "i=0; while [ $i -lt %d ]; do i=$((i+1)); done";
	char cmd[2048], one[128], four[128], *dir = pc_test_mkdtemp("stat-control");
	char *argv[] = { "sh", "-c", cmd, NULL };
	double between, whole;

	ASSERT_NE(NULL, dir);
	snprintf(one, sizeof(one), loop, 20000);
	snprintf(four, sizeof(four), loop, 80000);
	snprintf(cmd, sizeof(cmd), "cd '%s' && mkfifo ctl ack && '%s' stat -D -1 --control fifo:ctl,ack "
		 "-x, -e task-clock -- sh -c 'echo enable > ctl; read a < ack; %s; "
		 "echo disable > ctl; read a < ack; %s'", dir, pc_test_perfcheck(), one, four);
	ASSERT_EQ(0, pc_test_run(&self->run, 60, argv));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "Events enabled")) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "Events disabled")) TH_LOG("%s", self->run.err);
	between = csv_value(self->run.err, "task-clock");
	snprintf(cmd, sizeof(cmd), "'%s' stat -x, -e task-clock -- sh -c '%s; %s'",
		 pc_test_perfcheck(), one, four);
	ASSERT_EQ(0, pc_test_run(&self->base, 60, argv));
	whole = csv_value(self->base.err, "task-clock");
	ASSERT_LT(0, between) TH_LOG("%s", self->run.err);
	/* a fifth of the work between them: well under half of the whole */
	EXPECT_GT(whole / 2, between) TH_LOG("between %f, whole %f", between, whole);
	pc_test_rmdir(dir);
}

/* --log-fd N: the counts go to that descriptor, as perf; not with -o (perf's -EINVAL) */
TEST_F(stat, log_fd_writes_the_counts_to_that_descriptor)
{
	char cmd[1024], *dir = pc_test_mkdtemp("stat-logfd"), *text;
	char *argv[] = { "sh", "-c", cmd, NULL };
	size_t len;

	ASSERT_NE(NULL, dir);
	snprintf(cmd, sizeof(cmd), "'%s' stat --log-fd 3 -x, -e page-faults -- true 3>'%s/counts'",
		 pc_test_perfcheck(), dir);
	ASSERT_EQ(0, pc_test_run(&self->run, 60, argv));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_EQ(NULL, strstr(self->run.err, "page-faults")) TH_LOG("%s", self->run.err);
	snprintf(cmd, sizeof(cmd), "%s/counts", dir);
	text = pc_test_slurp(cmd, &len);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, ",page-faults,")) TH_LOG("%s", text);
	free(text);
	pc_run_free(&self->run);
	snprintf(cmd, sizeof(cmd), "'%s' stat --log-fd 3 -o '%s/o' -e page-faults -- true 3>/dev/null",
		 pc_test_perfcheck(), dir);
	ASSERT_EQ(0, pc_test_run(&self->run, 60, argv));
	EXPECT_EQ(234, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "cannot use both --output and --log-fd"));
	pc_test_rmdir(dir);
}

TEST_F(stat, exit_status_of_the_command_is_returned)
{
	static const char *const args[] = { "-x,", "-e", "page-faults", NULL };

	ASSERT_EQ(0, stat_run(&self->run, args, "exit", 7));
	EXPECT_EQ(7, self->run.exit_code);
}

TEST_F(stat, a_command_that_is_not_there_exits_127)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "stat", "--", "/nonexistent/cmd", NULL };

	ASSERT_EQ(0, pc_test_run(&self->run, 30, argv));
	EXPECT_EQ(127, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "/nonexistent/cmd"));
}

TEST_F(stat, an_unknown_option_names_itself_and_exits_129)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "stat", "--bogus", "true", NULL };

	ASSERT_EQ(0, pc_test_run(&self->run, 30, argv));
	EXPECT_EQ(129, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "--bogus"));
}

TEST_F(stat, std_layout_has_perfs_header_columns_and_footer)
{
	static const char *const args[] = { "-e", "task-clock,page-faults", NULL };
	const char *line;

	ASSERT_EQ(0, stat_run(&self->run, args, "touch", 10));
	EXPECT_NE(NULL, strstr(self->run.err, "\n Performance counter stats for '"));
	line = strstr(self->run.err, " msec task-clock ");
	ASSERT_NE(NULL, line) TH_LOG("%s", self->run.err);
	/* counts in 18 columns, the unit in 4, the name in 32, then " # " */
	EXPECT_EQ(0, strncmp(line + 1 + 4 + 1 + 10, "                       #", 24));
	EXPECT_NE(NULL, strstr(line, "CPUs utilized"));
	EXPECT_NE(NULL, strstr(self->run.err, " seconds time elapsed\n\n"));
	EXPECT_NE(NULL, strstr(self->run.err, " seconds user\n"));
	EXPECT_NE(NULL, strstr(self->run.err, " seconds sys\n"));
}

TEST_F(stat, csv_lines_have_perfs_seven_fields)
{
	static const char *const args[] = { "-x;", "-e", "task-clock,page-faults", NULL };
	const char *pf, *tc;

	ASSERT_EQ(0, stat_run(&self->run, args, "touch", 10));
	tc = strstr(self->run.err, ";msec;task-clock;");
	pf = strstr(self->run.err, ";;page-faults;");
	ASSERT_NE(NULL, tc) TH_LOG("%s", self->run.err);
	ASSERT_NE(NULL, pf);
	while (tc > self->run.err && tc[-1] != '\n')
		tc--;
	while (pf > self->run.err && pf[-1] != '\n')
		pf--;
	EXPECT_EQ(7, nr_fields(tc, ';'));
	EXPECT_EQ(7, nr_fields(pf, ';'));
	EXPECT_NE(NULL, strstr(tc, ";CPUs utilized"));
	EXPECT_EQ(NULL, strstr(self->run.err, "Performance counter stats"));
}

TEST_F(stat, json_has_one_object_per_counter)
{
	static const char *const args[] = { "-j", "-e", "task-clock,page-faults", NULL };

	ASSERT_EQ(0, stat_run(&self->run, args, "touch", 10));
	EXPECT_EQ(2, pc_count_substr(self->run.err, "{\"counter-value\" : \""));
	EXPECT_EQ(1, pc_count_substr(self->run.err, "\"event\" : \"task-clock\""));
	EXPECT_EQ(1, pc_count_substr(self->run.err, "\"event\" : \"page-faults\""));
	EXPECT_EQ(2, pc_count_substr(self->run.err, "}\n"));
}

static double wall_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The time stamps (first CSV field) of the lines counting event; their number. */
static int interval_stamps(const char *text, const char *event, double *t, int max)
{
	char needle[64];
	int n = 0;

	snprintf(needle, sizeof(needle), ",%s,", event);
	for (const char *l = text; l && *l && n < max; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *nl = strchrnul(l, '\n');
		const char *hit = strstr(l, needle);

		if (hit && hit < nl)
			t[n++] = strtod(l, NULL);
	}
	return n;
}

TEST_F(stat, interval_prints_every_interval_until_the_command_exits)
{
	static const char *const args[] = { "-x,", "-I", "100", "-e", "page-faults", NULL };
	double t0 = wall_ms(), ms;
	int lines;

	ASSERT_EQ(0, stat_run(&self->run, args, "sleep", 450));
	ms = wall_ms() - t0;
	lines = pc_count_substr(self->run.err, ",page-faults,");
	/* 4 whole intervals of the 450 ms sleep, and the partial last one */
	EXPECT_LE(4, lines) TH_LOG("%s", self->run.err);
	/*
	 * No more lines than intervals in the run's wall time (measured: a
	 * loaded machine stretches the start and the exit of the command), and
	 * the partial last one.
	 */
	EXPECT_GE((int)(ms / 100) + 1, lines) TH_LOG("%.0f ms: %s", ms, self->run.err);
}

/*
 * perfcheck stopped for 600 ms in the middle of the command's run (as a
 * loaded machine may leave it unscheduled): the line after the stall
 * covers it, as perf's does; no burst of lines for the deadlines it
 * missed.  Every line but the last (the command's exit) is most of an
 * interval after the one before.
 */
TEST_F(stat, a_stalled_interval_prints_one_line_not_a_burst)
{
	char exe[64];
	char *argv[] = { "sh", "-c",
			 "\"$0\" stat -x, -I 100 -e page-faults -- \"$1\" --workload sleep 1500 & "
			 "p=$!; sleep 0.4; kill -STOP $p; sleep 0.6; kill -CONT $p; wait $p",
			 (char *)pc_test_perfcheck(), exe, NULL };
	double t[64];
	int n;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)getpid());
	ASSERT_EQ(0, pc_test_run(&self->run, 60, argv));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	n = interval_stamps(self->run.err, "page-faults", t, 64);
	/* before the stop, the stall's line, after it */
	ASSERT_LE(4, n) TH_LOG("%s", self->run.err);
	for (int i = 1; i + 1 < n; i++) {
		EXPECT_LE(t[i - 1] + 0.09, t[i]) TH_LOG("line %d at %.6f s, %.6f s after the one before: %s",
						       i + 1, t[i], t[i] - t[i - 1], self->run.err);
	}
}

TEST_F(stat, repeat_shows_the_runs_and_the_noise)
{
	static const char *const args[] = { "-r", "3", "-e", "page-faults", NULL };

	int noise;

	ASSERT_EQ(0, stat_run(&self->run, args, "touch", 10));
	EXPECT_NE(NULL, strstr(self->run.err, "' (3 runs):"));
	/*
	 * the elapsed time's noise, and the count's unless its runs counted
	 * alike (perf leaves a noise of 0 out: the arm64 guests, -icount, fault
	 * the same pages each run)
	 */
	noise = pc_count_substr(self->run.err, "( +-");
	EXPECT_TRUE(noise == 1 || noise == 2) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, " seconds time elapsed  ( +-"));
}

/*
 * perfcheck stat -r 0 -e page-faults -- this binary --workload touch 10, its
 * stderr read until two runs are whole, then SIGINT to it: all of its
 * stderr into err (malloc'd), its wait status into status; -1 when it could
 * not run or said nothing whole in 60 s (then killed)
 */
static int forever_until_two_runs(char **err, int *status)
{
	char self[64], chunk[4096], *buf = NULL;
	size_t len = 0;
	time_t deadline = time(NULL) + 60;
	bool sent = false, late = false;
	int fd[2];
	pid_t pid;

	snprintf(self, sizeof(self), "/proc/%d/exe", (int)getpid());
	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		close(fd[1]);
		execl(pc_test_perfcheck(), "perfcheck", "stat", "-r", "0", "-e", "page-faults", "--",
		      self, "--workload", "touch", "10", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	for (;;) {
		struct pollfd pfd = { .fd = fd[0], .events = POLLIN };
		ssize_t n;
		char *grown;

		if (time(NULL) > deadline) {
			late = true;
			kill(pid, SIGKILL);
		}
		if (poll(&pfd, 1, 1000) <= 0)
			continue;
		n = read(fd[0], chunk, sizeof(chunk));
		if (n <= 0)
			break;
		grown = realloc(buf, len + (size_t)n + 1);
		if (!grown)
			break;
		buf = grown;
		memcpy(buf + len, chunk, (size_t)n);
		len += (size_t)n;
		buf[len] = '\0';
		if (!sent && pc_count_substr(buf, " seconds time elapsed\n") >= 2) {
			kill(pid, SIGINT);
			sent = true;
		}
	}
	close(fd[0]);
	waitpid(pid, status, 0);
	*err = buf;
	return late || !buf ? -1 : 0;
}

/*
 * -r 0, perf's forever mode: each run's counts alone (no "(N runs)", no
 * noise, no user and sys times), run after run; SIGINT ends it after the
 * run it cut, whose counts are shown too (perf 6.1 goes on: only SIGKILL
 * stops it)
 */
TEST_F(stat, repeat_zero_prints_each_run_alone_until_sigint)
{
	char *err = NULL;
	int status = 0, runs;

	ASSERT_EQ(0, forever_until_two_runs(&err, &status)) TH_LOG("%s", err ? err : "");
	/* the command's status: 0, or 130 when the signal cut its run (the cut run still shown) */
	EXPECT_TRUE(WIFEXITED(status) && (!WEXITSTATUS(status) || WEXITSTATUS(status) == 128 + SIGINT))
		TH_LOG("status %#x: %s", status, err);
	runs = pc_count_substr(err, " Performance counter stats for ");
	EXPECT_LE(2, runs) TH_LOG("%s", err);
	EXPECT_EQ(runs, pc_count_substr(err, " page-faults ")) TH_LOG("%s", err);
	EXPECT_EQ(runs, pc_count_substr(err, " seconds time elapsed\n"));
	EXPECT_EQ(NULL, strstr(err, " runs)"));
	EXPECT_EQ(NULL, strstr(err, "( +-"));
	EXPECT_EQ(NULL, strstr(err, "seconds user"));
	free(err);
}

TEST_F(stat, system_wide_cpu_clock_runs_on_every_cpu)
{
	static const char *const args[] = { "-a", "-x,", "-e", "cpu-clock", NULL };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	const char *m;

	ASSERT_EQ(0, stat_run(&self->run, args, "sleep", 200));
	if (self->run.exit_code)
		SKIP(return, "system-wide counting refused: %s", self->run.err);
	m = strstr(self->run.err, ",CPUs utilized");
	ASSERT_NE(NULL, m) TH_LOG("%s", self->run.err);
	while (m > self->run.err && m[-1] != ',')
		m--;
	EXPECT_LE(0.8 * ncpu, strtod(m, NULL)) TH_LOG("%s", self->run.err);
}

/* the online cpus from sysfs: as many as _SC_NPROCESSORS_ONLN */
static long online_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

TEST_F(stat, no_aggr_prints_each_cpu_for_each_event_in_turn)
{
	static const char *const args[] = { "-a", "-A", "-x,", "-e", "cpu-clock,context-switches",
					     NULL };
	long ncpu = online_cpus();
	const char *cs;
	char first[16];

	ASSERT_EQ(0, stat_run(&self->run, args, "sleep", 200));
	if (self->run.exit_code)
		SKIP(return, "system-wide counting refused: %s", self->run.err);
	EXPECT_EQ(ncpu, pc_count_substr(self->run.err, ",msec,cpu-clock,")) TH_LOG("%s", self->run.err);
	EXPECT_EQ(ncpu, pc_count_substr(self->run.err, ",,context-switches,"));
	/* perf's order: every cpu of the first event, then of the next */
	cs = strstr(self->run.err, ",context-switches,");
	ASSERT_NE(NULL, cs);
	while (cs > self->run.err && cs[-1] != '\n')
		cs--;
	EXPECT_EQ(ncpu, pc_count_substr(cs, ",context-switches,"));
	EXPECT_EQ(0, pc_count_substr(cs, ",cpu-clock,"));
	snprintf(first, sizeof(first), "CPU%d,", 0);
	EXPECT_EQ(0, strncmp(self->run.err, first, strlen(first))) TH_LOG("%s", self->run.err);
}

/* each --per-* line says how many cpus it sums: all of them, once */
static void aggregates_cover_every_cpu(struct __test_metadata *_metadata, struct pc_run *run,
				       const char *mode, const char *prefix)
{
	const char *args[] = { "-a", mode, "-x,", "-e", "cpu-clock", NULL };
	long ncpu = online_cpus(), cpus = 0;
	int lines = 0;

	ASSERT_EQ(0, stat_run(run, args, "sleep", 100));
	if (run->exit_code)
		SKIP(return, "system-wide counting refused: %s", run->err);
	for (const char *p = run->err; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *comma = strchr(p, ',');

		if (strncmp(p, prefix, strlen(prefix)) || !comma)
			continue;
		cpus += strtol(comma + 1, NULL, 10);
		lines++;
	}
	EXPECT_LE(1, lines) TH_LOG("%s", run->err);
	EXPECT_EQ(ncpu, cpus) TH_LOG("%s", run->err);
}

TEST_F(stat, per_socket_die_core_and_node_lines_sum_every_cpu_once)
{
	aggregates_cover_every_cpu(_metadata, &self->run, "--per-socket", "S");
	pc_run_free(&self->run);
	memset(&self->run, 0, sizeof(self->run));
	aggregates_cover_every_cpu(_metadata, &self->run, "--per-die", "S");
	pc_run_free(&self->run);
	memset(&self->run, 0, sizeof(self->run));
	aggregates_cover_every_cpu(_metadata, &self->run, "--per-core", "S");
	pc_run_free(&self->run);
	memset(&self->run, 0, sizeof(self->run));
	aggregates_cover_every_cpu(_metadata, &self->run, "--per-node", "N");
}

TEST_F(stat, per_socket_names_the_socket_sysfs_gives_cpu0)
{
	static const char *const args[] = { "-a", "--per-socket", "-x,", "-e", "cpu-clock", NULL };
	char want[32];
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/topology/physical_package_id", "re");
	int id;

	if (!f)
		SKIP(return, "no cpu0 topology in sysfs");
	ASSERT_EQ(1, fscanf(f, "%d", &id));
	fclose(f);
	ASSERT_EQ(0, stat_run(&self->run, args, "sleep", 100));
	if (self->run.exit_code)
		SKIP(return, "system-wide counting refused: %s", self->run.err);
	snprintf(want, sizeof(want), "S%d,", id);
	EXPECT_NE(NULL, strstr(self->run.err, want)) TH_LOG("%s", self->run.err);
}

TEST_F(stat, repeat_with_no_aggr_prints_each_cpus_mean_once)
{
	static const char *const args[] = { "-a", "-A", "-r", "2", "-e", "cpu-clock", NULL };

	ASSERT_EQ(0, stat_run(&self->run, args, "sleep", 50));
	if (self->run.exit_code)
		SKIP(return, "system-wide counting refused: %s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "' (2 runs):")) TH_LOG("%s", self->run.err);
	EXPECT_EQ(1, pc_count_substr(self->run.err, "Performance counter stats"));
	EXPECT_EQ(online_cpus(), pc_count_substr(self->run.err, " msec cpu-clock"));
	EXPECT_NE(NULL, strstr(self->run.err, " seconds time elapsed  ( +-"));
}

TEST_F(stat, aggregation_modes_need_system_wide_as_perf)
{
	static const char *const args[] = { "-A", "-e", "cpu-clock", NULL };

	ASSERT_EQ(0, stat_run(&self->run, args, "sleep", 10));
	/* perf 6.1 returns its -EINVAL here: 234, not the usage error's 129 */
	EXPECT_EQ(234, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err,
			       "both cgroup and no-aggregation modes only available in system-wide mode"));
}

TEST_F(stat, timeout_ends_the_command_with_sigterm_and_exits_124)
{
	static const char *const args[] = { "--timeout", "200", "-x,", "-e", "task-clock", NULL };
	struct timespec a, b;
	double took;

	clock_gettime(CLOCK_MONOTONIC, &a);
	ASSERT_EQ(0, stat_run(&self->run, args, "sleep", 20000));
	clock_gettime(CLOCK_MONOTONIC, &b);
	took = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	EXPECT_EQ(124, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, ": Terminated\n")) TH_LOG("%s", self->run.err);
	EXPECT_LE(0, csv_value(self->run.err, "task-clock")) TH_LOG("%s", self->run.err);
	EXPECT_GT(10.0, took);
}

TEST_F(stat, interval_count_prints_that_many_intervals_and_lets_the_command_finish)
{
	static const char *const args[] = { "-I", "100", "--interval-count", "2", "-x,", "-e",
					     "task-clock", NULL };

	ASSERT_EQ(0, stat_run(&self->run, args, "exit", 7));
	ASSERT_EQ(0, stat_run(&self->base, args, "sleep", 700));
	EXPECT_EQ(0, self->base.exit_code) TH_LOG("%s", self->base.err);
	EXPECT_EQ(2, pc_count_substr(self->base.err, ",task-clock,")) TH_LOG("%s", self->base.err);
	/* the command's own status: it ran to its end */
	EXPECT_EQ(7, self->run.exit_code);
}

TEST_F(stat, null_run_prints_the_elapsed_time_alone)
{
	static const char *const args[] = { "-n", NULL };

	ASSERT_EQ(0, stat_run(&self->run, args, "sleep", 50));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, " Performance counter stats for '"));
	EXPECT_NE(NULL, strstr(self->run.err, " seconds time elapsed"));
	EXPECT_EQ(NULL, strstr(self->run.err, "task-clock"));
	EXPECT_EQ(NULL, strstr(self->run.err, ":\n\n\n")) TH_LOG("%s", self->run.err);
}

TEST_F(stat, output_file_starts_with_the_date_and_append_adds_a_run)
{
	char path[256], *argsv[8];
	char *text;
	size_t len;
	char *dir = pc_test_mkdtemp("stat-output");

	ASSERT_NE(NULL, dir);
	snprintf(path, sizeof(path), "%s/counts", dir);
	argsv[0] = "-o";
	argsv[1] = path;
	argsv[2] = "-x,";
	argsv[3] = "-e";
	argsv[4] = "page-faults";
	argsv[5] = NULL;
	ASSERT_EQ(0, stat_run(&self->run, (const char *const *)argsv, "touch", 100));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_EQ(NULL, strstr(self->run.err, "page-faults"));
	argsv[2] = "--append";
	argsv[3] = "-x,";
	argsv[4] = "-e";
	argsv[5] = "page-faults";
	argsv[6] = NULL;
	ASSERT_EQ(0, stat_run(&self->base, (const char *const *)argsv, "touch", 100));
	text = pc_test_slurp(path, &len);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, strncmp(text, "# started on ", 13)) TH_LOG("%s", text);
	EXPECT_EQ(2, pc_count_substr(text, "# started on "));
	EXPECT_EQ(2, pc_count_substr(text, ",page-faults,")) TH_LOG("%s", text);
	free(text);
	pc_test_rmdir(dir);
}

TEST_F(stat, detailed_levels_add_perfs_cache_events_after_the_others)
{
	static const char *const d1[] = { "-d", "-x,", "-e", "task-clock", NULL };
	static const char *const d3[] = { "-ddd", "-x,", NULL };
	static const char *const want[] = { ",L1-dcache-loads,", ",L1-dcache-load-misses,",
					     ",LLC-loads,", ",LLC-load-misses,",
					     ",L1-icache-load-misses,", ",iTLB-load-misses,",
					     ",L1-dcache-prefetch-misses," };

	ASSERT_EQ(0, stat_run(&self->run, d1, "touch", 100));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	/* -e's event first, then the four of -d, counted or <not supported> */
	EXPECT_LT(strstr(self->run.err, ",task-clock,"), strstr(self->run.err, ",L1-dcache-loads,"));
	EXPECT_EQ(5, pc_count_substr(self->run.err, "\n")) TH_LOG("%s", self->run.err);
	EXPECT_EQ(NULL, strstr(self->run.err, "L1-icache"));
	ASSERT_EQ(0, stat_run(&self->base, d3, "touch", 100));
	EXPECT_EQ(0, self->base.exit_code) TH_LOG("%s", self->base.err);
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		EXPECT_NE(NULL, strstr(self->base.err, want[k])) TH_LOG("%s", want[k]);
	}
	/* the default set, then 4 + 6 + 2 */
	EXPECT_EQ(8 + 12, pc_count_substr(self->base.err, "\n")) TH_LOG("%s", self->base.err);
}

TEST_F(stat, per_thread_names_each_thread_of_a_process)
{
	char *argv[16], pidbuf[16], self_exe[64];
	pid_t pid;
	char needle[64];

	snprintf(self_exe, sizeof(self_exe), "/proc/%d/exe", (int)getpid());
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		execl(self_exe, "stat-target", "--workload", "sleep", "1500", (char *)NULL);
		_exit(126);
	}
	usleep(100000);
	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)pid);
	argv[0] = (char *)pc_test_perfcheck();
	argv[1] = "stat";
	argv[2] = "-x,";
	argv[3] = "--per-thread";
	argv[4] = "-p";
	argv[5] = pidbuf;
	argv[6] = "-e";
	argv[7] = "context-switches";
	argv[8] = "--";
	argv[9] = "sleep";
	argv[10] = "0.2";
	argv[11] = NULL;
	ASSERT_EQ(0, pc_test_run(&self->run, 30, argv));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	snprintf(needle, sizeof(needle), "-%d,", (int)pid);
	EXPECT_NE(NULL, strstr(self->run.err, needle)) TH_LOG("%s", self->run.err);
	/* the thread's comm from /proc, not a placeholder */
	snprintf(needle, sizeof(needle), ":%d-%d,", (int)pid, (int)pid);
	EXPECT_EQ(NULL, strstr(self->run.err, needle)) TH_LOG("%s", self->run.err);
}

/* -D: the count starts after the delay; what the command did before is not in it */
TEST_F(stat, delay_leaves_what_happens_before_it_uncounted)
{
	/* margins for slow machines (TCG guests, sanitizers): the touching ends long before */
	static const char *const args[] = { "-x,", "-D", "1500", "-e", "page-faults", NULL };
	double n;

	ASSERT_EQ(0, stat_run(&self->run, args, "touch-sleep", TOUCH));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	/* perf's words, in its order */
	EXPECT_NE(NULL, strstr(self->run.err, "Events disabled\nEvents enabled\n")) TH_LOG("%s", self->run.err);
	n = csv_value(self->run.err, "page-faults");
	/* the pages were touched before the delay ended, while the command slept after */
	EXPECT_LE(0, n) TH_LOG("%s", self->run.err);
	EXPECT_GT(TOUCH / 10, n) TH_LOG("%.0f faults counted after the delay", n);
}

TEST_F(stat, delay_of_minus_one_never_starts_the_count)
{
	static const char *const args[] = { "-x,", "-D", "-1", "-e", "page-faults", NULL };

	ASSERT_EQ(0, stat_run(&self->run, args, "touch", TOUCH));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "<not counted>,,page-faults,")) TH_LOG("%s", self->run.err);
	EXPECT_EQ(NULL, strstr(self->run.err, "Events enabled"));
}

/* --summary: -I's lines, then the whole run's count on lines of its own */
TEST_F(stat, summary_follows_the_intervals_with_the_totals)
{
	static const char *const args[] = { "-x,", "-I", "200", "--summary", "-e", "page-faults",
					    NULL };
	const char *sum;

	ASSERT_EQ(0, stat_run(&self->run, args, "touch-sleep", TOUCH));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	sum = strstr(self->run.err, "         summary,");
	ASSERT_NE(NULL, sum) TH_LOG("%s", self->run.err);
	/* after every interval line, and holding all the faults */
	EXPECT_EQ(NULL, strstr(sum, "\n     ")) TH_LOG("%s", self->run.err);
	EXPECT_LE(TOUCH, strtod(sum + 17, NULL)) TH_LOG("%s", sum);
}

/* --all-kernel and --all-user: the kernel counts a user page fault only for the user side */
TEST_F(stat, all_kernel_leaves_the_commands_own_page_faults_out)
{
	static const char *const k[] = { "-x,", "--all-kernel", "-e", "page-faults", NULL };
	static const char *const u[] = { "-x,", "--all-user", "-e", "page-faults", NULL };
	double nk, nu;

	ASSERT_EQ(0, stat_run(&self->run, k, "touch", TOUCH));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	nk = csv_value(self->run.err, "page-faults");
	pc_run_free(&self->run);
	ASSERT_EQ(0, stat_run(&self->run, u, "touch", TOUCH));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	nu = csv_value(self->run.err, "page-faults");
	EXPECT_LE(TOUCH, nu) TH_LOG("--all-user: %.0f faults", nu);
	EXPECT_LE(0, nk);
	EXPECT_GT(TOUCH / 2, nk) TH_LOG("--all-kernel: %.0f faults", nk);
}

/* --table: each run's elapsed time and its distance from the mean, then the mean */
TEST_F(stat, table_lists_each_runs_time_before_the_mean)
{
	static const char *const args[] = { "-r", "3", "--table", "-e", "page-faults", NULL };
	const char *t, *f;

	ASSERT_EQ(0, stat_run(&self->run, args, "sleep", 20));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	t = strstr(self->run.err, "# Table of individual measurements:\n");
	f = strstr(self->run.err, "# Final result:\n");
	ASSERT_NE(NULL, t) TH_LOG("%s", self->run.err);
	ASSERT_NE(NULL, f) TH_LOG("%s", self->run.err);
	EXPECT_LT(t, f);
	/* a line per run between them, each "TIME (+-DIFF) #..." */
	EXPECT_EQ(3, pc_count_substr(t, ") #"));
	EXPECT_NE(NULL, strstr(f, " seconds time elapsed  ( +-"));
}

/* --interval-clear: each interval a clear screen on stdout, then the titles again */
TEST_F(stat, interval_clear_clears_and_titles_every_interval)
{
	static const char *const args[] = { "-x,", "-I", "200", "--interval-clear", "-e",
					    "page-faults", NULL };
	int clears, titles, lines;

	ASSERT_EQ(0, stat_run(&self->run, args, "sleep", 700));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	clears = pc_count_substr(self->run.out ? self->run.out : "", "\033[H\033[2J\n");
	titles = pc_count_substr(self->run.err, "#           time");
	lines = pc_count_substr(self->run.err, ",page-faults,");
	EXPECT_LE(3, lines) TH_LOG("%s", self->run.err);
	EXPECT_EQ(lines, clears);
	EXPECT_EQ(lines, titles) TH_LOG("%s", self->run.err);
}

/* --pre and --post run around each run; a failing --pre ends stat with its status */
TEST_F(stat, pre_and_post_commands_run_around_each_run)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "stat", "-r", "2", "-x,", "--pre", "echo pre",
			 "--post", "echo post", "-e", "page-faults", "--", "/bin/sh", "-c",
			 "echo run", NULL };
	char *fail[] = { (char *)pc_test_perfcheck(), "stat", "--pre", "exit 3", "-e", "page-faults",
			 "--", "/bin/sh", "-c", "echo run", NULL };

	ASSERT_EQ(0, pc_test_run(&self->run, 60, argv));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("pre\nrun\npost\npre\nrun\npost\n", self->run.out);
	pc_run_free(&self->run);
	ASSERT_EQ(0, pc_test_run(&self->run, 60, fail));
	EXPECT_EQ(3, self->run.exit_code);
	EXPECT_EQ(NULL, strstr(self->run.out ? self->run.out : "", "run"));
}

/* -a --per-thread: the threads that ran, each event's largest count first, as perf */
TEST_F(stat, per_thread_system_wide_lists_the_threads_that_ran_by_count)
{
	static const char *const args[] = { "-x,", "-a", "--per-thread", "-e",
					    "task-clock,context-switches", NULL };
	const char *line;
	double prev = -1;
	int lines = 0, clock_lines = 0;

	ASSERT_EQ(0, stat_run(&self->run, args, "sleep", 200));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	for (line = self->run.err; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char comm[64], event[64];
		double v;
		unsigned long long run_ns = 0;
		int n = 0;

		if (sscanf(line, "%63[^,],%lf,%*[^,],%63[^,],%n", comm, &v, event, &n) < 3 || !n)
			continue;
		lines++;
		/*
		 * comm-tid of a thread, and nothing counted 0: a count, or a clock
		 * that ran (a clock under 5 us prints 0.00 msec: the 7.2-arm64 guest)
		 */
		EXPECT_NE(NULL, strrchr(comm, '-')) TH_LOG("%.80s", line);
		sscanf(line + n, "%llu", &run_ns);
		EXPECT_TRUE(v > 0 || (!strcmp(event, "task-clock") && run_ns > 0))
			TH_LOG("%.80s", line);
		if (strcmp(event, "task-clock"))
			continue;
		/* the events one after the other, each by count, largest first */
		EXPECT_EQ(lines, ++clock_lines) TH_LOG("%s", self->run.err);
		if (prev >= 0)
			EXPECT_GE(prev, v) TH_LOG("%s", self->run.err);
		prev = v;
	}
	/* at least perfcheck itself ran */
	EXPECT_LE(1, clock_lines) TH_LOG("%s", self->run.err);
}

/*
 * -G CG -e task-clock counts, on every cpu, the tasks of CG alone: a child
 * spinning 300 ms of cpu inside a fresh cgroup is counted, its parent
 * spinning 600 ms outside it (and everything else running) is not
 */
TEST(cgroup_counts_only_the_cgroups_tasks)
{
	struct pc_test_cgroup cg;
	struct pc_run run = { 0 };
	char why[1000], self[64];
	char *argv[16];
	double in;
	int i = 0;

	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events are not allowed (not root, perf_event_paranoid > 0)");
	if (pc_test_cgroup_new(&cg, "stat", why, sizeof(why)))
		SKIP(return, "%s", why);
	snprintf(self, sizeof(self), "/proc/%d/exe", (int)getpid());
	argv[i++] = (char *)pc_test_perfcheck();
	argv[i++] = "stat";
	argv[i++] = "-a";
	argv[i++] = "-x,";
	argv[i++] = "-e";
	argv[i++] = "task-clock";
	argv[i++] = "-G";
	argv[i++] = cg.name;
	argv[i++] = "--";
	argv[i++] = self;
	argv[i++] = "--workload";
	argv[i++] = "burn-in-cgroup";
	argv[i++] = "300";
	argv[i++] = cg.dir;
	argv[i] = NULL;
	ASSERT_EQ(0, pc_test_run(&run, 60, argv));
	pc_test_cgroup_remove(&cg);
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	/* value,msec,task-clock,CGROUP,...: the cgroup follows the event */
	EXPECT_NE(NULL, strstr(run.err, cg.name)) TH_LOG("%s", run.err);
	in = csv_value(run.err, "task-clock");
	EXPECT_LE(250, in) TH_LOG("%s", run.err);
	EXPECT_GE(450, in) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

/* The value of the CSV line of event in cgroup (value,unit,event,cgroup,...); -1 when absent. */
static double csv_cgroup_value(const char *text, const char *event, const char *cgroup,
			       const char **at)
{
	char needle[256];
	const char *p;

	snprintf(needle, sizeof(needle), ",%s,%s,", event, cgroup);
	p = strstr(text, needle);
	if (!p)
		return -1;
	while (p > text && p[-1] != '\n')
		p--;
	*at = p;
	return p[0] == '<' ? -1 : strtod(p, NULL);
}

/*
 * perfcheck stat -a -x, -e task-clock --for-each-cgroup LIST over this
 * binary's burn-in-cgroup workload (300 ms spun in the cgroup DIR, twice
 * that outside it); 0 once it ran, its counts on run's stderr
 */
static int each_cgroup_burn(struct pc_run *run, const char *list, const char *dir)
{
	char self[64];

	snprintf(self, sizeof(self), "/proc/%d/exe", (int)getpid());
	return pc_test_run(run, 60, (char *[]){ (char *)pc_test_perfcheck(), "stat", "-a", "-x,", "-e",
			   "task-clock", "--for-each-cgroup", (char *)list, "--", self, "--workload",
			   "burn-in-cgroup", "300", (char *)dir, NULL });
}

/*
 * --for-each-cgroup CG,/ -e task-clock counts the event once per cgroup, in
 * that order: CG's line the 300 ms its child spun, the root's everything
 * (the 600 ms of the parent outside CG too)
 */
TEST(for_each_cgroup_counts_each_event_in_each_cgroup_in_turn)
{
	struct pc_test_cgroup cg;
	struct pc_run run = { 0 };
	char why[1000], list[128];
	const char *in_at = NULL, *root_at = NULL;
	double in, root;

	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events are not allowed (not root, perf_event_paranoid > 0)");
	if (pc_test_cgroup_new(&cg, "each", why, sizeof(why)))
		SKIP(return, "%s", why);
	snprintf(list, sizeof(list), "%s,/", cg.name);
	ASSERT_EQ(0, each_cgroup_burn(&run, list, cg.dir));
	pc_test_cgroup_remove(&cg);
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	in = csv_cgroup_value(run.err, "task-clock", cg.name, &in_at);
	root = csv_cgroup_value(run.err, "task-clock", "/", &root_at);
	EXPECT_LE(250, in) TH_LOG("%s", run.err);
	EXPECT_GE(450, in) TH_LOG("%s", run.err);
	EXPECT_LE(850, root) TH_LOG("%s", run.err);
	/* the cgroups in the list's order */
	EXPECT_TRUE(in_at && root_at && in_at < root_at) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

/*
 * --for-each-cgroup with patterns, '^CG/sub$,^CG$': both cgroups, in the
 * hierarchy's order (CG first, whatever the patterns' order), each counting
 * the 300 ms a child spun in CG/sub (a cgroup counts its descendants) and
 * none of the 600 ms its parent spun outside
 */
TEST(for_each_cgroup_patterns_count_matching_cgroups_in_hierarchy_order)
{
	struct pc_test_cgroup cg;
	struct pc_run run = { 0 };
	char why[1000], list[200], sub[4300], subname[100];
	const char *top_at = NULL, *sub_at = NULL;
	double top, below;

	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events are not allowed (not root, perf_event_paranoid > 0)");
	if (pc_test_cgroup_new(&cg, "match", why, sizeof(why)))
		SKIP(return, "%s", why);
	snprintf(sub, sizeof(sub), "%s/sub", cg.dir);
	if (mkdir(sub, 0755)) {
		pc_test_cgroup_remove(&cg);
		SKIP(return, "%.200s: %s (a cgroup below a cgroup)", sub, strerror(errno));
	}
	snprintf(subname, sizeof(subname), "%s/sub", cg.name);
	snprintf(list, sizeof(list), "^%s$,^%s$", subname, cg.name);
	ASSERT_EQ(0, each_cgroup_burn(&run, list, sub));
	rmdir(sub);
	pc_test_cgroup_remove(&cg);
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	top = csv_cgroup_value(run.err, "task-clock", cg.name, &top_at);
	below = csv_cgroup_value(run.err, "task-clock", subname, &sub_at);
	EXPECT_LE(250, below) TH_LOG("%s", run.err);
	EXPECT_GE(450, below) TH_LOG("%s", run.err);
	EXPECT_LE(250, top) TH_LOG("%s", run.err);
	EXPECT_GE(450, top) TH_LOG("%s", run.err);
	EXPECT_TRUE(top_at && sub_at && top_at < sub_at) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--workload"))
		return workload(argv + 2);
	return test_harness_run(argc, argv);
}
