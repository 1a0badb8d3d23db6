/* SPDX-License-Identifier: GPL-2.0 */
/* Records for what existed before the recording started, read from /proc. */
#ifndef PERFCHECK_RECORDER_SYNTH_H
#define PERFCHECK_RECORDER_SYNTH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "perfdata/codec.h"
#include "recorder/output.h"

/* The records are encoded by lib/perfdata's codec (perfdata/codec.h). */
struct rec_synth {
	struct rec_output *out;
	const struct perf_event_attr *attr;	/* of the tracking event: its sample_id */
	uint64_t id;			/* its id, put in each sample_id trailer */
	bool namespaces;		/* a NAMESPACES record with each thread */
	bool no_maps;			/* --synth task: the tasks without their MMAP2s */
	struct pd_buf buf;		/* the record being encoded */
};

/* Frees the encoding buffer. */
void rec_synth_release(struct rec_synth *s);
/*
 * The kernel's reference symbol in a /proc/kallsyms text, as perf picks it:
 * _text, else _stext (arm64 kernels without _text in kallsyms, seen on
 * 6.1.192).  Its name, with its address in *addr, or NULL (neither, or
 * addresses hidden).
 */
const char *rec_kernel_ref_symbol(FILE *kallsyms, uint64_t *addr);
/* The kernel's MMAP, "[kernel.kallsyms]" and the reference symbol, pgoff its address. */
int rec_synth_kernel_mmap(struct rec_synth *s);
int rec_synth_comm(struct rec_synth *s, pid_t pid, pid_t tid, const char *comm);
/*
 * The COMM (and NAMESPACES) of each thread of one process from /proc, the
 * leader's MMAP2s after it; with forks (system-wide, as perf's full
 * synthesis), a FORK before each, its NAMESPACES before its COMM.
 */
int rec_synth_process(struct rec_synth *s, pid_t pid, bool forks);
/* One thread of a -t list, as perf's thread map has it: COMM, NAMESPACES, the leader's maps. */
int rec_synth_thread(struct rec_synth *s, pid_t pid, pid_t tid);
int rec_synth_all(struct rec_synth *s);
/* NAMESPACES of one thread (--namespaces). */
int rec_synth_namespaces(struct rec_synth *s, pid_t pid, pid_t tid);
/* CGROUP records for every existing cgroup (--all-cgroups), as perf does. */
int rec_synth_cgroups(struct rec_synth *s);

#endif
