// SPDX-License-Identifier: GPL-2.0
/* Encoding records, field by field in the order the ABI writes them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/codec.h"

int pd_buf_put(struct pd_buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		uint8_t *v;

		while (cap < b->len + n)
			cap *= 2;
		v = realloc(b->data, cap);
		if (!v)
			return -ENOMEM;
		b->data = v;
		b->cap = cap;
	}
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

void pd_buf_free(struct pd_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

/* A record under construction: failures are remembered, checked at the end. */
struct enc {
	struct pd_buf *b;
	size_t at;		/* offset of the header */
	int ret;
};

static void put(struct enc *e, const void *p, size_t n)
{
	if (!e->ret)
		e->ret = pd_buf_put(e->b, p, n);
}

static void u64(struct enc *e, uint64_t v)
{
	put(e, &v, 8);
}

static void u32(struct enc *e, uint32_t v)
{
	put(e, &v, 4);
}

static void pad8(struct enc *e)
{
	static const uint8_t zero[8];

	if (!e->ret && (e->b->len - e->at) % 8)
		put(e, zero, 8 - (e->b->len - e->at) % 8);
}

/* a NUL-terminated string padded to 8 bytes */
static void str(struct enc *e, const char *s)
{
	put(e, s, strlen(s) + 1);
	pad8(e);
}

static struct enc begin(struct pd_buf *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { type, misc, 0 };
	struct enc e = { b, b->len, 0 };

	put(&e, &h, sizeof(h));
	return e;
}

static int finish(struct enc *e)
{
	uint16_t size;

	pad8(e);
	if (!e->ret && e->b->len - e->at > UINT16_MAX)
		e->ret = -E2BIG;
	if (e->ret) {
		e->b->len = e->at;	/* nothing of a record that does not fit */
		return e->ret;
	}
	size = (uint16_t)(e->b->len - e->at);
	memcpy(e->b->data + e->at + 6, &size, 2);
	return 0;
}

