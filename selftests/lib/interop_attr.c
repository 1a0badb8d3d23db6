// SPDX-License-Identifier: GPL-2.0
/* The helpers declared in interop_attr.h, compiled once for every test. */
#include "interop_attr.h"
#include <sys/utsname.h>

const char *ia_get(const struct ia_attr *a, const char *key)
{
	for (int i = 0; i < a->n; i++)
		if (!strcmp(a->f[i].key, key))
			return a->f[i].value;
	return "0";
}

void ia_key(const char *name, size_t len, char *key, size_t size)
{
	if (len && name[0] == '{') {
		name++;
		len--;
		while (len && isspace((unsigned char)*name)) {
			name++;
			len--;
		}
		len = strcspn(name, ", }") < len ? strcspn(name, ", }") : len;
	}
	snprintf(key, size, "%.*s", (int)len, name);
}

static void event_id(const struct ia_attr *a, char *id, size_t size)
{
	unsigned long long type = strtoull(ia_get(a, "type"), NULL, 0);
	unsigned long long config = strtoull(ia_get(a, "config"), NULL, 0);

	bool dummy = type == 1 && config == 9;

	/*
	 * perf's BPF side-band dummy (a wakeup at every byte, bpf_event) is
	 * not the tracking dummy that -a, -C and -D add: "1:0x9:sb"; nor is
	 * --kcore's text poke dummy: "1:0x9:poke"
	 */
	snprintf(id, size, "%llu:%#llx%s", type, config,
		 dummy && !strcmp(ia_get(a, "watermark"), "1") &&
		 !strcmp(ia_get(a, "bpf_event"), "1") ? ":sb" :
		 dummy && !strcmp(ia_get(a, "text_poke"), "1") ? ":poke" : "");
}

void ia_add_event(struct ia_opened *o, const struct ia_attr *a)
{
	char id[48];

	event_id(a, id, sizeof(id));
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->ev[i].id, id))
			return;
	if (o->n == IA_MAX_EVENTS)
		return;
	snprintf(o->ev[o->n].id, sizeof(o->ev[0].id), "%s", id);
	o->ev[o->n].attr = *a;
	o->n++;
}

int ia_open_result(const char *line)
{
	const char *eq = strrchr(line, '=');

	if (strstr(line, "failed"))
		return -1;
	if (!eq)
		return 0;		/* perfcheck prints the result on the next line */
	return atoi(eq + 1) >= 0 ? 1 : -1;
}

/* Notes where a successful open of event id was: pid -1 or a task, and its cpu. */
static void note_open(struct ia_opened *o, const char *id, long pid, long cpu)
{
	for (int i = 0; i < o->n; i++) {
		struct ia_event *e = &o->ev[i];

		if (strcmp(e->id, id))
			continue;
		e->on_pids |= pid == -1 ? 1 : 2;
		if (cpu < 0)
			e->on_any_cpu = true;
		else if (cpu < 64)
			e->on_cpus |= 1ULL << cpu;
	}
}

void ia_opens(const struct ia_event *e, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "pid:%s%s,cpu:", e->on_pids & 1 ? "-1" : "",
				    e->on_pids & 2 ? (e->on_pids & 1 ? "+task" : "task") : "");

	if (e->on_any_cpu && n < size)
		n += (size_t)snprintf(buf + n, size - n, "-1");
	for (int c = 0; c < 64 && n < size; c++)
		if (e->on_cpus & (1ULL << c))
			n += (size_t)snprintf(buf + n, size - n, "%s%d",
					      buf[n - 1] == ':' ? "" : "+", c);
}

