// SPDX-License-Identifier: GPL-2.0
#include "synth.h"

#include <stdlib.h>
#include <string.h>

void synth_put(struct synth *s, const void *p, size_t n)
{
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;

		while (cap < s->len + n)
			cap *= 2;
		s->buf = realloc(s->buf, cap);
		if (!s->buf)
			abort();
		s->cap = cap;
	}
	if (n)
		memcpy(s->buf + s->len, p, n);
	s->len += n;
}

void synth_free(struct synth *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

static void u64(struct synth *s, uint64_t v)
{
	synth_put(s, &v, 8);
}

/* Starts a record; returns the offset of its header for finish() */
static size_t begin(struct synth *s, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { type, misc, 0 };
	size_t at = s->len;

	synth_put(s, &h, sizeof(h));
	return at;
}

static void finish(struct synth *s, size_t at)
{
	uint16_t size;

	while ((s->len - at) % 8)
		synth_put(s, "", 1);
	size = (uint16_t)(s->len - at);
	memcpy(s->buf + at + 6, &size, 2);
}

void synth_sample_id(struct synth *s, const struct perf_event_attr *attr, const struct pd_sample *v)
{
	uint64_t t = attr->sample_type;

	if (!attr->sample_id_all)
		return;
	if (t & PERF_SAMPLE_TID)
		u64(s, (uint64_t)v->tid << 32 | v->pid);
	if (t & PERF_SAMPLE_TIME)
		u64(s, v->time);
	if (t & PERF_SAMPLE_ID)
		u64(s, v->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		u64(s, v->stream_id);
	if (t & PERF_SAMPLE_CPU)
		u64(s, v->cpu);
	if (t & PERF_SAMPLE_IDENTIFIER)
		u64(s, v->id);
}

static void regs(struct synth *s, uint64_t mask, uint64_t abi, const uint64_t *r)
{
	u64(s, abi);
	if (abi)
		for (int i = 0; i < __builtin_popcountll(mask); i++)
			u64(s, r[i]);
}

void synth_sample(struct synth *s, const struct perf_event_attr *attr, const struct pd_sample *v)
{
	uint64_t t = attr->sample_type, f = attr->read_format;
	size_t at = begin(s, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);

	if (t & PERF_SAMPLE_IDENTIFIER)
		u64(s, v->id);
	if (t & PERF_SAMPLE_IP)
		u64(s, v->ip);
	if (t & PERF_SAMPLE_TID)
		u64(s, (uint64_t)v->tid << 32 | v->pid);
	if (t & PERF_SAMPLE_TIME)
		u64(s, v->time);
	if (t & PERF_SAMPLE_ADDR)
		u64(s, v->addr);
	if (t & PERF_SAMPLE_ID)
		u64(s, v->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		u64(s, v->stream_id);
	if (t & PERF_SAMPLE_CPU)
		u64(s, v->cpu);
	if (t & PERF_SAMPLE_PERIOD)
		u64(s, v->period);
	if (t & PERF_SAMPLE_READ) {
		if (f & PERF_FORMAT_GROUP) {
			u64(s, 1);
			if (f & PERF_FORMAT_TOTAL_TIME_ENABLED)
				u64(s, v->time_enabled);
			if (f & PERF_FORMAT_TOTAL_TIME_RUNNING)
				u64(s, v->time_running);
			u64(s, v->read_first.value);
			if (f & PERF_FORMAT_ID)
				u64(s, v->read_first.id);
			if (f & PERF_FORMAT_LOST)
				u64(s, v->read_first.lost);
		} else {
			u64(s, v->read_first.value);
			if (f & PERF_FORMAT_TOTAL_TIME_ENABLED)
				u64(s, v->time_enabled);
			if (f & PERF_FORMAT_TOTAL_TIME_RUNNING)
				u64(s, v->time_running);
			if (f & PERF_FORMAT_ID)
				u64(s, v->read_first.id);
			if (f & PERF_FORMAT_LOST)
				u64(s, v->read_first.lost);
		}
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		u64(s, v->callchain_nr);
		synth_put(s, v->callchain, v->callchain_nr * 8);
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t size = v->raw_size;

		synth_put(s, &size, 4);
		synth_put(s, v->raw, size);
		while ((size + 4) % 8) {
			synth_put(s, "", 1);
			size++;
		}
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		u64(s, v->branch_nr);
		if (attr->branch_sample_type & PC_SAMPLE_BRANCH_HW_INDEX)
			u64(s, v->branch_hw_idx);
		synth_put(s, v->branch_entries, v->branch_nr * 24);
		if (attr->branch_sample_type & PC_SAMPLE_BRANCH_COUNTERS)
			synth_put(s, v->branch_counters, v->branch_nr * 8);
	}
	if (t & PERF_SAMPLE_REGS_USER)
		regs(s, attr->sample_regs_user, v->regs_user_abi, v->regs_user);
	if (t & PERF_SAMPLE_STACK_USER) {
		u64(s, v->stack_user_size);
		if (v->stack_user_size) {
			synth_put(s, v->stack_user, v->stack_user_size);
			u64(s, v->stack_user_dyn_size);
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		u64(s, v->weight);
	if (t & PERF_SAMPLE_DATA_SRC)
		u64(s, v->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		u64(s, v->transaction);
	if (t & PERF_SAMPLE_REGS_INTR)
		regs(s, attr->sample_regs_intr, v->regs_intr_abi, v->regs_intr);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		u64(s, v->phys_addr);
	if (t & PERF_SAMPLE_CGROUP)
		u64(s, v->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		u64(s, v->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		u64(s, v->code_page_size);
	if (t & PERF_SAMPLE_AUX) {
		u64(s, v->aux_size);
		synth_put(s, v->aux, v->aux_size);
	}
	finish(s, at);
}

void synth_comm(struct synth *s, const struct perf_event_attr *attr, uint32_t pid, uint32_t tid,
		const char *comm, const struct pd_sample *id)
{
	size_t at = begin(s, PERF_RECORD_COMM, 0);
	size_t len = strlen(comm) + 1;

	synth_put(s, &pid, 4);
	synth_put(s, &tid, 4);
	synth_put(s, comm, len);
	while ((s->len - at) % 8)
		synth_put(s, "", 1);
	synth_sample_id(s, attr, id);
	finish(s, at);
}

void synth_mmap2(struct synth *s, const struct perf_event_attr *attr, uint32_t pid, uint32_t tid,
		 uint64_t start, uint64_t len, uint64_t pgoff, const char *filename,
		 const struct pd_sample *id)
{
	size_t at = begin(s, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	uint32_t zero32 = 0, prot = 5, flags = 2;

	synth_put(s, &pid, 4);
	synth_put(s, &tid, 4);
	u64(s, start);
	u64(s, len);
	u64(s, pgoff);
	synth_put(s, &zero32, 4);	/* maj */
	synth_put(s, &zero32, 4);	/* min */
	u64(s, 0);			/* ino */
	u64(s, 0);			/* ino_generation */
	synth_put(s, &prot, 4);
	synth_put(s, &flags, 4);
	synth_put(s, filename, strlen(filename) + 1);
	while ((s->len - at) % 8)
		synth_put(s, "", 1);
	synth_sample_id(s, attr, id);
	finish(s, at);
}

void synth_fork(struct synth *s, const struct perf_event_attr *attr, uint32_t type,
		uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time,
		const struct pd_sample *id)
{
	size_t at = begin(s, type, 0);

	synth_put(s, &pid, 4);
	synth_put(s, &ppid, 4);
	synth_put(s, &tid, 4);
	synth_put(s, &ptid, 4);
	u64(s, time);
	synth_sample_id(s, attr, id);
	finish(s, at);
}

void synth_deferred(struct synth *s, const struct perf_event_attr *attr, uint64_t cookie,
		    uint64_t nr, const uint64_t *ips, const struct pd_sample *id)
{
	size_t at = begin(s, PC_RECORD_CALLCHAIN_DEFERRED, PERF_RECORD_MISC_USER);

	u64(s, cookie);
	u64(s, nr);
	synth_put(s, ips, nr * 8);
	synth_sample_id(s, attr, id);
	finish(s, at);
}

void synth_finished_round(struct synth *s)
{
	finish(s, begin(s, PC_RECORD_FINISHED_ROUND, 0));
}

int synth_write_file(const char *path, const struct perf_event_attr *const *attrs,
		     const uint64_t *ids, const char *const *names, int nr,
		     const struct synth *data)
{
	struct pd_writer w;
	struct pc_error err;
	int ret;

	ret = pd_writer_open(&w, path, &err);
	if (ret)
		return ret;
	for (int i = 0; i < nr && !ret; i++)
		ret = pd_writer_add_evsel(&w, attrs[i], ids ? &ids[i] : NULL, ids ? 1 : 0,
					  names ? names[i] : NULL, &err);
	if (!ret)
		ret = pd_writer_set_host_features(&w, "perfcheck-selftest");
	if (!ret)
		ret = pd_writer_begin_data(&w, &err);
	if (!ret && data && data->len)
		ret = pd_writer_write(&w, data->buf, data->len, &err);
	if (ret) {
		pd_writer_abort(&w);
		return ret;
	}
	return pd_writer_finish(&w, &err);
}

void synth_pipe_header(struct synth *s)
{
	u64(s, PD_MAGIC);
	u64(s, PD_PIPE_HEADER_SIZE);
}

void synth_attr(struct synth *s, const struct perf_event_attr *attr, const uint64_t *ids,
		uint32_t nr_ids)
{
	size_t at = begin(s, PC_RECORD_HEADER_ATTR, 0);

	synth_put(s, attr, attr->size);
	synth_put(s, ids, nr_ids * 8ULL);
	finish(s, at);
}
