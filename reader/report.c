// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck report: perf report --stdio's overhead table.  Samples are
 * grouped per event by the sort keys (comm, dso, sym by default); "Self"
 * charges a sample's period to its own ip, "Children" to every distinct
 * entry of its callchain once, as perf does when callchains exist.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "reader/out.h"
#include "reader/session.h"
#include "util/log.h"

enum { KEY_COMM, KEY_DSO, KEY_SYM, NR_KEYS };
static const char *const key_names[NR_KEYS] = { "comm", "dso", "sym" };
static const char *const key_titles[NR_KEYS] = { "Command", "Shared Object", "Symbol" };

struct entry {
	char *key;		/* the shown columns, NUL-separated, in sort-key order */
	size_t key_len;
	uint64_t self, children;
	uint64_t stamp;		/* last sample that charged children */
	struct entry *next;
};

struct table {
	const struct pd_evsel *evsel;
	struct entry **buckets;
	size_t nr_buckets, nr;
	uint64_t samples, total;
};

struct report {
	int keys[NR_KEYS];
	int nr_keys;
	int children;		/* -1: when callchains exist */
	struct table *tables;	/* one per evsel, indexed like the reader's */
	uint32_t nr_tables;
	uint64_t stamp;
	uint64_t lost;
};

static size_t hash_mem(const char *p, size_t n)
{
	size_t h = 1469598103934665603ULL;

	while (n--)
		h = (h ^ (unsigned char)*p++) * 1099511628211ULL;
	return h;
}

static struct entry *table_get(struct table *t, const char *key, size_t len)
{
	size_t b;
	struct entry *e;

	if (!t->buckets) {
		t->nr_buckets = 4096;
		t->buckets = calloc(t->nr_buckets, sizeof(*t->buckets));
		if (!t->buckets)
			return NULL;
	}
	b = hash_mem(key, len) % t->nr_buckets;
	for (e = t->buckets[b]; e; e = e->next)
		if (e->key_len == len && !memcmp(e->key, key, len))
			return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->key = malloc(len);
	if (!e->key) {
		free(e);
		return NULL;
	}
	memcpy(e->key, key, len);
	e->key_len = len;
	e->next = t->buckets[b];
	t->buckets[b] = e;
	t->nr++;
	return e;
}

static const char *short_dso(const char *dso)
{
	const char *slash;

	if (!dso)
		return "[unknown]";
	slash = strrchr(dso, '/');
	return slash && dso[0] == '/' ? slash + 1 : dso;
}

/* The key of one frame: the selected columns joined by NULs. */
static size_t frame_key(struct report *rp, struct rd_session *s, struct rd_thread *t,
			bool kernel, uint64_t ip, char *buf, size_t size)
{
	struct rd_resolved r;
	size_t len = 0;

	rd_resolve(s, t, kernel, ip, &r);
	for (int i = 0; i < rp->nr_keys; i++) {
		char sym[512];
		const char *v;
		int n;

		switch (rp->keys[i]) {
		case KEY_COMM:
			v = t->comm;
			break;
		case KEY_DSO:
			v = short_dso(r.dso);
			break;
		default:
			if (r.sym)
				snprintf(sym, sizeof(sym), "[%c] %s", kernel ? 'k' : '.', r.sym->name);
			else
				snprintf(sym, sizeof(sym), "[%c] 0x%016llx", kernel ? 'k' : '.',
					 (unsigned long long)r.addr);
			v = sym;
			break;
		}
		n = snprintf(buf + len, size - len, "%s", v);
		if (n < 0 || (size_t)n + 1 >= size - len)
			break;
		len += (size_t)n + 1;
	}
	return len;
}

static int charge(struct report *rp, struct table *t, const char *key, size_t len,
		  uint64_t period, bool self)
{
	struct entry *e = table_get(t, key, len);

	if (!e)
		return -ENOMEM;
	if (self)
		e->self += period;
	if (e->stamp != rp->stamp) {
		e->stamp = rp->stamp;
		e->children += period;
	}
	return 0;
}

