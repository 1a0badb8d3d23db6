// SPDX-License-Identifier: GPL-2.0
/*
 * -e parsing and the attr each event is opened with.  Event names follow
 * perf list; modifiers :u :k :h :p as perf takes them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/record.h"
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

static int apply_modifiers(struct rec_event *ev, const char *mods, struct pc_error *err)
{
	bool u = false, k = false, h = false;
	unsigned int precise = 0;

	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u': u = true; break;
		case 'k': k = true; break;
		case 'h': h = true; break;
		case 'p': precise++; break;
		default:
			return pc_error_set(err, EINVAL, "event '%s': unknown modifier '%c'",
					    ev->name, *p);
		}
	}
	if (precise > 3)
		return pc_error_set(err, EINVAL, "event '%s': at most :ppp", ev->name);
	if (u || k || h) {
		ev->attr.attr.exclude_user = !u;
		ev->attr.attr.exclude_kernel = !k;
		ev->attr.attr.exclude_hv = !h;
		ev->has_modifier = true;
	}
	ev->attr.attr.precise_ip = precise;
	return 0;
}

static int parse_one(struct rec_event *ev, const char *spec, size_t len, struct pc_error *err)
{
	char buf[256];
	char *colon, *mods = NULL;

	memset(ev, 0, sizeof(*ev));
	if (len >= sizeof(buf))
		return pc_error_set(err, EINVAL, "event '%.*s...': name too long", 40, spec);
	memcpy(buf, spec, len);
	buf[len] = '\0';
	snprintf(ev->name, sizeof(ev->name), "%s", buf);

	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	for (size_t i = 0; i < sizeof(named_events) / sizeof(named_events[0]); i++) {
		if (strcmp(buf, named_events[i].name))
			continue;
		ev->attr.attr.type = named_events[i].type;
		ev->attr.attr.config = named_events[i].config;
		mods = colon ? colon + 1 : NULL;
		goto found;
	}
	if (buf[0] == 'r' && buf[1] && strspn(buf + 1, "0123456789abcdefABCDEF") == strlen(buf + 1)) {
		if (strlen(buf + 1) > 16)
			return pc_error_set(err, EINVAL, "event '%s': raw code too long", ev->name);
		ev->attr.attr.type = PERF_TYPE_RAW;
		ev->attr.attr.config = strtoull(buf + 1, NULL, 16);
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
			    "event '%s' is not known (software, hardware, rNNNN or SYS:NAME)",
			    ev->name);
found:
	if (mods)
		return apply_modifiers(ev, mods, err);
	return 0;
}

int rec_events_parse(struct rec_opts *opts, const char *spec, struct pc_error *err)
{
	const char *p = spec;

	if (!*spec)
		return pc_error_set(err, EINVAL, "-e: empty event list");
	while (*p) {
		size_t n = strcspn(p, ",");
		struct rec_event *evs;
		int ret;

		if (!n)
			return pc_error_set(err, EINVAL, "-e '%s': empty event in list", spec);
		evs = realloc(opts->events, (opts->nr_events + 1) * sizeof(*evs));
		if (!evs)
			return pc_error_set(err, ENOMEM, "out of memory");
		opts->events = evs;
		ret = parse_one(&evs[opts->nr_events], p, n, err);
		if (ret)
			return ret;
		opts->nr_events++;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

/* Non-root at paranoid >= 2 may only sample user space: ask for it, as perf does. */
static bool user_only(void)
{
	long paranoid;

	if (geteuid() == 0)
		return false;
	return pc_read_int_file("/proc/sys/kernel/perf_event_paranoid", &paranoid) == 0 &&
	       paranoid >= 2;
}

uint32_t rec_attr_min_size(const union pc_attr *attr)
{
	static const uint32_t sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136, 144 };
	uint32_t used = 0;

	for (uint32_t i = 0; i < PC_ATTR_SIZE_MAX; i++)
		if (attr->bytes[i] && i != offsetof(struct perf_event_attr, size) &&
		    i != offsetof(struct perf_event_attr, size) + 1)
			used = i + 1;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (used <= sizes[i])
			return sizes[i];
	return PC_ATTR_SIZE_MAX;
}

