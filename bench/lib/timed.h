/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timed runs of a command for the benchmarks that compare perfcheck with
 * the system perf: wall time, CPU time (user + system of the child) and
 * peak RSS, the best of several runs, and one more run whose output goes
 * to a digest callback (the timed runs write to /dev/null, so that only
 * the tool is measured).
 */
#ifndef PERFCHECK_BENCH_TIMED_H
#define PERFCHECK_BENCH_TIMED_H

#include <stdbool.h>
#include <stddef.h>

struct bench_time {
	double wall, cpu;	/* seconds */
	long rss_kb;		/* peak */
	int status;		/* exit status, or 128 + the signal */
};

/* Called with each piece of the digest run's standard output, in order. */
typedef void (*bench_digest_fn)(void *ctx, const char *buf, size_t n);

/*
 * Runs argv once (stderr to /dev/null); stdout goes to digest when one is
 * given, else to /dev/null.  0, or -errno when the run could not be made.
 */
int bench_run(char *const argv[], struct bench_time *t, bench_digest_fn digest, void *ctx);

/*
 * n timed runs (the machine is shared: the least wall time and, apart, the
 * least CPU time and peak RSS), then one run into digest.  0; the first
 * non-zero exit status; or -1 when a run could not be made.
 */
int bench_best_of(char *const argv[], int n, struct bench_time *best, bench_digest_fn digest,
		  void *ctx);

/*
 * perf record's status: 0, or 143 when --max-size stopped it (it ends the
 * workload with SIGTERM and exits with the workload's status) and the
 * file is there.
 */
bool bench_recorded(const char *file, int status);

#endif
