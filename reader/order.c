// SPDX-License-Identifier: GPL-2.0
/*
 * Each record goes to the end of the sorted run whose last time is the
 * latest not after its own; only a record that fits no run (and finds no
 * free run) goes to a heap.  The oldest is then the least of a few run
 * heads and the heap top: cheaper and friendlier to the cache than one big
 * heap.  Ties keep arrival order.  A queued record is a small entry (its
 * time, arrival, place and event): it is parsed when it leaves, while the
 * next stages still have the parse in cache.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/order.h"

void rd_order_init(struct rd_order *o, struct rd_sink out)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < RD_ORDER_RUNS; i++)
		rd_ring_init(&o->runs[i], sizeof(struct rd_qent), 1024);
	o->max_pending = RD_ORDER_MAX;
	o->out = out;
}

/* rd_ring_push/pop for entries: a copy of known size, inlined */
static int run_push(struct rd_ring *r, const struct rd_qent *q)
{
	if (r->nr == r->cap && rd_ring_grow(r))
		return -ENOMEM;
	*(struct rd_qent *)rd_ring_at(r, r->nr) = *q;
	r->nr++;
	return 0;
}

static void run_pop(struct rd_ring *r, struct rd_qent *out)
{
	*out = *(const struct rd_qent *)rd_ring_at(r, 0);
	r->head = (r->head + 1) & (r->cap - 1);
	r->nr--;
}

static bool less(const struct rd_qent *a, const struct rd_qent *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

static int heap_push(struct rd_order *o, const struct rd_qent *it)
{
	size_t i;

	if (o->heap_nr == o->heap_cap) {
		size_t cap = o->heap_cap ? o->heap_cap * 2 : 1024;
		struct rd_qent *h = realloc(o->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		o->heap = h;
		o->heap_cap = cap;
	}
	i = o->heap_nr++;
	while (i) {
		size_t up = (i - 1) / 2;

		if (!less(it, &o->heap[up]))
			break;
		o->heap[i] = o->heap[up];
		i = up;
	}
	o->heap[i] = *it;
	return 0;
}

static void heap_pop(struct rd_order *o, struct rd_qent *out)
{
	struct rd_qent last = o->heap[--o->heap_nr];
	size_t i = 0, n = o->heap_nr;

	*out = o->heap[0];
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && less(&o->heap[c + 1], &o->heap[c]))
			c++;
		if (!less(&o->heap[c], &last))
			break;
		o->heap[i] = o->heap[c];
		i = c;
	}
	if (n)
		o->heap[i] = last;
}

static int push(struct rd_order *o, const struct rd_qent *it)
{
	struct rd_ring *best = NULL, *empty = NULL;
	const struct rd_qent *best_tail = NULL, *last = rd_ring_tail(&o->runs[o->last_run]);
	int ret;

	/*
	 * Most records follow the last one: its run takes them (any run whose
	 * tail is not after a record keeps it sorted, and the heads are merged
	 * by time and arrival whichever run holds what).
	 */
	if (last && last->time <= it->time) {
		ret = run_push(&o->runs[o->last_run], it);
		if (!ret)
			o->pending++;
		return ret;
	}
	for (size_t i = 0; i < RD_ORDER_RUNS; i++) {
		struct rd_ring *r = &o->runs[i];
		const struct rd_qent *tail = rd_ring_tail(r);

		if (!tail) {
			if (!empty)
				empty = r;
			continue;
		}
		if (tail->time <= it->time && (!best || tail->time > best_tail->time)) {
			best = r;
			best_tail = tail;
		}
	}
	if (!best)
		best = empty;
	ret = best ? run_push(best, it) : heap_push(o, it);
	if (!ret) {
		o->pending++;
		if (best) {
			o->last_run = (size_t)(best - o->runs);
			if (o->last_run >= o->runs_used)
				o->runs_used = o->last_run + 1;
		}
	}
	return ret;
}

/* The oldest pending item, if its time is <= limit: true and *out filled. */
static bool pop(struct rd_order *o, uint64_t limit, struct rd_qent *out)
{
	struct rd_ring *min = NULL;
	const struct rd_qent *m = NULL;

	for (size_t i = 0; i < o->runs_used; i++) {
		const struct rd_qent *h = rd_ring_head(&o->runs[i]);

		if (h && (!m || less(h, m))) {
			min = &o->runs[i];
			m = h;
		}
	}
	if (o->heap_nr && (!m || less(&o->heap[0], m))) {
		if (o->heap[0].time > limit)
			return false;
		heap_pop(o, out);
		o->pending--;
		return true;
	}
	if (!m || m->time > limit)
		return false;
	run_pop(min, out);
	o->pending--;
	return true;
}

static int release(struct rd_order *o, const struct rd_qent *q, struct pc_error *err)
{
	struct rd_item it = { .data = q->data, .offset = q->offset, .seq = q->seq,
			      .time = q->time, .evsel = q->evsel, .type = q->type,
			      .timed = true, .owned = q->owned };

	if (q->time < o->last_out)
		o->unordered++;
	else
		o->last_out = q->time;
	return rd_sink_put(&o->out, &it, err);
}

int rd_order_flush(struct rd_order *o, uint64_t limit, struct pc_error *err)
{
	struct rd_qent it;

	while (pop(o, limit, &it)) {
		int ret = release(o, &it, err);

		if (ret)
			return ret;
	}
	return 0;
}

int rd_order_deliver(void *ctx, struct rd_item *it, struct pc_error *err)
{
	struct rd_order *o = ctx;
	struct rd_qent q;
	int ret;

	if (o->pass_through)
		return rd_sink_put(&o->out, it, err);
	if (it->type == PC_RECORD_FINISHED_ROUND) {
		rd_item_release(it);
		ret = rd_order_flush(o, o->round_flush, err);
		o->round_flush = o->max_time;
		return ret;
	}
	/* untimed records go out now; so do times 0 and -1 (synthesized records), as perf's */
	if (!it->timed || !it->time || it->time == UINT64_MAX)
		return rd_sink_put(&o->out, it, err);
	if (it->time > o->max_time)
		o->max_time = it->time;
	q = (struct rd_qent){ .time = it->time, .seq = it->seq, .data = it->data,
			      .offset = it->offset, .evsel = it->evsel, .type = it->type,
			      .owned = it->owned };
	if (push(o, &q)) {
		rd_item_release(it);
		return pc_error_set(err, ENOMEM, "out of memory");
	}
	if (o->pending > o->max_pending) {
		struct rd_qent old;

		if (pop(o, UINT64_MAX, &old))
			return release(o, &old, err);
	}
	return 0;
}

void rd_order_free(struct rd_order *o)
{
	struct rd_qent q;

	while (pop(o, UINT64_MAX, &q)) {
		struct rd_item it = { .data = q.data, .type = q.type, .owned = q.owned };

		rd_item_release(&it);
	}
	for (size_t i = 0; i < RD_ORDER_RUNS; i++)
		rd_ring_free(&o->runs[i]);
	free(o->heap);
	o->heap = NULL;
	o->heap_nr = o->heap_cap = 0;
}
