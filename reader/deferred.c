// SPDX-License-Identifier: GPL-2.0
/*
 * Each held sample is a node of two lists: all held samples in arrival
 * order (the order the end of input and the bound release them in) and its
 * thread's (the order its CALLCHAIN_DEFERRED releases them in).  The oldest
 * held sample is always the oldest of its thread, so either list can let
 * it go first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/deferred.h"

struct rd_defer_node {
	struct rd_item it;
	struct rd_defer_node *prev, *next;	/* all held */
	struct rd_defer_node *thread_next;	/* its thread's */
};

/* What the stage knows of a thread: its held samples and its last record. */
struct rd_defer_thread {
	uint32_t tid;
	struct rd_defer_node *first, *last;
	bool have_last;
	uint64_t last_cookie, last_nr;
	const uint64_t *last_ips;	/* into the file, or last_copy */
	uint64_t *last_copy;
	struct rd_defer_thread *next;
};

void rd_defer_init(struct rd_defer *d, bool merge, bool merge_late, struct rd_sink out)
{
	memset(d, 0, sizeof(*d));
	d->merge = merge;
	d->merge_late = merge_late;
	d->max_held = RD_HELD_MAX;
	d->out = out;
}

static struct rd_defer_thread *thread_get(struct rd_defer *d, uint32_t tid)
{
	struct rd_defer_thread *t;
	size_t b;

	if (!d->threads) {
		d->nr_buckets = 1024;
		d->threads = calloc(d->nr_buckets, sizeof(*d->threads));
		if (!d->threads)
			return NULL;
	}
	b = (tid * 2654435761u) % d->nr_buckets;
	for (t = d->threads[b]; t; t = t->next)
		if (t->tid == tid)
			return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	t->next = d->threads[b];
	d->threads[b] = t;
	return t;
}

/* Points it at the deferred ips; copies them unless they lie in the file. */
static int set_merge(struct rd_item *it, const uint64_t *ips, uint64_t nr, bool copy)
{
	it->merge_nr = nr;
	it->merge_ips = ips;
	if (!nr || !copy)
		return 0;
	it->merge_ips = malloc(nr * sizeof(*ips));
	if (!it->merge_ips)
		return -ENOMEM;
	memcpy((void *)it->merge_ips, ips, nr * sizeof(*ips));
	it->merge_owned = true;
	return 0;
}

/* Out of the list of all held samples (the node stays its thread's). */
static void unlink_held(struct rd_defer *d, struct rd_defer_node *n)
{
	if (n->prev)
		n->prev->next = n->next;
	else
		d->oldest = n->next;
	if (n->next)
		n->next->prev = n->prev;
	else
		d->newest = n->prev;
	d->nr_held--;
}

/* The node's sample goes on; the node is freed whatever happens. */
static int release(struct rd_defer *d, struct rd_defer_node *n, struct pc_error *err)
{
	struct rd_item it = n->it;

	free(n);
	return rd_sink_put(&d->out, &it, err);
}

/* The oldest held sample, its record not come: out unanswered. */
static int release_oldest(struct rd_defer *d, struct pc_error *err)
{
	struct rd_defer_node *n = d->oldest;
	struct rd_defer_thread *t = thread_get(d, n->it.p->smp.tid);

	if (!t)
		return pc_error_set(err, ENOMEM, "out of memory");
	unlink_held(d, n);
	t->first = n->thread_next;	/* the oldest of all is its thread's oldest */
	if (!t->first)
		t->last = NULL;
	n->it.unanswered = true;
	d->stats.unmerged++;
	return release(d, n, err);
}

/* *held once the node has it: from then on the stage owns the sample */
static int hold_sample(struct rd_defer *d, const struct rd_item *it, struct rd_defer_thread *t,
		       bool *held, struct pc_error *err)
{
	struct rd_defer_node *n = calloc(1, sizeof(*n));

	if (!n)
		return pc_error_set(err, ENOMEM, "out of memory");
	n->it = *it;
	*held = true;
	n->prev = d->newest;
	if (d->newest)
		d->newest->next = n;
	else
		d->oldest = n;
	d->newest = n;
	d->nr_held++;
	if (t->last)
		t->last->thread_next = n;
	else
		t->first = n;
	t->last = n;
	while (d->nr_held > d->max_held) {
		int ret = release_oldest(d, err);

		d->stats.forced++;
		if (ret)
			return ret;
	}
	return 0;
}

