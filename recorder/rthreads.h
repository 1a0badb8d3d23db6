/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --threads: the reading threads (rthreads.c).  Each thread reads
 * the rings the layout gave it and writes each ring's records to that
 * ring's own data.N (N the ring's index, as perf names them: one file per
 * ring, whichever thread reads it), with no FINISHED_ROUND (perf's
 * readers sort a directory's records once, at the end).  The main thread
 * keeps the header file, the signals and the control; the readers tell it
 * of a failed write or the size limit through an eventfd.
 */
#ifndef PERFCHECK_RECORDER_RTHREADS_H
#define PERFCHECK_RECORDER_RTHREADS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "recorder/dsos.h"
#include "recorder/evlist.h"
#include "recorder/output.h"
#include "recorder/threads_layout.h"
#include "util/error.h"

struct rec_rthreads;

struct rec_rthreads_conf {
	uint64_t mmap_flush;		/* --mmap-flush: bytes a ring holds before a drain */
	uint64_t max_size;		/* --max-size over every file, 0 = none */
	int comp_level;			/* -z: each data.N a zstd stream of its own */
	struct rec_dsos *dsos;		/* shared with the main thread, under the set's lock */
};

/* The threads of layout over evl's rings (evl outlives the set); nothing started. */
int rec_rthreads_new(struct rec_rthreads **out, struct rec_evlist *evl,
		     const struct rec_threads_layout *layout, const struct rec_rthreads_conf *conf,
		     struct pc_error *err);
/* Creates DIR/data.N for every ring. */
int rec_rthreads_open_files(struct rec_rthreads *set, const char *dir, struct pc_error *err);
/* The directory was renamed to dir: the files' messages name it. */
int rec_rthreads_set_dir(struct rec_rthreads *set, const char *dir, struct pc_error *err);
/* The lock of the DSO table, for the main thread's records while the readers run. */
pthread_mutex_t *rec_rthreads_lock(struct rec_rthreads *set);
int rec_rthreads_start(struct rec_rthreads *set, struct pc_error *err);
/* Readable when a reader failed or the size limit was passed. */
int rec_rthreads_notify_fd(const struct rec_rthreads *set);
/*
 * After a notification: 1 when a write failed (err and *write_errno set,
 * 0 when it was no write), 0 otherwise; *size_limit when --max-size passed.
 */
int rec_rthreads_state(struct rec_rthreads *set, struct pc_error *err, int *write_errno,
		       bool *size_limit);
/*
 * --max-size: the header file holds main bytes now; returns the bytes of
 * every file, which the readers compare with the limit from now on.
 */
uint64_t rec_rthreads_add_main_bytes(struct rec_rthreads *set, uint64_t main);
/* Each thread drains its rings a last time and ends; returns when all have. */
void rec_rthreads_stop(struct rec_rthreads *set);
/* --overwrite, once stopped: each write_backward ring's records to its file. */
int rec_rthreads_read_overwritten(struct rec_rthreads *set, struct pc_error *err);
/*
 * Once stopped: finishes every data.N, adds the readers' counts to *st and
 * their bytes (given, written) to *in and *out.  Every file is finished,
 * the first error said.
 */
int rec_rthreads_finish(struct rec_rthreads *set, struct rec_stats *st, uint64_t *in,
			uint64_t *out, struct pc_error *err);
/* Stops what runs, frees (files not finished stay as they are on disk). */
void rec_rthreads_free(struct rec_rthreads *set);

#endif