void rec_events_config(struct rec_opts *opts)
{
	bool follow_workload = opts->argc && !opts->nr_pids && !opts->system_wide;
	bool restrict_user = user_only();
	/* -D: as perf, a dummy event appended by record.c tracks the tasks from exec */
	int track_idx = opts->out.delay_ms ? opts->nr_events - 1 : 0;

	for (int i = 0; i < opts->nr_events; i++) {
		struct rec_event *ev = &opts->events[i];
		struct perf_event_attr *a = &ev->attr.attr;
		bool track = i == track_idx;
		bool one_by_one = ev->tracepoint ||
			(a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY);

		if (opts->period_set) {
			a->sample_period = opts->period;
		} else if (one_by_one) {
			a->sample_period = 1;
		} else {
			a->freq = 1;
			a->sample_freq = opts->freq;
		}
		a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				 PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
		if (opts->system_wide)
			a->sample_type |= PERF_SAMPLE_CPU;
		if (ev->tracepoint)
			a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
		if (opts->callgraph != REC_CALLGRAPH_NONE)
			a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		a->read_format = PERF_FORMAT_ID;
		if (opts->inherit_stat) {
			a->inherit_stat = 1;
			a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED |
					  PERF_FORMAT_TOTAL_TIME_RUNNING;
			/*
			 * Per-thread counts in every sample only where the kernel
			 * takes SAMPLE_READ with inherit (6.12+): before that the
			 * ladder would give up inherit to keep it, and -s must
			 * still follow children, as perf record -s does.
			 */
			if (opts->no_inherit ||
			    pc_feature_probe(PC_FEAT_INHERIT_SAMPLE_READ, NULL) == PC_FEATURE_SUPPORTED)
				a->sample_type |= PERF_SAMPLE_READ;
		}
		a->disabled = 1;
		a->inherit = !opts->no_inherit;
		/* -D: the recorder enables them after the delay, as perf */
		a->enable_on_exec = follow_workload && !opts->out.delay_ms;
		a->sample_id_all = 1;
		a->write_backward = opts->out.overwrite;	/* --overwrite, as perf */
		if (restrict_user && !ev->has_modifier) {
			a->exclude_kernel = 1;
			a->exclude_hv = 1;
		}
		if (track) {
			a->mmap = 1;
			a->mmap2 = 1;
			a->comm = 1;
			a->comm_exec = 1;
			a->task = 1;
			a->context_switch = opts->switch_events;
			if (opts->callgraph == REC_CALLGRAPH_FP_DEFER)
				pc_attr_set(a, PC_ATTR_defer_output, true);
		}
		if (opts->callgraph == REC_CALLGRAPH_FP_DEFER && !a->exclude_user)
			pc_attr_set(a, PC_ATTR_defer_callchain, true);
		if (opts->out.delay_ms && track) {
			/* perf's tracking dummy: period 1, no PERIOD, on from exec */
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
			a->enable_on_exec = follow_workload;
		}
		a->size = rec_attr_min_size(&ev->attr);
	}
}

/*
 * The kernel refuses a frequency above kernel.perf_event_max_sample_rate
 * (which it lowers by itself when sampling interrupts take too long): an
 * explicit -F above it is an error that says so, the default is lowered
 * with a warning, as perf does.
 */
int rec_events_check_freq(struct rec_opts *opts, struct pc_error *err)
{
	long max;

	if (pc_read_int_file("/proc/sys/kernel/perf_event_max_sample_rate", &max) || max <= 0)
		return 0;
	for (int i = 0; i < opts->nr_events; i++) {
		struct perf_event_attr *a = &opts->events[i].attr.attr;

		if (!a->freq || a->sample_freq <= (uint64_t)max)
			continue;
		if (opts->freq_set)
			return pc_error_set(err, EINVAL,
					    "-F %u is above the kernel's limit of %ld samples/s "
					    "(kernel.perf_event_max_sample_rate): use -F %ld or lower",
					    opts->freq, max, max);
		pc_warn("lowering the default frequency from %u to %ld "
			"(kernel.perf_event_max_sample_rate)\n", opts->freq, max);
		opts->freq = (unsigned int)max;
		a->sample_freq = (uint64_t)max;
	}
	return 0;
}
