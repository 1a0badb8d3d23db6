/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --threads[=SPEC], as parsed (threads_spec.c): which rings each reading
 * thread takes.  SPEC is cpu (one thread per cpu, also with no value),
 * core, package, numa (a thread per core, package or NUMA node), or the
 * user's masks MAPS/AFFINITY[:MAPS/AFFINITY...], each a cpu list: the
 * rings of the cpus in MAPS are read by a thread kept on AFFINITY.
 * Nothing here asks the machine: rec_threads_layout() does (threads_layout.c).
 */
#ifndef PERFCHECK_RECORDER_THREADS_SPEC_H
#define PERFCHECK_RECORDER_THREADS_SPEC_H

#include <sched.h>

#include "util/error.h"

enum rec_threads_kind {
	REC_THREADS_CPU,
	REC_THREADS_CORE,
	REC_THREADS_PACKAGE,
	REC_THREADS_NUMA,
	REC_THREADS_USER,
};

/* One thread of a user SPEC. */
struct rec_threads_mask {
	cpu_set_t maps;			/* whose rings it reads */
	cpu_set_t affinity;		/* where it runs */
};

struct rec_threads_spec {
	const char *text;		/* the SPEC as given ("" for none), for messages */
	enum rec_threads_kind kind;
	struct rec_threads_mask *masks;	/* REC_THREADS_USER: nr_masks of them */
	int nr_masks;
};

/*
 * spec NULL or "" is cpu.  A SPEC that is no keyword and no list of
 * MAPS/AFFINITY pairs, or whose masks overlap, is refused naming it.
 */
int rec_threads_spec_parse(const char *spec, struct rec_threads_spec *out, struct pc_error *err);
void rec_threads_spec_free(struct rec_threads_spec *s);
/* "cpu", "core", "package", "numa" or "user". */
const char *rec_threads_kind_name(enum rec_threads_kind kind);

#endif
