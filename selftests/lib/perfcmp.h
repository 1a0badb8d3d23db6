/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparing perfcheck's output with the system perf's on files that perf
 * records here: record, run both, cut perf's random tip, find the first
 * line that differs.
 */
#ifndef PERFCHECK_SELFTESTS_PERFCMP_H
#define PERFCHECK_SELFTESTS_PERFCMP_H

#include <stdbool.h>
#include <stddef.h>

#include "testutil.h"

/* A workload of a second or so: a shell loop, then ls of a big directory. */
#define PERFCMP_SPIN "i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done; ls -l /usr/bin >/dev/null"

/*
 * perf record OPTS -o PATH -- sh -c WORKLOAD; false with the reason in why
 * when there is no perf or it cannot record (the reason names what failed).
 */
bool perfcmp_record(const char *path, const char *opts, const char *workload, char *why,
		    size_t n);
/* Runs a shell command line; its stdout and stderr in run. */
int perfcmp_sh(struct pc_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Cuts perf report's closing "#\n# (Tip: ...)\n#\n" (a random line) from out. */
void perfcmp_cut_tip(char *out);
/* True when a and b are the same text; else the first differing line in first. */
bool perfcmp_same(const char *a, const char *b, char *first, size_t n);

#endif
