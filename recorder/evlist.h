/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events of a recording, each its own allocation (handles stay valid
 * while the list grows), opened on every cpu for every thread.
 */
#ifndef PERFCHECK_RECORDER_EVLIST_H
#define PERFCHECK_RECORDER_EVLIST_H

#include <stdbool.h>
#include <sys/types.h>

#include "recorder/evsel.h"
#include "recorder/ring.h"
#include "util/error.h"

struct rec_evlist {
	struct rec_evsel **evsels;
	int nr_evsels;
	int *cpus;			/* -1 alone for per-thread */
	int nr_cpus;
	pid_t *threads;			/* -1 alone for system-wide */
	int nr_threads;
	struct rec_ring *rings;		/* one per cpu (per thread with --per-thread) */
	int nr_rings;
};

/* Where to open: the resolved targets (record.c fills it from the options). */
struct rec_target {
	const pid_t *pids;		/* processes (all their threads) or threads */
	int nr_pids;
	bool pids_are_tids;
	bool skip_gone;			/* -u: a process that ended meanwhile is no error */
	bool system_wide;
	const char *cpu_list;		/* NULL: every online cpu */
	bool per_thread;		/* cpu -1, one ring per thread */
	pid_t workload;			/* -1 = none */
	unsigned int mmap_pages;	/* 0 = default (128) */
	bool overwrite;			/* --overwrite: write_backward rings, read-only */
};

/* A new evsel at the end of the list (zeroed, leader = itself); NULL on ENOMEM. */
struct rec_evsel *rec_evlist_add(struct rec_evlist *evl);
int rec_evlist_open(struct rec_evlist *evl, const struct rec_target *t, struct pc_error *err);
int rec_evlist_enable(struct rec_evlist *evl, bool on);
void rec_evlist_close(struct rec_evlist *evl);
/* Closes the fds and frees the evsels too. */
void rec_evlist_free(struct rec_evlist *evl);

static inline int rec_evsel_slot(const struct rec_evlist *evl, int c, int t)
{
	return c * evl->nr_threads + t;
}
/* fds per evsel */
static inline int rec_evlist_nr_slots(const struct rec_evlist *evl)
{
	return evl->nr_cpus * evl->nr_threads;
}

#endif
