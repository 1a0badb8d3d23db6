// SPDX-License-Identifier: GPL-2.0
/*
 * -e parsing and the attr each event is opened with.  Event names follow
 * perf list: software and hardware names, cache events
 * (L1-dcache-load-misses, encoded as perf does: id | op << 8 | result << 16),
 * rNNNN, SYS:NAME tracepoints, PMU/term=value,.../ and NAME/terms/, groups
 * {a,b} whose leader is opened first and is every member's group fd.
 * Modifiers as perf takes them: :u :k :h :p :G :H, :S (leader sampling:
 * the leader's samples read the whole group) and :D (pinned).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "probes/probe.h"
#include "recorder/events.h"
#include "recorder/options_int.h"
#include "util/log.h"
#include "util/sys.h"

static const struct named_event {
	const char *name;
	uint32_t type;
	uint64_t config;
} named_events[] = {
	{ "cpu-clock",			PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock",			PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults",			PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs",				PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations",			PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy",			PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "cycles",			PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles",			PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches",			PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles",			PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles",			PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

static const char *const tracefs_roots[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

static int tracepoint_id(const char *sys, const char *name, uint64_t *id,
			 struct pc_error *err)
{
	char path[512];
	long v;
	int ret = -ENOENT;

	for (size_t i = 0; i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs_roots[i], sys, name);
		ret = pc_read_int_file(path, &v);
		if (!ret && v >= 0) {
			*id = (uint64_t)v;
			return 0;
		}
		if (ret == -EACCES || ret == -EPERM)
			break;
	}
	if (ret == -ENOENT && access("/sys/kernel/tracing/events", F_OK) &&
	    access("/sys/kernel/debug/tracing/events", F_OK))
		return pc_error_set(err, ENOENT,
				    "tracepoint %s:%s: tracefs is not mounted "
				    "(mount -t tracefs nodev /sys/kernel/tracing)", sys, name);
	return pc_error_set(err, -ret, "tracepoint %s:%s: %s", sys, name, strerror(-ret));
}

static bool valid_word(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '_' || s[i] == '-' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* Cache events: L1-dcache-load-misses = L1-dcache | load << 8 | miss << 16 */
static const struct { const char *name; int id; } cache_names[] = {
	{ "L1-dcache", 0 }, { "l1-d", 0 }, { "L1-icache", 1 }, { "l1-i", 1 },
	{ "LLC", 2 }, { "L2", 2 }, { "dTLB", 3 }, { "d-tlb", 3 }, { "iTLB", 4 },
	{ "i-tlb", 4 }, { "branch", 5 }, { "bpu", 5 }, { "btb", 5 }, { "bpc", 5 },
	{ "node", 6 },
};
static const struct { const char *name; int op; } cache_ops[] = {
	{ "load", 0 }, { "loads", 0 }, { "read", 0 }, { "store", 1 }, { "stores", 1 },
	{ "write", 1 }, { "prefetch", 2 }, { "prefetches", 2 }, { "speculative-read", 2 },
	{ "speculative-load", 2 },
};
static const struct { const char *name; int res; } cache_results[] = {
	{ "refs", 0 }, { "access", 0 }, { "references", 0 }, { "misses", 1 }, { "miss", 1 },
};

static bool lookup_cache(const char *s, __u64 *config)
{
	for (size_t i = 0; i < sizeof(cache_names) / sizeof(cache_names[0]); i++) {
		size_t n = strlen(cache_names[i].name);
		const char *rest = s + n, *dash;
		int op = 0, res = 0;
		bool have_op = false;

		if (strncasecmp(s, cache_names[i].name, n) || *rest != '-')
			continue;
		rest++;
		for (size_t o = 0; o < sizeof(cache_ops) / sizeof(cache_ops[0]); o++) {
			size_t m = strlen(cache_ops[o].name);

			if (!strncmp(rest, cache_ops[o].name, m) && (!rest[m] || rest[m] == '-')) {
				op = cache_ops[o].op;
				have_op = true;
				rest += m;
				break;
			}
		}
		if (have_op && !*rest) {
			*config = (uint64_t)cache_names[i].id | (uint64_t)op << 8;
			return true;
		}
		dash = have_op ? rest + 1 : rest;
		for (size_t r = 0; r < sizeof(cache_results) / sizeof(cache_results[0]); r++)
			if (!strcmp(dash, cache_results[r].name)) {
				res = cache_results[r].res;
				*config = (uint64_t)cache_names[i].id | (uint64_t)op << 8 |
					  (uint64_t)res << 16;
				return true;
			}
	}
	return false;
}

