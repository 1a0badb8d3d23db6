/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counts of a perf stat record file as its records bring them: the
 * THREAD_MAP and CPU_MAP (the first of each, as perf), STAT_CONFIG, each
 * event's own cpus (EVENT_UPDATE CPUS), and every STAT reading placed at
 * its counter, cpu and thread, refused with its offset when it cannot be.
 * At each STAT_ROUND the consumer's round callback gets them all: perf
 * script's table (stat_script.c) and perfcheck stat report (stat/) read
 * the same state.
 */
#ifndef PERFCHECK_READER_STAT_COUNTS_H
#define PERFCHECK_READER_STAT_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/codec.h"
#include "util/error.h"

struct rd_stat_values {
	uint64_t val, ena, run;
};

/* One event's readings, [cpu index * nr threads + thread index] */
struct rd_stat_counter {
	struct pd_cpu_list own_cpus;	/* EVENT_UPDATE's CPUS; nr 0: the file's */
	struct rd_stat_values *now, *prev;	/* prev: the consumer's (deltas) */
	uint32_t nr_cpus;		/* of the cpu map the arrays were sized for */
};

struct rd_stat_counts;

/* A STAT_ROUND: rd its type and time; st's counters sized for every evsel of r. */
typedef int (*rd_stat_round_fn)(void *ctx, struct rd_stat_counts *st, const struct pd_reader *r,
				const struct pd_stat_round *rd, struct pc_error *err);

struct rd_stat_counts {
	struct pd_cpu_list cpus;	/* the first CPU_MAP (perf ignores more) */
	struct pd_thread_list threads;	/* the first THREAD_MAP */
	bool have_cpus, have_threads;
	struct pd_stat_config config;
	struct rd_stat_counter *counters;	/* by evsel index */
	uint32_t nr_counters;
	uint64_t records;		/* stat records read */
	rd_stat_round_fn round;
	void *ctx;
};

void rd_stat_counts_init(struct rd_stat_counts *st, rd_stat_round_fn round, void *ctx);
/* True for the record types this reads. */
bool rd_stat_counts_wants(uint32_t type);
/* One record of a wanted type (user records, in file order). */
int rd_stat_counts_record(struct rd_stat_counts *st, const struct pd_reader *r,
			  const struct pd_record *rec, struct pc_error *err);
/* The cpus a counter's readings are indexed by. */
const struct pd_cpu_list *rd_stat_cpus_of(const struct rd_stat_counts *st,
					  const struct rd_stat_counter *c);
void rd_stat_counts_free(struct rd_stat_counts *st);

#endif