/* Keeps a CALLCHAIN_DEFERRED as its thread's reference for late merges. */
static int remember(struct rd_defer_thread *t, const struct rd_item *it)
{
	const struct pd_deferred *rec = &it->p->d;

	free(t->last_copy);
	t->last_copy = NULL;
	t->last_ips = rec->ips;
	if (it->owned && rec->nr) {
		t->last_copy = malloc(rec->nr * sizeof(*rec->ips));
		if (!t->last_copy)
			return -ENOMEM;
		memcpy(t->last_copy, rec->ips, rec->nr * sizeof(*rec->ips));
		t->last_ips = t->last_copy;
	}
	t->have_last = true;
	t->last_cookie = rec->cookie;
	t->last_nr = rec->nr;
	return 0;
}

/*
 * A CALLCHAIN_DEFERRED: every sample its thread holds goes out here, oldest
 * first, merged when its cookie is the record's.
 */
static int answer(struct rd_defer *d, const struct rd_item *it, struct pc_error *err)
{
	const struct pd_deferred *rec = &it->p->d;
	const struct pd_sample *id = &it->p->smp;
	struct rd_defer_thread *t;
	struct rd_defer_node *n, *next;
	int ret = 0;

	d->stats.deferred_records++;
	if (!id->evsel || !(id->evsel->attr.attr.sample_type & PERF_SAMPLE_TID))
		return 0;	/* no thread to match it to */
	t = thread_get(d, id->tid);
	if (!t)
		return pc_error_set(err, ENOMEM, "out of memory");
	if (remember(t, it))
		return pc_error_set(err, ENOMEM, "out of memory");
	for (n = t->first, t->first = t->last = NULL; n; n = next) {
		next = n->thread_next;
		unlink_held(d, n);
		if (!ret && n->it.p->smp.chain.cookie == rec->cookie) {
			if (set_merge(&n->it, rec->ips, rec->nr, it->owned))
				ret = pc_error_set(err, ENOMEM, "out of memory");
			else
				d->stats.merged++;
		} else {
			d->stats.unmerged++;
		}
		if (ret) {
			rd_item_release(&n->it);
			free(n);
		} else {
			ret = release(d, n, err);
		}
	}
	return ret;
}

/* Only events with attr.defer_callchain get cookies, as perf reads them. */
static bool holds_cookie(const struct rd_item *it)
{
	return it->type == PERF_RECORD_SAMPLE && it->p && it->p->smp.chain.deferred &&
	       pc_attr_test(&it->p->smp.evsel->attr.attr, PC_ATTR_defer_callchain);
}

/* A sample with a cookie: merged now with the last record (late), or held. */
static int sample_with_cookie(struct rd_defer *d, struct rd_item *it, bool *held,
			      struct pc_error *err)
{
	const struct pd_sample *smp = &it->p->smp;
	struct rd_defer_thread *t = thread_get(d, smp->tid);

	*held = false;
	if (!t)
		return pc_error_set(err, ENOMEM, "out of memory");
	if (d->merge_late && t->have_last && t->last_cookie == smp->chain.cookie) {
		if (set_merge(it, t->last_ips, t->last_nr, t->last_copy != NULL))
			return pc_error_set(err, ENOMEM, "out of memory");
		it->late = true;
		d->stats.merged_late++;
		return 0;
	}
	return hold_sample(d, it, t, held, err);
}

int rd_defer_deliver(void *ctx, struct rd_item *it, struct pc_error *err)
{
	struct rd_defer *d = ctx;
	bool held;
	int ret;

	if (!d->merge)
		return rd_sink_put(&d->out, it, err);
	if (holds_cookie(it)) {
		ret = sample_with_cookie(d, it, &held, err);
		if (ret && !held)
			rd_item_release(it);	/* still ours */
		if (ret || held)
			return ret;
	} else if (it->type == PC_RECORD_CALLCHAIN_DEFERRED && it->p) {
		ret = answer(d, it, err);
		if (ret) {
			rd_item_release(it);
			return ret;
		}
	}
	return rd_sink_put(&d->out, it, err);
}

int rd_defer_finish(struct rd_defer *d, struct pc_error *err)
{
	while (d->oldest) {
		int ret = release_oldest(d, err);

		if (ret)
			return ret;
	}
	return 0;
}

void rd_defer_free(struct rd_defer *d)
{
	struct rd_defer_node *n, *next;

	for (n = d->oldest; n; n = next) {
		next = n->next;
		rd_item_release(&n->it);
		free(n);
	}
	d->oldest = d->newest = NULL;
	d->nr_held = 0;
	for (size_t b = 0; b < d->nr_buckets; b++) {
		struct rd_defer_thread *t = d->threads[b], *tn;

		for (; t; t = tn) {
			tn = t->next;
			free(t->last_copy);
			free(t);
		}
	}
	free(d->threads);
	d->threads = NULL;
	d->nr_buckets = 0;
}
