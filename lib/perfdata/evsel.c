// SPDX-License-Identifier: GPL-2.0
/*
 * The sample layout of an event, derived once from its sample_type: the
 * one place that knows in which order the ABI writes the fixed fields of a
 * SAMPLE and of a sample_id trailer.
 */
#include <string.h>

#include "perfdata/perfdata.h"

/* in a SAMPLE: IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD, then variable parts */
static uint16_t sample_places(uint64_t type, struct pd_sample_place *p)
{
	int16_t n = 0;

	p->id = (type & PERF_SAMPLE_IDENTIFIER) ? n++ : -1;
	p->ip = (type & PERF_SAMPLE_IP) ? n++ : -1;
	p->tid = (type & PERF_SAMPLE_TID) ? n++ : -1;
	p->time = (type & PERF_SAMPLE_TIME) ? n++ : -1;
	p->addr = (type & PERF_SAMPLE_ADDR) ? n++ : -1;
	if (type & PERF_SAMPLE_ID) {
		if (p->id < 0)
			p->id = n;
		n++;
	}
	p->stream_id = (type & PERF_SAMPLE_STREAM_ID) ? n++ : -1;
	p->cpu = (type & PERF_SAMPLE_CPU) ? n++ : -1;
	p->period = (type & PERF_SAMPLE_PERIOD) ? n++ : -1;
	return (uint16_t)n;
}

/* in the sample_id trailer: TID TIME ID STREAM_ID CPU IDENTIFIER */
static uint16_t trailer_places(uint64_t type, struct pd_sample_place *p)
{
	int16_t n = 0;

	memset(p, 0xff, sizeof(*p));	/* every field -1 */
	p->tid = (type & PERF_SAMPLE_TID) ? n++ : -1;
	p->time = (type & PERF_SAMPLE_TIME) ? n++ : -1;
	p->id = (type & PERF_SAMPLE_ID) ? n++ : -1;
	p->stream_id = (type & PERF_SAMPLE_STREAM_ID) ? n++ : -1;
	p->cpu = (type & PERF_SAMPLE_CPU) ? n++ : -1;
	if (type & PERF_SAMPLE_IDENTIFIER)
		p->id = n++;	/* IDENTIFIER wins: it is last, where a reader finds it */
	return (uint16_t)n;
}

void pd_evsel_init_layout(struct pd_evsel *evsel)
{
	uint64_t type = evsel->attr.attr.sample_type;
	struct pd_sample_layout *l = &evsel->layout;
	uint16_t words;

	l->sample_words = sample_places(type, &l->sample);
	words = trailer_places(type, &l->trailer);
	l->trailer_words = evsel->attr.attr.sample_id_all ? words : 0;
	if (!evsel->attr.attr.sample_id_all)
		memset(&l->trailer, 0xff, sizeof(l->trailer));
	l->time = l->sample.time;

	/* the id's place: from the start of a SAMPLE, from the END of the trailer */
	evsel->id_pos = l->sample.id >= 0 ? (uint32_t)l->sample.id : (uint32_t)-1;
	if (type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) {
		struct pd_sample_place t;
		uint16_t all = trailer_places(type, &t);

		evsel->is_pos = (uint32_t)(all - t.id);
	} else {
		evsel->is_pos = (uint32_t)-1;
	}
	evsel->sample_id_size = l->trailer_words * 8u;
}
