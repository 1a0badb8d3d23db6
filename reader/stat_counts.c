// SPDX-License-Identifier: GPL-2.0
/* The counts of perf stat record files: see stat_counts.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/stat_counts.h"

void rd_stat_counts_init(struct rd_stat_counts *st, rd_stat_round_fn round, void *ctx)
{
	memset(st, 0, sizeof(*st));
	/* perf stat's defaults when no STAT_CONFIG came */
	st->config.aggr_mode = PD_AGGR_GLOBAL;
	st->config.scale = 1;
	st->round = round;
	st->ctx = ctx;
}

bool rd_stat_counts_wants(uint32_t type)
{
	switch (type) {
	case PC_RECORD_THREAD_MAP:
	case PC_RECORD_CPU_MAP:
	case PC_RECORD_STAT_CONFIG:
	case PC_RECORD_STAT:
	case PC_RECORD_STAT_ROUND:
	case PC_RECORD_EVENT_UPDATE:
		return true;
	default:
		return false;
	}
}

/*
 * An event's own cpus (perf 7.x writes its PMU's for every event), unless
 * the file counted per thread (a CPU_MAP of "any cpu"): perf then opens
 * the events that need no cpu on any cpu, and its STAT records say -1.
 */
const struct pd_cpu_list *rd_stat_cpus_of(const struct rd_stat_counts *st,
					  const struct rd_stat_counter *c)
{
	bool any = st->cpus.nr == 1 && st->cpus.cpus[0] == -1;

	return c->own_cpus.nr && !any ? &c->own_cpus : &st->cpus;
}

/* The counters of every evsel the reader knows (a pipe may bring more later). */
static int grow_counters(struct rd_stat_counts *st, uint32_t nr)
{
	struct rd_stat_counter *c;

	if (nr <= st->nr_counters)
		return 0;
	c = realloc(st->counters, nr * sizeof(*c));
	if (!c)
		return -ENOMEM;
	memset(c + st->nr_counters, 0, (nr - st->nr_counters) * sizeof(*c));
	st->counters = c;
	st->nr_counters = nr;
	return 0;
}

/* Sized once both maps came: the readings of one counter, zero until read. */
static int counts_of(struct rd_stat_counts *st, struct rd_stat_counter *c)
{
	size_t n;

	if (c->now)
		return 0;
	c->nr_cpus = rd_stat_cpus_of(st, c)->nr;
	n = (size_t)c->nr_cpus * st->threads.nr;
	c->now = calloc(n ? n : 1, sizeof(*c->now));
	c->prev = calloc(n ? n : 1, sizeof(*c->prev));
	return c->now && c->prev ? 0 : -ENOMEM;
}

static int bad(const char *path, const struct pd_record *rec, struct pc_error *err,
	       const char *what, long long v)
{
	return pc_error_set(err, EINVAL, "%s: offset 0x%llx: %s %lld", path,
			    (unsigned long long)rec->offset, what, v);
}

/* The evsel index of a record's id, or -1 (the error set). */
static int64_t counter_of(const struct pd_reader *r, const struct pd_record *rec, uint64_t id,
			  struct pc_error *err)
{
	const struct pd_evsel *e = r->nr_evsels ? pd_reader_evsel_of(r, id) : NULL;

	if (!e)
		return bad(r->path, rec, err, "STAT record for an id no event has:", (long long)id), -1;
	return e->idx;
}

static int on_stat(struct rd_stat_counts *st, const struct pd_reader *r,
		   const struct pd_record *rec, struct pc_error *err)
{
	struct rd_stat_counter *c;
	const struct pd_cpu_list *cpus;
	struct pd_stat v;
	int64_t idx;
	uint32_t ci;

	if (pd_decode_stat(r->path, rec, &v, err))
		return -EINVAL;
	if (!st->have_cpus || !st->have_threads)
		return pc_error_set(err, EINVAL, "%s: offset 0x%llx: STAT record before the file's "
				    "THREAD_MAP and CPU_MAP", r->path,
				    (unsigned long long)rec->offset);
	idx = counter_of(r, rec, v.id, err);
	if (idx < 0)
		return -EINVAL;
	if (grow_counters(st, r->nr_evsels))
		return pc_error_set(err, ENOMEM, "out of memory");
	c = &st->counters[idx];
	if (counts_of(st, c))
		return pc_error_set(err, ENOMEM, "out of memory");
	cpus = rd_stat_cpus_of(st, c);
	/* perf >= 5.19 writes the cpu, older perfs its index into the map */
	for (ci = 0; ci < cpus->nr && cpus->cpus[ci] != (int32_t)v.cpu; ci++)
		;
	if (ci == cpus->nr && v.cpu < cpus->nr)
		ci = v.cpu;
	if (ci == cpus->nr)
		return bad(r->path, rec, err, "STAT record for a cpu not in the CPU_MAP:",
			   (int32_t)v.cpu);
	if (v.thread >= st->threads.nr)
		return bad(r->path, rec, err, "STAT record for a thread index past the THREAD_MAP:",
			   v.thread);
	c->now[(size_t)ci * st->threads.nr + v.thread] =
		(struct rd_stat_values){ v.val, v.ena, v.run };
	return 0;
}