/* A named, cache or raw event; false when name is none of them. */
static bool lookup_name(const char *name, struct perf_event_attr *a)
{
	for (size_t i = 0; i < sizeof(named_events) / sizeof(named_events[0]); i++)
		if (!strcmp(name, named_events[i].name)) {
			a->type = named_events[i].type;
			a->config = named_events[i].config;
			return true;
		}
	if (lookup_cache(name, &a->config)) {
		a->type = PERF_TYPE_HW_CACHE;
		return true;
	}
	if (name[0] == 'r' && name[1] && strlen(name + 1) <= 16 &&
	    strspn(name + 1, "0123456789abcdefABCDEF") == strlen(name + 1)) {
		a->type = PERF_TYPE_RAW;
		a->config = strtoull(name + 1, NULL, 16);
		return true;
	}
	return false;
}

static int apply_modifiers(struct rec_evsel *ev, const char *mods, size_t len,
			   struct pc_error *err)
{
	struct perf_event_attr *a = &ev->attr.attr;
	bool u = false, k = false, h = false, g = false, H = false;
	unsigned int precise = 0;

	for (size_t i = 0; i < len; i++) {
		switch (mods[i]) {
		case 'u': u = true; break;
		case 'k': k = true; break;
		case 'h': h = true; break;
		case 'G': g = true; break;
		case 'H': H = true; break;
		case 'p': precise++; break;
		case 'S': ev->spec.sample_read = true; break;
		case 'D': ev->spec.pinned = true; break;
		default:
			return pc_error_set(err, EINVAL, "event '%s': unknown modifier '%c'",
					    ev->name, mods[i]);
		}
	}
	if (precise > 3)
		return pc_error_set(err, EINVAL, "event '%s': at most :ppp", ev->name);
	if (u || k || h) {
		/* a group's modifiers add to a member's own */
		if (!ev->spec.has_modifier) {
			a->exclude_user = a->exclude_kernel = a->exclude_hv = 1;
		}
		a->exclude_user &= !u;
		a->exclude_kernel &= !k;
		a->exclude_hv &= !h;
		ev->spec.has_modifier = true;
	}
	if (g || H) {
		a->exclude_guest = !g;
		a->exclude_host = !H;
	}
	if (precise)
		a->precise_ip = precise;
	return 0;
}

static int parse_u64_term(const char *term, const char *val, uint64_t *v, struct pc_error *err)
{
	char *end;

	errno = 0;
	*v = strtoull(val, &end, 0);
	if (errno || end == val || *end || *val == '-')
		return pc_error_set(err, EINVAL, "term '%s=%s': not a number", term, val);
	return 0;
}

/* A PMU's format/TERM file ("config:0-7", "config1:0-63", "config:0-7,21"). */
static int format_term(const char *pmu, const char *term, uint64_t value,
		       struct perf_event_attr *a, struct pc_error *err)
{
	char path[512], buf[256], *p;
	__u64 *dst;
	unsigned int bit_in = 0;

	if (!pmu || !valid_word(term, strlen(term)))
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format/%s", pmu, term);
	if (pc_read_file(path, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	buf[strcspn(buf, "\n")] = '\0';
	p = strchr(buf, ':');
	if (!p)
		return pc_error_set(err, EINVAL, "%s: cannot read '%s'", path, buf);
	*p++ = '\0';
	if (!strcmp(buf, "config"))
		dst = &a->config;
	else if (!strcmp(buf, "config1"))
		dst = &a->config1;
	else if (!strcmp(buf, "config2"))
		dst = &a->config2;
	else
		return pc_error_set(err, EINVAL, "%s: unknown field '%s'", path, buf);
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p || lo > 63)
			return pc_error_set(err, EINVAL, "%s: cannot read it", path);
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (hi < lo || hi > 63)
			return pc_error_set(err, EINVAL, "%s: cannot read it", path);
		for (unsigned long b = lo; b <= hi; b++, bit_in++) {
			*dst &= ~(1ULL << b);
			if (bit_in < 64 && (value >> bit_in) & 1)
				*dst |= 1ULL << b;
		}
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return pc_error_set(err, EINVAL, "%s: cannot read it", path);
	}
	return 0;
}

