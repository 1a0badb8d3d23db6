/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counts of a perf stat record file as perf script prints them: at
 * each STAT_ROUND, a line per event, thread and cpu (perf 6.1's layout;
 * perf 7.2's script prints nothing for such files).  What perf 6.1 does
 * to the readings first is done too: outside the global aggregation
 * (-A, --per-*), a reading becomes its delta to the previous round's and
 * is scaled by ena/run when STAT_CONFIG says counts scale.
 */
#ifndef PERFCHECK_READER_STAT_SCRIPT_H
#define PERFCHECK_READER_STAT_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/codec.h"
#include "reader/out.h"
#include "util/error.h"

struct rd_stat_values {
	uint64_t val, ena, run;
};

/* One event's readings, [cpu index * nr threads + thread index] */
struct rd_stat_counter {
	struct pd_cpu_list own_cpus;	/* EVENT_UPDATE's CPUS; nr 0: the file's */
	struct rd_stat_values *now, *prev;
	uint32_t nr_cpus;		/* of the cpu map the arrays were sized for */
};

struct rd_stat_script {
	struct pd_cpu_list cpus;	/* the first CPU_MAP (perf ignores more) */
	struct pd_thread_list threads;	/* the first THREAD_MAP */
	bool have_cpus, have_threads;
	struct pd_stat_config config;
	struct rd_stat_counter *counters;	/* by evsel index */
	uint32_t nr_counters;
	bool header_done;
	uint64_t records;		/* stat records read */
};

void rd_stat_script_init(struct rd_stat_script *st);
/* True for the record types this reads. */
bool rd_stat_script_wants(uint32_t type);
/* One record of a wanted type; a round's lines go to o. */
int rd_stat_script_record(struct rd_stat_script *st, const struct pd_reader *r,
			  const struct pd_record *rec, struct rd_out *o, struct pc_error *err);
void rd_stat_script_free(struct rd_stat_script *st);

#endif
