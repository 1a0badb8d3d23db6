// SPDX-License-Identifier: GPL-2.0
/*
 * The time-order queue.  Records mostly arrive in runs that are already
 * sorted (one ring buffer drained after another), so each goes to the end
 * of the sorted run whose last time is the latest not after its own; only
 * a record that fits no run (and no free run slot) goes to a heap.  The
 * oldest is then the least of a few run heads and the heap top: cheaper
 * and friendlier to the cache than one big heap.  Ties keep arrival order.
 */
#include <errno.h>
#include <stdlib.h>

#include "reader/session.h"

#define NR_RUNS (sizeof(((struct rd_session *)0)->runs) / sizeof(struct rd_run))

static bool less(const struct rd_item *a, const struct rd_item *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

static struct rd_item *run_tail(struct rd_run *r)
{
	return &r->v[(r->head + r->nr - 1) % r->cap];
}

static int run_append(struct rd_run *r, const struct rd_item *it)
{
	if (r->nr == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		struct rd_item *v = malloc(cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (size_t i = 0; i < r->nr; i++)
			v[i] = r->v[(r->head + i) % r->cap];
		free(r->v);
		r->v = v;
		r->cap = cap;
		r->head = 0;
	}
	r->v[(r->head + r->nr) % r->cap] = *it;
	r->nr++;
	return 0;
}

static int heap_push(struct rd_session *s, const struct rd_item *it)
{
	size_t i;

	if (s->heap_nr == s->heap_cap) {
		size_t cap = s->heap_cap ? s->heap_cap * 2 : 1024;
		struct rd_item *h = realloc(s->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		s->heap = h;
		s->heap_cap = cap;
	}
	i = s->heap_nr++;
	while (i) {
		size_t up = (i - 1) / 2;

		if (!less(it, &s->heap[up]))
			break;
		s->heap[i] = s->heap[up];
		i = up;
	}
	s->heap[i] = *it;
	return 0;
}

static void heap_pop(struct rd_session *s, struct rd_item *out)
{
	struct rd_item last = s->heap[--s->heap_nr];
	size_t i = 0, n = s->heap_nr;

	*out = s->heap[0];
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && less(&s->heap[c + 1], &s->heap[c]))
			c++;
		if (!less(&s->heap[c], &last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (n)
		s->heap[i] = last;
}

int rd_order_push(struct rd_session *s, const struct rd_item *it)
{
	struct rd_run *best = NULL, *empty = NULL;
	int ret;

	for (size_t i = 0; i < NR_RUNS; i++) {
		struct rd_run *r = &s->runs[i];

		if (!r->nr) {
			if (!empty)
				empty = r;
			continue;
		}
		if (run_tail(r)->time <= it->time &&
		    (!best || run_tail(r)->time > run_tail(best)->time))
			best = r;
	}
	if (!best)
		best = empty;
	ret = best ? run_append(best, it) : heap_push(s, it);
	if (!ret)
		s->pending++;
	return ret;
}

bool rd_order_pop(struct rd_session *s, uint64_t limit, struct rd_item *out)
{
	struct rd_run *min = NULL;
	const struct rd_item *m = NULL;

	for (size_t i = 0; i < NR_RUNS; i++) {
		struct rd_run *r = &s->runs[i];

		if (r->nr && (!m || less(&r->v[r->head], m))) {
			min = r;
			m = &r->v[r->head];
		}
	}
	if (s->heap_nr && (!m || less(&s->heap[0], m))) {
		if (s->heap[0].time > limit)
			return false;
		heap_pop(s, out);
		s->pending--;
		return true;
	}
	if (!m || m->time > limit)
		return false;
	*out = *m;
	min->head = (min->head + 1) % min->cap;
	min->nr--;
	s->pending--;
	return true;
}

void rd_order_free(struct rd_session *s)
{
	struct rd_item it;

	while (rd_order_pop(s, UINT64_MAX, &it))
		if (it.owned)
			free((void *)it.data);
	for (size_t i = 0; i < NR_RUNS; i++) {
		free(s->runs[i].v);
		s->runs[i].v = NULL;
		s->runs[i].cap = 0;
	}
	free(s->heap);
	s->heap = NULL;
	s->heap_cap = 0;
}
