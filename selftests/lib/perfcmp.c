// SPDX-License-Identifier: GPL-2.0
/* the plain part only: the harness's definitions belong to the test that includes it */
#define PERFCMP_NO_HARNESS
#include "perfcmp.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int perfcmp_init(struct perfcmp *c, const char *tag)
{
	memset(c, 0, sizeof(*c));
	c->dir = pc_test_mkdtemp(tag);
	if (!c->dir)
		return -1;
	snprintf(c->path, sizeof(c->path), "%s/perf.data", c->dir);
	snprintf(c->pipe, sizeof(c->pipe), "%s/pipe.data", c->dir);
	return 0;
}

void perfcmp_fini(struct perfcmp *c)
{
	pc_run_free(&c->perf);
	pc_run_free(&c->ours);
	pc_test_rmdir(c->dir);
	c->dir = NULL;
}

const char perfcmp_spin_c[] =
	"__attribute__((noinline)) unsigned long spin(unsigned long n)\n"
	"{ unsigned long a = 0; for (unsigned long i = 0; i < n; i++) a = a * 31 + i; return a; }\n"
	"int main(void) { return (int)spin(300000000) & 1; }\n";

int perfcmp_sh(struct pc_run *run, const char *fmt, ...)
{
	char cmd[4096];
	char *argv[] = { "sh", "-c", cmd, NULL };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return pc_test_run(run, 300, argv);
}

/* perf record -q OPTS -o OUT -- sh -c 'WORKLOAD'TO: OUT "'PATH'", or "-" with TO " > 'PATH'" */
static bool record(const char *opts, const char *out, const char *to, const char *workload,
		   char *why, size_t n)
{
	struct pc_run run;
	bool ok;

	if (!pc_test_have_program("perf")) {
		snprintf(why, n, "no perf installed");
		return false;
	}
	if (perfcmp_sh(&run, "perf record -q %s -o %s -- sh -c '%s'%s", opts, out, workload, to)) {
		snprintf(why, n, "cannot run perf record");
		return false;
	}
	ok = run.exit_code == 0;
	if (!ok)
		snprintf(why, n, "perf record %s%s failed: %.200s", opts, to[0] ? " -o -" : "",
			 run.err ? run.err : "");
	pc_run_free(&run);
	return ok;
}

bool perfcmp_record(const char *path, const char *opts, const char *workload, char *why,
		    size_t n)
{
	char out[600];

	snprintf(out, sizeof(out), "'%s'", path);
	return record(opts, out, "", workload, why, n);
}

bool perfcmp_record_pipe(const char *path, const char *opts, const char *workload, char *why,
			 size_t n)
{
	char to[600];

	snprintf(to, sizeof(to), " > '%s'", path);
	return record(opts, "-", to, workload, why, n);
}

int perfcmp_build_record(const struct perfcmp *c, const char *name, const char *src,
			 const char *cflags, const char *post, const char *args, const char *opts,
			 char *why, size_t n)
{
	char file[700], cmd[1200];
	struct pc_run run;
	FILE *f;
	int bad;

	if (!pc_test_have_program("cc")) {
		snprintf(why, n, "no C compiler (cc) on this machine to build the workload %s",
			 name);
		return 1;
	}
	snprintf(file, sizeof(file), "%s/%s.c", c->dir, name);
	f = fopen(file, "w");
	if (!f) {
		snprintf(why, n, "cannot write %s", file);
		return -1;
	}
	bad = fputs(src, f) < 0;
	if (fclose(f) || bad) {
		snprintf(why, n, "cannot write %s", file);
		return -1;
	}
	if (perfcmp_sh(&run, "cd '%s' && cc %s -o %s %s.c %s", c->dir, cflags, name, name, post)) {
		snprintf(why, n, "cannot run cc");
		return -1;
	}
	bad = run.exit_code != 0;
	if (bad)
		snprintf(why, n, "cc %s -o %s %s.c %s failed: %.300s", cflags, name, name, post,
			 run.err ? run.err : "");
	pc_run_free(&run);
	if (bad)
		return -1;
	snprintf(cmd, sizeof(cmd), "exec '%s/%s' %s", c->dir, name, args);
	return perfcmp_record(c->path, opts, cmd, why, n) ? 0 : 1;
}

int perfcmp_run(struct perfcmp *c, const char *pre, const char *sub, const char *ours,
		const char *fmt, ...)
{
	char args[3000];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	pc_run_free(&c->perf);
	pc_run_free(&c->ours);
	snprintf(c->label, sizeof(c->label), "perf %.20s %.250s", sub, args);
	if (perfcmp_sh(&c->perf, "%s perf %s %s", pre, sub, args))
		return -1;
	return perfcmp_sh(&c->ours, "%s '%s' %s %s %s", pre, pc_test_perfcheck(), sub, ours,
			  args) ? -1 : 0;
}

void perfcmp_cut_tip(char *out)
{
	char *tip = out ? strstr(out, "\n#\n# (Tip:") : NULL;
	char *end;

	if (!tip)
		return;
	/* "#\n# (Tip: ...)\n#\n" goes; what perf prints after it (report -T) stays */
	end = strchr(tip + 3, '\n');
	if (end && !strncmp(end, "\n#\n", 3))
		memmove(tip + 1, end + 3, strlen(end + 3) + 1);
	else
		tip[1] = '\0';
}

