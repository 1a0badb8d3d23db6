// SPDX-License-Identifier: GPL-2.0
#include "reader/latency.h"

#include <unistd.h>

bool rd_latency_in(const struct pd_reader *r)
{
	for (uint32_t i = 0; i < r->nr_evsels; i++)
		if (r->evsels[i].attr.attr.context_switch)
			return true;
	return false;
}

void rd_latency_record(struct rd_latency *l, const struct pd_record *rec)
{
	switch (rec->header.type) {
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		l->running += rec->header.misc & PERF_RECORD_MISC_SWITCH_OUT ? -1 : 1;
		break;
	case PERF_RECORD_EXIT:
		/* no switch out comes before an exit */
		l->running--;
		break;
	default:
		break;
	}
}

/* NRCPUS' available cpus; where the file has none, perf takes this machine's */
static uint32_t cpus_of(const struct pd_reader *r)
{
	uint32_t avail = 0, online = 0;
	struct pc_error err = { 0 };
	long n;

	if (!pd_reader_nrcpus(r, &avail, &online, &err) && avail)
		return avail;
	n = sysconf(_SC_NPROCESSORS_CONF);
	return n > 0 ? (uint32_t)n : 1;
}

uint32_t rd_latency_parallelism(struct rd_latency *l, const struct pd_reader *r)
{
	int64_t n;

	if (!l->nr_cpus)
		l->nr_cpus = cpus_of(r);
	n = l->running < (int64_t)l->nr_cpus ? l->running : (int64_t)l->nr_cpus;
	return n > 1 ? (uint32_t)n : 1;
}
