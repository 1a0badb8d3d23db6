// SPDX-License-Identifier: GPL-2.0
/* The helpers declared in xk_common.h, compiled once for every test. */
#include "xk_common.h"

const char *xk_pcwork(void)
{
	static char path[PATH_MAX];

	if (!path[0]) {
		char tmp[PATH_MAX];

		snprintf(tmp, sizeof(tmp), "%s", pc_test_perfcheck());
		snprintf(path, sizeof(path), "%s/pcwork", dirname(tmp));
	}
	return path;
}

bool xk_has(enum pc_feature f)
{
	return pc_feature_probe(f, NULL) == PC_FEATURE_SUPPORTED;
}

int xk_record(struct pc_run *run, const char *out, const char *const *opts,
			    const char *const *wl, int timeout)
{
	char *argv[XK_MAX_ARGS];
	int n = 0;

	argv[n++] = (char *)pc_test_perfcheck();
	argv[n++] = "record";
	argv[n++] = "-o";
	argv[n++] = (char *)out;
	for (; opts && *opts && n < XK_MAX_ARGS - 12; opts++)
		argv[n++] = (char *)*opts;
	argv[n++] = "--";
	argv[n++] = (char *)xk_pcwork();
	for (; wl && *wl && n < XK_MAX_ARGS - 1; wl++)
		argv[n++] = (char *)*wl;
	argv[n] = NULL;
	return pc_test_run(run, timeout, argv);
}

int xk_perfcheck(struct pc_run *run, const char *file, const char *const *args)
{
	char *argv[XK_MAX_ARGS];
	int n = 0;

	argv[n++] = (char *)pc_test_perfcheck();
	for (; args && *args && n < XK_MAX_ARGS - 4; args++)
		argv[n++] = (char *)*args;
	argv[n++] = "-i";
	argv[n++] = (char *)file;
	argv[n] = NULL;
	return pc_test_run(run, 120, argv);
}

struct xk_tid *xk_tid_of(struct xk_file *f, uint32_t pid, uint32_t tid)
{
	for (int i = 0; i < f->nr_tids; i++)
		if (f->tids[i].tid == tid)
			return &f->tids[i];
	if (f->nr_tids == XK_MAX_IDS)
		return NULL;
	f->tids[f->nr_tids] = (struct xk_tid){ .pid = pid, .tid = tid, .read_min = UINT64_MAX,
					       .read_monotonic = true };
	return &f->tids[f->nr_tids++];
}

int xk_read_cmp(const void *a, const void *b)
{
	const struct xk_read *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

int xk_read(const char *path, struct xk_file *f)
{
	struct pc_error err = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	uint64_t pos = 0;
	int ret;

	memset(f, 0, sizeof(*f));
	if (pd_reader_open(&r, path, &err)) {
		snprintf(f->err, sizeof(f->err), "open: %s", err.msg);
		return -1;
	}
	if (r.nr_evsels) {
		f->sample_type = r.evsels[0].attr.attr.sample_type;
		f->period = r.evsels[0].attr.attr.freq ? 0 : r.evsels[0].attr.attr.sample_period;
		f->inherit = r.evsels[0].attr.attr.inherit;
		f->inherit_stat = r.evsels[0].attr.attr.inherit_stat;
	}
	pd_reader_feature_string(&r, PD_FEAT_PERFCHECK_OPEN, f->open_line, sizeof(f->open_line),
				 NULL);
	while ((ret = pd_reader_next(&r, &pos, &rec, &err)) == 1) {
		struct pd_sample s;
		struct xk_tid *t;

		f->records++;
		switch (rec.header.type) {
		case PERF_RECORD_SAMPLE:
			if (pd_parse_sample(&r, &rec, &s, &err)) {
				snprintf(f->err, sizeof(f->err), "sample: %s", err.msg);
				ret = -1;
				goto out;
			}
			if (!f->samples++) {
				f->first_pid = s.pid;
				f->first_tid = s.tid;
			}
			if (s.chain.nr)
				f->samples_with_chain++;
			if (s.chain.deferred)
				f->samples_with_defer_cookie++;
			t = xk_tid_of(f, s.pid, s.tid);
			if (!t)
				break;
			t->samples++;
			if (s.evsel && (s.evsel->attr.attr.sample_type & PERF_SAMPLE_READ)) {
				uint64_t v = s.read.first.value;

				f->samples_with_read++;
				if (v < t->read_min)
					t->read_min = v;
				if (v > t->read_max)
					t->read_max = v;
				if (!(t->nr_reads & 255)) {
					void *n = realloc(t->reads,
							  (t->nr_reads + 256) * sizeof(*t->reads));

					if (!n)
						break;
					t->reads = n;
				}
				t->reads[t->nr_reads++] = (struct xk_read){ s.id, s.time, v };
			}
			break;
		case PC_RECORD_CALLCHAIN_DEFERRED:
			f->deferred++;
			break;
		case PERF_RECORD_READ:
			f->reads++;
			break;
		case PERF_RECORD_FORK: {
			const uint32_t *ids = (const uint32_t *)((const char *)rec.data + 8);
			const uint64_t *when = (const uint64_t *)((const char *)rec.data + 24);

			f->forks++;
			if (rec.header.size >= 32 && (t = xk_tid_of(f, ids[0], ids[2])))
				t->fork_time = *when;
			break;
		}
		case PERF_RECORD_LOST:
			f->lost++;
			break;
		}
	}
	if (ret < 0)
		snprintf(f->err, sizeof(f->err), "records: %s", err.msg);
out:
	pd_reader_close(&r);
	for (int i = 0; i < f->nr_tids; i++) {
		struct xk_tid *t = &f->tids[i];
		bool seen = false;

		for (int j = 0; j < i; j++)
			seen |= f->tids[j].pid == t->pid && f->tids[j].samples;
		f->nr_pids += t->samples && !seen;

		if (t->nr_reads)
			qsort(t->reads, t->nr_reads, sizeof(*t->reads), xk_read_cmp);
		for (size_t j = 0; j < t->nr_reads; j++) {
			const struct xk_read *a = &t->reads[j], *b = j ? &t->reads[j - 1] : NULL;

			if (!t->first_time || a->time < t->first_time) {
				t->first_time = a->time;
				t->first_value = a->value;
			}
			if (!b || a->id != b->id)
				continue;
			if (a->value < b->value)
				t->read_monotonic = false;
			/* one thread's cpu time cannot outrun the clock (5% and 0.2 ms of slack) */
			else if (a->value - b->value > (a->time - b->time) * 21 / 20 + 200000)
				t->read_outruns_time = true;
		}
		free(t->reads);
		t->reads = NULL;
	}
	return ret < 0 ? -1 : 0;
}

bool xk_listed(const char *line, const char *key, const char *name)
{
	const char *p = strstr(line, key);
	size_t n = strlen(name);

	if (!p)
		return false;
	p += strlen(key);
	while (*p && *p != ';' && *p != '\n') {
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == ';' || p[n] == '\n' || !p[n]))
			return true;
		while (*p && *p != ',' && *p != ';' && *p != '\n')
			p++;
		if (*p == ',')
			p++;
	}
	return false;
}

int xk_dir_make(struct xk_dir *d, const char *tag)
{
	d->dir = pc_test_mkdtemp(tag);
	if (!d->dir)
		return -1;
	snprintf(d->data, sizeof(d->data), "%s/perf.data", d->dir);
	return 0;
}

void xk_dir_free(struct xk_dir *d)
{
	if (d->dir)
		pc_test_rmdir(d->dir);
	d->dir = NULL;
}