static int apply_term(struct rec_evsel *ev, const char *pmu, char *term, struct pc_error *err)
{
	struct perf_event_attr *a = &ev->attr.attr;
	char *val = strchr(term, '=');
	uint64_t v = 1;
	int ret;

	if (val)
		*val++ = '\0';
	if (!strcmp(term, "name")) {
		if (!val || !*val)
			return pc_error_set(err, EINVAL, "term 'name' needs a value");
		snprintf(ev->name, sizeof(ev->name), "%s", val);
		return 0;
	}
	if (!strcmp(term, "call-graph")) {
		enum rec_callgraph cg = REC_CALLGRAPH_NONE;
		uint32_t size = 0;

		if (!val)
			return pc_error_set(err, EINVAL, "term 'call-graph' needs a value");
		if (strcmp(val, "no")) {
			ret = rec_parse_callgraph(val, &cg, &size, err);
			if (ret)
				return ret;
		}
		ev->spec.callgraph = (int)cg + 1;
		if (size && !ev->spec.stack_size)
			ev->spec.stack_size = size;
		return 0;
	}
	if (val) {
		ret = parse_u64_term(term, val, &v, err);
		if (ret)
			return ret;
	}
	if (!strcmp(term, "period")) {
		a->sample_period = v;
		a->freq = 0;
		ev->spec.period_set = true;
	} else if (!strcmp(term, "freq")) {
		a->sample_freq = v;
		a->freq = 1;
		ev->spec.freq_set = true;
	} else if (!strcmp(term, "config")) {
		a->config = v;
	} else if (!strcmp(term, "config1")) {
		a->config1 = v;
	} else if (!strcmp(term, "config2")) {
		a->config2 = v;
	} else if (!strcmp(term, "stack-size")) {
		if (!v || v > 65528)
			return pc_error_set(err, EINVAL, "term 'stack-size=%s': not in [8, 65528]", val);
		ev->spec.stack_size = (uint32_t)((v + 7) & ~7ULL);
	} else {
		ret = format_term(pmu, term, v, a, err);
		if (ret == -ENOENT)
			return pc_error_set(err, EINVAL, "event '%s': unknown term '%s'%s%s", ev->name,
					    term, pmu ? " for PMU " : "", pmu ? pmu : "");
		return ret;
	}
	return 0;
}

static int pmu_type(const char *pmu, uint32_t *type)
{
	char path[512];
	long v;

	if (!valid_word(pmu, strlen(pmu)))
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	if (pc_read_int_file(path, &v) || v < 0)
		return -ENOENT;
	*type = (uint32_t)v;
	return 0;
}

/* NAME/terms/ or PMU/terms/, then optional modifiers ("/u" or "/:u"). */
static int parse_slashed(struct rec_evsel *ev, char *buf, struct pc_error *err)
{
	char *slash = strchr(buf, '/'), *terms, *close, *mods;
	const char *pmu = NULL;

	*slash = '\0';
	terms = slash + 1;
	close = strrchr(terms, '/');
	if (!close)
		return pc_error_set(err, EINVAL, "event '%s': no closing '/' after the terms",
				    ev->name);
	*close = '\0';
	mods = close + 1;
	if (*mods == ':')
		mods++;
	if (!lookup_name(buf, &ev->attr.attr)) {
		if (pmu_type(buf, &ev->attr.attr.type))
			return pc_error_set(err, EINVAL, "event '%s': no PMU or event named '%s'",
					    ev->name, buf);
		pmu = buf;
	}
	for (char *t = terms, *next; t && *t; t = next) {
		int ret;

		next = strchr(t, ',');
		if (next)
			*next++ = '\0';
		ret = apply_term(ev, pmu, t, err);
		if (ret)
			return ret;
	}
	return apply_modifiers(ev, mods, strlen(mods), err);
}