static void sample_id(struct enc *e, const struct perf_event_attr *attr, const struct pd_sample *v)
{
	static const struct pd_sample zero;
	uint64_t t = attr->sample_type;

	if (!attr->sample_id_all)
		return;
	if (!v)
		v = &zero;
	if (t & PERF_SAMPLE_TID)
		u64(e, (uint64_t)v->tid << 32 | v->pid);
	if (t & PERF_SAMPLE_TIME)
		u64(e, v->time);
	if (t & PERF_SAMPLE_ID)
		u64(e, v->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		u64(e, v->stream_id);
	if (t & PERF_SAMPLE_CPU)
		u64(e, v->cpu);
	if (t & PERF_SAMPLE_IDENTIFIER)
		u64(e, v->id);
}

int pd_encode_sample_id(struct pd_buf *b, const struct perf_event_attr *attr,
			const struct pd_sample *id)
{
	struct enc e = { b, b->len, 0 };

	sample_id(&e, attr, id);
	if (e.ret)
		b->len = e.at;
	return e.ret;
}

static void read_values(struct enc *e, uint64_t f, const struct pd_sample *v)
{
	if (f & PERF_FORMAT_GROUP) {
		uint64_t per = 1 + !!(f & PERF_FORMAT_ID) + !!(f & PERF_FORMAT_LOST);

		bool raw = v->read.raw && v->read.nr;

		u64(e, raw ? v->read.nr : 1);
		if (f & PERF_FORMAT_TOTAL_TIME_ENABLED)
			u64(e, v->read.time_enabled);
		if (f & PERF_FORMAT_TOTAL_TIME_RUNNING)
			u64(e, v->read.time_running);
		if (raw) {
			put(e, v->read.raw, v->read.nr * per * 8);
			return;
		}
		u64(e, v->read.first.value);
		if (f & PERF_FORMAT_ID)
			u64(e, v->read.first.id);
		if (f & PERF_FORMAT_LOST)
			u64(e, v->read.first.lost);
		return;
	}
	u64(e, v->read.first.value);
	if (f & PERF_FORMAT_TOTAL_TIME_ENABLED)
		u64(e, v->read.time_enabled);
	if (f & PERF_FORMAT_TOTAL_TIME_RUNNING)
		u64(e, v->read.time_running);
	if (f & PERF_FORMAT_ID)
		u64(e, v->read.first.id);
	if (f & PERF_FORMAT_LOST)
		u64(e, v->read.first.lost);
}

static void regs(struct enc *e, uint64_t mask, uint64_t abi, const uint64_t *r)
{
	u64(e, abi);
	if (abi)
		put(e, r, (size_t)__builtin_popcountll(mask) * 8);
}

/* the variable parts after the read values */
static void sample_tail(struct enc *e, const struct perf_event_attr *attr,
			const struct pd_sample *v)
{
	uint64_t t = attr->sample_type;

	if (t & PERF_SAMPLE_RAW) {
		static const uint8_t zero[8];
		uint32_t size = v->raw.size;

		u32(e, size);
		put(e, v->raw.data, size);
		put(e, zero, (8 - (size + 4) % 8) % 8);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		u64(e, v->branch.nr);
		if (attr->branch_sample_type & PC_SAMPLE_BRANCH_HW_INDEX)
			u64(e, v->branch.hw_idx);
		put(e, v->branch.entries, v->branch.nr * 24);
		if (attr->branch_sample_type & PC_SAMPLE_BRANCH_COUNTERS)
			put(e, v->branch.counters, v->branch.nr * 8);
	}
	if (t & PERF_SAMPLE_REGS_USER)
		regs(e, attr->sample_regs_user, v->regs_user.abi, v->regs_user.regs);
	if (t & PERF_SAMPLE_STACK_USER) {
		u64(e, v->stack_user.size);
		if (v->stack_user.size) {
			put(e, v->stack_user.data, v->stack_user.size);
			u64(e, v->stack_user.dyn_size);
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		u64(e, v->mem.weight);
	if (t & PERF_SAMPLE_DATA_SRC)
		u64(e, v->mem.data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		u64(e, v->mem.transaction);
	if (t & PERF_SAMPLE_REGS_INTR)
		regs(e, attr->sample_regs_intr, v->regs_intr.abi, v->regs_intr.regs);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		u64(e, v->mem.phys_addr);
	if (t & PERF_SAMPLE_CGROUP)
		u64(e, v->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		u64(e, v->mem.data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		u64(e, v->mem.code_page_size);
	if (t & PERF_SAMPLE_AUX) {
		u64(e, v->aux.size);
		put(e, v->aux.data, v->aux.size);
	}
}

int pd_encode_sample(struct pd_buf *b, const struct perf_event_attr *attr, uint16_t misc,
		     const struct pd_sample *v)
{
	struct enc e = begin(b, PERF_RECORD_SAMPLE, misc);
	uint64_t t = attr->sample_type;

	if (t & PERF_SAMPLE_IDENTIFIER)
		u64(&e, v->id);
	if (t & PERF_SAMPLE_IP)
		u64(&e, v->ip);
	if (t & PERF_SAMPLE_TID)
		u64(&e, (uint64_t)v->tid << 32 | v->pid);
	if (t & PERF_SAMPLE_TIME)
		u64(&e, v->time);
	if (t & PERF_SAMPLE_ADDR)
		u64(&e, v->addr);
	if (t & PERF_SAMPLE_ID)
		u64(&e, v->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		u64(&e, v->stream_id);
	if (t & PERF_SAMPLE_CPU)
		u64(&e, v->cpu);
	if (t & PERF_SAMPLE_PERIOD)
		u64(&e, v->period);
	if (t & PERF_SAMPLE_READ)
		read_values(&e, attr->read_format, v);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		u64(&e, v->chain.nr);
		put(&e, v->chain.ips, v->chain.nr * 8);
	}
	sample_tail(&e, attr, v);
	return finish(&e);
}

int pd_encode_comm(struct pd_buf *b, const struct perf_event_attr *attr, uint16_t misc,
		   const struct pd_comm *c, const struct pd_sample *id)
{
	struct enc e = begin(b, PERF_RECORD_COMM, misc);

	u32(&e, c->pid);
	u32(&e, c->tid);
	str(&e, c->comm);
	sample_id(&e, attr, id);
	return finish(&e);
}

int pd_encode_task(struct pd_buf *b, const struct perf_event_attr *attr, uint32_t type,
		   uint16_t misc, const struct pd_task *t, const struct pd_sample *id)
{
	struct enc e = begin(b, type, misc);

	u32(&e, t->pid);
	u32(&e, t->ppid);
	u32(&e, t->tid);
	u32(&e, t->ptid);
	u64(&e, t->time);
	sample_id(&e, attr, id);
	return finish(&e);
}

int pd_encode_mmap(struct pd_buf *b, const struct perf_event_attr *attr, uint32_t type,
		   uint16_t misc, const struct pd_mmap *m, const struct pd_sample *id)
{
	bool v2 = type == PERF_RECORD_MMAP2;
	struct enc e;

	if (v2 && m->build_id_size)
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	e = begin(b, type, misc);
	u32(&e, m->pid);
	u32(&e, m->tid);
	u64(&e, m->start);
	u64(&e, m->len);
	u64(&e, m->pgoff);
	if (v2 && m->build_id_size) {
		uint8_t id24[24] = { m->build_id_size > 20 ? 20 : m->build_id_size };

		memcpy(id24 + 4, m->build_id, id24[0]);
		put(&e, id24, sizeof(id24));
	} else if (v2) {
		u32(&e, m->maj);
		u32(&e, m->min);
		u64(&e, m->ino);
		u64(&e, m->ino_generation);
	}
	if (v2) {
		u32(&e, m->prot);
		u32(&e, m->flags);
	}
	str(&e, m->filename);
	sample_id(&e, attr, id);
	return finish(&e);
}

int pd_encode_lost(struct pd_buf *b, const struct perf_event_attr *attr,
		   const struct pd_lost *l, const struct pd_sample *id)
{
	struct enc e = begin(b, PERF_RECORD_LOST, 0);

	u64(&e, l->id);
	u64(&e, l->lost);
	sample_id(&e, attr, id);
	return finish(&e);
}

int pd_encode_lost_samples(struct pd_buf *b, const struct perf_event_attr *attr, uint64_t lost,
			   const struct pd_sample *id)
{
	struct enc e = begin(b, PERF_RECORD_LOST_SAMPLES, 0);

	u64(&e, lost);
	sample_id(&e, attr, id);
	return finish(&e);
}

int pd_encode_namespaces(struct pd_buf *b, const struct perf_event_attr *attr,
			 const struct pd_namespaces *n, const struct pd_sample *id)
{
	struct enc e = begin(b, PERF_RECORD_NAMESPACES, 0);

	u32(&e, n->pid);
	u32(&e, n->tid);
	u64(&e, n->nr);
	/* a record holds at most 64 KiB: the size check in finish() says E2BIG */
	if (n->nr <= UINT16_MAX / 16)
		put(&e, n->links, n->nr * 16);
	else if (!e.ret)
		e.ret = -E2BIG;
	sample_id(&e, attr, id);
	return finish(&e);
}

int pd_encode_cgroup(struct pd_buf *b, const struct perf_event_attr *attr,
		     const struct pd_cgroup *c, const struct pd_sample *id)
{
	struct enc e = begin(b, PC_RECORD_CGROUP, 0);

	u64(&e, c->id);
	str(&e, c->path);
	sample_id(&e, attr, id);
	return finish(&e);
}

int pd_encode_deferred(struct pd_buf *b, const struct perf_event_attr *attr,
		       const struct pd_deferred *d, const struct pd_sample *id)
{
	struct enc e = begin(b, PC_RECORD_CALLCHAIN_DEFERRED, PERF_RECORD_MISC_USER);

	u64(&e, d->cookie);
	u64(&e, d->nr);
	put(&e, d->ips, d->nr * 8);
	sample_id(&e, attr, id);
	return finish(&e);
}

int pd_encode_finished_round(struct pd_buf *b)
{
	struct enc e = begin(b, PC_RECORD_FINISHED_ROUND, 0);

	return finish(&e);
}

int pd_encode_finished_init(struct pd_buf *b)
{
	struct enc e = begin(b, PC_RECORD_FINISHED_INIT, 0);

	return finish(&e);
}

/*
 * u64 nr, then {u64 id, idx, cpu, tid} per entry: as many records as the
 * entries need, each of at most PD_ID_INDEX_MAX (its size is a u16).
 * None for no entry; none at all when one fails.
 */
int pd_encode_id_index(struct pd_buf *b, const struct pd_id_entry *ent, uint64_t nr)
{
	size_t at = b->len;

	for (uint64_t i = 0; i < nr;) {
		uint64_t n = nr - i < PD_ID_INDEX_MAX ? nr - i : PD_ID_INDEX_MAX;
		struct enc e = begin(b, PC_RECORD_ID_INDEX, 0);
		int ret;

		u64(&e, n);
		for (uint64_t k = i + n; i < k; i++) {
			u64(&e, ent[i].id);
			u64(&e, ent[i].idx);
			u64(&e, (uint64_t)ent[i].cpu);
			u64(&e, (uint64_t)ent[i].tid);
		}
		ret = finish(&e);
		if (ret) {
			b->len = at;
			return ret;
		}
	}
	return 0;
}

int pd_encode_pipe_header(struct pd_buf *b)
{
	struct pd_pipe_header h = { PD_MAGIC, PD_PIPE_HEADER_SIZE };

	return pd_buf_put(b, &h, sizeof(h));
}

int pd_encode_attr(struct pd_buf *b, const struct perf_event_attr *attr, const uint64_t *ids,
		   uint32_t nr_ids)
{
	struct enc e = begin(b, PC_RECORD_HEADER_ATTR, 0);

	put(&e, attr, attr->size ? attr->size : PERF_ATTR_SIZE_VER0);
	put(&e, ids, nr_ids * 8ULL);
	return finish(&e);
}

int pd_encode_ksymbol(struct pd_buf *b, const struct perf_event_attr *attr,
		      const struct pd_ksymbol *k, const struct pd_sample *id)
{
	struct enc e = begin(b, PC_RECORD_KSYMBOL, 0);

	u64(&e, k->addr);
	u32(&e, k->len);
	put(&e, &k->ksym_type, 2);
	put(&e, &k->flags, 2);
	str(&e, k->name);
	sample_id(&e, attr, id);
	return finish(&e);
}

int pd_encode_bpf_event(struct pd_buf *b, const struct perf_event_attr *attr,
			const struct pd_bpf_event *ev, const struct pd_sample *id)
{
	struct enc e = begin(b, PC_RECORD_BPF_EVENT, 0);

	put(&e, &ev->type, 2);
	put(&e, &ev->flags, 2);
	u32(&e, ev->id);
	put(&e, ev->tag, sizeof(ev->tag));
	sample_id(&e, attr, id);
	return finish(&e);
}

/* Feature entries: appended whole or not at all. */
int pd_encode_bpf_prog_info(struct pd_buf *b, const struct pd_bpf_prog_info *p)
{
	struct enc e = { b, b->len, 0 };

	u32(&e, p->info_len);
	u32(&e, p->data_len);
	u64(&e, p->arrays);
	put(&e, p->info, p->info_len);
	put(&e, p->data, p->data_len);
	if (e.ret)
		b->len = e.at;
	return e.ret;
}

int pd_encode_btf(struct pd_buf *b, uint32_t id, const void *data, uint32_t size)
{
	struct enc e = { b, b->len, 0 };

	u32(&e, id);
	u32(&e, size);
	put(&e, data, size);
	if (e.ret)
		b->len = e.at;
	return e.ret;
}

int pd_encode_stat(struct pd_buf *b, const struct pd_stat *st)
{
	struct enc e = begin(b, PC_RECORD_STAT, 0);

	u64(&e, st->id);
	u32(&e, st->cpu);
	u32(&e, st->thread);
	u64(&e, st->val);
	u64(&e, st->ena);
	u64(&e, st->run);
	return finish(&e);
}

int pd_encode_stat_round(struct pd_buf *b, const struct pd_stat_round *rd)
{
	struct enc e = begin(b, PC_RECORD_STAT_ROUND, 0);

	u64(&e, rd->type);
	u64(&e, rd->time);
	return finish(&e);
}

/* u64 nr, then (tag, value) pairs: AGGR_MODE 0, INTERVAL 1, SCALE 2 */
int pd_encode_stat_config(struct pd_buf *b, const struct pd_stat_config *c)
{
	struct enc e = begin(b, PC_RECORD_STAT_CONFIG, 0);
	const uint64_t pairs[6] = { 0, c->aggr_mode, 1, c->interval, 2, c->scale };

	u64(&e, 3);
	put(&e, pairs, sizeof(pairs));
	return finish(&e);
}

/* perf's cpu map data as a list (type 0: u16 nr, u16 cpu[nr]) */
static void cpu_list_data(struct enc *e, const struct pd_cpu_list *c)
{
	uint16_t head[2] = { 0, (uint16_t)c->nr };

	if (c->nr > UINT16_MAX && !e->ret)
		e->ret = -E2BIG;
	put(e, head, sizeof(head));
	for (uint32_t i = 0; i < c->nr && !e->ret; i++) {
		uint16_t cpu = (uint16_t)c->cpus[i];	/* -1 is 0xffff, as perf writes it */

		put(e, &cpu, 2);
	}
}

/*
 * The form perf 6.1's cpu_map_data__synthesize() picks: a range (type 2:
 * u8 any_cpu, u8 pad, u16 start, u16 end) when the cpus other than a
 * leading -1 are consecutive, else the smaller of the list and a mask of
 * 32-bit words (type 1: u16 nr, u16 long_size 4, u32 mask[nr]).
 */
static void cpu_map_data_perf(struct enc *e, const struct pd_cpu_list *c)
{
	uint32_t any = c->nr && c->cpus[0] < 0, nr = c->nr - any;
	int32_t min = nr ? c->cpus[any] : -1, max = nr ? c->cpus[c->nr - 1] : -1;
	uint32_t words;

	if (nr && max - min + 1 == (int32_t)nr && max <= UINT16_MAX) {
		uint16_t range[4] = { 2, (uint16_t)any, (uint16_t)min, (uint16_t)max };

		put(e, range, sizeof(range));
		return;
	}
	words = max < 0 ? 0 : (uint32_t)max / 32 + 1;
	if (any || !nr || 2 + 2ULL * c->nr <= 4 + 4ULL * words || words > UINT16_MAX) {
		cpu_list_data(e, c);
		return;
	}
	{
		uint16_t head[3] = { 1, (uint16_t)words, 4 };

		put(e, head, sizeof(head));
	}
	for (uint32_t w = 0; w < words; w++) {
		uint32_t bits = 0;

		for (uint32_t i = 0; i < c->nr; i++)
			if (c->cpus[i] >= 0 && (uint32_t)c->cpus[i] / 32 == w)
				bits |= 1u << (c->cpus[i] % 32);
		u32(e, bits);
	}
}

int pd_encode_cpu_map(struct pd_buf *b, const struct pd_cpu_list *c)
{
	struct enc e = begin(b, PC_RECORD_CPU_MAP, 0);

	cpu_list_data(&e, c);
	return finish(&e);
}

int pd_encode_cpu_map_perf(struct pd_buf *b, const struct pd_cpu_list *c)
{
	struct enc e = begin(b, PC_RECORD_CPU_MAP, 0);

	cpu_map_data_perf(&e, c);
	return finish(&e);
}

/* u64 nr, then {u64 pid, char comm[16]} (empty comms without t->comms) */
int pd_encode_thread_map(struct pd_buf *b, const struct pd_thread_list *t)
{
	struct enc e = begin(b, PC_RECORD_THREAD_MAP, 0);

	u64(&e, t->nr);
	for (uint32_t i = 0; i < t->nr && !e.ret; i++) {
		char comm[16] = { 0 };

		if (t->comms)
			memcpy(comm, t->comms[i], sizeof(comm) - 1);
		u64(&e, (uint64_t)(int64_t)t->pids[i]);
		put(&e, comm, sizeof(comm));
	}
	return finish(&e);
}

int pd_encode_event_update(struct pd_buf *b, const struct pd_event_update *u)
{
	struct enc e = begin(b, PC_RECORD_EVENT_UPDATE, 0);
	static const uint8_t zero[16];

	u64(&e, u->type);
	u64(&e, u->id);
	if (u->type == PD_EVENT_UPDATE_SCALE)
		put(&e, &u->scale, sizeof(u->scale));
	else if (u->type == PD_EVENT_UPDATE_UNIT || u->type == PD_EVENT_UPDATE_NAME)
		str(&e, u->str ? u->str : "");
	else if (u->type == PD_EVENT_UPDATE_CPUS)
		cpu_map_data_perf(&e, &u->cpus);
	else
		e.ret = -EINVAL;
	if (u->type != PD_EVENT_UPDATE_CPUS)
		put(&e, zero, sizeof(zero));
	return finish(&e);
}
