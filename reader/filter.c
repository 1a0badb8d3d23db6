// SPDX-License-Identifier: GPL-2.0
#include "reader/filter.h"
#include "reader/machine.h"
#include "perfdata/perfdata.h"

#include <errno.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rd_filter_list(struct rd_list *l, const char *spec)
{
	char *copy = strdup(spec), *save = NULL, *tok;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **v = realloc(l->v, (l->nr + 1) * sizeof(*v));

		if (!v || !(v[l->nr] = strdup(tok))) {
			if (v)
				l->v = v;
			free(copy);
			return -1;
		}
		l->v = v;
		l->nr++;
	}
	free(copy);
	return l->nr ? 0 : -1;
}

/* perf's reading of an -S entry as an address: all hex (strtoul base 16), trailing blanks aside */
static bool hex_entry(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 16);
	if (errno || end == s)
		return false;
	while (*end && isspace((unsigned char)*end))
		end++;
	return !*end;
}

int rd_filter_symbols(struct rd_filter *f, const char *spec)
{
	size_t kept = 0;

	if (rd_filter_list(&f->syms, spec))
		return -1;
	for (size_t i = 0; i < f->syms.nr; i++) {
		uint64_t v;

		if (hex_entry(f->syms.v[i], &v) && f->nr_addrs < RD_FILTER_MAX) {
			f->addrs[f->nr_addrs++] = (int64_t)v;
			free(f->syms.v[i]);
			continue;
		}
		f->syms.v[kept++] = f->syms.v[i];
	}
	f->syms.nr = kept;
	return 0;
}

/* "1,3,5" or with ranges "0-2,4" (cpus) */
int rd_filter_numbers(int64_t *v, size_t *nr, const char *spec, bool ranges)
{
	const char *p = spec;

	while (*p) {
		char *end;
		long long a = strtoll(p, &end, 10), b;

		if (end == p || a < 0)
			return -1;
		b = a;
		if (ranges && *end == '-') {
			p = end + 1;
			b = strtoll(p, &end, 10);
			if (end == p || b < a)
				return -1;
		}
		for (long long x = a; x <= b; x++) {
			if (*nr == RD_FILTER_MAX)
				return -1;
			v[(*nr)++] = x;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		p = end;
	}
	return *nr ? 0 : -1;
}

/* "SEC[.FRACTION]" to ns; an empty text is 0 (open). */
static int parse_sec(const char *s, size_t n, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0;

	*ns = 0;
	if (!n)
		return 0;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (digits < 9) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				digits++;
			}
	}
	if (i != n || sec > UINT64_MAX / 1000000000ULL)
		return -1;
	while (digits++ < 9)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

static int parse_pct(const char *s, size_t n, double *v)
{
	char buf[32], *end;

	if (!n || n >= sizeof(buf) || s[n - 1] != '%')
		return -1;
	memcpy(buf, s, n - 1);
	buf[n - 1] = '\0';
	*v = strtod(buf, &end);
	if (end == buf || *end || *v < 0 || *v > 100)
		return -1;
	*v /= 100.0;
	return 0;
}

static int percent_item(struct rd_filter *f, const char *s, size_t n)
{
	const char *slash = memchr(s, '/', n), *dash = memchr(s, '-', n);
	struct rd_time_range *r = &f->times[f->nr_times];
	double a, b;

	if (slash) {
		char buf[16], *end;
		long k;

		if (parse_pct(s, (size_t)(slash - s), &a) || (size_t)(s + n - slash) >= sizeof(buf))
			return -1;
		memcpy(buf, slash + 1, (size_t)(s + n - slash - 1));
		buf[s + n - slash - 1] = '\0';
		k = strtol(buf, &end, 10);
		if (end == buf || *end || k < 1 || a <= 0 || a * (double)k > 1.0 + 1e-9)
			return -1;
		r->pstart = a * (double)(k - 1);
		r->pend = a * (double)k;
	} else if (dash) {
		if (parse_pct(s, (size_t)(dash - s), &a) ||
		    parse_pct(dash + 1, (size_t)(s + n - dash - 1), &b) || b < a)
			return -1;
		r->pstart = a;
		r->pend = b;
	} else {
		return -1;
	}
	r->percent = true;
	f->has_percent = true;
	f->nr_times++;
	return 0;
}

