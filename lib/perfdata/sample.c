// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding PERF_RECORD_SAMPLE (driven by sample_type, read_format and the
 * branch and register masks), the sample_id trailer of other records, and
 * PERF_RECORD_CALLCHAIN_DEFERRED.  Records come 8-byte aligned from
 * pd_reader_next(); every field is bounds-checked against header.size.
 */
#include <string.h>

#include "perfdata/reader_int.h"

struct body {
	const struct pd_reader *r;
	const struct pd_record *rec;
	const uint64_t *p, *end;	/* u64 cursor within the record */
	const char *what;		/* record kind, for messages */
};

static int __attribute__((noinline, cold)) short_of(struct body *b, uint64_t n, const char *field,
						   struct pc_error *err)
{
	uint64_t left = (uint64_t)(b->end - b->p);

	return pd_bad(b->r, err, b->rec->offset + (uint64_t)((const uint8_t *)b->p -
					       (const uint8_t *)b->rec->data),
		      "%s: %s needs %llu bytes, only %llu left in the record of %u bytes",
		      b->what, field, (unsigned long long)n * 8,
		      (unsigned long long)left * 8, b->rec->header.size);
}

static inline int need(struct body *b, uint64_t n, const char *field, struct pc_error *err)
{
	if (n > (uint64_t)(b->end - b->p))
		return short_of(b, n, field, err);
	return 0;
}

#define TAKE(b, dst, field)						\
	do {								\
		int __ret = need((b), 1, (field), err);			\
		if (__ret)						\
			return __ret;					\
		(dst) = *(b)->p++;					\
	} while (0)

static int parse_read(struct body *b, const struct pd_evsel *evsel, struct pd_sample *s,
		      struct pc_error *err)
{
	uint64_t fmt = evsel->attr.attr.read_format;
	uint64_t per_value = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	int ret;

	if (fmt & PERF_FORMAT_GROUP) {
		TAKE(b, s->read.nr, "read nr");
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
			TAKE(b, s->read.time_enabled, "read time_enabled");
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
			TAKE(b, s->read.time_running, "read time_running");
		if (s->read.nr == 0 || s->read.nr > (uint64_t)(b->end - b->p) / per_value)
			return pd_bad(b->r, err, b->rec->offset,
				      "%s: read group of %llu values does not fit the record",
				      b->what, (unsigned long long)s->read.nr);
		s->read.raw = b->p;
		ret = need(b, s->read.nr * per_value, "read values", err);
		if (ret)
			return ret;
		s->read.first.value = b->p[0];
		if (fmt & PERF_FORMAT_ID)
			s->read.first.id = b->p[1];
		if (fmt & PERF_FORMAT_LOST)
			s->read.first.lost = b->p[per_value - 1];
		b->p += s->read.nr * per_value;
		return 0;
	}
	s->read.nr = 1;
	s->read.raw = b->p;
	TAKE(b, s->read.first.value, "read value");
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		TAKE(b, s->read.time_enabled, "read time_enabled");
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		TAKE(b, s->read.time_running, "read time_running");
	if (fmt & PERF_FORMAT_ID)
		TAKE(b, s->read.first.id, "read id");
	if (fmt & PERF_FORMAT_LOST)
		TAKE(b, s->read.first.lost, "read lost");
	return 0;
}

static int parse_regs(struct body *b, uint64_t mask, uint64_t *abi, const uint64_t **regs,
		      const char *field, struct pc_error *err)
{
	uint64_t n = (uint64_t)__builtin_popcountll(mask);
	int ret;

	TAKE(b, *abi, field);
	if (*abi == 0)
		return 0;
	ret = need(b, n, field, err);
	if (ret)
		return ret;
	*regs = b->p;
	b->p += n;
	return 0;
}

static const struct pd_evsel *evsel_for_sample(const struct pd_reader *r,
					       const struct pd_record *rec)
{
	const struct pd_evsel *first = &r->evsels[0];
	uint64_t body = (rec->header.size - sizeof(struct perf_event_header)) / 8;
	const uint64_t *p = (const uint64_t *)rec->data + 1;

	if (r->nr_evsels == 1)
		return first;
	if (first->id_pos == (uint32_t)-1 || first->id_pos >= body)
		return NULL;
	return pd_reader_evsel_of(r, p[first->id_pos]);
}

int pd_parse_sample(const struct pd_reader *r, const struct pd_record *rec,
		    struct pd_sample *s, struct pc_error *err)
{
	return pd_parse_sample_as(r, NULL, rec, s, err);
}