int ia_parse_vv(const char *text, struct ia_opened *o)
{
	struct ia_attr *cur = calloc(1, sizeof(*cur));
	const char *p = text ? text : "";
	bool in_block = false, have = false;
	long pid = 0, cpu = 0;
	bool target = false;	/* this open's "pid P  cpu C" was read (fixtures keep none) */

	memset(o, 0, sizeof(*o));
	if (!cur)
		return -1;
	while (*p) {
		size_t len = strcspn(p, "\n");
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
		p += len + (p[len] == '\n');
		if (!strcmp(line, "perf_event_attr:")) {
			memset(cur, 0, sizeof(*cur));
			in_block = true;
			have = true;
			continue;
		}
		if (!strncmp(line, "-----", 5)) {
			in_block = false;
			continue;
		}
		if (in_block && line[0] == ' ' && cur->n < IA_MAX_FIELDS) {
			char *s = line, *name_end, *val, *end;

			while (*s == ' ')
				s++;
			/* the name: "{ a, b }" or one word; the value: the rest */
			name_end = *s == '{' ? strchr(s, '}') : s + strcspn(s, " \t");
			if (!name_end || !*name_end)
				continue;
			if (*name_end == '}')
				name_end++;
			val = name_end + strspn(name_end, " \t");
			/* perf 7.x annotates values: "1 (PERF_TYPE_SOFTWARE)" */
			end = val + strcspn(val, " \t");
			*end = '\0';
			if (!*val)
				continue;
			ia_key(s, (size_t)(name_end - s), cur->f[cur->n].key, sizeof(cur->f[0].key));
			snprintf(cur->f[cur->n].value, sizeof(cur->f[0].value), "%s", val);
			cur->n++;
			continue;
		}
		if (!strncmp(line, "sys_perf_event_open", 19) && have) {
			int r = ia_open_result(line);

			/* "sys_perf_event_open: = FD" alone is the result of the line before */
			if (strstr(line, "pid ")) {
				o->attempts++;
				pid = strtol(strstr(line, "pid ") + 4, NULL, 10);
				cpu = strstr(line, "cpu ") ? strtol(strstr(line, "cpu ") + 4, NULL, 10) : 0;
				target = true;
			}
			if (r < 0)
				o->failures++;
			if (r > 0) {
				char id[48];

				ia_add_event(o, cur);
				event_id(cur, id, sizeof(id));
				if (target)
					note_open(o, id, pid, cpu);
			}
			if (r)
				target = false;
		}
	}
	free(cur);
	return 0;
}

int ia_parse_evlist(const char *text, struct ia_opened *o)
{
	struct ia_attr *cur = calloc(1, sizeof(*cur));
	const char *p = text ? text : "";

	memset(o, 0, sizeof(*o));
	if (!cur)
		return -1;
	while (*p) {
		size_t len = strcspn(p, "\n");
		const char *end = p + len, *q = strstr(p, ": type: ");

		/* type 0 (hardware) is not printed: then size comes first */
		if (!q || q > end)
			q = strstr(p, ": size: ");

		memset(cur, 0, sizeof(*cur));
		if (q && q < end) {
			q += 2;
			while (q < end && cur->n < IA_MAX_FIELDS) {
				const char *k = q, *ke, *v, *ve;

				ke = *k == '{' ? strchr(k, '}') : NULL;
				ke = ke && ke < end ? ke + 1 : k + strcspn(k, ":");
				if (ke >= end || ke[0] != ':')
					break;
				v = ke + 1 + strspn(ke + 1, " ");
				ve = v + strcspn(v, ",\n");
				ia_key(k, (size_t)(ke - k), cur->f[cur->n].key, sizeof(cur->f[0].key));
				snprintf(cur->f[cur->n].value, sizeof(cur->f[0].value), "%.*s",
					 (int)strcspn(v, " ,\n"), v);
				cur->n++;
				q = ve + (*ve == ',');
				q += strspn(q, " ");
			}
			ia_add_event(o, cur);
		}
		p = end + (*end == '\n');
	}
	free(cur);
	return 0;
}

bool ia_is_bitmask(const char *key)
{
	return !strcmp(key, "sample_type") || !strcmp(key, "read_format") ||
	       !strcmp(key, "branch_sample_type");
}

bool ia_has_bit(const char *value, const char *bit)
{
	size_t n = strlen(bit);

	for (const char *p = value; *p; ) {
		size_t l = strcspn(p, "|");

		if (l == n && !strncmp(p, bit, n))
			return true;
		p += l + (p[l] == '|');
	}
	return false;
}

void ia_push(struct ia_diff *d, int *n, const char *key, const char *event,
			   const char *perf, const char *pc)
{
	if (*n == IA_MAX_DIFFS)
		return;
	memset(&d[*n], 0, sizeof(d[0]));
	snprintf(d[*n].key, sizeof(d[0].key), "%s", key);
	snprintf(d[*n].event, sizeof(d[0].event), "%s", event);
	snprintf(d[*n].perf, sizeof(d[0].perf), "%s", perf);
	snprintf(d[*n].pc, sizeof(d[0].pc), "%s", pc);
	(*n)++;
}

