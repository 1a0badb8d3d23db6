/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report's latency of a sample (perf 6.15 and later): its period
 * divided by how many threads ran at the time, as the file's context
 * switch records tell.  perf keeps one machine-wide count, 1 at the start,
 * up at a switch in, down at a switch out and at a task's exit, and takes
 * it bounded by 1 and the recording machine's cpus.  Without switch
 * records (perf record --switch-events or --latency) perf has none.
 */
#ifndef PERFCHECK_READER_LATENCY_H
#define PERFCHECK_READER_LATENCY_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"

struct rd_latency {
	int64_t running;	/* perf's count, which bad ordering may take below 1 */
	uint32_t nr_cpus;	/* the recording machine's available cpus (0: not read yet) */
};

#define RD_LATENCY_INIT { .running = 1 }

/* Does file r have latencies: one of its events records context switches? */
bool rd_latency_in(const struct pd_reader *r);
/* A record other than a sample, in time order: SWITCH, SWITCH_CPU_WIDE and EXIT count. */
void rd_latency_record(struct rd_latency *l, const struct pd_record *rec);
/* How many threads run now, as perf bounds it: 1 to the recording machine's cpus. */
uint32_t rd_latency_parallelism(struct rd_latency *l, const struct pd_reader *r);
/*
 * A sample's latency: period * 1000 / parallelism (perf multiplies first:
 * the shares keep their precision in integers)
 */
static inline uint64_t rd_latency_of(uint64_t period, uint32_t parallelism)
{
	return period * 1000 / parallelism;
}

#endif