static int on_sample(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct report *rp = ctx;
	const struct pd_sample *smp = ev->sample;
	const struct pd_evsel *e = smp->evsel;
	uint32_t idx = e ? (uint32_t)(e - s->r.evsels) : 0;
	char key[2048];
	size_t len;
	bool kernel, first = true;

	if (idx >= rp->nr_tables) {
		struct table *v = realloc(rp->tables, (idx + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + rp->nr_tables, 0, (idx + 1 - rp->nr_tables) * sizeof(*v));
		rp->tables = v;
		rp->nr_tables = idx + 1;
	}
	rp->tables[idx].evsel = e;
	rp->tables[idx].samples++;
	rp->tables[idx].total += smp->period;
	rp->stamp++;
	if (!e || !(e->attr.attr.sample_type & PERF_SAMPLE_CALLCHAIN) || !ev->base_nr) {
		uint16_t m = ev->rec->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

		kernel = m == PERF_RECORD_MISC_KERNEL;
		len = frame_key(rp, s, ev->thread, kernel, smp->ip, key, sizeof(key));
		return charge(rp, &rp->tables[idx], key, len, smp->period, true);
	}
	kernel = false;
	for (int part = 0; part < 2; part++) {
		const uint64_t *ips = part ? ev->extra : ev->base;
		uint64_t nr = part ? ev->extra_nr : ev->base_nr;

		for (uint64_t i = 0; i < nr; i++) {
			int ret;

			if (pc_is_context(ips[i])) {
				kernel = ips[i] == PC_CONTEXT_KERNEL;
				continue;
			}
			len = frame_key(rp, s, ev->thread, kernel, ips[i], key, sizeof(key));
			ret = charge(rp, &rp->tables[idx], key, len, smp->period, first);
			if (ret)
				return ret;
			first = false;
		}
	}
	return 0;
}

struct sort_ctx {
	bool children;
};

static bool sort_children;

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;
	uint64_t vx = sort_children ? x->children : x->self;
	uint64_t vy = sort_children ? y->children : y->self;
	size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
	int c;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	c = memcmp(x->key, y->key, n);
	return c ? c : (x->key_len > y->key_len) - (x->key_len < y->key_len);
}

static void samples_line(struct rd_out *o, uint64_t n, const char *name)
{
	char unit = ' ';

	if (n > 1000000000ULL) {
		n /= 1000000000ULL;
		unit = 'G';
	} else if (n > 1000000) {
		n /= 1000000;
		unit = 'M';
	} else if (n > 1000) {
		n /= 1000;
		unit = 'K';
	}
	rd_out_printf(o, "# Samples: %llu%c of event '%s'\n", (unsigned long long)n, unit, name);
}

static void print_table(struct report *rp, struct table *t, bool children, struct rd_out *o)
{
	struct entry **v;
	size_t n = 0;
	int width[NR_KEYS];
	char dots[256];

	rd_out_str(o, "#\n");
	samples_line(o, t->samples, t->evsel && t->evsel->name ? t->evsel->name : "?");
	rd_out_printf(o, "# Event count (approx.): %llu\n#\n", (unsigned long long)t->total);
	v = malloc((t->nr ? t->nr : 1) * sizeof(*v));
	if (!v)
		return;
	for (size_t b = 0; b < t->nr_buckets; b++)
		for (struct entry *e = t->buckets[b]; e; e = e->next)
			if (children ? e->children : e->self)
				v[n++] = e;
	sort_children = children;
	qsort(v, n, sizeof(*v), entry_cmp);
	for (int k = 0; k < rp->nr_keys; k++)
		width[k] = (int)strlen(key_titles[rp->keys[k]]);
	for (size_t i = 0; i < n; i++) {
		const char *p = v[i]->key;

		for (int k = 0; k < rp->nr_keys; k++) {
			int len = (int)strlen(p);

			if (len > width[k])
				width[k] = len;
			p += len + 1;
		}
	}
	rd_out_str(o, children ? "# Children      Self" : "# Overhead");
	for (int k = 0; k < rp->nr_keys; k++)
		rd_out_printf(o, "  %-*s", k == rp->nr_keys - 1 ? 0 : width[k],
			      key_titles[rp->keys[k]]);
	rd_out_str(o, children ? "\n# ........  ........" : "\n# ........");
	for (int k = 0; k < rp->nr_keys; k++) {
		int w = width[k] < (int)sizeof(dots) - 1 ? width[k] : (int)sizeof(dots) - 1;

		memset(dots, '.', (size_t)w);
		dots[w] = '\0';
		rd_out_printf(o, "  %s", dots);
	}
	rd_out_str(o, "\n#\n");
	for (size_t i = 0; i < n; i++) {
		const char *p = v[i]->key;
		double total = t->total ? (double)t->total : 1.0;

		if (children)
			rd_out_printf(o, "%9.2f%%  %7.2f%%", 100.0 * (double)v[i]->children / total,
				      100.0 * (double)v[i]->self / total);
		else
			rd_out_printf(o, "%9.2f%%", 100.0 * (double)v[i]->self / total);
		for (int k = 0; k < rp->nr_keys; k++) {
			rd_out_printf(o, "  %-*s", k == rp->nr_keys - 1 ? 0 : width[k], p);
			p += strlen(p) + 1;
		}
		rd_out_char(o, '\n');
	}
	rd_out_str(o, "\n\n");
	free(v);
}

