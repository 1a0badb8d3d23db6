// SPDX-License-Identifier: GPL-2.0
/*
 * perf record's command line: short options take their value attached or
 * as the next word (-F1000, -F 1000), long ones with '=' or the next word,
 * flags stack (-vv, -ag), and the first non-option word starts the workload.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/output_opts.h"
#include "recorder/record.h"
#include "util/log.h"

void rec_usage(FILE *out)
{
	fprintf(out,
"usage: perfcheck record [OPTIONS] [-- COMMAND [ARGS]]\n"
"\n"
"  -e, --event EVENT[,EVENT]  events: cpu-clock task-clock page-faults minor-faults\n"
"                             major-faults context-switches cpu-migrations dummy,\n"
"                             hardware names (cycles...), rNNNN, SYS:NAME; :u :k\n"
"  -c, --count N              sample every N events\n"
"  -F, --freq N               sample N times a second (default 4000)\n"
"  -g                         record frame-pointer callchains\n"
"      --call-graph fp[,defer]  callchains; defer asks for deferred user chains\n"
"  -o, --output FILE          output file (default perf.data; old one -> FILE.old)\n"
"  -p, --pid PID[,PID]        attach to running processes\n"
"  -t, --tid TID[,TID]        attach to running threads (no inherit)\n"
"  -a, --all-cpus             system-wide on every cpu\n"
"  -C, --cpu LIST             only these cpus (0-3,6)\n"
"  -i, --no-inherit           children and new threads are not recorded\n"
"  -s, --stat                 per-thread counts (inherit_stat; PERF_SAMPLE_READ where the kernel has inherit_sample_read)\n"
"  -m, --mmap-pages PAGES|SIZE  ring buffer data per cpu: pages, or a size\n"
"                             with a B/K/M/G unit (rounded up to a power of two)\n"
"      --switch-events        record context switches\n"
"  -M, --snapshot SIZE        keep samples in a SIZE-byte ring (k/M/G),\n"
"                             written to the file on each SIGUSR2\n"
"  output and modes:\n"
"  -o -                       pipe format on stdout\n"
"  -z, --compression-level[=N]  zstd-compressed records (level 1-22, default 1)\n"
"      --mmap-flush SIZE      drain a ring once it holds SIZE bytes\n"
"  -B, --no-buildid           no BUILD_ID section\n"
"  -N, --no-buildid-cache     accepted (perfcheck keeps no build-id cache)\n"
"      --max-size SIZE        stop once the file reaches SIZE (B/K/M/G)\n"
"      --timeout SEC          stop after SEC seconds (0.3 too), exit 124\n"
"  -D, --delay MSEC           enable the events MSEC ms after the start\n"
"                             (-1: only on a --control enable)\n"
"      --switch-output[=signal|SIZE|TIME]  a new file on SIGUSR2, every SIZE\n"
"                             bytes or every TIME (s/m/h/d)\n"
"      --switch-max-files N   keep only the newest N switched files\n"
"      --timestamp-filename   name the file FILE.YYYYMMDDHHMMSSmmm\n"
"      --control fifo:CTL[,ACK] | fd:CTL[,ACK]  enable, disable, snapshot,\n"
"                             stop, ping commands, acked with 'ack'\n"
"      --overwrite            write_backward rings, read at the end\n"
"      --tail-synthesize      synthesize the tasks at the end\n"
"  -q, --quiet                no messages\n"
"  -v, --verbose              more messages (repeatable)\n"
"  -h, --help                 this help\n");
}

enum opt_id {
	O_EVENT = 'e', O_COUNT = 'c', O_FREQ = 'F', O_G = 'g', O_OUTPUT = 'o',
	O_PID = 'p', O_TID = 't', O_ALL = 'a', O_CPU = 'C', O_NOINHERIT = 'i',
	O_STAT = 's', O_MMAP = 'm', O_SNAP = 'M', O_QUIET = 'q', O_VERBOSE = 'v',
	O_HELP = 'h',
	O_CALLGRAPH = 256, O_SWITCH,
	/* output and modes (output_opts.c) */
	O_Z = 'z', O_NOBUILDID = 'B', O_NOBUILDIDCACHE = 'N', O_DELAY = 'D',
};

enum opt_arg { ARG_NONE, ARG_REQ, ARG_OPT /* --long=VAL or -zVAL only */ };