int pd_parse_sample_as(const struct pd_reader *r, const struct pd_evsel *evsel,
		       const struct pd_record *rec, struct pd_sample *s, struct pc_error *err)
{
	struct body b = { r, rec, (const uint64_t *)rec->data + 1, NULL, "SAMPLE" };
	uint64_t type, v;
	int ret;

	/*
	 * The size hidden from the compiler: it would clear these 336 bytes
	 * with an inline `rep stos`, which costs more than all of the parsing
	 * on a million samples; libc's memset clears them with vector stores.
	 */
	size_t clear = sizeof(*s);

	__asm__("" : "+r"(clear));
	memset(s, 0, clear);
	s->cpu = (uint32_t)-1;
	b.end = b.p + (rec->header.size - sizeof(struct perf_event_header)) / 8;
	if (r->nr_evsels == 0)
		return pd_bad(r, err, rec->offset, "SAMPLE before any attr");
	if (!evsel)
		evsel = evsel_for_sample(r, rec);
	if (!evsel)
		return pd_bad(r, err, rec->offset, "SAMPLE with an id that matches no event");
	s->evsel = evsel;
	type = evsel->attr.attr.sample_type;

	/* the fixed words all there: read without a check each */
	if ((uint64_t)(b.end - b.p) >= evsel->layout.sample_words) {
		const uint64_t *w = b.p;

		if (type & PERF_SAMPLE_IDENTIFIER)
			s->id = *w++;
		if (type & PERF_SAMPLE_IP)
			s->ip = *w++;
		if (type & PERF_SAMPLE_TID) {
			s->pid = (uint32_t)*w;
			s->tid = (uint32_t)(*w++ >> 32);
		}
		if (type & PERF_SAMPLE_TIME)
			s->time = *w++;
		if (type & PERF_SAMPLE_ADDR)
			s->addr = *w++;
		if (type & PERF_SAMPLE_ID)
			s->id = *w++;
		if (type & PERF_SAMPLE_STREAM_ID)
			s->stream_id = *w++;
		if (type & PERF_SAMPLE_CPU)
			s->cpu = (uint32_t)*w++;
		if (type & PERF_SAMPLE_PERIOD)
			s->period = *w++;
		b.p = w;
		goto variable;
	}
	if (type & PERF_SAMPLE_IDENTIFIER)
		TAKE(&b, s->id, "identifier");
	if (type & PERF_SAMPLE_IP)
		TAKE(&b, s->ip, "ip");
	if (type & PERF_SAMPLE_TID) {
		TAKE(&b, v, "pid/tid");
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (type & PERF_SAMPLE_TIME)
		TAKE(&b, s->time, "time");
	if (type & PERF_SAMPLE_ADDR)
		TAKE(&b, s->addr, "addr");
	if (type & PERF_SAMPLE_ID)
		TAKE(&b, s->id, "id");
	if (type & PERF_SAMPLE_STREAM_ID)
		TAKE(&b, s->stream_id, "stream_id");
	if (type & PERF_SAMPLE_CPU) {
		TAKE(&b, v, "cpu");
		s->cpu = (uint32_t)v;
	}
	if (type & PERF_SAMPLE_PERIOD)
		TAKE(&b, s->period, "period");
variable:
	if (type & PERF_SAMPLE_READ) {
		ret = parse_read(&b, evsel, s, err);
		if (ret)
			return ret;
	}
	if (type & PERF_SAMPLE_CALLCHAIN) {
		TAKE(&b, s->chain.nr, "callchain nr");
		if (s->chain.nr > (uint64_t)(b.end - b.p))
			return pd_bad(r, err, rec->offset,
				      "SAMPLE: callchain of %llu entries is larger than the record (%u bytes)",
				      (unsigned long long)s->chain.nr, rec->header.size);
		s->chain.ips = b.p;
		b.p += s->chain.nr;
		if (s->chain.nr >= 2 &&
		    s->chain.ips[s->chain.nr - 2] == PC_CONTEXT_USER_DEFERRED) {
			s->chain.deferred = true;
			s->chain.cookie = s->chain.ips[s->chain.nr - 1];
		}
	}
	if (type & PERF_SAMPLE_RAW) {
		uint32_t size;

		ret = need(&b, 1, "raw size", err);
		if (ret)
			return ret;
		memcpy(&size, b.p, 4);
		/* u32 size then data; the kernel pads size+4 to a multiple of 8 */
		if ((uint64_t)size + 4 > (uint64_t)(b.end - b.p) * 8)
			return pd_bad(r, err, rec->offset, "SAMPLE: raw data of %u bytes is larger than the record",
				      size);
		s->raw.size = size;
		s->raw.data = (const uint8_t *)b.p + 4;
		b.p += (size + 4 + 7) / 8;
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t bst = evsel->attr.attr.branch_sample_type;

		TAKE(&b, s->branch.nr, "branch nr");
		if (bst & PC_SAMPLE_BRANCH_HW_INDEX)
			TAKE(&b, s->branch.hw_idx, "branch hw_idx");
		if (s->branch.nr > (uint64_t)(b.end - b.p) / 3)
			return pd_bad(r, err, rec->offset, "SAMPLE: %llu branch entries do not fit the record",
				      (unsigned long long)s->branch.nr);
		s->branch.entries = b.p;
		b.p += s->branch.nr * 3;
		if (bst & PC_SAMPLE_BRANCH_COUNTERS) {
			ret = need(&b, s->branch.nr, "branch counters", err);
			if (ret)
				return ret;
			s->branch.counters = b.p;
			b.p += s->branch.nr;
		}
	}
	if (type & PERF_SAMPLE_REGS_USER) {
		ret = parse_regs(&b, evsel->attr.attr.sample_regs_user, &s->regs_user.abi,
				 &s->regs_user.regs, "user regs", err);
		if (ret)
			return ret;
	}
	if (type & PERF_SAMPLE_STACK_USER) {
		TAKE(&b, s->stack_user.size, "user stack size");
		if (s->stack_user.size) {
			uint64_t words = s->stack_user.size / 8;

			if (s->stack_user.size % 8)
				return pd_bad(r, err, rec->offset, "SAMPLE: user stack size %llu is not a multiple of 8",
					      (unsigned long long)s->stack_user.size);
			ret = need(&b, words, "user stack", err);
			if (ret)
				return ret;
			s->stack_user.data = b.p;
			b.p += words;
			TAKE(&b, s->stack_user.dyn_size, "user stack dyn_size");
		}
	}
	if (type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		TAKE(&b, s->mem.weight, "weight");
	if (type & PERF_SAMPLE_DATA_SRC)
		TAKE(&b, s->mem.data_src, "data_src");
	if (type & PERF_SAMPLE_TRANSACTION)
		TAKE(&b, s->mem.transaction, "transaction");
	if (type & PERF_SAMPLE_REGS_INTR) {
		ret = parse_regs(&b, evsel->attr.attr.sample_regs_intr, &s->regs_intr.abi,
				 &s->regs_intr.regs, "intr regs", err);
		if (ret)
			return ret;
	}
	if (type & PERF_SAMPLE_PHYS_ADDR)
		TAKE(&b, s->mem.phys_addr, "phys_addr");
	if (type & PERF_SAMPLE_CGROUP)
		TAKE(&b, s->cgroup, "cgroup");
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		TAKE(&b, s->mem.data_page_size, "data_page_size");
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		TAKE(&b, s->mem.code_page_size, "code_page_size");
	if (type & PERF_SAMPLE_AUX) {
		TAKE(&b, s->aux.size, "aux size");
		if (s->aux.size % 8 || s->aux.size / 8 > (uint64_t)(b.end - b.p))
			return pd_bad(r, err, rec->offset, "SAMPLE: aux data of %llu bytes does not fit the record",
				      (unsigned long long)s->aux.size);
		s->aux.data = b.p;
		b.p += s->aux.size / 8;
	}
	return 0;
}

static bool has_sample_id(const struct pd_reader *r, const struct pd_record *rec)
{
	return r->sample_id_all && r->nr_evsels &&
	       rec->header.type != PERF_RECORD_SAMPLE &&
	       rec->header.type < PC_RECORD_HEADER_ATTR;
}

int pd_parse_sample_id(const struct pd_reader *r, const struct pd_record *rec,
		       struct pd_sample *s, struct pc_error *err)
{
	return pd_parse_sample_id_as(r, NULL, rec, s, err);
}

int pd_parse_sample_id_as(const struct pd_reader *r, const struct pd_evsel *known,
			  const struct pd_record *rec, struct pd_sample *s, struct pc_error *err)
{
	const uint64_t *end = (const uint64_t *)rec->data + rec->header.size / 8;
	/* a pipe can carry records before its first ATTR: evsels may still be NULL */
	const struct pd_evsel *evsel = r->nr_evsels ? &r->evsels[0] : NULL;
	struct body b = { r, rec, NULL, end, pd_record_name(rec->header.type) ?: "unknown-type" };
	uint64_t type, v;

	memset(s, 0, sizeof(*s));
	s->cpu = (uint32_t)-1;
	if (!has_sample_id(r, rec))
		return 0;
	if (rec->header.size < sizeof(struct perf_event_header) + evsel->sample_id_size)
		return pd_bad(r, err, rec->offset, "%s record of %u bytes is too short for its sample_id",
			      b.what, rec->header.size);
	if (known) {
		evsel = known;
	} else if (r->nr_evsels > 1) {
		evsel = pd_reader_evsel_of(r, end[-(int64_t)evsel->is_pos]);
		if (!evsel)
			return pd_bad(r, err, rec->offset, "%s record with an id that matches no event",
				      b.what);
	}
	/* the event the id names may carry a longer trailer than the first */
	if (rec->header.size < sizeof(struct perf_event_header) + evsel->sample_id_size)
		return pd_bad(r, err, rec->offset, "%s record of %u bytes is too short for its sample_id",
			      b.what, rec->header.size);
	s->evsel = evsel;
	type = evsel->attr.attr.sample_type;
	b.p = end - evsel->sample_id_size / 8;
	if (type & PERF_SAMPLE_TID) {
		TAKE(&b, v, "pid/tid");
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (type & PERF_SAMPLE_TIME)
		TAKE(&b, s->time, "time");
	if (type & PERF_SAMPLE_ID)
		TAKE(&b, s->id, "id");
	if (type & PERF_SAMPLE_STREAM_ID)
		TAKE(&b, s->stream_id, "stream_id");
	if (type & PERF_SAMPLE_CPU) {
		TAKE(&b, v, "cpu");
		s->cpu = (uint32_t)v;
	}
	if (type & PERF_SAMPLE_IDENTIFIER)
		TAKE(&b, s->id, "identifier");
	return 0;
}

int pd_parse_deferred(const struct pd_reader *r, const struct pd_record *rec,
		      struct pd_deferred *d, struct pd_sample *s, struct pc_error *err)
{
	return pd_parse_deferred_as(r, NULL, rec, d, s, err);
}

int pd_parse_deferred_as(const struct pd_reader *r, const struct pd_evsel *evsel,
			 const struct pd_record *rec, struct pd_deferred *d, struct pd_sample *s,
			 struct pc_error *err)
{
	const uint64_t *p = (const uint64_t *)rec->data + 1;
	uint64_t words = (rec->header.size - sizeof(struct perf_event_header)) / 8;
	uint64_t trailer = 0;
	struct pd_sample tmp;
	int ret;

	if (!s)
		s = &tmp;
	ret = pd_parse_sample_id_as(r, evsel, rec, s, err);
	if (ret)
		return ret;
	if (s->evsel)
		trailer = s->evsel->sample_id_size / 8;
	if (words < 2 + trailer)
		return pd_bad(r, err, rec->offset, "CALLCHAIN_DEFERRED record of %u bytes is too short",
			      rec->header.size);
	d->cookie = p[0];
	d->nr = p[1];
	if (d->nr > words - 2 - trailer)
		return pd_bad(r, err, rec->offset,
			      "CALLCHAIN_DEFERRED: %llu ips do not fit the record of %u bytes",
			      (unsigned long long)d->nr, rec->header.size);
	d->ips = p + 2;
	return 0;
}

/*
 * Only the places the event's layout names: the id that finds the event,
 * then the time.  Anything out of place is left for the parse to name.
 */
bool pd_record_time(const struct pd_reader *r, const struct pd_record *rec,
		    const struct pd_evsel **evsel_out, uint64_t *time)
{
	uint64_t words = (rec->header.size - sizeof(struct perf_event_header)) / 8;
	const uint64_t *body = (const uint64_t *)rec->data + 1;
	const struct pd_evsel *evsel;

	if (rec->header.size < sizeof(struct perf_event_header) || !r->nr_evsels)
		return false;
	if (rec->header.type == PERF_RECORD_SAMPLE) {
		evsel = evsel_for_sample(r, rec);
		if (!evsel || evsel->layout.sample.time < 0 ||
		    (uint64_t)evsel->layout.sample.time >= words)
			return false;
		*time = body[evsel->layout.sample.time];
	} else {
		const uint64_t *trailer;

		if (!has_sample_id(r, rec) || words < r->evsels[0].sample_id_size / 8)
			return false;
		evsel = &r->evsels[0];
		if (r->nr_evsels > 1) {
			if (!evsel->is_pos || evsel->is_pos > words)
				return false;
			evsel = pd_reader_evsel_of(r, body[words - evsel->is_pos]);
		}
		if (!evsel || words < evsel->sample_id_size / 8 || evsel->layout.trailer.time < 0)
			return false;
		trailer = body + words - evsel->sample_id_size / 8;
		*time = trailer[evsel->layout.trailer.time];
	}
	*evsel_out = evsel;
	return true;
}
