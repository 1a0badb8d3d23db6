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

static struct rd_item *ring_at(struct rd_session *s, uint64_t seq)
{
	if (seq < s->ring_head_seq || seq - s->ring_head_seq >= s->ring_nr)
		return NULL;
	return &s->ring[(s->ring_head + (seq - s->ring_head_seq)) % s->ring_cap];
}

static int ring_push(struct rd_session *s, struct rd_item *it, uint64_t *seq)
{
	if (s->ring_nr == s->ring_cap) {
		size_t cap = s->ring_cap ? s->ring_cap * 2 : 256;
		struct rd_item *v = malloc(cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (size_t i = 0; i < s->ring_nr; i++)
			v[i] = s->ring[(s->ring_head + i) % s->ring_cap];
		free(s->ring);
		s->ring = v;
		s->ring_cap = cap;
		s->ring_head = 0;
	}
	*seq = s->ring_head_seq + s->ring_nr;
	s->ring[(s->ring_head + s->ring_nr) % s->ring_cap] = *it;
	s->ring_nr++;
	return 0;
}

/* Held data must outlive the reader's scratch buffer. */
static int own(struct rd_session *s, struct rd_item *it)
{
	const struct perf_event_header *h = it->data;
	void *copy;

	if (it->owned || ((const uint8_t *)it->data >= s->r.base &&
			  (const uint8_t *)it->data < s->r.base + s->r.size))
		return 0;
	copy = malloc(h->size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, it->data, h->size);
	it->data = copy;
	it->owned = true;
	return 0;
}

static void item_release(struct rd_item *it)
{
	if (it->owned)
		free((void *)it->data);
	if (it->merge_owned)
		free((void *)it->merge_ips);
	it->owned = it->merge_owned = false;
}

/* Points it at the deferred ips; copies them when they live in a copy we may free. */
static int set_merge(struct rd_item *it, const uint64_t *ips, uint64_t nr, bool copy)
{
	it->merge_nr = nr;
	it->merge_ips = ips;
	if (!copy || !nr)
		return 0;
	it->merge_ips = malloc(nr * sizeof(*ips));
	if (!it->merge_ips)
		return -ENOMEM;
	memcpy((void *)it->merge_ips, ips, nr * sizeof(*ips));
	it->merge_owned = true;
	return 0;
}

static int drain(struct rd_session *s, struct pc_error *err)
{
	while (s->ring_nr && !s->ring[s->ring_head].waiting) {
		struct rd_item it = s->ring[s->ring_head];
		int ret;

		s->ring_head = (s->ring_head + 1) % s->ring_cap;
		s->ring_nr--;
		s->ring_head_seq++;
		ret = rd_deliver(s, &it, err);
		item_release(&it);
		if (ret)
			return ret;
	}
	return 0;
}

static void unwait(struct rd_session *s, struct rd_item *it)
{
	it->waiting = false;
	s->stats.unmerged++;
}

/* Drops one waiting entry (index i) of t. */
static void thread_unlist(struct rd_thread *t, uint32_t i)
{
	memmove(&t->waiting[i], &t->waiting[i + 1], (t->nr_waiting - i - 1) * sizeof(*t->waiting));
	t->nr_waiting--;
}

static int hold_sample(struct rd_session *s, struct rd_item *it, struct rd_thread *t,
		       struct pc_error *err)
{
	uint64_t seq;

	if (t->nr_waiting == RD_WAIT_PER_THREAD) {
		struct rd_item *old = ring_at(s, t->waiting[0]);

		if (old && old->waiting) {
			unwait(s, old);
			s->stats.forced++;
		}
		thread_unlist(t, 0);
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
	it->thread = t;
	if (ring_push(s, it, &seq))
		return pc_error_set(err, ENOMEM, "out of memory");
	t->waiting[t->nr_waiting++] = seq;
	return 0;
}

/* A CALLCHAIN_DEFERRED: every sample its thread holds goes, merged or not. */
static int answer(struct rd_session *s, struct rd_item *it, struct pc_error *err)
{
	struct pd_record rec = { .offset = it->offset, .data = it->data };
	struct pd_deferred d;
	struct pd_sample id;
	struct rd_thread *t;
	int ret;

	memcpy(&rec.header, it->data, sizeof(rec.header));
	ret = pd_parse_deferred(&s->r, &rec, &d, &id, err);
	if (ret)
		return ret;
	s->stats.deferred_records++;
	if (!id.evsel || !(id.evsel->attr.attr.sample_type & PERF_SAMPLE_TID))
		return 0;	/* no thread to match it to */
	t = rd_thread_get(s, id.pid, id.tid);
	if (!t)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (uint32_t i = 0; i < t->nr_waiting; i++) {
		struct rd_item *w = ring_at(s, t->waiting[i]);

		if (!w || !w->waiting)
			continue;
		w->waiting = false;
		if (w->cookie == d.cookie) {
			if (set_merge(w, d.ips, d.nr, it->owned))
				return pc_error_set(err, ENOMEM, "out of memory");
			s->stats.merged++;
		} else {
			s->stats.unmerged++;
		}
	}
	t->nr_waiting = 0;
	/* the record may outlive its slot as the reference for late merges */
	free(t->last_copy);
	t->last_copy = NULL;
	t->last_ips = d.ips;
	if (it->owned && d.nr) {
		t->last_copy = malloc(d.nr * sizeof(*d.ips));
		if (!t->last_copy)
			return pc_error_set(err, ENOMEM, "out of memory");
		memcpy(t->last_copy, d.ips, d.nr * sizeof(*d.ips));
		t->last_ips = t->last_copy;
	}
	t->have_last = true;
	t->last_cookie = d.cookie;
	t->last_nr = d.nr;
	return 0;
}

/* Only events with attr.defer_callchain get cookies, as perf reads them. */
static bool wants_deferred(struct rd_session *s)
{
	if (s->defer_evsels != s->r.nr_evsels) {
		s->defer_evsels = s->r.nr_evsels;
		s->any_deferred = false;
		for (uint32_t i = 0; i < s->r.nr_evsels; i++)
			if (pc_attr_test(&s->r.evsels[i].attr.attr, PC_ATTR_defer_callchain))
				s->any_deferred = true;
	}
	return s->any_deferred;
}

int rd_deferred_arrive(struct rd_session *s, struct rd_item *it, struct pc_error *err)
{
	const struct perf_event_header *h = it->data;
	uint64_t seq;
	int ret;

	/*
	 * Maps go in when they arrive, even behind a waiting sample: a deferred
	 * user stack is taken on the way back to user space, after the samples
	 * it answers, and perf resolves it with the maps of that moment (the
	 * first samples after an exec need the new executable's MMAP2).  FORK
	 * goes with them, so that it never copies a parent's maps over a
	 * child's newer ones.  COMM stays in order: it names the samples.
	 */
	if (s->ring_nr && (h->type == PERF_RECORD_MMAP || h->type == PERF_RECORD_MMAP2 ||
			   h->type == PERF_RECORD_FORK)) {
		struct pd_record rec = { .offset = it->offset, .header = *h, .data = it->data };

		ret = rd_state_record(s, &rec, err);
		if (it->owned)
			free((void *)it->data);
		it->owned = false;
		return ret;
	}
	if (s->merge && h->type == PERF_RECORD_SAMPLE && wants_deferred(s)) {
		struct pd_record rec = { .offset = it->offset, .header = *h, .data = it->data };
		struct pd_sample smp;
		struct rd_thread *t;

		ret = pd_parse_sample(&s->r, &rec, &smp, err);
		if (ret)
			return ret;
		if (smp.deferred && pc_attr_test(&smp.evsel->attr.attr, PC_ATTR_defer_callchain)) {
			t = rd_thread_get(s, smp.pid, smp.tid);
			if (!t)
				return pc_error_set(err, ENOMEM, "out of memory");
			if (s->merge_late && t->have_last && t->last_cookie == smp.deferred_cookie) {
				if (set_merge(it, t->last_ips, t->last_nr, t->last_copy != NULL))
					return pc_error_set(err, ENOMEM, "out of memory");
				it->late = true;
				s->stats.merged_late++;
			} else {
				it->cookie = smp.deferred_cookie;
				if (own(s, it))
					return pc_error_set(err, ENOMEM, "out of memory");
				ret = hold_sample(s, it, t, err);
				if (ret)
					return ret;
				goto bound;
			}
		}
	} else if (s->merge && h->type == PC_RECORD_CALLCHAIN_DEFERRED) {
		if (own(s, it))
			return pc_error_set(err, ENOMEM, "out of memory");
		ret = answer(s, it, err);
		if (ret)
			return ret;
	}
	if (!s->ring_nr) {
		/* nothing held: straight out */
		ret = rd_deliver(s, it, err);
		item_release(it);
		return ret;
	}
	if (own(s, it) || ring_push(s, it, &seq))
		return pc_error_set(err, ENOMEM, "out of memory");
bound:
	while (s->ring_nr > RD_RING_MAX) {
		struct rd_item *head = &s->ring[s->ring_head];

		if (head->waiting) {
			unwait(s, head);
			s->stats.forced++;
		}
		ret = drain(s, err);
		if (ret)
			return ret;
	}
	return drain(s, err);
}

int rd_deferred_finish(struct rd_session *s, struct pc_error *err)
{
	while (s->ring_nr) {
		struct rd_item *head = &s->ring[s->ring_head];
		int ret;

		if (head->waiting)
			unwait(s, head);
		ret = drain(s, err);
		if (ret)
			return ret;
	}
	return 0;
}

void rd_deferred_free(struct rd_session *s)
{
	for (size_t i = 0; i < s->ring_nr; i++) {
		item_release(&s->ring[(s->ring_head + i) % s->ring_cap]);
	}
	free(s->ring);
	s->ring = NULL;
	s->ring_nr = s->ring_cap = 0;
	for (size_t b = 0; b < s->nr_thread_buckets; b++)
		for (struct rd_thread *t = s->threads[b]; t; t = t->next) {
			free(t->last_copy);
			t->last_copy = NULL;
		}
}