static const struct opt_def {
	int id;
	const char *lng;
	enum opt_arg arg;
} defs[] = {
	{ O_EVENT, "event", true }, { O_COUNT, "count", true }, { O_FREQ, "freq", true },
	{ O_G, NULL, false }, { O_CALLGRAPH, "call-graph", true },
	{ O_OUTPUT, "output", true }, { O_PID, "pid", true }, { O_TID, "tid", true },
	{ O_ALL, "all-cpus", false }, { O_CPU, "cpu", true },
	{ O_NOINHERIT, "no-inherit", false }, { O_STAT, "stat", false },
	{ O_MMAP, "mmap-pages", true }, { O_SWITCH, "switch-events", false },
	{ O_SNAP, "snapshot", true },
	{ O_QUIET, "quiet", false }, { O_VERBOSE, "verbose", false },
	{ O_HELP, "help", false },
	/* output and modes (output_opts.c) */
	{ O_Z, NULL, ARG_OPT }, { RO_COMP_LEVEL, "compression-level", ARG_OPT },
	{ RO_MMAP_FLUSH, "mmap-flush", ARG_REQ }, { O_NOBUILDID, "no-buildid", ARG_NONE },
	{ O_NOBUILDIDCACHE, "no-buildid-cache", ARG_NONE },
	{ RO_MAX_SIZE, "max-size", ARG_REQ }, { RO_TIMEOUT, "timeout", ARG_REQ },
	{ O_DELAY, "delay", ARG_REQ }, { RO_SWITCH_OUTPUT, "switch-output", ARG_OPT },
	{ RO_SWITCH_MAX_FILES, "switch-max-files", ARG_REQ },
	{ RO_TIMESTAMP_FILENAME, "timestamp-filename", ARG_NONE },
	{ RO_CONTROL, "control", ARG_REQ }, { RO_OVERWRITE, "overwrite", ARG_NONE },
	{ RO_TAIL_SYNTH, "tail-synthesize", ARG_NONE },
};

/* the short forms of the output block's options */
static int output_opt_id(int id)
{
	switch (id) {
	case O_Z: return RO_COMPRESS;
	case O_NOBUILDID: return RO_NO_BUILDID;
	case O_NOBUILDIDCACHE: return RO_NO_BUILDID_CACHE;
	case O_DELAY: return RO_DELAY;
	}
	return id;
}

static const struct opt_def *find_short(int c)
{
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		if (defs[i].id == c)
			return &defs[i];
	return NULL;
}

static const struct opt_def *find_long(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		if (defs[i].lng && strlen(defs[i].lng) == len && !strncmp(defs[i].lng, name, len))
			return &defs[i];
	return NULL;
}

static int parse_u64(const char *s, uint64_t *v, uint64_t min, uint64_t max, const char *what,
		     struct pc_error *err)
{
	char *end;
	unsigned long long x;

	errno = 0;
	if (*s == '-')
		return pc_error_set(err, EINVAL, "%s: '%s' is not a positive number", what, s);
	x = strtoull(s, &end, 0);
	if (errno || end == s || *end || x < min || x > max)
		return pc_error_set(err, EINVAL, "%s: '%s' is not a number in [%llu, %llu]", what,
				    s, (unsigned long long)min, (unsigned long long)max);
	*v = x;
	return 0;
}

/* SIZE with an optional k/M/G suffix (powers of 1024), as perf's -m/-M take. */
static int parse_size(const char *s, uint64_t *v, const char *what, struct pc_error *err)
{
	char *end;
	unsigned long long x;
	uint64_t mul = 1;

	errno = 0;
	if (*s == '-')
		return pc_error_set(err, EINVAL, "%s: '%s' is not a size", what, s);
	x = strtoull(s, &end, 0);
	if (errno || end == s)
		return pc_error_set(err, EINVAL, "%s: '%s' is not a size", what, s);
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': mul = 1ULL << 10; end++; break;
	case 'm': case 'M': mul = 1ULL << 20; end++; break;
	case 'g': case 'G': mul = 1ULL << 30; end++; break;
	default: break;
	}
	if ((*end == 'b' || *end == 'B') && mul != 1)
		end++;
	if (*end || x > (UINT64_MAX / mul))
		return pc_error_set(err, EINVAL, "%s: '%s' is not a size", what, s);
	*v = x * mul;
	return 0;
}

