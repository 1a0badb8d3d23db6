/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PERF_SAMPLE_READ: a sample stands for what its counters counted since
 * the last sample, as perf derives it.  Each read value (the one, or every
 * member of a PERF_FORMAT_GROUP) becomes a sample of the event its id
 * belongs to, with period = value - the value that id read last time;
 * values whose id no event of the file has, and zero periods, give no
 * sample (perf skips them).  perf 6.12 and later keep the last value per
 * thread too where the event is inherited and samples carry the tid: each
 * child's counter starts at 0 (the kernel allows SAMPLE_READ with inherit
 * since 6.12); perf 6.1 keeps one per id, and a child's first sample then
 * comes out as a huge period (the difference wraps), as perf 6.1 shows it.
 */
#ifndef PERFCHECK_READER_SAMPLE_READ_H
#define PERFCHECK_READER_SAMPLE_READ_H

#include "perfdata/perfdata.h"

struct rd_sread_last {
	uint64_t id, value;
	uint32_t tid;			/* 0 unless per thread */
};

struct rd_sread {
	struct rd_sread_last *v;	/* sorted by id */
	size_t nr, cap;
	uint64_t unknown_ids;		/* values whose id names no event */
	bool per_thread;		/* perf 6.12+: inherited events' values per thread */
};

/* How many values the sample carries (0 without PERF_SAMPLE_READ). */
uint64_t rd_sread_count(const struct pd_sample *smp);
/*
 * The i-th value as a sample of its own: *out is smp with evsel, id and
 * period of that value.  Returns 1 when it is to be shown, 0 when not
 * (unknown id, zero period), -ENOMEM.
 */
int rd_sread_value(struct rd_sread *sr, const struct pd_reader *r, const struct pd_sample *smp,
		   uint64_t i, struct pd_sample *out);
void rd_sread_free(struct rd_sread *sr);

#endif
