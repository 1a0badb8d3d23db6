// SPDX-License-Identifier: GPL-2.0
/* perf report -T: see report_threads.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/codec.h"
#include "reader/report_threads.h"

static int thread_index(struct rp_threads *t, int32_t pid, int32_t tid)
{
	for (uint32_t i = 0; i < t->nr_threads; i++)
		if (t->pid[i] == pid && t->tid[i] == tid)
			return (int)i;
	if (t->nr_threads == t->cap_threads) {
		uint32_t cap = t->cap_threads ? 2 * t->cap_threads : 16;
		int32_t *p = realloc(t->pid, cap * sizeof(*p));
		int32_t *q = p ? realloc(t->tid, cap * sizeof(*q)) : NULL;
		uint64_t *v;

		if (p)
			t->pid = p;
		if (!q)
			return -ENOMEM;
		t->tid = q;
		v = realloc(t->value, (size_t)cap * RP_THREADS_MAX_COUNTERS * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->value = v;
		t->cap_threads = cap;
	}
	t->pid[t->nr_threads] = pid;
	t->tid[t->nr_threads] = tid;
	memset(&t->value[(size_t)t->nr_threads * RP_THREADS_MAX_COUNTERS], 0,
	       RP_THREADS_MAX_COUNTERS * sizeof(*t->value));
	return (int)t->nr_threads++;
}

static int counter_index(struct rp_threads *t, const struct pd_evsel *e)
{
	char **names;
	uint32_t *evsel;

	for (uint32_t i = 0; i < t->nr_counters; i++)
		if (t->evsel[i] == e->idx)
			return (int)i;
	if (t->nr_counters == RP_THREADS_MAX_COUNTERS)
		return -E2BIG;
	evsel = realloc(t->evsel, (t->nr_counters + 1) * sizeof(*evsel));
	if (evsel)
		t->evsel = evsel;
	names = evsel ? realloc(t->names, (t->nr_counters + 1) * sizeof(*names)) : NULL;
	if (!names)
		return -ENOMEM;
	t->names = names;
	names[t->nr_counters] = strdup(e->name ? e->name : "");
	if (!names[t->nr_counters])
		return -ENOMEM;
	evsel[t->nr_counters] = e->idx;
	return (int)t->nr_counters++;
}

/* u32 pid, u32 tid, then the read format's first value (perf takes that one) */
int rp_threads_read(struct rp_threads *t, const char *path, const struct pd_record *rec,
		    const struct pd_evsel *evsel, struct pc_error *err)
{
	const uint8_t *p = rec->data;
	int32_t pid, tid;
	uint64_t value;
	int ti, ci;

	if (rec->header.size < 24)
		return pd_record_too_short(path, rec, 24, err);
	memcpy(&pid, p + 8, 4);
	memcpy(&tid, p + 12, 4);
	memcpy(&value, p + 16, 8);
	ti = thread_index(t, pid, tid);
	ci = ti < 0 ? ti : counter_index(t, evsel);
	if (ci == -E2BIG)
		return pc_error_set(err, E2BIG, "%s: offset 0x%llx: READ records of more than %d "
				    "events", path, (unsigned long long)rec->offset,
				    RP_THREADS_MAX_COUNTERS);
	if (ti < 0 || ci < 0)
		return pc_error_set(err, ENOMEM, "out of memory");
	t->value[(size_t)ti * RP_THREADS_MAX_COUNTERS + (size_t)ci] += value;
	return 0;
}

static int width_of(long long v, int min)
{
	int w = snprintf(NULL, 0, "%lld", v);

	return w > min ? w : min;
}

void rp_threads_print(const struct rp_threads *t, struct rd_out *o)
{
	int pidw = 3, tidw = 3, w[RP_THREADS_MAX_COUNTERS];

	for (uint32_t j = 0; j < t->nr_counters; j++)
		w[j] = (int)strlen(t->names[j]);
	for (uint32_t i = 0; i < t->nr_threads; i++) {
		pidw = width_of(t->pid[i], pidw);
		tidw = width_of(t->tid[i], tidw);
		for (uint32_t j = 0; j < t->nr_counters; j++) {
			int n = snprintf(NULL, 0, "%" PRIu64,
					 t->value[(size_t)i * RP_THREADS_MAX_COUNTERS + j]);

			if (n > w[j])
				w[j] = n;
		}
	}
	rd_out_printf(o, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (uint32_t j = 0; j < t->nr_counters; j++)
		rd_out_printf(o, "  %*s", w[j], t->names[j]);
	rd_out_char(o, '\n');
	for (uint32_t i = 0; i < t->nr_threads; i++) {
		rd_out_printf(o, "  %*d  %*d", pidw, t->pid[i], tidw, t->tid[i]);
		for (uint32_t j = 0; j < t->nr_counters; j++)
			rd_out_printf(o, "  %*" PRIu64, w[j],
				      t->value[(size_t)i * RP_THREADS_MAX_COUNTERS + j]);
		rd_out_char(o, '\n');
	}
}

void rp_threads_free(struct rp_threads *t)
{
	for (uint32_t i = 0; i < t->nr_counters; i++)
		free(t->names[i]);
	free(t->names);
	free(t->evsel);
	free(t->pid);
	free(t->tid);
	free(t->value);
	memset(t, 0, sizeof(*t));
}