int rd_filter_time(struct rd_filter *f, const char *spec)
{
	size_t n = strlen(spec);

	f->any = true;
	if (memchr(spec, '%', n)) {
		const char *p = spec;

		while (*p) {
			size_t len = strcspn(p, ",");

			if (f->nr_times == RD_FILTER_MAX || percent_item(f, p, len))
				return -1;
			p += len;
			if (*p == ',')
				p++;
		}
		return f->nr_times ? 0 : -1;
	} else {
		const char *comma = strchr(spec, ',');
		struct rd_time_range *r = &f->times[f->nr_times];

		if (!comma || f->nr_times == RD_FILTER_MAX)
			return -1;
		if (parse_sec(spec, (size_t)(comma - spec), &r->start) ||
		    parse_sec(comma + 1, strlen(comma + 1), &r->end))
			return -1;
		if (r->end && r->start > r->end)
			return -1;
		f->nr_times++;
	}
	return 0;
}

void rd_filter_time_resolve(struct rd_filter *f, uint64_t first, uint64_t last)
{
	double total = (double)(last - first);

	for (size_t i = 0; i < f->nr_times; i++) {
		struct rd_time_range *r = &f->times[i];

		if (!r->percent)
			continue;
		r->start = first + (uint64_t)(r->pstart * total + 0.5);
		r->end = first + (uint64_t)(r->pend * total + 0.5);
		/* a slice ends before the next begins */
		if (r->pend < 1.0 && r->end > r->start)
			r->end--;
		if (!r->start)
			r->start = 1;
	}
}

void rd_filter_free(struct rd_filter *f)
{
	struct rd_list *lists[] = { &f->comms, &f->dsos, &f->syms };

	for (size_t i = 0; i < 3; i++) {
		for (size_t j = 0; j < lists[i]->nr; j++)
			free(lists[i]->v[j]);
		free(lists[i]->v);
		lists[i]->v = NULL;
		lists[i]->nr = 0;
	}
}

bool rd_filter_in_list(const struct rd_list *l, const char *s, size_t len)
{
	for (size_t i = 0; i < l->nr; i++)
		if (strlen(l->v[i]) == len && !memcmp(l->v[i], s, len))
			return true;
	return false;
}

bool rd_filter_in_numbers(const int64_t *v, size_t nr, int64_t x)
{
	for (size_t i = 0; i < nr; i++)
		if (v[i] == x)
			return true;
	return false;
}

bool rd_filter_time_ok(const struct rd_filter *f, uint64_t t)
{
	if (!f->nr_times)
		return true;
	for (size_t i = 0; i < f->nr_times; i++) {
		const struct rd_time_range *r = &f->times[i];

		if ((!r->start || t >= r->start) && (!r->end || t <= r->end))
			return true;
	}
	return false;
}

int rd_filter_cpus_usable(const struct rd_filter *f, const struct pd_reader *r)
{
	uint32_t avail = 0, online;
	int64_t low = -1;

	if (!f->nr_cpus)
		return 0;
	if (!r->pipe_format) {
		for (uint32_t type = 0; type < PERF_TYPE_MAX; type++)
			for (uint32_t i = 0; i < r->nr_evsels; i++) {
				if (r->evsels[i].attr.attr.type != type)
					continue;
				if (!(r->evsels[i].attr.attr.sample_type & PERF_SAMPLE_CPU)) {
					fprintf(stderr, "File does not contain CPU events. "
						"Remove -C option to proceed.\n");
					return -1;
				}
				break;
			}
		if (pd_reader_nrcpus(r, &avail, &online, NULL))
			avail = 0;
	}
	/* perf's cpu map warns once of a CPU past its MAX_NR_CPUS (2048), and caps the count */
	for (size_t i = 0; i < f->nr_cpus; i++)
		if (f->cpus[i] >= 2048) {
			fprintf(stderr, "Perf can support 2048 CPUs. Consider raising MAX_NR_CPUS\n");
			break;
		}
	if (avail > 2048)
		avail = 2048;
	/* perf sorts the list: the lowest CPU out of range is the one named */
	for (size_t i = 0; i < f->nr_cpus; i++)
		if (f->cpus[i] >= (int64_t)avail && (low < 0 || f->cpus[i] < low))
			low = f->cpus[i];
	if (low >= 0) {
		fprintf(stderr, "Requested CPU %lld too large. Consider raising MAX_NR_CPUS\n",
			(long long)low);
		return -1;
	}
	return 0;
}

