// SPDX-License-Identifier: GPL-2.0
#include "synth.h"
#include "perfdata/codec.h"

#include <stdlib.h>
#include <string.h>

/*
 * The tests' buffer is the codec's (perfdata/codec.h) under another name:
 * each record is encoded by the library straight into it.
 */
static struct pd_buf view(const struct synth *s)
{
	return (struct pd_buf){ s->buf, s->len, s->cap };
}

static void keep(struct synth *s, const struct pd_buf *b, int ret)
{
	if (ret)
		abort();
	s->buf = b->data;
	s->len = b->len;
	s->cap = b->cap;
}

void synth_put(struct synth *s, const void *p, size_t n)
{
	struct pd_buf b = view(s);

	keep(s, &b, pd_buf_put(&b, p, n));
}

void synth_free(struct synth *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

void synth_sample_id(struct synth *s, const struct perf_event_attr *attr, const struct pd_sample *v)
{
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_sample_id(&b, attr, v));
}

void synth_sample(struct synth *s, const struct perf_event_attr *attr, const struct pd_sample *v)
{
	synth_sample_misc(s, attr, PERF_RECORD_MISC_USER, v);
}

void synth_sample_misc(struct synth *s, const struct perf_event_attr *attr, uint16_t misc,
		       const struct pd_sample *v)
{
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_sample(&b, attr, misc, v));
}

void synth_cgroup(struct synth *s, const struct perf_event_attr *attr, uint64_t id,
		  const char *path, const struct pd_sample *sid)
{
	struct pd_cgroup c = { id, path };
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_cgroup(&b, attr, &c, sid));
}

void synth_lost_samples(struct synth *s, const struct perf_event_attr *attr, uint64_t lost,
			const struct pd_sample *id)
{
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_lost_samples(&b, attr, lost, id));
}

void synth_comm(struct synth *s, const struct perf_event_attr *attr, uint32_t pid, uint32_t tid,
		const char *comm, const struct pd_sample *id)
{
	struct pd_comm c = { pid, tid, comm };
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_comm(&b, attr, 0, &c, id));
}

void synth_mmap2(struct synth *s, const struct perf_event_attr *attr, uint32_t pid, uint32_t tid,
		 uint64_t start, uint64_t len, uint64_t pgoff, const char *filename,
		 const struct pd_sample *id)
{
	struct pd_mmap m = { .pid = pid, .tid = tid, .start = start, .len = len, .pgoff = pgoff,
			     .prot = 5, .flags = 2, .filename = filename };
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_mmap(&b, attr, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &m, id));
}

void synth_kernel_mmap(struct synth *s, const struct perf_event_attr *attr,
		       const struct pd_sample *id)
{
	struct pd_mmap m = { .pid = (uint32_t)-1, .tid = 0, .start = 0xffffffff81000000ULL,
			     .len = 0x7effffff, .pgoff = 0xffffffff81000000ULL,
			     .filename = "[kernel.kallsyms]_text" };
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_mmap(&b, attr, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, &m, id));
}

void synth_fork(struct synth *s, const struct perf_event_attr *attr, uint32_t type,
		uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time,
		const struct pd_sample *id)
{
	struct pd_task t = { pid, ppid, tid, ptid, time };
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_task(&b, attr, type, 0, &t, id));
}

void synth_deferred(struct synth *s, const struct perf_event_attr *attr, uint64_t cookie,
		    uint64_t nr, const uint64_t *ips, const struct pd_sample *id)
{
	struct pd_deferred d = { cookie, nr, ips };
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_deferred(&b, attr, &d, id));
}

void synth_finished_round(struct synth *s)
{
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_finished_round(&b));
}

void synth_pipe_header(struct synth *s)
{
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_pipe_header(&b));
}

void synth_attr(struct synth *s, const struct perf_event_attr *attr, const uint64_t *ids,
		uint32_t nr_ids)
{
	struct pd_buf b = view(s);

	keep(s, &b, pd_encode_attr(&b, attr, ids, nr_ids));
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
	if (!ret && data && data->arch)
		ret = pd_writer_set_string(&w, PD_FEAT_ARCH, data->arch);
	if (!ret && data && data->stat)
		ret = pd_writer_set_feature(&w, PD_FEAT_STAT, NULL, 0);
	if (!ret && data && data->branch_stack)
		ret = pd_writer_set_feature(&w, PD_FEAT_BRANCH_STACK, NULL, 0);
	/* each with a made-up id of 20 bytes: its place in the table */
	for (int i = 0; !ret && data && i < data->nr_build_ids; i++) {
		uint8_t id[20] = { (uint8_t)(i + 1) };

		ret = pd_writer_add_build_id(&w, false, -1, id, sizeof(id), data->build_ids[i]);
	}
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

int synth_write_one(const char *path, const struct perf_event_attr *attr, const char *name,
		    const struct synth *data)
{
	const struct perf_event_attr *attrs[1] = { attr };
	const char *names[1] = { name };

	return synth_write_file(path, attrs, NULL, names, 1, data);
}
