// SPDX-License-Identifier: GPL-2.0
/*
 * The output and mode options of perfcheck record, in perf record's
 * spelling: sizes take a B/K/M/G unit (powers of 1024), times an
 * s/m/h/d unit, -D milliseconds.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/events.h"
#include "recorder/output_opts.h"
#include "util/log.h"

#define COMP_LEVEL_MAX 22	/* zstd's maximum, as perf's -z */

static int parse_number(const char *s, uint64_t *v, const char **rest)
{
	char *end;
	unsigned long long x;

	errno = 0;
	if (!s || *s == '-' || *s == '+')
		return -EINVAL;
	x = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	*v = x;
	*rest = end;
	return 0;
}

/* "64K", "1M", "512" (bytes) */
static int parse_bytes(const char *s, uint64_t *v)
{
	const char *rest;
	uint64_t x, mul = 1;

	if (parse_number(s, &x, &rest))
		return -EINVAL;
	switch (*rest) {
	case '\0': break;
	case 'b': case 'B': rest++; break;
	case 'k': case 'K': mul = 1ULL << 10; rest++; break;
	case 'm': case 'M': mul = 1ULL << 20; rest++; break;
	case 'g': case 'G': mul = 1ULL << 30; rest++; break;
	default: return -EINVAL;
	}
	if (*rest || x > UINT64_MAX / mul)
		return -EINVAL;
	*v = x * mul;
	return 0;
}

/* "30s", "5m", "1h", "2d", or milliseconds without a unit as perf's TIME */
static int parse_time_ms(const char *s, uint64_t *ms)
{
	const char *rest;
	uint64_t x, mul;

	if (parse_number(s, &x, &rest))
		return -EINVAL;
	switch (*rest) {
	case 's': mul = 1000; break;
	case 'm': mul = 60 * 1000; break;
	case 'h': mul = 3600 * 1000; break;
	case 'd': mul = 24 * 3600 * 1000; break;
	default: return -EINVAL;
	}
	if (rest[1] || !x || x > UINT64_MAX / mul)
		return -EINVAL;
	*ms = x * mul;
	return 0;
}

int rec_parse_mmap_pages(const char *val, unsigned int *pages, struct pc_error *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const char *rest;
	uint64_t v, n;

	if (parse_number(val, &v, &rest))
		return pc_error_set(err, EINVAL, "-m: '%s' is not a number of pages or a size", val);
	if (*rest) {
		/* a size: the pages that hold it */
		if (parse_bytes(val, &v) || !v)
			return pc_error_set(err, EINVAL, "-m: '%s' is not a size (B/K/M/G)", val);
		n = (v + page - 1) / page;
	} else {
		n = v;
	}
	if (n < 1 || n > (1U << 20))
		return pc_error_set(err, EINVAL, "-m: '%s' is not in [1, %u] pages", val, 1U << 20);
	if (n & (n - 1)) {
		uint64_t p2 = 1;

		while (p2 < n)
			p2 <<= 1;
		/* said at the default verbosity, as perf says it */
		pc_log(0, "rounding mmap pages size to %lluK (%llu pages)\n",
		       (unsigned long long)(p2 * page / 1024), (unsigned long long)p2);
		n = p2;
	}
	*pages = (unsigned int)n;
	return 0;
}

static int parse_switch_output(struct rec_output_opts *o, const char *val,
			       struct pc_error *err)
{
	if (!val || !strcmp(val, "signal")) {
		o->switch_mode = REC_SWITCH_SIGNAL;
		return 0;
	}
	if (!parse_time_ms(val, &o->switch_time_ms)) {
		o->switch_mode = REC_SWITCH_TIME;
		return 0;
	}
	if (!parse_bytes(val, &o->switch_size) && o->switch_size) {
		o->switch_mode = REC_SWITCH_SIZE;
		return 0;
	}
	return pc_error_set(err, EINVAL, "--switch-output: '%s' is not signal, a size "
			    "(B/K/M/G) or a time (s/m/h/d)", val);
}

static int parse_control(struct rec_output_opts *o, const char *val, struct pc_error *err)
{
	if (strncmp(val, "fifo:", 5) && strncmp(val, "fd:", 3))
		return pc_error_set(err, EINVAL, "--control: '%s' is not fifo:CTL[,ACK] or "
				    "fd:CTL[,ACK]", val);
	if (!val[val[1] == 'i' ? 5 : 3] || val[val[1] == 'i' ? 5 : 3] == ',')
		return pc_error_set(err, EINVAL, "--control: '%s' names no control %s", val,
				    val[1] == 'i' ? "fifo" : "fd");
	o->control = val;
	return 0;
}

int rec_output_opt_apply(struct rec_output_opts *o, int id, const char *val,
			 struct pc_error *err)
{
	uint64_t v;
	char *end;