static int parse_pids(struct rec_opts *opts, const char *s, bool tids, struct pc_error *err)
{
	const char *p = s;

	if (opts->nr_pids && opts->pids_are_tids != tids)
		return pc_error_set(err, EINVAL, "-p and -t cannot be mixed");
	opts->pids_are_tids = tids;
	while (*p) {
		char *end;
		long v;
		pid_t *n;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v <= 0 || v > INT_MAX || (*end && *end != ','))
			return pc_error_set(err, EINVAL, "%s: '%s' is not a list of ids",
					    tids ? "-t" : "-p", s);
		n = realloc(opts->pids, (opts->nr_pids + 1) * sizeof(*n));
		if (!n)
			return pc_error_set(err, ENOMEM, "out of memory");
		opts->pids = n;
		opts->pids[opts->nr_pids++] = (pid_t)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int apply(struct rec_opts *opts, int id, const char *val, struct pc_error *err)
{
	uint64_t v = 0;
	int ret = 0;

	switch (id) {
	case O_EVENT:
		return rec_events_parse(opts, val, err);
	case O_COUNT:
		ret = parse_u64(val, &v, 1, INT64_MAX, "-c", err);
		opts->period = v;
		opts->period_set = true;
		break;
	case O_FREQ:
		ret = parse_u64(val, &v, 1, UINT32_MAX, "-F", err);
		opts->freq = (unsigned int)v;
		opts->freq_set = true;
		break;
	case O_G:
		opts->callgraph = REC_CALLGRAPH_FP;
		break;
	case O_CALLGRAPH:
		if (!strcmp(val, "fp"))
			opts->callgraph = REC_CALLGRAPH_FP;
		else if (!strcmp(val, "fp,defer"))
			opts->callgraph = REC_CALLGRAPH_FP_DEFER;
		else
			return pc_error_set(err, EINVAL,
					    "--call-graph: '%s' is not supported (fp, fp,defer)", val);
		break;
	case O_OUTPUT:
		if (!*val)
			return pc_error_set(err, EINVAL, "-o: empty file name");
		opts->output = val;
		break;
	case O_PID:
	case O_TID:
		return parse_pids(opts, val, id == O_TID, err);
	case O_ALL:
		opts->system_wide = true;
		break;
	case O_CPU:
		opts->cpu_list = val;
		break;
	case O_NOINHERIT:
		opts->no_inherit = true;
		break;
	case O_STAT:
		opts->inherit_stat = true;
		break;
	case O_MMAP:
		return rec_parse_mmap_pages(val, &opts->mmap_pages, err);
	case O_SWITCH:
		opts->switch_events = true;
		break;
	case O_SNAP:
		ret = parse_size(val, &v, "-M", err);
		if (!ret && v < REC_SNAPSHOT_MIN)
			ret = pc_error_set(err, EINVAL,
					   "-M: %s is smaller than one maximal record (%u bytes)",
					   val, REC_SNAPSHOT_MIN);
		if (!ret && v > SIZE_MAX / 2)
			ret = pc_error_set(err, EINVAL, "-M: %s is too large", val);
		opts->snapshot_size = (size_t)v;
		break;
	case O_QUIET:
		pc_verbose = -1;
		break;
	case O_VERBOSE:
		if (pc_verbose < 0)
			pc_verbose = 0;
		pc_verbose++;
		break;
	case O_HELP:
		return 1;
	default:
		/* output and modes */
		return rec_output_opt_apply(&opts->out, output_opt_id(id), val, err);
	}
	return ret;
}

int rec_opts_parse(struct rec_opts *opts, int argc, char **argv, struct pc_error *err)
{
	int i, ret;

	memset(opts, 0, sizeof(*opts));
	opts->output = "perf.data";
	opts->freq = 4000;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct opt_def *d;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1])
			break;
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			const char *val = NULL;

			d = find_long(name, eq ? (size_t)(eq - name) : strlen(name));
			if (!d)
				return pc_error_set(err, EINVAL, "unknown option '%s'", a);
			if (d->arg == ARG_OPT) {
				val = eq ? eq + 1 : NULL;
			} else if (d->arg) {
				if (eq)
					val = eq + 1;
				else if (i + 1 < argc)
					val = argv[++i];
				else
					return pc_error_set(err, EINVAL, "option '%s' needs a value", a);
			} else if (eq) {
				return pc_error_set(err, EINVAL, "option '--%s' takes no value", d->lng);
			}
			ret = apply(opts, d->id, val, err);
			if (ret)
				return ret;
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			d = find_short((unsigned char)*p);
			if (!d)
				return pc_error_set(err, EINVAL, "unknown option '-%c'", *p);
			if (d->arg == ARG_OPT) {
				ret = apply(opts, d->id, p[1] ? p + 1 : NULL, err);
				if (ret)
					return ret;
				break;
			}
			if (d->arg) {
				const char *val = p[1] ? p + 1 : (i + 1 < argc ? argv[++i] : NULL);

				if (!val)
					return pc_error_set(err, EINVAL, "option '-%c' needs a value", *p);
				ret = apply(opts, d->id, val, err);
				if (ret)
					return ret;
				break;
			}
			ret = apply(opts, d->id, NULL, err);
			if (ret)
				return ret;
		}
	}
	opts->argc = argc - i;
	opts->argv = argv + i;

	if (opts->period_set && opts->freq_set)
		pc_warn("-c and -F both given, -c wins\n");
	if (opts->nr_pids && opts->system_wide)
		return pc_error_set(err, EINVAL, "-a cannot be combined with -p/-t");
	if (opts->argc && (opts->nr_pids || opts->system_wide))
		pc_info("both a target and a command: the command runs, the target is recorded\n");
	if (!opts->argc && !opts->nr_pids && !opts->system_wide && !opts->cpu_list)
		return pc_error_set(err, EINVAL,
				    "nothing to record: give a command, -p, -t, -a or -C");
	if (opts->cpu_list && !opts->nr_pids)
		opts->system_wide = true;
	if (opts->pids_are_tids)
		opts->no_inherit = true;	/* -t means this thread, as in perf */
	ret = rec_output_opts_check(&opts->out, opts->snapshot_size, opts->output, err);
	if (ret)
		return ret;
	if (!opts->nr_events) {
		ret = rec_events_parse(opts, "cycles", err);
		if (ret)
			return ret;
	}
	return 0;
}

void rec_opts_free(struct rec_opts *opts)
{
	free(opts->events);
	free(opts->pids);
	opts->events = NULL;
	opts->pids = NULL;
}
