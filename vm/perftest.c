// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream `perf test` as a peer suite of the kernel matrix: runs the perf
 * at hand over all its tests, sequentially, and prints one TAP line per test
 * and subtest, "N:description" or "N.M:description", with perf's verdict
 * (Ok: ok, FAILED!: not ok, Skip (why): ok # SKIP why).
 *
 *   perftest PERF TIMEOUT-S
 *
 * TIMEOUT-S is scaled by $PERFCHECK_VM_FACTOR (the guest's slowdown that
 * vm/init measured) when set.  A test that prints no verdict within it is killed with perf's
 * process group, reported as not ok ("timed out"), and perf is started again
 * with every test already reported skipped (-s LIST), so one hanging test
 * costs one timeout, not the rest of the suite.  perf's output (stdout and
 * stderr) is echoed as TAP comments.
 * Each failed test is then run on its own, up to RERUNS times: one that
 * passes prints "# perftest-flaky: NAME" (the host reports it flaky, never as
 * a pass).  Why more than once: some of perf's tests race with the machine's
 * speed.  "Number of exit events of a simple workload" gives up after 1000
 * polls, and counts the polls that return at once (POLLHUP) between the
 * child's EXIT record and the parent's SIGCHLD; in a 7.2 TCG guest with one
 * vCPU a C copy of its loop measured a median of 663 such polls and more than
 * 1000 in 19 of 60 runs, and perf 7.2 failed it in 2 of 8 runs on its own.
 * A test perf skips without saying why ("Skip", no "(reason)") is run once
 * more alone with -v, and the last line it printed between "--- start ---"
 * and "---- end" becomes the reason ("Couldn't open the evlist: No such file
 * or directory"); its verdict is printed then, after the others.
 * The exit status is 0 whenever perf gave verdicts: failures are in the TAP.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS	1024
#define RERUNS		3	/* re-runs of a failed test: at 25% failures, 1 in 64 stays failed */

struct listed {
	int num;
	char desc[160];
};

static struct listed tests[MAX_TESTS];	/* top-level tests, from "perf test list" */
static int ntests;
static char done[MAX_TESTS + 1];	/* by number: a verdict was printed */
static char failed[MAX_TESTS + 1];	/* by number: it or a subtest failed */
static int ntap;

/* Skips without a reason, printed once perf test -v has said why. */
#define MAX_QUIET_SKIPS	64
static struct quiet_skip {
	int num, sub;
	char name[400];
} quiet[MAX_QUIET_SKIPS];
static int nquiet;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Spawns ARGV with stdout and stderr on a pipe, in its own process group; returns the read end. */
static int spawn(char **argv, pid_t *pid)
{
	int pfd[2];

	if (pipe(pfd))
		return -1;
	*pid = fork();
	if (*pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (*pid == 0) {
		setpgid(0, 0);
		/* perf test prints its verdicts on stderr (6.1), or stdout: both */
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		execv(argv[0], argv);
		fprintf(stderr, "perftest: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	return pfd[0];
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/*
 * One line of perf test's output: "%3d: DESC : RESULT" or "%3d.%d: DESC :
 * RESULT" (a parent with subtests prints "N: DESC :" with no result).
 * Returns 1 with the fields filled when it is such a line.
 */
static int parse(char *line, int *num, int *sub, char **desc, char **result)
{
	char *p = line, *end, *colon;

	while (*p == ' ')
		p++;
	*num = (int)strtol(p, &end, 10);
	if (end == p || *num <= 0)
		return 0;
	*sub = 0;
	if (*end == '.') {
		p = end + 1;
		*sub = (int)strtol(p, &end, 10);
		if (end == p)
			return 0;
	}
	if (*end != ':')
		return 0;
	p = end + 1;
	while (*p == ' ')
		p++;
	colon = strrchr(p, ':');	/* descriptions may hold colons, the verdict none */
	if (!colon)
		return 0;
	*colon = '\0';
	*desc = p;
	trim(*desc);
	*result = colon + 1;
	while (**result == ' ')
		(*result)++;
	trim(*result);
	return 1;
}

/*
 * Whether LINE opens perf's closing summary (perf 7.2: "=== Test
 * Summary ===", then "List of failed tests:" with lines "   10.47: PMU
 * metric parsing: ampere_ampereone" that parse() would take for verdicts
 * where a description holds a colon).  Nothing after it is a verdict.
 */
static int in_summary(const char *line)
{
	while (*line == ' ' || *line == '#')
		line++;
	return !strncmp(line, "=== Test Summary", 16);
}

/* Descriptions go into TAP names: no '#' (a directive) and no newline. */
static void tap_name(char *s)
{
	for (; *s; s++)
		if (*s == '#')
			*s = '_';
}

static void verdict(int num, int sub, char *desc, const char *result)
{
	char name[400];

	tap_name(desc);
	if (sub)
		snprintf(name, sizeof(name), "%d.%d:%s", num, sub, desc);
	else
		snprintf(name, sizeof(name), "%d:%s", num, desc);
	ntap++;
	if (!strncmp(result, "Ok", 2))
		printf("ok %d %s\n", ntap, name);
	else if (!strncmp(result, "Skip", 4)) {
		const char *why = strchr(result, '(');
		char reason[200];

		if (!why && nquiet < MAX_QUIET_SKIPS) {
			ntap--;	/* numbered when printed */
			quiet[nquiet++] = (struct quiet_skip){ .num = num, .sub = sub };
			snprintf(quiet[nquiet - 1].name, sizeof(quiet[0].name), "%s", name);
			return;
		}
		if (why) {
			snprintf(reason, sizeof(reason), "%s", why + 1);
			reason[strcspn(reason, ")")] = '\0';
		} else {
			snprintf(reason, sizeof(reason), "perf test skipped it without a reason");
		}
		printf("ok %d %s # SKIP %s\n", ntap, name, reason);
	} else {
		if (num <= MAX_TESTS)
			failed[num] = 1;
		printf("# %s: perf test said '%s'\n", name, result);
		printf("not ok %d %s\n", ntap, name);
	}
	fflush(stdout);
}

/* "perf test list": the top-level tests (numbers and descriptions). */
static void list_tests(const char *perf)
{
	char *argv[] = { (char *)perf, "test", "list", NULL };
	char line[512];
	pid_t pid;
	int fd = spawn(argv, &pid), status;
	FILE *f;

	if (fd < 0)
		return;
	f = fdopen(fd, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		int num;

		while (*p == ' ')
			p++;
		num = (int)strtol(p, &end, 10);
		if (end == p || *end != ':' || num <= 0 || num > MAX_TESTS || ntests >= MAX_TESTS)
			continue;
		p = end + 1;
		while (*p == ' ')
			p++;
		trim(p);
		tests[ntests].num = num;
		snprintf(tests[ntests].desc, sizeof(tests[ntests].desc), "%s", p);
		ntests++;
	}
	if (f)
		fclose(f);
	waitpid(pid, &status, 0);
}

/*
 * Runs ARGV, its stdout and stderr a line at a time through LINE_FN (a line
 * longer than the buffer comes in pieces).  LINE_FN returns non-zero when the
 * line shows progress: the timeout counts from the last such line (or the
 * start).  Returns 0 when the program ended, 1 when it was killed for the
 * timeout, -1 when it could not be started.
 */
static int run_lines(char **argv, double timeout, int (*line_fn)(char *line, void *ctx), void *ctx)
{
	char line[1024];
	size_t at = 0;
	double deadline = now_s() + timeout;
	int fd, status, timed_out = 1;
	pid_t pid;

	fd = spawn(argv, &pid);
	if (fd < 0)
		return -1;
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		double left = deadline - now_s();
		ssize_t n;

		if (left <= 0)
			break;
		if (poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		n = read(fd, line + at, sizeof(line) - 1 - at);
		if (n <= 0) {
			timed_out = 0;
			break;
		}
		at += n;
		line[at] = '\0';
		for (char *nl; (nl = strchr(line, '\n')) || at == sizeof(line) - 1;) {
			if (!nl)
				nl = line + at - 1;
			*nl = '\0';
			if (line_fn(line, ctx))
				deadline = now_s() + timeout;
			at -= nl + 1 - line;
			memmove(line, nl + 1, at);
			line[at] = '\0';
		}
	}
	if (timed_out)
		kill(-pid, SIGKILL);
	close(fd);
	waitpid(pid, &status, 0);
	return timed_out;
}

/*
 * One run of perf test over the tests not yet done.  Returns 0 when perf
 * finished, 1 when it was killed for a timeout (the test after the last
 * verdict is then reported and marked done).
 */
/* What one run of the whole suite has seen so far. */
struct suite_run {
	int last;		/* the number of the last test with a verdict */
	int parent_num;		/* the last test with subtests announced */
	int summary;		/* past perf 7.x's closing summary */
};

static int suite_line(char *line, void *ctx)
{
	struct suite_run *run = ctx;
	int num, sub;
	char *desc, *result;

	printf("# %s\n", line);
	run->summary |= in_summary(line);
	if (!run->summary && parse(line, &num, &sub, &desc, &result)) {
		if (!strncmp(result, "Running", 7)) {
			/* perf 7.x's progress line, not a verdict */
		} else if (!*result && !sub) {
			run->parent_num = num;
		} else if (*result) {
			verdict(num, sub, desc, result);
			run->last = num;
			if (!sub && num <= MAX_TESTS)
				done[num] = 1;
		}
		return 1;
	}
	return !strncmp(line, "---- end", 8) && run->parent_num;
}

static int run_once(const char *perf, double timeout, int have_sequential)
{
	char skip[8192] = "";
	char *argv[8];
	int argc = 0;
	size_t len = 0;
	struct suite_run run = { 0 };

	for (int i = 1; i <= MAX_TESTS; i++)
		if (done[i])
			len += snprintf(skip + len, len < sizeof(skip) ? sizeof(skip) - len : 0,
					"%s%d", len ? "," : "", i);
	if (len >= sizeof(skip))
		return 0;	/* cannot say what to skip: stop rather than repeat */
	argv[argc++] = (char *)perf;
	argv[argc++] = "test";
	if (have_sequential)
		argv[argc++] = "-S";
	if (len) {
		argv[argc++] = "-s";
		argv[argc++] = skip;
	}
	argv[argc] = NULL;
	if (run_lines(argv, timeout, suite_line, &run) != 1)
		return 0;
	/*
	 * timed out: inside the test whose subtests perf was printing (10.3
	 * after "10.2: ... Ok" is test 10's), else the first listed one after
	 * the last verdict not done
	 */
	int within = run.parent_num && run.parent_num >= run.last ? run.parent_num : 0;

	for (int i = 0; i < ntests; i++) {
		if (within ? tests[i].num != within : tests[i].num < run.last || done[tests[i].num])
			continue;
		char desc[160];

		snprintf(desc, sizeof(desc), "%s", tests[i].desc);
		tap_name(desc);
		ntap++;
		printf("not ok %d %d:%s # timed out after %.0fs (no verdict from perf test)\n",
		       ntap, tests[i].num, desc, timeout);
		done[tests[i].num] = 1;
		return 1;
	}
	return 0;
}

/* Runs test NUM alone; 1 when every verdict it printed is Ok or Skip. */
struct rerun {
	int seen, bad, summary;
};

static int rerun_line(char *line, void *ctx)
{
	struct rerun *r = ctx;
	int tn, sub;
	char *desc, *result;

	r->summary |= in_summary(line);
	if (!r->summary && parse(line, &tn, &sub, &desc, &result) && *result) {
		r->seen = 1;
		if (strncmp(result, "Ok", 2) && strncmp(result, "Skip", 4))
			r->bad = 1;
	}
	return 0;
}

static int rerun_passes(const char *perf, int num, double timeout)
{
	char n[16];
	char *argv[] = { (char *)perf, "test", n, NULL };
	struct rerun r = { 0 };

	snprintf(n, sizeof(n), "%d", num);
	if (run_lines(argv, timeout, rerun_line, &r))
		return 0;
	return r.seen && !r.bad;
}

/* Whether LINE is perf test's header of test NUM (SUB 0) or subtest NUM.SUB: "%3d[.%d]: ..." */
static int is_header(const char *line, int num, int sub)
{
	char *end;
	long n;

	while (*line == ' ')
		line++;
	n = strtol(line, &end, 10);
	if (end == line || n != num)
		return 0;
	if (sub) {
		if (*end != '.' || strtol(end + 1, &end, 10) != sub)
			return 0;
	}
	return *end == ':';
}

/*
 * Why perf skipped NUM[.SUB]: the last line the test printed under perf test
 * -v (between its header and "---- end", leaving out perf's own "--- start
 * ---" and "test child ..." lines), or the last one saying "skip" when there
 * is one, into why.  0 when it printed none.
 */
struct skip_why {
	int num, sub;
	int inside;		/* in the test's block of output */
	int found;		/* 1: a line, 2: a line saying "skip" */
	char *why;
	size_t size;
};

static int skip_why_line(char *line, void *ctx)
{
	struct skip_why *w = ctx;

	trim(line);
	if (is_header(line, w->num, w->sub))
		w->inside = 1;
	else if (w->inside && !strncmp(line, "---- end", 8))
		w->inside = 0;
	else if (w->inside && *line && strcmp(line, "--- start ---") &&
		 strncmp(line, "test child ", 11) && !is_header(line, w->num, 0) &&
		 (w->found < 2 || strcasestr(line, "skip"))) {
		/* a line saying "skip" wins over usage text printed after it */
		snprintf(w->why, w->size, "%.*s", (int)w->size - 1, line + strspn(line, " \t"));
		w->found = strcasestr(line, "skip") ? 2 : 1;
	}
	return 0;
}

static int skip_reason(const char *perf, int num, int sub, double timeout, char *why, size_t size)
{
	char n[16];
	char *argv[] = { (char *)perf, "test", "-v", n, NULL };
	struct skip_why w = { num, sub, 0, 0, why, size };

	snprintf(n, sizeof(n), "%d", num);
	run_lines(argv, timeout, skip_why_line, &w);
	tap_name(why);
	return w.found != 0;
}

/* The skips perf gave no reason for, with what perf test -v says. */
static void print_quiet_skips(const char *perf, double timeout)
{
	for (int i = 0; i < nquiet; i++) {
		char why[200] = "";

		if (skip_reason(perf, quiet[i].num, quiet[i].sub, timeout, why, sizeof(why)))
			printf("ok %d %s # SKIP perf test -v: %s\n", ++ntap, quiet[i].name, why);
		else
			printf("ok %d %s # SKIP perf test skipped it without a reason, and printed none under -v\n",
			       ++ntap, quiet[i].name);
	}
}

static int has_sequential(const char *perf)
{
	char *argv[] = { (char *)perf, "test", "-h", NULL };
	char buf[8192];
	size_t at = 0;
	ssize_t n;
	pid_t pid;
	int fd = spawn(argv, &pid), status, found;

	if (fd < 0)
		return 0;
	while (at < sizeof(buf) - 1 && (n = read(fd, buf + at, sizeof(buf) - 1 - at)) > 0)
		at += n;
	buf[at] = '\0';
	close(fd);
	waitpid(pid, &status, 0);
	found = strstr(buf, "--sequential") != NULL;
	return found;
}

int main(int argc, char **argv)
{
	double timeout;

	if (argc != 3 || (timeout = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: perftest PERF TIMEOUT-S\n");
		return 2;
	}
	if (access(argv[1], X_OK)) {
		printf("1..0 # SKIP no upstream perf at %s\n", argv[1]);
		return 4;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getenv("PERFCHECK_VM_FACTOR") && atof(getenv("PERFCHECK_VM_FACTOR")) > 1)
		timeout *= atof(getenv("PERFCHECK_VM_FACTOR"));
	list_tests(argv[1]);
	int seq = has_sequential(argv[1]);

	printf("TAP version 13\n# perf test: %d tests listed%s, %.0fs per test\n", ntests,
	       seq ? ", run with -S" : "", timeout);
	/* each timeout marks one test done: at most one restart per listed test */
	for (int runs = 0; runs <= ntests && run_once(argv[1], timeout, seq); runs++)
		;
	for (int i = 1, reruns = 0; i <= MAX_TESTS && reruns < 16; i++) {
		if (!failed[i])
			continue;
		reruns++;
		for (int attempt = 1; attempt <= RERUNS; attempt++) {
			if (rerun_passes(argv[1], i, timeout)) {
				printf("# perftest-flaky: %d passed on re-run %d\n", i, attempt);
				break;
			}
		}
	}
	print_quiet_skips(argv[1], timeout);
	printf("1..%d\n", ntap);
	if (!ntap) {
		fprintf(stderr, "perftest: perf test printed no verdict\n");
		return 1;
	}
	return 0;
}
