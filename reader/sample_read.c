// SPDX-License-Identifier: GPL-2.0
/* PERF_SAMPLE_READ periods: the difference between a counter's reads. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/sample_read.h"

uint64_t rd_sread_count(const struct pd_sample *smp)
{
	if (!smp->evsel || !(smp->evsel->attr.attr.sample_type & PERF_SAMPLE_READ))
		return 0;
	return smp->read.nr;
}

/* The event an id of the file's attrs belongs to; no fallback for id 0 or one event. */
static const struct pd_evsel *evsel_of_id(const struct pd_reader *r, uint64_t id)
{
	uint32_t lo = 0, hi = r->nr_id_map;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (r->id_map[mid].id == id)
			return &r->evsels[r->id_map[mid].evsel];
		if (r->id_map[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* orders the last values by id, then tid */
static int last_cmp(const struct rd_sread_last *a, uint64_t id, uint32_t tid)
{
	if (a->id != id)
		return a->id < id ? -1 : 1;
	return a->tid < tid ? -1 : a->tid > tid;
}

/* The last value read for id (and tid; inserted at 0 the first time). */
static struct rd_sread_last *last_of(struct rd_sread *sr, uint64_t id, uint32_t tid)
{
	size_t lo = 0, hi = sr->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = last_cmp(&sr->v[mid], id, tid);

		if (!c)
			return &sr->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (sr->nr == sr->cap) {
		size_t cap = sr->cap ? sr->cap * 2 : 16;
		struct rd_sread_last *v = realloc(sr->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		sr->v = v;
		sr->cap = cap;
	}
	memmove(&sr->v[lo + 1], &sr->v[lo], (sr->nr - lo) * sizeof(*sr->v));
	sr->v[lo] = (struct rd_sread_last){ .id = id, .tid = tid };
	sr->nr++;
	return &sr->v[lo];
}

/*
 * perf 6.12+ (perf_evsel__attr_has_per_thread_sample_period): the sampling
 * event reads, samples its tid and is inherited
 */
static bool per_thread(const struct rd_sread *sr, const struct pd_sample *smp)
{
	const struct perf_event_attr *a = &smp->evsel->attr.attr;

	return sr->per_thread && (a->sample_type & PERF_SAMPLE_TID) && a->inherit;
}

int rd_sread_value(struct rd_sread *sr, const struct pd_reader *r, const struct pd_sample *smp,
		   uint64_t i, struct pd_sample *out)
{
	uint64_t rf = smp->evsel->attr.attr.read_format;
	struct pd_read_value v = smp->read.first;
	const struct pd_evsel *e;
	struct rd_sread_last *last;

	if (rf & PERF_FORMAT_GROUP) {
		uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		const uint64_t *p = smp->read.raw + i * per;

		v.value = p[0];
		v.id = (rf & PERF_FORMAT_ID) ? p[1] : 0;
	} else if (!(rf & PERF_FORMAT_ID)) {
		v.id = 0;
	}
	e = evsel_of_id(r, v.id);
	if (!e) {
		sr->unknown_ids++;
		return 0;
	}
	last = last_of(sr, v.id, per_thread(sr, smp) ? smp->tid : 0);
	if (!last)
		return -ENOMEM;
	*out = *smp;
	out->evsel = e;
	out->id = v.id;
	out->period = v.value - last->value;
	last->value = v.value;
	return out->period != 0;
}

void rd_sread_free(struct rd_sread *sr)
{
	free(sr->v);
	memset(sr, 0, sizeof(*sr));
}
