// SPDX-License-Identifier: GPL-2.0
/* The helpers declared in interop_script.h, compiled once for every test. */
#include "interop_script.h"

void is_free(struct is_script *s)
{
	for (int i = 0; i < s->nr; i++)
		free(s->samples[i].frames);
	free(s->samples);
	memset(s, 0, sizeof(*s));
}

bool is_time_token(const char *t)
{
	const char *p = t;

	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '.' || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return p[0] == ':' && p[1] == '\0';
}

bool is_all_digits(const char *t, bool slash)
{
	if (!*t)
		return false;
	for (; *t; t++)
		if (!isdigit((unsigned char)*t) && !(slash && *t == '/'))
			return false;
	return true;
}

int is_parse_frame(const char *s, struct is_frame *f)
{
	const char *open, *close, *plus;
	char *end;
	size_t n;

	memset(f, 0, sizeof(*f));
	while (isspace((unsigned char)*s))
		s++;
	f->addr = strtoull(s, &end, 16);
	if (end == s || !isspace((unsigned char)*end))
		return -1;
	s = end;
	while (isspace((unsigned char)*s))
		s++;
	close = strrchr(s, ')');
	open = close ? close : NULL;
	/* the DSO is the last parenthesised group; a symbol may hold parentheses */
	if (close) {
		int depth = 0;

		for (open = close; open > s; open--) {
			if (*open == ')')
				depth++;
			else if (*open == '(' && --depth == 0)
				break;
		}
	}
	if (!close || *open != '(' || open == s)
		return -1;
	n = (size_t)(close - open - 1);
	snprintf(f->dso, sizeof(f->dso), "%.*s", (int)n, open + 1);
	n = (size_t)(open - s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	snprintf(f->sym, sizeof(f->sym), "%.*s", (int)n, s);
	plus = strstr(f->sym, "+0x");
	if (plus && plus != f->sym) {
		char *e;

		f->off = strtoull(plus + 3, &e, 16);
		if (*e == '\0') {
			f->has_off = true;
			f->sym[plus - f->sym] = '\0';
		}
	}
	return 0;
}

int is_add_frame(struct is_sample *s, const struct is_frame *f)
{
	struct is_frame *n = realloc(s->frames, (s->nr_frames + 1) * sizeof(*n));

	if (!n)
		return -1;
	s->frames = n;
	s->frames[s->nr_frames++] = *f;
	return 0;
}

int is_parse_header(char *line, struct is_sample *s, char *why, size_t whylen)
{
	char *tok[IS_MAX_TOKENS], *save = NULL, *rest = NULL;
	int n = 0, t = -1, i, c0;

	for (char *p = strtok_r(line, " \t", &save); p && n < IS_MAX_TOKENS;
	     p = strtok_r(NULL, " \t", &save)) {
		tok[n++] = p;
		if (t < 0 && is_time_token(p)) {
			t = n - 1;
			/* after the time, the rest is read as event and frame */
			if (save && *save && n < IS_MAX_TOKENS) {
				char *q = save;

				while (*q == ' ')
					q++;
				rest = q;
			}
			break;
		}
	}
	if (t < 2) {
		snprintf(why, whylen, "no 'COMM TID TIME:' in the header");
		return -1;
	}
	s->cpu = -1;
	i = t - 1;
	if (tok[i][0] == '[') {
		s->cpu = atoi(tok[i] + 1);
		i--;
	}
	if (i < 1 || !is_all_digits(tok[i], true)) {
		snprintf(why, whylen, "no tid before the time");
		return -1;
	}
	snprintf(s->tid, sizeof(s->tid), "%s", tok[i]);
	s->comm[0] = '\0';
	c0 = 0;
	for (int k = c0; k < i; k++) {
		size_t l = strlen(s->comm);

		snprintf(s->comm + l, sizeof(s->comm) - l, "%s%s", k > c0 ? " " : "", tok[k]);
	}
	snprintf(s->time, sizeof(s->time), "%.*s", (int)strlen(tok[t]) - 1, tok[t]);
	if (!rest || !*rest) {
		snprintf(why, whylen, "nothing after the time");
		return -1;
	}
	if (!strncmp(rest, "DEFERRED CALLCHAIN", 18)) {
		const char *c = strstr(rest, "[cookie: ");

		snprintf(s->event, sizeof(s->event), "DEFERRED CALLCHAIN");
		if (c)
			snprintf(s->cookie, sizeof(s->cookie), "%.*s",
				 (int)strcspn(c + 9, "]"), c + 9);
		return 0;
	}
	{
		char *p = rest, *e;

		if (isdigit((unsigned char)*p)) {
			s->period = strtoull(p, &e, 10);
			if (isspace((unsigned char)*e)) {
				s->has_period = true;
				p = e;
				while (isspace((unsigned char)*p))
					p++;
			}
		}
		/* the event name ends at the first ": " (names may hold ':') */
		e = strstr(p, ": ");
		if (!e) {
			size_t l = strlen(p);

			while (l && isspace((unsigned char)p[l - 1]))
				l--;
			if (!l || p[l - 1] != ':') {
				snprintf(why, whylen, "no 'EVENT:' after the time");
				return -1;
			}
			snprintf(s->event, sizeof(s->event), "%.*s", (int)l - 1, p);
			return 0;
		}
		snprintf(s->event, sizeof(s->event), "%.*s", (int)(e - p), p);
		p = e + 2;
		while (isspace((unsigned char)*p))
			p++;
		if (*p) {
			struct is_frame f;

			if (is_parse_frame(p, &f) == 0 && is_add_frame(s, &f))
				return -1;
		}
	}
	return 0;
}

int is_parse(char *text, struct is_script *out, char *why, size_t whylen)
{
	struct is_sample *cur = NULL;
	int lineno = 0;
	char *save = NULL;

	memset(out, 0, sizeof(*out));
	if (!text)
		return 0;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (!line[0] || line[0] == '#')
			continue;
		if (line[0] == '\t') {
			struct is_frame f;
			const char *p = line;

			while (isspace((unsigned char)*p))
				p++;
			if (!*p)
				continue;
			if (!cur || is_parse_frame(line, &f)) {
				snprintf(why, whylen, "line %d: not a callchain frame: %.200s", lineno, line);
				return -1;
			}
			if (is_add_frame(cur, &f))
				return -1;
			continue;
		}
		{
			struct is_sample *n = realloc(out->samples, (out->nr + 1) * sizeof(*n));
			char err[128];

			if (!n)
				return -1;
			out->samples = n;
			cur = &out->samples[out->nr++];
			memset(cur, 0, sizeof(*cur));
			cur->line = lineno;
			if (is_parse_header(line, cur, err, sizeof(err))) {
				snprintf(why, whylen, "line %d: %s", lineno, err);
				return -1;
			}
		}
	}
	return 0;
}

