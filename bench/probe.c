// SPDX-License-Identifier: GPL-2.0
/*
 * How long the full feature probe takes (every row of the table, fresh
 * cache), next to the system perf opening one event in the same run:
 * `perf stat -e cpu-clock -- true`, and `perf --version` to take perf's
 * own start-up out of it.  The goal of issue 3: a full probe under 10 ms.
 *
 * Then the behaviour checks (perfcheck probe --behaviour: every row proven
 * by what the kernel does), each run from a fresh cache; the goal of
 * issue 15: all of them under 2 s.
 *
 *   build/bench/probe [ITERATIONS] [BEHAVIOUR_RUNS]
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probes/behaviour.h"
#include "probes/probe.h"

extern char **environ;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Wall time of one run of argv, output discarded; < 0 if it did not run. */
static double time_command(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	double t0;
	pid_t pid;
	int status;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	t0 = now_ms();
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return now_ms() - t0;
}

static double time_command_median(char *const argv[], int runs)
{
	double *t = calloc((size_t)runs, sizeof(*t)), m;

	if (!t)
		return -1;
	for (int i = 0; i < runs; i++) {
		t[i] = time_command(argv);
		if (t[i] < 0) {
			free(t);
			return -1;
		}
	}
	m = median(t, runs);
	free(t);
	return m;
}

/* Every row's behaviour check from a fresh cache, runs times; prints and returns the median ms. */
static double time_behaviour(int runs)
{
	int counts[4] = { 0, 0, 0, 0 };
	double *t, m, slowest = 0;
	int slow = 0;

	if (runs < 1)
		runs = 1;
	t = calloc((size_t)runs, sizeof(*t));
	if (!t)
		return -1;
	for (int i = 0; i < runs; i++) {
		double t0 = now_ms();

		pc_behaviour_reset();
		for (int f = 0; f < PC_FEAT__COUNT; f++)
			pc_behaviour_check(f);
		t[i] = now_ms() - t0;
	}
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		const struct pc_behaviour_result *b = pc_behaviour_check(f);

		counts[b->verdict]++;
		if (b->ms > slowest) {
			slowest = b->ms;
			slow = f;
		}
	}
	m = median(t, runs);
	printf("perfcheck probe --behaviour (%d rows: %d proven, %d broken, %d refused, %d not tested), "
	       "median of %d: %.1f ms (min %.1f, max %.1f); slowest check %s %.1f ms\n",
	       PC_FEAT__COUNT, counts[PC_BEHAVIOUR_PROVEN], counts[PC_BEHAVIOUR_BROKEN],
	       counts[PC_BEHAVIOUR_REFUSED], counts[PC_BEHAVIOUR_NOT_TESTED], runs, m, t[0],
	       t[runs - 1], pc_feature_name(slow), slowest);
	printf("goal (behaviour checks under 2 s): %s\n", m < 2000.0 ? "met" : "NOT met");
	free(t);
	return m;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 200, perf_runs = 20, e;
	char *perf_stat[] = { "perf", "stat", "-e", "cpu-clock", "--", "true", NULL };
	char *perf_version[] = { "perf", "--version", NULL };
	double *t, ours, first, stat_ms, version_ms, beh_ms;
	int counts[3] = { 0, 0, 0 };

	if (iters < 1)
		iters = 1;
	t = calloc((size_t)iters, sizeof(*t));
	if (!t)
		return 1;
	for (int i = 0; i < iters; i++) {
		double t0 = now_ms();

		pc_probe_reset();
		for (int f = 0; f < PC_FEAT__COUNT; f++)
			pc_feature_probe(f, &e);
		t[i] = now_ms() - t0;
	}
	for (int f = 0; f < PC_FEAT__COUNT; f++)
		counts[pc_feature_probe(f, &e)]++;
	first = t[0];		/* the process's first probe: cold caches */
	ours = median(t, iters);
	printf("perfcheck full probe (%d features: %d supported, %d missing, %d unknown), "
	       "median of %d: %.3f ms (min %.3f, max %.3f)\n", PC_FEAT__COUNT,
	       counts[PC_FEATURE_SUPPORTED], counts[PC_FEATURE_MISSING],
	       counts[PC_FEATURE_UNKNOWN], iters, ours, t[0], t[iters - 1]);
	printf("first probe of the process: %.3f ms\n", first);
	printf("goal (under 10 ms): %s\n", ours < 10.0 ? "met" : "NOT met");
	free(t);

	beh_ms = time_behaviour(argc > 2 ? atoi(argv[2]) : 5);

	stat_ms = time_command_median(perf_stat, perf_runs);
	version_ms = time_command_median(perf_version, perf_runs);
	if (stat_ms < 0 || version_ms < 0) {
		printf("system perf: not runnable here, no comparison\n");
		return 0;
	}
	printf("system perf stat -e cpu-clock -- true, median of %d: %.3f ms\n", perf_runs, stat_ms);
	printf("system perf --version (start-up only), median of %d: %.3f ms\n", perf_runs, version_ms);
	printf("ratio perf stat / full probe: %.1fx\n", stat_ms / ours);
	printf("ratio (perf stat - perf start-up) / full probe: %.1fx\n",
	       (stat_ms - version_ms) / ours);
	if (beh_ms > 0)
		printf("ratio behaviour checks / perf stat -e cpu-clock -- true: %.1fx\n",
		       beh_ms / stat_ms);
	return 0;
}
