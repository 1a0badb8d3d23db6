// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a file: records are queued by (time, arrival) (order.c) and
 * released the way perf releases them, at each FINISHED_ROUND up to the
 * newest time of the round before; records without a time go straight
 * through.  Released records pass through the deferred-callchain stage
 * (deferred.c) and come out in order to the consumer.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "reader/deferred.h"
#include "reader/session.h"
#include "util/log.h"

/*
 * The queue never holds more than this (about 22 MB of items); beyond it the
 * oldest goes out first.  perf record writes a FINISHED_ROUND every few
 * thousand records, so only a file without rounds comes near it.
 */
#define RD_HEAP_MAX (1u << 18)

static bool same_machine(struct rd_session *s)
{
	char host[256], rel[256];
	struct utsname u;

	if (uname(&u))
		return false;
	if (pd_reader_feature_string(&s->r, PD_FEAT_HOSTNAME, host, sizeof(host), NULL) ||
	    pd_reader_feature_string(&s->r, PD_FEAT_OSRELEASE, rel, sizeof(rel), NULL))
		return false;
	return !strcmp(host, u.nodename) && !strcmp(rel, u.release);
}

static void set_build_id(struct pc_dso *dso, const uint8_t *id, size_t size)
{
	if (size > 20)
		size = 20;
	for (size_t i = 0; i < size; i++)
		snprintf(dso->build_id + 2 * i, 3, "%02x", id[i]);
}

/* BUILD_ID feature: which object ran, for each path */
static int note_build_id(const struct pd_build_id_entry *e, const uint8_t *id, size_t id_size,
			 const char *filename, void *ctx)
{
	struct rd_session *s = ctx;
	struct pc_dso *dso;

	if (!filename || filename[0] != '/' || !id_size)
		return 0;
	dso = pc_dso_cache_get(&s->dsos, filename);
	if (dso)
		set_build_id(dso, id, id_size);
	return 0;
}

int rd_session_open(struct rd_session *s, const char *path, struct pc_error *err)
{
	const char *home;
	int ret;

	ret = pd_reader_open(&s->r, path, err);
	if (ret)
		return ret;
	s->opened = true;
	pc_dso_cache_init(&s->dsos);
	s->kernel_local = same_machine(s);
	s->dsos.own_vdso = s->kernel_local;
	home = getenv("HOME");
	if (home && *home) {
		snprintf(s->buildid_dir, sizeof(s->buildid_dir), "%s/.debug", home);
		s->dsos.buildid_dir = s->buildid_dir;
	}
	pd_reader_build_ids(&s->r, note_build_id, s, NULL);
	return 0;
}

void rd_session_close(struct rd_session *s)
{
	rd_deferred_free(s);
	rd_order_free(s);
	rd_threads_free(s);
	pc_dso_cache_free(&s->dsos);
	pc_kallsyms_free(&s->kallsyms);
	if (s->opened)
		pd_reader_close(&s->r);
	s->opened = false;
}

#define LEAD_BITS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

/*
 * Ordering needs only a sample's time, which the ABI puts after IDENTIFIER,
 * IP and TID: when every event agrees on those bits, read it in place and
 * leave the full parse (and its checks) to delivery.
 */
static bool sample_time(struct rd_session *s, const struct pd_record *rec, uint64_t *t)
{
	uint64_t bits;
	uint32_t idx;

	if (s->lead_evsels != s->r.nr_evsels) {
		s->lead_evsels = s->r.nr_evsels;
		s->lead_uniform = s->r.nr_evsels > 0;
		for (uint32_t i = 1; i < s->r.nr_evsels; i++)
			if ((s->r.evsels[i].attr.attr.sample_type & LEAD_BITS) !=
			    (s->r.evsels[0].attr.attr.sample_type & LEAD_BITS))
				s->lead_uniform = false;
	}
	if (!s->lead_uniform)
		return false;
	bits = s->r.evsels[0].attr.attr.sample_type;
	if (!(bits & PERF_SAMPLE_TIME))
		return false;
	idx = 1 + !!(bits & PERF_SAMPLE_IDENTIFIER) + !!(bits & PERF_SAMPLE_IP) +
	      !!(bits & PERF_SAMPLE_TID);
	if ((idx + 1) * 8 > rec->header.size)
		return false;
	*t = ((const uint64_t *)rec->data)[idx];
	return true;
}

/* The time of a record, or false when it has none (delivered at once). */
static bool record_time(struct rd_session *s, const struct pd_record *rec, uint64_t *t,
			struct pc_error *err, int *ret)
{
	struct pd_sample smp;

	*ret = 0;
	if (rec->header.type >= PC_RECORD_HEADER_ATTR)
		return false;
	if (rec->header.type == PERF_RECORD_SAMPLE && sample_time(s, rec, t))
		return true;
	if (rec->header.type == PERF_RECORD_SAMPLE) {
		*ret = pd_parse_sample(&s->r, rec, &smp, err);
		if (*ret || !smp.evsel ||
		    !(smp.evsel->attr.attr.sample_type & PERF_SAMPLE_TIME))
			return false;
	} else {
		*ret = pd_parse_sample_id(&s->r, rec, &smp, err);
		if (*ret || !smp.evsel ||
		    !(smp.evsel->attr.attr.sample_type & PERF_SAMPLE_TIME))
			return false;
	}
	*t = smp.time;
	return true;
}

static int release(struct rd_session *s, struct rd_item *it, struct pc_error *err)
{
	uint64_t t = it->time;

	if (t < s->last_delivered)
		s->stats.unordered++;
	else
		s->last_delivered = t;
	return rd_deferred_arrive(s, it, err);
}