/* EVENT_UPDATE's CPUS (type 3): the cpus of one event (uncore, hybrid) */
static int on_update(struct rd_stat_counts *st, const struct pd_reader *r,
		     const struct pd_record *rec, struct pc_error *err)
{
	struct pd_cpu_list l;
	uint64_t type, id;
	int64_t idx;

	if (rec->header.size < 24)
		return 0;	/* the reader's pipe pass refused it already */
	memcpy(&type, (const uint8_t *)rec->data + 8, 8);
	memcpy(&id, (const uint8_t *)rec->data + 16, 8);
	if (type != 3)
		return 0;
	idx = counter_of(r, rec, id, err);
	if (idx < 0)
		return -EINVAL;
	if (grow_counters(st, r->nr_evsels))
		return pc_error_set(err, ENOMEM, "out of memory");
	if (pd_decode_cpu_map(r->path, rec, 24, &l, err))
		return -EINVAL;
	if (st->counters[idx].now || st->counters[idx].own_cpus.nr) {
		free(l.cpus);	/* sized already: perf too keeps the first */
		return 0;
	}
	st->counters[idx].own_cpus = l;
	return 0;
}

/* Every counter sized, then the consumer's round */
static int on_round(struct rd_stat_counts *st, const struct pd_reader *r,
		    const struct pd_record *rec, struct pc_error *err)
{
	struct pd_stat_round rd;

	if (pd_decode_stat_round(r->path, rec, &rd, err))
		return -EINVAL;
	if (!st->have_cpus || !st->have_threads)
		return pc_error_set(err, EINVAL, "%s: offset 0x%llx: STAT_ROUND record before the "
				    "file's THREAD_MAP and CPU_MAP", r->path,
				    (unsigned long long)rec->offset);
	if (grow_counters(st, r->nr_evsels))
		return pc_error_set(err, ENOMEM, "out of memory");
	for (uint32_t e = 0; e < st->nr_counters; e++)
		if (counts_of(st, &st->counters[e]))
			return pc_error_set(err, ENOMEM, "out of memory");
	return st->round ? st->round(st->ctx, st, r, &rd, err) : 0;
}

int rd_stat_counts_record(struct rd_stat_counts *st, const struct pd_reader *r,
			  const struct pd_record *rec, struct pc_error *err)
{
	st->records++;
	switch (rec->header.type) {
	case PC_RECORD_THREAD_MAP:
		if (st->have_threads)
			return 0;
		if (pd_decode_thread_map(r->path, rec, &st->threads, err))
			return -EINVAL;
		st->have_threads = true;
		return 0;
	case PC_RECORD_CPU_MAP:
		if (st->have_cpus)
			return 0;
		if (pd_decode_cpu_map(r->path, rec, 8, &st->cpus, err))
			return -EINVAL;
		st->have_cpus = true;
		return 0;
	case PC_RECORD_STAT_CONFIG:
		return pd_decode_stat_config(r->path, rec, &st->config, err) ? -EINVAL : 0;
	case PC_RECORD_STAT:
		return on_stat(st, r, rec, err);
	case PC_RECORD_STAT_ROUND:
		return on_round(st, r, rec, err);
	case PC_RECORD_EVENT_UPDATE:
		return on_update(st, r, rec, err);
	default:
		st->records--;
		return 0;
	}
}

void rd_stat_counts_free(struct rd_stat_counts *st)
{
	for (uint32_t i = 0; i < st->nr_counters; i++) {
		free(st->counters[i].own_cpus.cpus);
		free(st->counters[i].now);
		free(st->counters[i].prev);
	}
	free(st->counters);
	free(st->cpus.cpus);
	free(st->threads.pids);
	free(st->threads.comms);
	memset(st, 0, sizeof(*st));
}
