// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "reader/parse.h"

void rd_parse_init(struct rd_parse *ps, const struct pd_reader *r, struct rd_sink out)
{
	ps->r = r;
	ps->out = out;
}

static int parse(const struct pd_reader *r, struct rd_item *it, struct pc_error *err)
{
	struct pd_record rec = { .offset = it->offset, .data = it->data };
	struct rd_parsed *p;
	int ret;

	memcpy(&rec.header, it->data, sizeof(rec.header));
	p = rd_block_alloc(sizeof(*p));
	if (!p)
		return pc_error_set(err, ENOMEM, "out of memory");
	if (it->type == PERF_RECORD_SAMPLE)
		ret = pd_parse_sample_as(r, it->evsel, &rec, &p->smp, err);
	else if (it->type == PC_RECORD_CALLCHAIN_DEFERRED)
		ret = pd_parse_deferred_as(r, it->evsel, &rec, &p->d, &p->smp, err);
	else
		ret = pd_parse_sample_id_as(r, it->evsel, &rec, &p->smp, err);
	if (ret || (!p->smp.evsel && it->type != PC_RECORD_CALLCHAIN_DEFERRED)) {
		rd_block_free(p, sizeof(*p));
		return ret;
	}
	it->p = p;
	if (p->smp.evsel && p->smp.evsel->layout.time >= 0) {
		it->timed = true;
		it->time = p->smp.time;
	}
	return 0;
}

int rd_parse_deliver(void *ctx, struct rd_item *it, struct pc_error *err)
{
	struct rd_parse *ps = ctx;

	if (!it->p && it->type < PC_RECORD_HEADER_ATTR) {
		int ret = parse(ps->r, it, err);

		if (ret) {
			rd_item_release(it);
			return ret;
		}
	}
	return rd_sink_put(&ps->out, it, err);
}
