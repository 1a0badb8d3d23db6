/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report -T: the per-thread counts of PERF_RECORD_READ (what perf
 * record -s leaves when each inherited thread exits), summed by (pid,
 * tid) and event, in perf's table: threads and events in the order first
 * seen, each column as wide as its widest cell.
 */
#ifndef PERFCHECK_READER_REPORT_THREADS_H
#define PERFCHECK_READER_REPORT_THREADS_H

#include <stdint.h>

#include "perfdata/perfdata.h"
#include "reader/out.h"
#include "util/error.h"

struct rp_threads {
	int32_t *pid, *tid;
	uint32_t nr_threads, cap_threads;
	uint32_t *evsel;		/* the events' indices, in the order first seen */
	char **names;
	uint32_t nr_counters;
	uint64_t *value;		/* [thread * RP_THREADS_MAX_COUNTERS + counter] */
};

#define RP_THREADS_MAX_COUNTERS 64

/* A READ record (its evsel: the sample_id's, else the first). */
int rp_threads_read(struct rp_threads *t, const char *path, const struct pd_record *rec,
		    const struct pd_evsel *evsel, struct pc_error *err);
void rp_threads_print(const struct rp_threads *t, struct rd_out *o);
void rp_threads_free(struct rp_threads *t);

#endif
