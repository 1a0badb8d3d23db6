// SPDX-License-Identifier: GPL-2.0
/*
 * --threads[=SPEC]: the keyword or the user's MAPS/AFFINITY masks, checked
 * at parse time so that a bad SPEC is a usage error naming itself before
 * anything is opened (perf finds it only once its events are set up).
 * perf's rules for the masks: two threads may not share a cpu in their
 * MAPS, nor in their AFFINITY.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "recorder/threads_spec.h"

static const char *const kind_names[] = {
	[REC_THREADS_CPU] = "cpu", [REC_THREADS_CORE] = "core",
	[REC_THREADS_PACKAGE] = "package", [REC_THREADS_NUMA] = "numa",
	[REC_THREADS_USER] = "user",
};

const char *rec_threads_kind_name(enum rec_threads_kind kind)
{
	return kind <= REC_THREADS_USER ? kind_names[kind] : "?";
}

/* "0,2-4" from s to end into set; false when it is not such a list (or empty) */
static bool parse_cpu_list(const char *s, const char *end, cpu_set_t *set)
{
	const char *p = s;

	CPU_ZERO(set);
	if (p == end)
		return false;
	while (p < end) {
		char *e;
		unsigned long a, b;

		if (*p < '0' || *p > '9')
			return false;
		a = strtoul(p, &e, 10);
		b = a;
		if (e < end && *e == '-') {
			p = e + 1;
			if (p >= end || *p < '0' || *p > '9')
				return false;
			b = strtoul(p, &e, 10);
		}
		if (e > end || b < a || b >= CPU_SETSIZE)
			return false;
		for (unsigned long c = a; c <= b; c++)
			CPU_SET(c, set);
		if (e < end && *e != ',')
			return false;
		p = e < end ? e + 1 : e;
		if (e < end && p == end)
			return false;		/* a trailing comma */
	}
	return true;
}

static int bad(struct pc_error *err, const char *spec, const char *why, int len,
	       const char *part)
{
	return pc_error_set(err, EINVAL, "--threads=%s: %s '%.*s'", spec, why, len, part);
}

/* One MAPS/AFFINITY pair, checked against the pairs before it. */
static int parse_pair(const char *spec, const char *p, const char *end,
		      struct rec_threads_spec *out, struct pc_error *err)
{
	const char *slash = memchr(p, '/', (size_t)(end - p));
	struct rec_threads_mask m, *masks;

	if (!slash || memchr(slash + 1, '/', (size_t)(end - slash - 1)))
		return bad(err, spec, "a thread is MAPS/AFFINITY, two cpu lists, not",
			   (int)(end - p), p);
	if (!parse_cpu_list(p, slash, &m.maps))
		return bad(err, spec, "not a cpu list:", (int)(slash - p), p);
	if (!parse_cpu_list(slash + 1, end, &m.affinity))
		return bad(err, spec, "not a cpu list:", (int)(end - slash - 1), slash + 1);
	for (int i = 0; i < out->nr_masks; i++) {
		cpu_set_t both;

		CPU_AND(&both, &m.maps, &out->masks[i].maps);
		if (CPU_COUNT(&both))
			return bad(err, spec, "maps mask shares cpus with an earlier one:",
				   (int)(slash - p), p);
		CPU_AND(&both, &m.affinity, &out->masks[i].affinity);
		if (CPU_COUNT(&both))
			return bad(err, spec, "affinity mask shares cpus with an earlier one:",
				   (int)(end - slash - 1), slash + 1);
	}
	masks = realloc(out->masks, (out->nr_masks + 1) * sizeof(*masks));
	if (!masks)
		return pc_error_set(err, ENOMEM, "out of memory");
	out->masks = masks;
	out->masks[out->nr_masks++] = m;
	return 0;
}

int rec_threads_spec_parse(const char *spec, struct rec_threads_spec *out, struct pc_error *err)
{
	const char *p;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->text = spec ? spec : "";
	if (!spec || !*spec)
		return 0;			/* cpu, as perf with no value */
	for (int k = REC_THREADS_CPU; k < REC_THREADS_USER; k++) {
		if (!strcasecmp(spec, kind_names[k])) {
			out->kind = (enum rec_threads_kind)k;
			return 0;
		}
	}
	out->kind = REC_THREADS_USER;
	if (!strchr(spec, '/'))
		return pc_error_set(err, EINVAL, "--threads=%s: not cpu, core, package, numa or "
				    "MAPS/AFFINITY[:MAPS/AFFINITY...]", spec);
	for (p = spec; !ret;) {
		const char *end = strchr(p, ':');

		if (!end)
			end = p + strlen(p);
		if (end == p)
			ret = pc_error_set(err, EINVAL, "--threads=%s: an empty thread between "
					   "colons", spec);
		else
			ret = parse_pair(spec, p, end, out, err);
		if (!*end)
			break;
		p = end + 1;
	}
	if (ret)
		rec_threads_spec_free(out);
	return ret;
}

void rec_threads_spec_free(struct rec_threads_spec *s)
{
	free(s->masks);
	s->masks = NULL;
	s->nr_masks = 0;
}