	switch (id) {
	case RO_COMPRESS:
	case RO_COMP_LEVEL:
		if (!val) {
			o->comp_level = 1;
			return 0;
		}
		v = strtoull(val, &end, 10);
		if (*val < '0' || *val > '9' || *end || v < 1 || v > COMP_LEVEL_MAX)
			return pc_error_set(err, EINVAL, "--compression-level: '%s' is not a "
					    "level in [1, %d]", val, COMP_LEVEL_MAX);
		o->comp_level = (int)v;
		return 0;
	case RO_MMAP_FLUSH:
		if (parse_bytes(val, &o->mmap_flush) || !o->mmap_flush)
			return pc_error_set(err, EINVAL, "--mmap-flush: '%s' is not a size "
					    "(B/K/M/G)", val);
		return 0;
	case RO_NO_BUILDID:
		o->no_buildid = true;
		return 0;
	case RO_NO_BUILDID_CACHE:
		o->no_buildid_cache = true;
		return 0;
	case RO_BUILDID_ALL:
		o->buildid_all = true;
		return 0;
	case RO_MAX_SIZE:
		if (parse_bytes(val, &o->max_size) || !o->max_size)
			return pc_error_set(err, EINVAL, "--max-size: '%s' is not a size (B/K/M/G)",
					    val);
		return 0;
	case RO_TIMEOUT: {
		double secs;

		errno = 0;
		secs = strtod(val, &end);
		if (errno || end == val || *end || !isfinite(secs) || secs <= 0 ||
		    secs > (double)UINT32_MAX)
			return pc_error_set(err, EINVAL, "--timeout: '%s' is not a positive number "
					    "of seconds", val);
		o->timeout_ms = (uint64_t)(secs * 1000 + 0.5);
		if (!o->timeout_ms)
			o->timeout_ms = 1;
		return 0;
	}
	case RO_DELAY: {
		long d;

		errno = 0;
		d = strtol(val, &end, 10);
		if (errno || end == val || *end || d < -1 || d > INT_MAX)
			return pc_error_set(err, EINVAL, "-D: '%s' is not milliseconds (or -1)", val);
		o->delay_ms = d;
		return 0;
	}
	case RO_AFFINITY:
		/* perf's words for another mode */
		if (!strcmp(val, "node"))
			o->affinity = REC_AFFINITY_NODE;
		else if (!strcmp(val, "cpu"))
			o->affinity = REC_AFFINITY_CPU;
		else
			return pc_error_set(err, EINVAL, "--affinity: '%s' is not node or cpu", val);
		return 0;
	case RO_REALTIME: {
		long p;

		errno = 0;
		p = strtol(val, &end, 10);
		if (errno || end == val || *end || p < 0 || p > 99)
			return pc_error_set(err, EINVAL, "-r: '%s' is not a SCHED_FIFO priority (1-99)",
					    val);
		o->realtime_prio = (int)p;
		return 0;
	}
	case RO_SWITCH_OUTPUT:
		return parse_switch_output(o, val, err);
	case RO_SWITCH_EVENT:
		/* as perf: it implies --switch-output=signal, the side band sends the signal */
		if (!*val)
			return pc_error_set(err, EINVAL, "--switch-output-event: empty event");
		o->switch_event = val;
		o->switch_mode = REC_SWITCH_SIGNAL;
		return 0;
	case RO_SWITCH_MAX_FILES:
		v = strtoull(val, &end, 10);
		if (*val < '0' || *val > '9' || *end || v > UINT32_MAX)
			return pc_error_set(err, EINVAL, "--switch-max-files: '%s' is not a number",
					    val);
		o->switch_max_files = (unsigned int)v;
		return 0;
	case RO_TIMESTAMP_FILENAME:
		o->timestamp_filename = true;
		return 0;
	case RO_CONTROL:
		return parse_control(o, val, err);
	case RO_OVERWRITE:
		o->overwrite = true;
		return 0;
	case RO_TAIL_SYNTH:
		o->tail_synthesize = true;
		return 0;
	}
	return pc_error_set(err, EINVAL, "internal: option %d", id);
}

int rec_output_opts_check(struct rec_output_opts *o, bool snapshot, const char *output,
			  struct pc_error *err)
{
	o->pipe = !strcmp(output, "-");
	if (o->overwrite && snapshot)
		return pc_error_set(err, EINVAL, "--overwrite cannot be used with -M: the kernel "
				    "rings already keep only the newest records");
	if (o->switch_mode && o->pipe)
		return pc_error_set(err, EINVAL, "--switch-output cannot be used with -o -: a "
				    "pipe has no file to switch");
	if (o->switch_mode && snapshot)
		return pc_error_set(err, EINVAL, "--switch-output cannot be used with -M: both "
				    "take SIGUSR2");
	if (o->timestamp_filename && o->pipe)
		return pc_error_set(err, EINVAL, "--timestamp-filename cannot be used with -o -");
	if (o->max_size && o->pipe)
		return pc_error_set(err, EINVAL, "--max-size cannot be used with -o -: a pipe "
				    "has no size");
	if (o->switch_max_files && !o->switch_mode)
		return pc_error_set(err, EINVAL, "--switch-max-files needs --switch-output");
	if (o->overwrite && o->pipe)
		return pc_error_set(err, EINVAL, "--overwrite cannot be used with -o -: its "
				    "records are read at the end");
	if (o->overwrite && o->switch_mode)
		return pc_error_set(err, EINVAL, "--overwrite cannot be used with "
				    "--switch-output: the rings are read once, at the end");
	/* an event that is not there is a usage error now, as perf's parser says */
	if (o->switch_event) {
		struct rec_evlist evl = { 0 };
		int ret = rec_events_parse(&evl, o->switch_event, err);

		rec_evlist_free(&evl);
		if (ret)
			return ret;
	}
	return 0;
}