static int parse_one(struct rec_evsel *ev, const char *spec, size_t len, struct pc_error *err)
{
	char buf[256];
	char *colon, *mods = NULL;

	if (len >= sizeof(buf))
		return pc_error_set(err, EINVAL, "event '%.*s...': name too long", 40, spec);
	memcpy(buf, spec, len);
	buf[len] = '\0';
	snprintf(ev->name, sizeof(ev->name), "%s", buf);
	if (strchr(buf, '/'))
		return parse_slashed(ev, buf, err);

	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	if (lookup_name(buf, &ev->attr.attr)) {
		mods = colon ? colon + 1 : NULL;
		goto found;
	}
	if (colon) {
		char *name = colon + 1, *c2 = strchr(name, ':');
		uint64_t id = 0;
		int ret;

		if (c2) {
			*c2 = '\0';
			mods = c2 + 1;
		}
		if (!valid_word(buf, strlen(buf)) || !valid_word(name, strlen(name)))
			return pc_error_set(err, EINVAL, "event '%s': not a tracepoint name (SYS:NAME)",
					    ev->name);
		ret = tracepoint_id(buf, name, &id, err);
		if (ret)
			return ret;
		ev->attr.attr.type = PERF_TYPE_TRACEPOINT;
		ev->attr.attr.config = id;
		ev->tracepoint = true;
		snprintf(ev->tp_sys, sizeof(ev->tp_sys), "%s", buf);
		snprintf(ev->tp_name, sizeof(ev->tp_name), "%s", name);
		goto found;
	}
	return pc_error_set(err, EINVAL,
			    "event '%s' is not known (software, hardware, cache, rNNNN, SYS:NAME "
			    "or PMU/terms/)", ev->name);
found:
	if (mods)
		return apply_modifiers(ev, mods, strlen(mods), err);
	return 0;
}

/* Length of the next list element: up to a ',' outside {} and //. */
static size_t element_len(const char *p)
{
	int depth = 0;
	bool slash = false;
	size_t i;

	for (i = 0; p[i]; i++) {
		if (p[i] == '/')
			slash = !slash;
		else if (!slash && p[i] == '{')
			depth++;
		else if (!slash && p[i] == '}')
			depth--;
		else if (!slash && !depth && p[i] == ',')
			break;
	}
	return i;
}

static int parse_list(struct rec_evlist *evl, const char *spec, size_t len, int group,
		      struct pc_error *err);

static int parse_group(struct rec_evlist *evl, const char *p, size_t n, struct pc_error *err)
{
	const char *close = NULL;
	int first = evl->nr_evsels, ret;

	for (size_t i = n; i-- > 0;)
		if (p[i] == '}') {
			close = p + i;
			break;
		}
	if (!close)
		return pc_error_set(err, EINVAL, "-e '%.*s': no closing '}'", (int)n, p);
	if (close == p + 1)
		return pc_error_set(err, EINVAL, "-e '%.*s': empty group", (int)n, p);
	ret = parse_list(evl, p + 1, (size_t)(close - p - 1), first, err);
	if (ret)
		return ret;
	evl->evsels[first]->nr_members = evl->nr_evsels - first;
	if (close + 1 < p + n) {
		if (close[1] != ':')
			return pc_error_set(err, EINVAL, "-e '%.*s': ':' expected after '}'",
					    (int)n, p);
		for (int i = first; i < evl->nr_evsels; i++) {
			ret = apply_modifiers(evl->evsels[i], close + 2,
					      (size_t)(p + n - close - 2), err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* group < 0: top level; else the index of the group's leader */
static int parse_list(struct rec_evlist *evl, const char *spec, size_t len, int group,
		      struct pc_error *err)
{
	const char *p = spec, *end = spec + len;

	while (p < end) {
		size_t n = element_len(p);
		struct rec_evsel *ev;
		int ret;

		if (n > (size_t)(end - p))
			n = (size_t)(end - p);
		if (!n)
			return pc_error_set(err, EINVAL, "-e '%.*s': empty event in list", (int)len,
					    spec);
		if (*p == '{') {
			if (group >= 0)
				return pc_error_set(err, EINVAL, "-e: groups do not nest");
			ret = parse_group(evl, p, n, err);
		} else {
			ev = rec_evlist_add(evl);
			if (!ev)
				return pc_error_set(err, ENOMEM, "out of memory");
			if (group >= 0)
				ev->leader = group;
			ret = parse_one(ev, p, n, err);
		}
		if (ret)
			return ret;
		p += n;
		if (p < end)
			p++;
	}
	return 0;
}

int rec_events_parse(struct rec_evlist *evl, const char *spec, struct pc_error *err)
{
	if (!*spec)
		return pc_error_set(err, EINVAL, "-e: empty event list");
	return parse_list(evl, spec, strlen(spec), -1, err);
}