void ia_bit_diffs(struct ia_diff *d, int *n, const char *key, const char *event,
				const char *a, const char *b)
{
	for (int side = 0; side < 2; side++) {
		const char *x = side ? b : a, *y = side ? a : b;

		for (const char *p = x; *p; ) {
			size_t l = strcspn(p, "|");
			char bit[64], k[96];

			snprintf(bit, sizeof(bit), "%.*s", (int)l, p);
			p += l + (p[l] == '|');
			if (!strcmp(bit, "0") || ia_has_bit(y, bit))
				continue;
			snprintf(k, sizeof(k), "%s.%s", key, bit);
			ia_push(d, n, k, event, side ? "0" : "1", side ? "1" : "0");
		}
	}
}

bool ia_has_event(const struct ia_opened *o, const char *id)
{
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->ev[i].id, id))
			return true;
	return false;
}

int ia_drop_sideband(struct ia_opened *o)
{
	for (int i = 0; i < o->n; i++) {
		if (strcmp(o->ev[i].id, "1:0x9:sb"))
			continue;
		memmove(&o->ev[i], &o->ev[i + 1], (size_t)(o->n - i - 1) * sizeof(o->ev[0]));
		o->n--;
		return 1;
	}
	return 0;
}

void ia_diff_pair(const struct ia_event *e, const struct ia_event *g,
				struct ia_diff *d, int *n)
{
	for (int side = 0; side < 2; side++) {
		const struct ia_attr *x = side ? &g->attr : &e->attr;

		for (int f = 0; f < x->n; f++) {
			const char *k = x->f[f].key;
			const char *a = ia_get(&e->attr, k), *b = ia_get(&g->attr, k);
			bool dup = false;

			for (int q = 0; side && q < e->attr.n; q++)
				dup |= !strcmp(e->attr.f[q].key, k);
			if (dup)
				continue;
			if (ia_is_bitmask(k))
				ia_bit_diffs(d, n, k, e->id, a, b);
			else if (strcmp(a, b))
				ia_push(d, n, k, e->id, a, b);
		}
	}
}

int ia_diff(const struct ia_opened *perf, const struct ia_opened *pc,
			  struct ia_diff *d)
{
	const struct ia_event *lone_a[IA_MAX_EVENTS], *lone_b[IA_MAX_EVENTS];
	int n = 0, na = 0, nb = 0;
	char key[96];

	for (int i = 0; i < perf->n; i++) {
		const struct ia_event *e = &perf->ev[i], *g = NULL;

		for (int j = 0; j < pc->n; j++)
			if (!strcmp(pc->ev[j].id, e->id))
				g = &pc->ev[j];
		if (g)
			ia_diff_pair(e, g, d, &n);
		/* where each opened too (-vv texts): pid -1 or the tasks, which cpus */
		if (g && e->on_pids && g->on_pids) {
			char a[128], b[128];

			ia_opens(e, a, sizeof(a));
			ia_opens(g, b, sizeof(b));
			if (strcmp(a, b))
				ia_push(d, &n, "opens", e->id, a, b);
		}
		if (!g)
			lone_a[na++] = e;
	}
	for (int j = 0; j < pc->n; j++)
		if (!ia_has_event(perf, pc->ev[j].id))
			lone_b[nb++] = &pc->ev[j];
	/* a dummy (tracking or side band) is never a fallback: it stays alone */
	for (int i = 0, j = 0; i < na; i++) {
		if (j < nb && strncmp(lone_a[i]->id, "1:0x9", 5)) {
			ia_diff_pair(lone_a[i], lone_b[j++], d, &n);
			lone_a[i] = NULL;
			lone_b[j - 1] = NULL;
		}
	}
	for (int i = 0; i < na; i++) {
		if (!lone_a[i])
			continue;
		snprintf(key, sizeof(key), "event:%s", lone_a[i]->id);
		ia_push(d, &n, key, lone_a[i]->id, "1", "0");
	}
	for (int j = 0; j < nb; j++) {
		if (!lone_b[j])
			continue;
		snprintf(key, sizeof(key), "event:%s", lone_b[j]->id);
		ia_push(d, &n, key, lone_b[j]->id, "0", "1");
	}
	return n;
}

