/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the cross-kernel selftests (xk_*.c), which run in every guest of
 * the matrix and on the host: pcwork next to perfcheck, recording it, and
 * reading back what the file holds and what it says was cleared.  A test
 * decides with pc_feature_probe() whether the kernel has what it needs.
 */
#ifndef PERFCHECK_SELFTESTS_XK_COMMON_H
#define PERFCHECK_SELFTESTS_XK_COMMON_H

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/testutil.h"
#include "perfdata/perfdata.h"
#include "probes/probe.h"

#define XK_MAX_ARGS 48
#define XK_MAX_IDS 64

/* build/pcwork (or /perfcheck/pcwork in a guest): next to perfcheck */
const char *xk_pcwork(void);

bool xk_has(enum pc_feature f);

/* perfcheck record -o OUT OPTS... -- pcwork WL...; opts and wl NULL-terminated */
int xk_record(struct pc_run *run, const char *out, const char *const *opts,
			    const char *const *wl, int timeout);

/* perfcheck ARGS... -i FILE, stdout captured */
int xk_perfcheck(struct pc_run *run, const char *file, const char *const *args);

struct xk_tid {
	uint32_t pid, tid;
	uint64_t samples;
	uint64_t read_min, read_max;	/* PERF_SAMPLE_READ values seen */
	/* per event (one per cpu: each counts the thread on its cpu), in time order */
	bool read_monotonic;
	/* a count grew faster than time between two samples: not this thread's own */
	bool read_outruns_time;
	uint64_t fork_time;		/* from its FORK record, 0 if none */
	uint64_t first_time, first_value;	/* its first sample carrying a count */
	struct xk_read { uint64_t id, time, value; } *reads;
	size_t nr_reads;
};

struct xk_file {
	uint64_t records, samples, deferred, reads, forks, lost;
	uint64_t samples_with_defer_cookie;	/* chain ends USER_DEFERRED + cookie */
	uint64_t samples_with_chain;
	uint64_t samples_with_read;
	struct xk_tid tids[XK_MAX_IDS];	/* by first appearance (sample or FORK) */
	int nr_tids;
	uint32_t first_pid, first_tid;	/* of the first sample */
	uint32_t nr_pids;		/* processes with samples */
	uint64_t sample_type, period;
	bool inherit, inherit_stat;
	char open_line[2048];		/* PERFCHECK_OPEN, "" if absent */
	char err[600];
};

struct xk_tid *xk_tid_of(struct xk_file *f, uint32_t pid, uint32_t tid);

int xk_read_cmp(const void *a, const void *b);

/* Reads every record of path with the library reader: 0, or -1 with f->err. */
int xk_read(const char *path, struct xk_file *f);

/* Is feature name in the comma list after key ("requested ", "cleared ") of the
 * PERFCHECK_OPEN section (first event's line)? */
bool xk_listed(const char *line, const char *key, const char *name);

/* A fresh directory and its perf.data path */
struct xk_dir {
	char *dir;
	char data[PATH_MAX];
};

int xk_dir_make(struct xk_dir *d, const char *tag);

void xk_dir_free(struct xk_dir *d);

#endif