/*
 * The row with its bare address and level ("[k] 0x" and 16 hex digits)
 * taken out into key; false if it has none
 */
static bool address_row(const char *l, size_t len, char *key, size_t size)
{
	const char *p = NULL;

	for (size_t i = 2; i + 20 <= len && !p; i++) {
		size_t h = 0;

		if (l[i - 2] != '[' || memcmp(l + i, "] 0x", 4))
			continue;
		while (h < 16 && isxdigit((unsigned char)l[i + 4 + h]))
			h++;
		if (h == 16 && (i + 20 == len || l[i + 20] == ' '))
			p = l + i - 2;
	}
	if (!p || len >= size)
		return false;
	snprintf(key, size, "%.*s%.*s", (int)(p - l), l, (int)(len - (size_t)(p - l) - 22),
		 p + 22);
	return true;
}

/* The lines from l on that are address rows of key's, as one string each, sorted */
static int tied_run(const char *l, const char *key, char ***rows, const char **end)
{
	char k[1024];
	int n = 0;

	*rows = NULL;
	for (;;) {
		const char *e = strchrnul(l, '\n');
		char **r;

		if (!address_row(l, (size_t)(e - l), k, sizeof(k)) || strcmp(k, key))
			break;
		r = realloc(*rows, (size_t)(n + 1) * sizeof(*r));
		if (!r)
			break;
		*rows = r;
		r[n++] = strndup(l, (size_t)(e - l));
		l = *e ? e + 1 : e;
	}
	*end = l;
	return n;
}

static int str_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void free_rows(char **r, int n)
{
	for (int i = 0; i < n; i++)
		free(r[i]);
	free(r);
}

/* a and b line by line; with tied, runs of tied bare-address rows as sets (counted there) */
static bool same_lines(const char *a, const char *b, char *first, size_t n, int *tied)
{
	int line = 1;

	a = a ? a : "";
	b = b ? b : "";
	while (*a || *b) {
		const char *ea = strchrnul(a, '\n'), *eb = strchrnul(b, '\n');
		char ka[1024], kb[1024];

		if (ea - a == eb - b && !memcmp(a, b, (size_t)(ea - a))) {
			a = *ea ? ea + 1 : ea;
			b = *eb ? eb + 1 : eb;
			line++;
			continue;
		}
		if (tied && address_row(a, (size_t)(ea - a), ka, sizeof(ka)) &&
		    address_row(b, (size_t)(eb - b), kb, sizeof(kb)) && !strcmp(ka, kb)) {
			char **ra, **rb;
			const char *na, *nb;
			int x = tied_run(a, ka, &ra, &na), y = tied_run(b, kb, &rb, &nb);
			bool same = x == y && x > 1;

			if (same) {
				qsort(ra, (size_t)x, sizeof(*ra), str_cmp);
				qsort(rb, (size_t)y, sizeof(*rb), str_cmp);
				for (int i = 0; i < x && same; i++)
					same = !strcmp(ra[i], rb[i]);
			}
			free_rows(ra, x);
			free_rows(rb, y);
			if (same) {
				(*tied)++;
				a = na;
				b = nb;
				line += x;
				continue;
			}
		}
		snprintf(first, n, "line %d:\n perf: %.*s\n ours: %.*s", line,
			 (int)(ea - a > 300 ? 300 : ea - a), a, (int)(eb - b > 300 ? 300 : eb - b), b);
		return false;
	}
	return true;
}

bool perfcmp_same(const char *a, const char *b, char *first, size_t n)
{
	return same_lines(a, b, first, n, NULL);
}

bool perfcmp_same_rows(const char *a, const char *b, char *first, size_t n, int *tied)
{
	*tied = 0;
	return same_lines(a, b, first, n, tied);
}

int perfcmp_lines_with(const char *text, const char *what, const char *also, char *buf,
		       size_t size)
{
	size_t len = 0;
	int n = 0;

	buf[0] = '\0';
	for (const char *l = text; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t ll = nl ? (size_t)(nl - l) : strlen(l);

		if (memmem(l, ll, what, strlen(what)) && (!also || memmem(l, ll, also, strlen(also)))) {
			while (ll && l[ll - 1] == ' ')
				ll--;
			if (len + ll + 2 < size) {
				memcpy(buf + len, l, ll);
				len += ll;
				buf[len++] = '\n';
				buf[len] = '\0';
			}
			n++;
		}
		l = nl ? nl + 1 : NULL;
	}
	return n;
}

const char *perfcmp_perf72(void)
{
	const char *p = getenv("PERFCHECK_PERF72");

	if (!p || !*p)
		p = "/tmp/perf72";
	return access(p, X_OK) ? NULL : p;
}

void perfcmp_drop_rest_suffix(char *s)
{
	static const char pat[] = "[...] (inlined)";
	char *w = s, *r = s;

	if (!s)
		return;
	while (*r) {
		if (!strncmp(r, pat, sizeof(pat) - 1)) {
			memcpy(w, "[...]", 5);
			w += 5;
			r += sizeof(pat) - 1;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}
