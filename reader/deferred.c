// SPDX-License-Identifier: GPL-2.0
/*
 * Held records live in a ring in release order; a sequence number names
 * each slot so that a thread can find its waiting samples again.  Only the
 * head can leave, so a waiting sample keeps the records after it in place
 * and the output stays in time order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/deferred.h"

/* What the stage knows of a thread: its waiting samples and its last record. */
struct rd_defer_thread {
	uint32_t tid;
	uint64_t *waiting;	/* ring sequence numbers, oldest first */
	uint32_t nr_waiting, cap_waiting;
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
	d->max_held = RD_RING_MAX;
	d->max_per_thread = RD_WAIT_PER_THREAD;
	rd_ring_init(&d->ring, sizeof(struct rd_item), 256);
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

static struct rd_item *ring_at(struct rd_defer *d, uint64_t seq)
{
	if (seq < d->head_seq || seq - d->head_seq >= d->ring.nr)
		return NULL;
	return rd_ring_at(&d->ring, seq - d->head_seq);
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

static int drain(struct rd_defer *d, struct pc_error *err)
{
	struct rd_item *head;

	while ((head = rd_ring_head(&d->ring)) && !head->waiting) {
		struct rd_item it;
		int ret;

		rd_ring_pop(&d->ring, &it);
		d->head_seq++;
		ret = rd_sink_put(&d->out, &it, err);
		if (ret)
			return ret;
	}
	return 0;
}

static void unwait(struct rd_defer *d, struct rd_item *it)
{
	it->waiting = false;
	d->stats.unmerged++;
}

static int hold_sample(struct rd_defer *d, struct rd_item *it, struct rd_defer_thread *t,
		       struct pc_error *err)
{
	if (t->nr_waiting >= d->max_per_thread) {
		struct rd_item *old = ring_at(d, t->waiting[0]);

		if (old && old->waiting) {
			unwait(d, old);
			d->stats.forced++;
		}
		memmove(&t->waiting[0], &t->waiting[1], (t->nr_waiting - 1) * sizeof(*t->waiting));
		t->nr_waiting--;
	}
	if (t->nr_waiting == t->cap_waiting) {
		uint32_t cap = t->cap_waiting ? t->cap_waiting * 2 : 8;
		uint64_t *w = realloc(t->waiting, cap * sizeof(*w));

		if (!w)
			return pc_error_set(err, ENOMEM, "out of memory");
		t->waiting = w;
		t->cap_waiting = cap;
	}
	it->waiting = true;
	if (rd_ring_push(&d->ring, it))
		return pc_error_set(err, ENOMEM, "out of memory");
	t->waiting[t->nr_waiting++] = d->head_seq + d->ring.nr - 1;
	return 0;
}

/* A CALLCHAIN_DEFERRED: every sample its thread holds goes, merged or not. */
static int answer(struct rd_defer *d, const struct rd_item *it, struct pc_error *err)
{
	const struct pd_deferred *rec = &it->p->d;
	const struct pd_sample *id = &it->p->smp;
	struct rd_defer_thread *t;

	d->stats.deferred_records++;
	if (!id->evsel || !(id->evsel->attr.attr.sample_type & PERF_SAMPLE_TID))
		return 0;	/* no thread to match it to */
	t = thread_get(d, id->tid);
	if (!t)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (uint32_t i = 0; i < t->nr_waiting; i++) {
		struct rd_item *w = ring_at(d, t->waiting[i]);

		if (!w || !w->waiting)
			continue;
		w->waiting = false;
		if (w->p->smp.chain.cookie == rec->cookie) {
			if (set_merge(w, rec->ips, rec->nr, it->owned))
				return pc_error_set(err, ENOMEM, "out of memory");
			d->stats.merged++;
		} else {
			d->stats.unmerged++;
		}
	}
	t->nr_waiting = 0;
	/* kept as the reference for late merges */
	free(t->last_copy);
	t->last_copy = NULL;
	t->last_ips = rec->ips;
	if (it->owned && rec->nr) {
		t->last_copy = malloc(rec->nr * sizeof(*rec->ips));
		if (!t->last_copy)
			return pc_error_set(err, ENOMEM, "out of memory");
		memcpy(t->last_copy, rec->ips, rec->nr * sizeof(*rec->ips));
		t->last_ips = t->last_copy;
	}
	t->have_last = true;
	t->last_cookie = rec->cookie;
	t->last_nr = rec->nr;
	return 0;
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
	int ret;

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
	ret = hold_sample(d, it, t, err);
	*held = !ret;	/* on failure the caller still owns it */
	return ret;
}

static int bound(struct rd_defer *d, struct pc_error *err)
{
	while (d->ring.nr > d->max_held) {
		struct rd_item *head = rd_ring_head(&d->ring);
		int ret;

		if (head->waiting) {
			unwait(d, head);
			d->stats.forced++;
		}
		ret = drain(d, err);
		if (ret)
			return ret;
	}
	return drain(d, err);
}

int rd_defer_deliver(void *ctx, struct rd_item *it, struct pc_error *err)
{
	struct rd_defer *d = ctx;
	bool held;
	int ret;

	if (!d->merge)
		return rd_sink_put(&d->out, it, err);
	/*
	 * Maps go in when they arrive, even behind a waiting sample: a deferred
	 * user stack is taken on the way back to user space, after the samples
	 * it answers, and perf resolves it with the maps of that moment (the
	 * first samples after an exec need the new executable's MMAP2).  FORK
	 * goes with them, so that it never copies a parent's maps over a
	 * child's newer ones.  COMM stays in order: it names the samples.
	 */
	if (d->ring.nr && (it->type == PERF_RECORD_MMAP || it->type == PERF_RECORD_MMAP2 ||
			   it->type == PERF_RECORD_FORK))
		return rd_sink_put(&d->out, it, err);
	if (holds_cookie(it)) {
		ret = sample_with_cookie(d, it, &held, err);
		if (ret) {
			if (!held)
				rd_item_release(it);
			return ret;
		}
		if (held)
			return bound(d, err);
	} else if (it->type == PC_RECORD_CALLCHAIN_DEFERRED && it->p) {
		ret = answer(d, it, err);
		if (ret) {
			rd_item_release(it);
			return ret;
		}
	}
	if (!d->ring.nr)
		return rd_sink_put(&d->out, it, err);	/* nothing held: straight out */
	if (rd_ring_push(&d->ring, it)) {
		rd_item_release(it);
		return pc_error_set(err, ENOMEM, "out of memory");
	}
	return bound(d, err);
}

int rd_defer_finish(struct rd_defer *d, struct pc_error *err)
{
	struct rd_item *head;

	while ((head = rd_ring_head(&d->ring))) {
		int ret;

		if (head->waiting)
			unwait(d, head);
		ret = drain(d, err);
		if (ret)
			return ret;
	}
	return 0;
}

void rd_defer_free(struct rd_defer *d)
{
	struct rd_item it;

	while (d->ring.nr) {
		rd_ring_pop(&d->ring, &it);
		rd_item_release(&it);
	}
	rd_ring_free(&d->ring);
	for (size_t b = 0; b < d->nr_buckets; b++) {
		struct rd_defer_thread *t = d->threads[b], *n;

		for (; t; t = n) {
			n = t->next;
			free(t->waiting);
			free(t->last_copy);
			free(t);
		}
	}
	free(d->threads);
	d->threads = NULL;
	d->nr_buckets = 0;
}