bool is_unknown(const char *s)
{
	return !s[0] || !strcmp(s, "[unknown]");
}

bool is_kernel_addr(uint64_t a)
{
	return a >= 0xffff800000000000ULL;
}

bool is_kallsyms_alias(uint64_t addr, const char *a, const char *b)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char name[512], type;
	unsigned long long at;
	int found = 0;

	if (!f)
		return false;
	while (found != 3 && fscanf(f, "%llx %c %511s%*[^\n]", &at, &type, name) == 3) {
		if (at != addr)
			continue;
		if (!strcmp(name, a))
			found |= 1;
		if (!strcmp(name, b))
			found |= 2;
	}
	fclose(f);
	return found == 3;
}

int is_compare(const struct is_script *a, const struct is_script *b,
			     struct is_cmp *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < a->nr && i < b->nr; i++) {
		const struct is_sample *x = &a->samples[i], *y = &b->samples[i];

		c->samples++;
		if (!strcmp(x->event, "DEFERRED CALLCHAIN"))
			c->deferred_blocks++;
		if (strcmp(x->comm, y->comm) || strcmp(x->tid, y->tid) || x->cpu != y->cpu ||
		    strcmp(x->time, y->time) || x->has_period != y->has_period ||
		    x->period != y->period || strcmp(x->event, y->event) ||
		    strcmp(x->cookie, y->cookie))
			return IS_WHY(c, "sample %d (perf line %d, perfcheck line %d): header "
				      "'%s %s [%d] %s: %" PRIu64 " %s %s' vs '%s %s [%d] %s: %" PRIu64
				      " %s %s'", i + 1, x->line, y->line,
				      x->comm, x->tid, x->cpu, x->time, x->period, x->event, x->cookie,
				      y->comm, y->tid, y->cpu, y->time, y->period, y->event, y->cookie);
		if (x->nr_frames != y->nr_frames)
			return IS_WHY(c, "sample %d (perf line %d, perfcheck line %d, %s %s): %d frames "
				      "vs %d", i + 1, x->line, y->line, x->comm, x->time,
				      x->nr_frames, y->nr_frames);
		for (int k = 0; k < x->nr_frames; k++) {
			const struct is_frame *f = &x->frames[k], *g = &y->frames[k];

			c->frames++;
			if (!strcmp(f->sym, "(cookie)"))
				c->cookie_frames++;
			if (f->addr != g->addr)
				return IS_WHY(c, "sample %d (perf line %d, %s %s) frame %d: address %"
					      PRIx64 " vs %" PRIx64, i + 1, x->line, x->comm, x->time,
					      k, f->addr, g->addr);
			if (!is_unknown(f->dso) && !is_unknown(g->dso)) {
				c->dso_both++;
				if (strcmp(f->dso, g->dso))
					return IS_WHY(c, "sample %d (perf line %d) frame %d (%" PRIx64
						      "): dso '%s' vs '%s'", i + 1, x->line, k,
						      f->addr, f->dso, g->dso);
			}
			if (is_unknown(f->sym) && is_unknown(g->sym))
				continue;
			if (is_unknown(f->sym)) {
				c->sym_only_b++;
				continue;
			}
			if (is_unknown(g->sym)) {
				c->sym_only_a++;
				continue;
			}
			c->sym_both++;
			if (!strcmp(f->sym, g->sym) && f->off == g->off && f->has_off == g->has_off)
				continue;
			if (f->off == g->off && is_kernel_addr(f->addr) &&
			    is_kallsyms_alias(f->addr - f->off, f->sym, g->sym)) {
				c->sym_alias++;
				continue;
			}
			return IS_WHY(c, "sample %d (perf line %d) frame %d (%" PRIx64 "): symbol "
				      "'%s+%#" PRIx64 "' vs '%s+%#" PRIx64 "'", i + 1, x->line, k,
				      f->addr, f->sym, f->off, g->sym, g->off);
		}
	}
	if (a->nr != b->nr)
		return IS_WHY(c, "%d samples from perf script, %d from perfcheck script%s", a->nr, b->nr,
			      a->nr > b->nr ? " (perfcheck lacks the rest)" : " (perf lacks the rest)");
	return 0;
}