static int flush_upto(struct rd_session *s, uint64_t limit, struct pc_error *err)
{
	struct rd_item it;

	while (rd_order_pop(s, limit, &it)) {
		int ret = release(s, &it, err);

		if (ret)
			return ret;
	}
	return 0;
}

static int queue_record(struct rd_session *s, const struct pd_record *rec, uint64_t t,
			struct pc_error *err)
{
	struct rd_item it = { .data = rec->data, .offset = rec->offset,
			      .seq = s->next_seq++, .time = t };

	if ((const uint8_t *)rec->data < s->r.base ||
	    (const uint8_t *)rec->data >= s->r.base + s->r.size) {
		void *copy = malloc(rec->header.size);

		if (!copy)
			return pc_error_set(err, ENOMEM, "out of memory");
		memcpy(copy, rec->data, rec->header.size);
		it.data = copy;
		it.owned = true;
	}
	if (t > s->max_time)
		s->max_time = t;
	if (rd_order_push(s, &it)) {
		if (it.owned)
			free((void *)it.data);
		return pc_error_set(err, ENOMEM, "out of memory");
	}
	if (s->pending > RD_HEAP_MAX) {
		struct rd_item old;

		if (rd_order_pop(s, UINT64_MAX, &old))
			return release(s, &old, err);
	}
	return 0;
}

/* A defect stops the reading, not the output: what came before it still goes out. */
static int stop_at_defect(struct rd_session *s, int ret, struct pc_error *err)
{
	struct pc_error later;

	if (!flush_upto(s, UINT64_MAX, &later))
		rd_deferred_finish(s, &later);
	(void)err;
	return ret;
}

int rd_session_process(struct rd_session *s, struct pc_error *err)
{
	struct pd_record rec;
	uint64_t pos = 0;
	int ret;

	for (;;) {
		uint64_t t;

		ret = pd_reader_next(&s->r, &pos, &rec, err);
		if (ret < 0)
			return stop_at_defect(s, ret, err);
		if (ret == 0)
			break;
		s->stats.records++;
		if (rec.header.type == PC_RECORD_FINISHED_ROUND) {
			ret = flush_upto(s, s->round_flush, err);
			if (ret)
				return ret;
			s->round_flush = s->max_time;
			continue;
		}
		if (record_time(s, &rec, &t, err, &ret)) {
			ret = queue_record(s, &rec, t, err);
		} else if (!ret) {
			struct rd_item it = { .data = rec.data, .offset = rec.offset,
					      .seq = s->next_seq++ };

			/* untimed records go out now; they must not outlive the call */
			if (rec.header.type < PC_RECORD_HEADER_ATTR)
				ret = rd_deferred_arrive(s, &it, err);
		}
		if (ret)
			return stop_at_defect(s, ret, err);
	}
	ret = flush_upto(s, UINT64_MAX, err);
	if (ret)
		return ret;
	return rd_deferred_finish(s, err);
}

int rd_deliver(struct rd_session *s, struct rd_item *it, struct pc_error *err)
{
	struct pd_record rec = { .offset = it->offset, .data = it->data };
	struct rd_event ev = { .rec = &rec };
	struct pd_sample smp;
	struct pd_deferred d;
	int ret;

	memcpy(&rec.header, it->data, sizeof(rec.header));
	switch (rec.header.type) {
	case PERF_RECORD_SAMPLE:
		ret = pd_parse_sample(&s->r, &rec, &smp, err);
		if (ret)
			return ret;
		s->stats.samples++;
		/* without PERF_SAMPLE_PERIOD every sample stands for the fixed period */
		if (smp.evsel && !(smp.evsel->attr.attr.sample_type & PERF_SAMPLE_PERIOD))
			smp.period = smp.evsel->attr.attr.sample_period;
		ev.sample = &smp;
		ev.thread = rd_thread_get(s, smp.pid, smp.tid);
		if (!ev.thread)
			return pc_error_set(err, ENOMEM, "out of memory");
		ev.base = smp.callchain;
		ev.base_nr = smp.callchain_nr;
		if (it->merge_ips && smp.deferred) {
			ev.base_nr--;	/* the cookie gives way to the frames it stood for */
			ev.extra = it->merge_ips;
			ev.extra_nr = it->merge_nr;
			ev.merged = true;
			ev.late = it->late;
		}
		return s->ops.sample ? s->ops.sample(s, &ev, s->ops.ctx) : 0;
	case PC_RECORD_CALLCHAIN_DEFERRED:
		if (s->merge || !s->ops.deferred)
			return 0;
		ret = pd_parse_deferred(&s->r, &rec, &d, &smp, err);
		if (ret)
			return ret;
		ev.sample = &smp;
		ev.deferred = &d;
		ev.thread = rd_thread_get(s, smp.pid, smp.tid);
		if (!ev.thread)
			return pc_error_set(err, ENOMEM, "out of memory");
		ev.base = d.ips;
		ev.base_nr = d.nr;
		return s->ops.deferred(s, &ev, s->ops.ctx);
	default:
		return rd_state_record(s, &rec, err);
	}
}

bool rd_chain_valid(const struct rd_event *ev, int max)
{
	int frames = 0;

	for (int part = 0; part < 2; part++) {
		const uint64_t *ips = part ? ev->extra : ev->base;
		uint64_t nr = part ? ev->extra_nr : ev->base_nr;

		for (uint64_t i = 0; i < nr && frames < max; i++) {
			switch (ips[i]) {
			case PC_CONTEXT_HV:
			case PC_CONTEXT_KERNEL:
			case PC_CONTEXT_USER:
			case PC_CONTEXT_USER_DEFERRED:
			case PC_CONTEXT_GUEST_KERNEL:
			case PC_CONTEXT_GUEST_USER:
				break;
			default:
				if (pc_is_context(ips[i]))
					return false;
				frames++;
			}
		}
	}
	return true;
}