int ia_load_expects(const char *path, struct ia_expects *x, char *why, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int no = 0;

	memset(x, 0, sizeof(*x));
	if (!f) {
		snprintf(why, len, "%s: cannot open", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct ia_expect e = { .line = ++no };
		int off = 0;
		struct ia_expect *grown;

		line[strcspn(line, "\n")] = '\0';
		if (!line[strspn(line, " \t")] || line[strspn(line, " \t")] == '#')
			continue;
		if (sscanf(line, "%95s %159s %159s %159s %63s %n", e.key, e.perf, e.pc, e.options,
			   e.versions, &off) != 5 || !off || !line[off]) {
			snprintf(why, len, "%s:%d: want KEY PERF PERFCHECK OPTIONS VERSIONS REASON", path, no);
			fclose(f);
			free(x->e);
			return -1;
		}
		snprintf(e.reason, sizeof(e.reason), "%s", line + off);
		grown = realloc(x->e, (x->n + 1) * sizeof(*grown));
		if (!grown) {
			fclose(f);
			return -1;
		}
		x->e = grown;
		x->e[x->n++] = e;
	}
	fclose(f);
	return 0;
}

bool ia_in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	if (!strcmp(list, "*"))
		return true;
	for (const char *p = list; *p; ) {
		size_t l = strcspn(p, ",");

		if (l == n && !strncmp(p, word, n))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

/* The machine this runs on, as uname -m names it (aarch64, x86_64). */
static const char *ia_machine(void)
{
	static struct utsname u;

	if (!u.machine[0] && uname(&u) < 0)
		snprintf(u.machine, sizeof(u.machine), "unknown");
	return u.machine;
}

bool ia_version_matches(const char *spec, int major, int minor)
{
	int v = major * 1000 + minor;

	if (!strcmp(spec, "*"))
		return true;
	for (const char *p = spec; *p; ) {
		size_t l = strcspn(p, ",");
		char t[32];
		const char *colon;
		int a = 0, b = 0;

		snprintf(t, sizeof(t), "%.*s", (int)l, p);
		p += l + (p[l] == ',');
		/* ARCH:RANGE holds on that machine only */
		colon = strchr(t, ':');
		if (colon) {
			if ((size_t)(colon - t) != strlen(ia_machine()) ||
			    strncmp(t, ia_machine(), (size_t)(colon - t)))
				continue;
			memmove(t, colon + 1, strlen(colon + 1) + 1);
			if (!strcmp(t, "*"))
				return true;
		}
		if (!strncmp(t, ">=", 2) && sscanf(t + 2, "%d.%d", &a, &b) == 2 && v >= a * 1000 + b)
			return true;
		if (t[0] == '<' && sscanf(t + 1, "%d.%d", &a, &b) == 2 && v < a * 1000 + b)
			return true;
		if (isdigit((unsigned char)t[0]) && sscanf(t, "%d.%d", &a, &b) == 2 &&
		    v == a * 1000 + b)
			return true;
	}
	return false;
}

bool ia_value_matches(const char *spec, const char *value)
{
	return !strcmp(spec, "*") || !strcmp(spec, value);
}

/* KEY, or KEY@EVENT for that event only ("exclude_kernel@1:0x9": the dummy). */
static bool ia_key_matches(const char *key, const struct ia_diff *d)
{
	const char *at = strchr(key, '@');

	if (!at)
		return !strcmp(key, d->key);
	return strlen(d->key) == (size_t)(at - key) && !strncmp(key, d->key, at - key) &&
	       !strcmp(at + 1, d->event);
}

int ia_explain(struct ia_diff *d, int n, struct ia_expects *x, const char *variant,
			     int major, int minor)
{
	int unexpected = 0;

	for (int i = 0; i < n; i++) {
		for (int k = 0; k < x->n && !d[i].reason; k++) {
			struct ia_expect *e = &x->e[k];

			if (!ia_key_matches(e->key, &d[i]) || !ia_value_matches(e->perf, d[i].perf) ||
			    !ia_value_matches(e->pc, d[i].pc) || !ia_in_list(e->options, variant) ||
			    !ia_version_matches(e->versions, major, minor))
				continue;
			d[i].reason = e->reason;
			e->used++;
		}
		if (!d[i].reason)
			unexpected++;
	}
	return unexpected;
}