int is_compare_text(const char *perf_text, const char *pc_text, struct is_cmp *c)
{
	struct is_script a, b;
	char *ta = strdup(perf_text ? perf_text : ""), *tb = strdup(pc_text ? pc_text : "");
	char why[512] = "";
	int ret = -1;

	memset(c, 0, sizeof(*c));
	if (!ta || !tb) {
		snprintf(c->why, sizeof(c->why), "out of memory");
		goto out;
	}
	if (is_parse(ta, &a, why, sizeof(why))) {
		snprintf(c->why, sizeof(c->why), "perf script output: %s", why);
		is_free(&a);
		goto out;
	}
	if (is_parse(tb, &b, why, sizeof(why))) {
		snprintf(c->why, sizeof(c->why), "perfcheck script output: %s", why);
		is_free(&a);
		is_free(&b);
		goto out;
	}
	ret = is_compare(&a, &b, c);
	is_free(&a);
	is_free(&b);
out:
	free(ta);
	free(tb);
	return ret;
}

void is_cmp_summary(const struct is_cmp *c, char *buf, size_t len)
{
	snprintf(buf, len, "%d samples (%d deferred blocks), %d frames (%d cookies), symbols: %d "
		 "both (%d kallsyms aliases), %d perf only, %d perfcheck only; dsos both: %d",
		 c->samples, c->deferred_blocks, c->frames, c->cookie_frames, c->sym_both,
		 c->sym_alias, c->sym_only_a, c->sym_only_b, c->dso_both);
}
