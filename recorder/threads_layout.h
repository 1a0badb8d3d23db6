/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --threads: which reading thread takes each ring, and where each thread
 * runs (threads_layout.c), from the parsed SPEC and the rings' cpus.
 */
#ifndef PERFCHECK_RECORDER_THREADS_LAYOUT_H
#define PERFCHECK_RECORDER_THREADS_LAYOUT_H

#include <sched.h>

#include "recorder/threads_spec.h"
#include "util/error.h"

struct rec_threads_layout {
	int nr_threads;
	int *ring_thread;		/* per ring: the thread that reads it */
	cpu_set_t *affinity;		/* per thread */
};

/*
 * The group a cpu belongs to under kind (core, package, numa): cpus of one
 * group share a thread.  Any int that is equal for the cpus of a group.
 */
typedef int (*rec_cpu_group_fn)(int cpu, enum rec_threads_kind kind, void *ctx);
/* The machine's groups, from sysfs (a cpu it says nothing of is a group alone). */
int rec_threads_sysfs_group(int cpu, enum rec_threads_kind kind, void *ctx);

/*
 * Assigns the nr_rings rings (ring_cpus[i] the cpu of ring i) to threads.
 * A user SPEC's masks keep only the recording's cpus; a mask left with
 * none, or a ring in no mask, is refused naming the SPEC (-EINVAL).
 */
int rec_threads_layout(const struct rec_threads_spec *spec, const char *spec_text,
		       const int *ring_cpus, int nr_rings, rec_cpu_group_fn group, void *ctx,
		       struct rec_threads_layout *out, struct pc_error *err);
void rec_threads_layout_free(struct rec_threads_layout *l);

#endif