static int parse_sort(struct report *rp, const char *spec)
{
	char *copy = strdup(spec), *save = NULL, *tok;

	if (!copy)
		return -1;
	rp->nr_keys = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k;

		for (k = 0; k < NR_KEYS; k++)
			if (!strcmp(tok, key_names[k]))
				break;
		if (k == NR_KEYS || rp->nr_keys == NR_KEYS) {
			fprintf(stderr, "perfcheck report: unknown sort key '%s' (known: comm,dso,sym)\n",
				tok);
			free(copy);
			return -1;
		}
		rp->keys[rp->nr_keys++] = k;
	}
	free(copy);
	return rp->nr_keys ? 0 : -1;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: perfcheck report [-i FILE] [--stdio] [--children|--no-children] [--sort KEYS]\n"
"\n"
"Per-symbol overhead of a perf.data file, like perf report --stdio.\n"
"\n"
"  -i, --input FILE   the file to read (default perf.data; - for stdin)\n"
"      --stdio        text output (the only kind)\n"
"      --children     add a Children column: each callchain entry's share\n"
"                     (the default when samples have callchains)\n"
"      --no-children  only the samples' own ips\n"
"  -s, --sort KEYS    group by comm, dso, sym (default comm,dso,sym)\n"
"      --symfs DIR    look DSOs up under DIR, never in this machine's files,\n"
"                     and leave kernel addresses unresolved\n"
"  -v, --verbose      more diagnostics\n"
"  -h, --help         this help\n");
}

static const struct option options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "stdio", no_argument, NULL, 'S' },
	{ "children", no_argument, NULL, 'c' },
	{ "no-children", no_argument, NULL, 'n' },
	{ "sort", required_argument, NULL, 's' },
	{ "symfs", required_argument, NULL, 'Y' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_report(int argc, char **argv)
{
	struct report rp = { .keys = { KEY_COMM, KEY_DSO, KEY_SYM }, .nr_keys = 3, .children = -1 };
	struct pc_error err = { 0 };
	const char *input = "perf.data", *symfs = NULL;
	char debug_dir[4096];
	struct rd_session *s;
	struct rd_out out;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:s:vh", options, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'S':
			break;
		case 'c':
			rp.children = 1;
			break;
		case 'n':
			rp.children = 0;
			break;
		case 's':
			if (parse_sort(&rp, optarg))
				return 1;
			break;
		case 'Y':
			symfs = optarg;
			break;
		case 'v':
			pc_verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "perfcheck report: unexpected argument '%s'\n", argv[optind]);
		return 1;
	}
	s = calloc(1, sizeof(*s));
	if (!s || rd_out_init(&out, STDOUT_FILENO)) {
		fprintf(stderr, "perfcheck report: out of memory\n");
		free(s);
		return 1;
	}
	ret = rd_session_open(s, input, &err);
	/* replay anywhere (fixtures): nothing of this machine's files is used */
	if (!ret && symfs) {
		snprintf(debug_dir, sizeof(debug_dir), "%s/usr/lib/debug", symfs);
		s->dsos.root = symfs;
		s->dsos.debug_dir = debug_dir;
		s->kernel_local = false;
		s->dsos.own_vdso = false;
		s->dsos.buildid_dir = NULL;
	}
	if (!ret) {
		s->merge = true;
		s->ops.sample = on_sample;
		s->ops.ctx = &rp;
		ret = rd_session_process(s, &err);
	}
	if (!ret) {
		for (uint32_t i = 0; i < rp.nr_tables; i++) {
			struct table *t = &rp.tables[i];
			bool children = rp.children;

			if (!t->samples)
				continue;
			if (rp.children < 0)
				children = t->evsel &&
					   (t->evsel->attr.attr.sample_type & PERF_SAMPLE_CALLCHAIN);
			print_table(&rp, t, children, &out);
		}
	} else {
		fprintf(stderr, "%s\n", err.msg[0] ? err.msg : strerror(-ret));
	}
	rd_out_flush(&out);
	for (uint32_t i = 0; i < rp.nr_tables; i++) {
		struct table *t = &rp.tables[i];

		for (size_t b = 0; b < t->nr_buckets; b++) {
			struct entry *e = t->buckets[b], *n;

			for (; e; e = n) {
				n = e->next;
				free(e->key);
				free(e);
			}
		}
		free(t->buckets);
	}
	free(rp.tables);
	rd_session_close(s);
	free(s);
	rd_out_free(&out);
	return ret ? 2 : 0;
}
