/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One recorded event: the attr it is opened with, its name, what it asked
 * of the kernel and what the open ladder cleared, and its fds and ids, one
 * per cpu and thread of the evlist that owns it.
 */
#ifndef PERFCHECK_RECORDER_EVSEL_H
#define PERFCHECK_RECORDER_EVSEL_H

#include <stdbool.h>
#include <stdint.h>

#include "uapi/perf_compat.h"

/* What the event's own spelling asked for (modifiers and pmu/terms/). */
struct rec_evsel_spec {
	bool has_modifier;		/* :u :k :h given */
	bool sample_read;		/* :S on the group */
	bool pinned;			/* :D */
	bool period_set, freq_set;	/* period= freq= terms */
	int callgraph;			/* call-graph= term: enum rec_callgraph + 1, 0 = none */
	uint32_t stack_size;		/* stack-size= term */
	int cgroup_fd;			/* -G: the cgroup directory, -1 = none */
};

struct rec_evsel {
	union pc_attr attr;
	char name[256];
	bool tracepoint;
	char tp_sys[64], tp_name[128];	/* SYS:NAME of a tracepoint */
	struct rec_evsel_spec spec;
	int leader;			/* index of its group leader (itself when alone) */
	int nr_members;			/* on a leader: events in its group, itself included */
	uint64_t requested, cleared;	/* 1ULL << enum pc_feature: asked for, cleared at open */
	const char *filter;		/* --filter (the options' string), NULL when none */
	bool every_cpu;			/* opened with pid -1 on every cpu whatever the target
					 * (--kcore's text poke dummy) */
	int *fds;			/* [cpu][thread], -1 where not open */
	uint64_t *ids;			/* same index */
};

#endif
