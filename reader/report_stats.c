// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --stats: the records of the input by type, as perf counts
 * them while it processes a session (TOTAL first, then each type with its
 * share), then each event's samples and lost samples.  Types no record
 * had are left out, as perf's default --skip-empty does.
 */
#include <errno.h>
#include <stdlib.h>

#include "reader/report_stats.h"
#include "perfdata/perfdata.h"

struct stats {
	uint64_t *samples, *lost;	/* per evsel, indexed like the reader's */
	uint32_t nr;
};

static int grow(struct stats *st, uint32_t idx)
{
	uint32_t n = idx + 1;
	uint64_t *a, *b;

	if (idx < st->nr)
		return 0;
	a = realloc(st->samples, n * sizeof(*a));
	if (a)
		st->samples = a;
	b = realloc(st->lost, n * sizeof(*b));
	if (b)
		st->lost = b;
	if (!a || !b)
		return -ENOMEM;
	for (uint32_t i = st->nr; i < n; i++)
		st->samples[i] = st->lost[i] = 0;
	st->nr = n;
	return 0;
}

static int evsel_index(const struct rd_session *s, const struct pd_sample *smp, uint32_t *idx)
{
	if (!smp || !smp->evsel)
		return -1;
	*idx = (uint32_t)(smp->evsel - s->r.evsels);
	return 0;
}

static int on_sample(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct stats *st = ctx;
	uint32_t i;

	if (evsel_index(s, ev->sample, &i))
		return 0;
	if (grow(st, i))
		return -ENOMEM;
	st->samples[i]++;
	return 0;
}

/* LOST_SAMPLES: the count the kernel gave, to the event its sample_id names */
static int on_other(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct stats *st = ctx;
	uint32_t i;

	if (ev->rec->header.type != PERF_RECORD_LOST_SAMPLES || ev->rec->header.size < 16 ||
	    evsel_index(s, ev->sample, &i))
		return 0;
	if (grow(st, i))
		return -ENOMEM;
	st->lost[i] += ((const uint64_t *)ev->rec->data)[1];
	return 0;
}

static void line(struct rd_out *o, int width, const char *name, uint64_t n, uint64_t total)
{
	rd_out_printf(o, "%*s events: %10llu", width, name, (unsigned long long)n);
	if (total)
		rd_out_printf(o, "  (%4.1f%%)", 100.0 * (double)n / (double)total);
	rd_out_char(o, '\n');
}

int rd_report_stats(struct rd_session *s, struct rd_out *o, bool wide, struct pc_error *err)
{
	struct stats st = { 0 };
	int width = wide ? 20 : 16;
	uint64_t total;
	int ret;

	s->ops.sample = on_sample;
	s->ops.other = on_other;
	s->ops.ctx = &st;
	ret = rd_session_process(s, err);
	if (!ret) {
		total = s->in.records;
		rd_out_str(o, "\nAggregated stats:\n");
		line(o, width, "TOTAL", total, 0);
		for (uint32_t t = 1; t < RD_INPUT_TYPES; t++) {
			const char *name = pd_record_name(t);

			if (name && s->in.by_type[t])
				line(o, width, name, s->in.by_type[t], total);
		}
		for (uint32_t i = 0; i < st.nr && i < s->r.nr_evsels; i++) {
			const char *name = s->r.evsels[i].name;

			if (!st.samples[i] && !st.lost[i])
				continue;
			rd_out_printf(o, "%s stats:\n", name ? name : "?");
			if (st.samples[i])
				line(o, width, "SAMPLE", st.samples[i], 0);
			if (st.lost[i])
				line(o, width, "LOST_SAMPLES", st.lost[i], 0);
		}
	}
	free(st.samples);
	free(st.lost);
	return ret;
}
