// SPDX-License-Identifier: GPL-2.0
/* Where the sample id sits, derived once per event from its sample_type. */
#include "perfdata/perfdata.h"

void pd_evsel_init_layout(struct pd_evsel *evsel)
{
	uint64_t type = evsel->attr.attr.sample_type;
	uint32_t n;

	/* in a SAMPLE: IDENTIFIER first, else ID after IP, TID, TIME, ADDR */
	if (type & PERF_SAMPLE_IDENTIFIER) {
		evsel->id_pos = 0;
	} else if (type & PERF_SAMPLE_ID) {
		n = 0;
		n += !!(type & PERF_SAMPLE_IP);
		n += !!(type & PERF_SAMPLE_TID);
		n += !!(type & PERF_SAMPLE_TIME);
		n += !!(type & PERF_SAMPLE_ADDR);
		evsel->id_pos = n;
	} else {
		evsel->id_pos = (uint32_t)-1;
	}

	/* in the sample_id trailer: TID TIME ID STREAM_ID CPU IDENTIFIER */
	if (type & PERF_SAMPLE_IDENTIFIER) {
		evsel->is_pos = 1;
	} else if (type & PERF_SAMPLE_ID) {
		n = 1;
		n += !!(type & PERF_SAMPLE_CPU);
		n += !!(type & PERF_SAMPLE_STREAM_ID);
		evsel->is_pos = n;
	} else {
		evsel->is_pos = (uint32_t)-1;
	}

	n = 0;
	if (evsel->attr.attr.sample_id_all) {
		n += !!(type & PERF_SAMPLE_TID);
		n += !!(type & PERF_SAMPLE_TIME);
		n += !!(type & PERF_SAMPLE_ID);
		n += !!(type & PERF_SAMPLE_STREAM_ID);
		n += !!(type & PERF_SAMPLE_CPU);
		n += !!(type & PERF_SAMPLE_IDENTIFIER);
	}
	evsel->sample_id_size = n * 8;
}