/* The first and last sample times of a file. */
static int sample_span(struct pd_reader *r, uint64_t *first, uint64_t *last, struct pc_error *err)
{
	const void *data;
	size_t size;
	struct pd_record rec;
	struct pd_sample smp;
	uint64_t pos = 0;
	int ret;

	if (!pd_reader_feature(r, PD_FEAT_SAMPLE_TIME, &data, &size) && size >= 16) {
		memcpy(first, data, 8);
		memcpy(last, (const uint8_t *)data + 8, 8);
		return 0;
	}
	if (r->pipe_format)
		return pc_error_set(err, EINVAL, "--time with percents needs a file, not a pipe");
	*first = UINT64_MAX;
	*last = 0;
	while ((ret = pd_reader_next(r, &pos, &rec, err)) > 0) {
		if (rec.header.type != PERF_RECORD_SAMPLE)
			continue;
		ret = pd_parse_sample(r, &rec, &smp, err);
		if (ret)
			return ret;
		if (smp.evsel && (smp.evsel->attr.attr.sample_type & PERF_SAMPLE_TIME)) {
			if (smp.time < *first)
				*first = smp.time;
			if (smp.time > *last)
				*last = smp.time;
		}
	}
	if (*first > *last)
		*first = *last = 0;
	return ret;
}

int rd_filter_time_span(struct rd_filter *f, struct pd_reader *r, struct pc_error *err)
{
	uint64_t first = 0, last = 0;
	int ret = sample_span(r, &first, &last, err);

	if (!ret)
		rd_filter_time_resolve(f, first, last);
	return ret;
}

static bool dso_in(const struct rd_list *l, const struct rd_resolved *r)
{
	const char *slash;

	if (!r->dso)
		return rd_filter_in_list(l, "[unknown]", 9);
	if (rd_filter_in_list(l, r->dso, r->dso_len))
		return true;
	slash = memrchr(r->dso, '/', r->dso_len);
	return slash && rd_filter_in_list(l, slash + 1, r->dso_len - (size_t)(slash + 1 - r->dso));
}

bool rd_filter_dso_ok(const struct rd_filter *f, const struct rd_resolved *r)
{
	return !f->dsos.nr || dso_in(&f->dsos, r);
}

/*
 * perf's symbol filter: the symbol's name, or its start address as
 * "0x..." among the names; else, where a map holds ip, ip among the
 * addresses (or within addr_range after one)
 */
bool rd_filter_sym_ok(const struct rd_filter *f, const struct rd_resolved *r, uint64_t ip)
{
	char start[32];

	if (!rd_filter_has_syms(f))
		return true;
	if (r->sym) {
		if (rd_filter_in_list(&f->syms, r->sym->name, r->sym->name_len))
			return true;
		snprintf(start, sizeof(start), "0x%llx", (unsigned long long)(ip - r->off));
		if (rd_filter_in_list(&f->syms, start, strlen(start)))
			return true;
	}
	if (!r->dso)
		return false;
	for (size_t i = 0; i < f->nr_addrs; i++)
		if (ip == (uint64_t)f->addrs[i] ||
		    (ip >= (uint64_t)f->addrs[i] && ip - (uint64_t)f->addrs[i] < f->addr_range))
			return true;
	return false;
}

bool rd_filter_object_ok(const struct rd_filter *f, const struct rd_resolved *r, uint64_t ip)
{
	return rd_filter_dso_ok(f, r) && rd_filter_sym_ok(f, r, ip);
}

bool rd_filter_thread_ok(const struct rd_filter *f, const char *comm, int64_t pid, int64_t tid)
{
	return (!f->comms.nr || rd_filter_in_list(&f->comms, comm, strlen(comm))) &&
	       (!f->nr_pids || rd_filter_in_numbers(f->pids, f->nr_pids, pid)) &&
	       (!f->nr_tids || rd_filter_in_numbers(f->tids, f->nr_tids, tid));
}
