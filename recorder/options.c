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
#include <unistd.h>

#include "recorder/options.h"
#include "recorder/options_int.h"
#include "recorder/output_opts.h"
#include "recorder/snapshot.h"
#include "util/log.h"

void rec_usage(FILE *out)
{
	fprintf(out,
"usage: perfcheck record [OPTIONS] [-- COMMAND [ARGS]]\n"
"\n"
"  -e, --event EVENT[,EVENT]  events: cpu-clock task-clock page-faults minor-faults\n"
"                             major-faults context-switches cpu-migrations dummy,\n"
"                             hardware names (cycles...), cache names\n"
"                             (L1-dcache-load-misses...), rNNNN, SYS:NAME,\n"
"                             PMU/term=value,.../ (period freq config config1 config2\n"
"                             name call-graph stack-size), groups {a,b};\n"
"                             modifiers :u :k :h :p :S (leader sampling) :D (pinned)\n"
"  -c, --count N              sample every N events\n"
"  -F, --freq N|max           sample N times a second (default 4000; above the\n"
"                             kernel's limit: lowered to it, with a warning)\n"
"      --strict-freq          a -F above the kernel's limit fails instead\n"
"  -n, --no-samples           count only: no sample (the side band is recorded)\n"
"  -g                         record frame-pointer callchains\n"
"      --call-graph MODE      fp[,defer], dwarf[,SIZE] (user stack copies), lbr\n"
"  -d, --data                 sample data addresses (and record data mmaps)\n"
"      --phys-data            sample physical data addresses\n"
"      --sample-mem-info      sample the data source (perf 7.2: DATA_SRC alone)\n"
"      --data-mmap            record the data mmaps (attr.mmap_data)\n"
"      --data-page-size       sample the data page size\n"
"      --code-page-size       sample the code page size\n"
"      --sample-cpu           sample the cpu\n"
"  -T, --timestamp            sample the time (always on)\n"
"  -W, --weight               sample the weight\n"
"      --transaction          sample the transaction flags (PERF_SAMPLE_TRANSACTION)\n"
"      --user-regs[=REGS]     sample user registers (ax,bx,...,ip,sp; default all)\n"
"  -I, --intr-regs[=REGS]     sample registers at the interrupt\n"
"  -b, --branch-any           sample taken branches (needs a PMU with a branch stack)\n"
"  -j, --branch-filter LIST   branch stack filter (any,u,k,call,ind_call,...)\n"
"      --namespaces           record namespace events\n"
"      --all-cgroups          record cgroup events and sample the cgroup\n"
"  -G, --cgroup NAME[,NAME]   only in these cgroups (with -a)\n"
"  -P, --period               sample the period (always on)\n"
"  -R, --raw-samples          sample raw data, time and cpu\n"
"      --sample-identifier    the id first in each sample (always on)\n"
"      --running-time         read values with the times enabled and running\n"
"      --user-callchains      callchains without their kernel part\n"
"      --kernel-callchains    callchains without their user part\n"
"      --no-buffering         a wakeup for every record\n"
"      --timestamp-boundary   accepted: the first and last sample times are always\n"
"                             in the SAMPLE_TIME section\n"
"      --dry-run              check the options and events, open nothing\n"
"      --synth LIST           records of what exists at the start: no, all (the\n"
"                             default), task, mmap (with task), cgroup\n"
"      --buildid-all          build ids of every object mapped, not only those hit\n"
"      --buildid-mmap         build ids in MMAP2 records (where the kernel has them),\n"
"                             no build-id section (as -B)\n"
"      --exclude-perf         the last -e's tracepoint leaves out perfcheck's own\n"
"                             events (common_pid != its pid, joined to --filter)\n"
"      --filter FILTER        the last -e's tracepoint filter (the kernel's, set by\n"
"                             PERF_EVENT_IOC_SET_FILTER); a second joins with &&\n"
"      --no-bpf-event         no bpf_event records, no BPF side band, no\n"
"                             BPF_PROG_INFO entries (KSYMBOLs stay, as perf)\n"
"  -u, --uid USER             the processes of USER\n"
"      --per-thread           one ring per thread (cpu -1), no inherit\n"
"      --all-user             user space only (exclude_kernel)\n"
"      --all-kernel           kernel only (exclude_user)\n"
"  -k, --clockid CLOCK        timestamps from CLOCK (mono, raw, realtime, boot, tai,\n"
"                             or a number)\n"
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
"      --latency              perf 7.2's latency profiling: context switches\n"
"      --aio[=N], --num-thread-synthesize N, --proc-map-timeout MS, --debuginfod[=URLS]\n"
"                             how perf writes, synthesizes and finds debug files:\n"
"                             taken, nothing the kernel is asked changes\n"
"      --vmlinux PATH         checked as perf (readable), not used: record reads no\n"
"                             kernel symbols\n"
"      --aux-sample[=OPTS]    refused as perf without an AUX area event (perfcheck\n"
"                             opens none: intel_pt, arm_spe, cs_etm)\n"
"  -M, --snapshot SIZE        keep samples in a SIZE-byte ring (k/M/G),\n"
"                             written to the file on each SIGUSR2\n"
"  output and modes:\n"
"  -o -                       pipe format on stdout\n"
"      --kcore                the kernel's text copied beside the data: FILE is a\n"
"                             directory (data, kcore_dir/), text pokes recorded\n"
"  -z, --compression-level[=N]  zstd-compressed records (level 1-22, default 1)\n"
"      --mmap-flush SIZE      drain a ring once it holds SIZE bytes\n"
"  -B, --no-buildid           no BUILD_ID section\n"
"  -N, --no-buildid-cache     accepted (perfcheck keeps no build-id cache)\n"
"      --max-size SIZE        stop once the file reaches SIZE (B/K/M/G)\n"
"      --timeout SEC          stop after SEC seconds (0.3 too), exit 124\n"
"  -D, --delay MSEC           enable the events MSEC ms after the start\n"
"                             (-1: only on a --control enable)\n"
"      --affinity node|cpu    read each ring on its cpu's NUMA node, or on its cpu\n"
"  -r, --realtime PRIO        the recorder at this SCHED_FIFO priority (after the\n"
"                             command is forked and the file begun, as perf)\n"
"      --switch-output[=signal|SIZE|TIME]  a new file on SIGUSR2, every SIZE\n"
"                             bytes or every TIME (s/m/h/d)\n"
"      --switch-max-files N   keep only the newest N switched files\n"
"      --switch-output-event EVENT  a new file each time EVENT (a tracepoint,\n"
"                             or an event with a period) occurs, system-wide\n"
"      --timestamp-filename   name the file FILE.YYYYMMDDHHMMSScc\n"
"      --control fifo:CTL[,ACK] | fd:CTL[,ACK]  enable, disable, snapshot,\n"
"                             stop, ping commands, acked with 'ack'\n"
"      --threads[=SPEC]       read the rings with several threads into a perf.data\n"
"                             directory (data, data.N per ring); SPEC: cpu (the\n"
"                             default), core, package, numa, or MAPS/AFF[:MAPS/AFF]\n"
"                             cpu lists (0-1/0-1:2-3/2-3)\n"
"      --overwrite            write_backward rings, read at the end\n"
"      --tail-synthesize      synthesize the tasks at the end\n"
"  -q, --quiet                no messages\n"
"  -v, --verbose              more messages (repeatable)\n"
"  -h, --help                 this help\n");
}

/* output and modes: the short forms of output_opts.c's options */
enum { O_Z = 'z', O_NOBUILDID = 'B', O_NOBUILDIDCACHE = 'N', O_DELAY = 'D', O_REALTIME = 'r' };

static const struct rec_opt_def defs[] = {
	{ O_EVENT, "event", REC_ARG }, { O_COUNT, "count", REC_ARG }, { O_FREQ, "freq", REC_ARG },
	{ O_G, NULL, REC_NOARG }, { O_CALLGRAPH, "call-graph", REC_ARG },
	{ O_OUTPUT, "output", REC_ARG }, { O_PID, "pid", REC_ARG }, { O_TID, "tid", REC_ARG },
	{ O_ALL, "all-cpus", REC_NOARG }, { O_CPU, "cpu", REC_ARG },
	{ O_NOINHERIT, "no-inherit", REC_NOARG }, { O_STAT, "stat", REC_NOARG },
	{ O_MMAP, "mmap-pages", REC_ARG }, { O_SWITCH, "switch-events", REC_NOARG },
	{ O_SNAP, "snapshot", REC_ARG },
	{ O_QUIET, "quiet", REC_NOARG }, { O_VERBOSE, "verbose", REC_NOARG },
	{ O_HELP, "help", REC_NOARG },
	/* sample content, side band and targets: options_sample.c */
	{ O_DATA, "data", REC_NOARG }, { O_PHYS, "phys-data", REC_NOARG },
	{ O_DATA_PAGE, "data-page-size", REC_NOARG },
	{ O_CODE_PAGE, "code-page-size", REC_NOARG },
	{ O_SAMPLE_CPU, "sample-cpu", REC_NOARG }, { O_TIMESTAMP, "timestamp", REC_NOARG },
	{ O_WEIGHT, "weight", REC_NOARG }, { O_TRANSACTION, "transaction", REC_NOARG },
	{ O_USER_REGS, "user-regs", REC_OPTARG },
	{ O_INTR_REGS, "intr-regs", REC_OPTARG }, { O_BRANCH_ANY, "branch-any", REC_NOARG },
	{ O_BRANCH_FILTER, "branch-filter", REC_ARG },
	{ O_NAMESPACES, "namespaces", REC_NOARG }, { O_ALL_CGROUPS, "all-cgroups", REC_NOARG },
	{ O_CGROUP, "cgroup", REC_ARG }, { O_UID, "uid", REC_ARG },
	{ O_PER_THREAD, "per-thread", REC_NOARG }, { O_ALL_USER, "all-user", REC_NOARG },
	{ O_ALL_KERNEL, "all-kernel", REC_NOARG }, { O_CLOCKID, "clockid", REC_ARG },
	{ O_NO_BPF_EVENT, "no-bpf-event", REC_NOARG },
	{ O_PERIOD, "period", REC_NOARG }, { O_RAW_SAMPLES, "raw-samples", REC_NOARG },
	{ O_SAMPLE_IDENTIFIER, "sample-identifier", REC_NOARG },
	{ O_RUNNING_TIME, "running-time", REC_NOARG },
	{ O_USER_CALLCHAINS, "user-callchains", REC_NOARG },
	{ O_KERNEL_CALLCHAINS, "kernel-callchains", REC_NOARG },
	{ O_BUILDID_MMAP, "buildid-mmap", REC_NOARG }, { O_NO_BUFFERING, "no-buffering", REC_NOARG },
	{ O_FILTER, "filter", REC_ARG }, { O_NO_SAMPLES, "no-samples", REC_NOARG },
	{ O_STRICT_FREQ, "strict-freq", REC_NOARG },
	{ O_TIMESTAMP_BOUNDARY, "timestamp-boundary", REC_NOARG },
	{ O_DRY_RUN, "dry-run", REC_NOARG }, { O_EXCLUDE_PERF, "exclude-perf", REC_NOARG },
	{ O_SYNTH, "synth", REC_ARG }, { O_THREADS, "threads", REC_OPTARG },
	{ O_SAMPLE_MEM_INFO, "sample-mem-info", REC_NOARG },
	{ O_DATA_MMAP, "data-mmap", REC_NOARG }, { O_LATENCY, "latency", REC_NOARG },
	{ O_AIO, "aio", REC_OPTARG }, { O_NUM_THREAD_SYNTH, "num-thread-synthesize", REC_ARG },
	{ O_PROC_MAP_TIMEOUT, "proc-map-timeout", REC_ARG },
	{ O_DEBUGINFOD, "debuginfod", REC_OPTARG }, { O_AUX_SAMPLE, "aux-sample", REC_OPTARG },
	{ O_VMLINUX, "vmlinux", REC_ARG }, { O_KCORE, "kcore", REC_NOARG },
	/* output and modes (output_opts.c) */
	{ O_Z, NULL, REC_OPTARG }, { RO_COMP_LEVEL, "compression-level", REC_OPTARG },
	{ RO_MMAP_FLUSH, "mmap-flush", REC_ARG }, { O_NOBUILDID, "no-buildid", REC_NOARG },
	{ O_NOBUILDIDCACHE, "no-buildid-cache", REC_NOARG },
	{ RO_MAX_SIZE, "max-size", REC_ARG }, { RO_TIMEOUT, "timeout", REC_ARG },
	{ O_DELAY, "delay", REC_ARG }, { RO_SWITCH_OUTPUT, "switch-output", REC_OPTARG },
	{ RO_SWITCH_MAX_FILES, "switch-max-files", REC_ARG },
	{ RO_TIMESTAMP_FILENAME, "timestamp-filename", REC_NOARG },
	{ RO_CONTROL, "control", REC_ARG }, { RO_OVERWRITE, "overwrite", REC_NOARG },
	{ RO_TAIL_SYNTH, "tail-synthesize", REC_NOARG },
	{ RO_BUILDID_ALL, "buildid-all", REC_NOARG }, { O_REALTIME, "realtime", REC_ARG },
	{ RO_AFFINITY, "affinity", REC_ARG },
	{ RO_SWITCH_EVENT, "switch-output-event", REC_ARG },
};

/* The id output_opts.c knows an option of the output block by, or 0. */
static int output_opt_id(int id)
{
	switch (id) {
	case O_Z: return RO_COMPRESS;
	case O_NOBUILDID: return RO_NO_BUILDID;
	case O_NOBUILDIDCACHE: return RO_NO_BUILDID_CACHE;
	case O_DELAY: return RO_DELAY;
	case O_REALTIME: return RO_REALTIME;
	}
	return id >= RO_FIRST && id < RO_LAST ? id : 0;
}

static const struct rec_opt_def *find_short(int c)
{
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		if (defs[i].id == c && c < 256)
			return &defs[i];
	return NULL;
}

static const struct rec_opt_def *find_long(const char *name, size_t len)
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

	if (opts->t.nr_pids && opts->t.pids_are_tids != tids)
		return pc_error_set(err, EINVAL, "-p and -t cannot be mixed");
	opts->t.pids_are_tids = tids;
	while (*p) {
		char *end;
		long v;
		pid_t *n;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v <= 0 || v > INT_MAX || (*end && *end != ','))
			return pc_error_set(err, EINVAL, "%s: '%s' is not a list of ids",
					    tids ? "-t" : "-p", s);
		n = realloc(opts->t.pids, (opts->t.nr_pids + 1) * sizeof(*n));
		if (!n)
			return pc_error_set(err, ENOMEM, "out of memory");
		opts->t.pids = n;
		opts->t.pids[opts->t.nr_pids++] = (pid_t)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/*
 * --filter FILTER: the tracepoint filter of the last -e's last event (the
 * kernel's PERF_EVENT_IOC_SET_FILTER); a second one is joined to the first
 * with &&, as perf does.
 */
static int add_filter(struct rec_opts *opts, const char *val, struct pc_error *err)
{
	char **f, *joined;

	if (!opts->nr_event_specs)
		return pc_error_set(err, EINVAL,
				    "--filter option should follow a -e tracepoint or HW tracer option");
	f = &opts->event_filters[opts->nr_event_specs - 1];
	if (*f) {
		if (asprintf(&joined, "(%s) && (%s)", *f, val) < 0)
			return pc_error_set(err, ENOMEM, "out of memory");
	} else {
		joined = strdup(val);
		if (!joined)
			return pc_error_set(err, ENOMEM, "out of memory");
	}
	free(*f);
	*f = joined;
	return 0;
}

static int apply(struct rec_opts *opts, int id, const char *val, struct pc_error *err)
{
	uint64_t v = 0;
	int ret = 0;

	switch (id) {
	case O_EVENT: {
		const char **n = realloc(opts->event_specs,
					 (opts->nr_event_specs + 1) * sizeof(*n));
		char **f;

		if (!n)
			return pc_error_set(err, ENOMEM, "out of memory");
		opts->event_specs = n;
		f = realloc(opts->event_filters, (opts->nr_event_specs + 1) * sizeof(*f));
		if (!f)
			return pc_error_set(err, ENOMEM, "out of memory");
		opts->event_filters = f;
		f[opts->nr_event_specs] = NULL;
		n[opts->nr_event_specs++] = val;
		if (!*val)
			return pc_error_set(err, EINVAL, "-e: empty event list");
		break;
	}
	case O_FILTER:
		return add_filter(opts, val, err);
	case O_EXCLUDE_PERF: {
		/* as perf: the last -e's tracepoint leaves out what the recorder itself does */
		char own[64];

		if (!opts->nr_event_specs)
			return pc_error_set(err, EINVAL,
					    "--exclude-perf option should follow a -e tracepoint option");
		snprintf(own, sizeof(own), "common_pid != %d", (int)getpid());
		return add_filter(opts, own, err);
	}
	case O_COUNT:
		ret = parse_u64(val, &v, 1, INT64_MAX, "-c", err);
		opts->s.rate.period = v;
		opts->s.rate.period_set = true;
		break;
	case O_FREQ:
		if (!strcmp(val, "max"))
			v = REC_FREQ_MAX;
		else
			ret = parse_u64(val, &v, 1, UINT32_MAX - 1, "-F", err);
		opts->s.rate.freq = (unsigned int)v;
		opts->s.rate.freq_set = true;
		break;
	case O_G:
		opts->s.callgraph = REC_CALLGRAPH_FP;
		break;
	case O_CALLGRAPH:
		return rec_parse_callgraph(val, &opts->s.callgraph, &opts->s.stack_size, err);
	case O_OUTPUT:
		if (!*val)
			return pc_error_set(err, EINVAL, "-o: empty file name");
		opts->output = val;
		break;
	case O_PID:
	case O_TID:
		return parse_pids(opts, val, id == O_TID, err);
	case O_ALL:
		opts->t.system_wide = true;
		break;
	case O_CPU:
		opts->t.cpu_list = val;
		break;
	case O_NOINHERIT:
		opts->t.no_inherit = true;
		break;
	case O_STAT:
		opts->t.inherit_stat = true;
		break;
	case O_MMAP:
		return rec_parse_mmap_pages(val, &opts->mmap_pages, err);
	case O_SWITCH:
		opts->sb.switch_events = true;
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
	case O_THREADS:
		return rec_opts_apply_threads(opts, val, err);
	default:
		if (output_opt_id(id))
			return rec_output_opt_apply(&opts->out, output_opt_id(id), val, err);
		return rec_opts_apply_sample(opts, id, val, err);
	}
	return ret;
}

/*
 * Targets that exclude each other, as perf record settles them: -p/-t
 * win over -C, -u and -a, -u over -C and -a, -a/-C over --per-thread.
 * Every override is made; the first is said (perf's words), and the
 * recording goes on.
 */
static void targets_override(struct rec_targets *t)
{
	const char *said = NULL;

	if (t->nr_pids && t->cpu_list) {
		t->cpu_list = NULL;
		said = said ? said : "PID/TID switch overriding CPU";
	}
	if (t->nr_pids && t->user) {
		t->user = NULL;
		said = said ? said : "PID/TID switch overriding UID";
	}
	if (t->user && t->cpu_list) {
		t->cpu_list = NULL;
		said = said ? said : "UID switch overriding CPU";
	}
	if (t->nr_pids && t->system_wide) {
		t->system_wide = false;
		said = said ? said : "PID/TID switch overriding SYSTEM";
	}
	if (t->user && t->system_wide) {
		t->system_wide = false;
		said = said ? said : "UID switch overriding SYSTEM";
	}
	if (t->per_thread && (t->system_wide || t->cpu_list)) {
		t->per_thread = false;
		said = said ? said : "SYSTEM/CPU switch overriding PER-THREAD";
	}
	if (said)
		pc_warn("%s\n", said);
}

int rec_opts_parse(struct rec_opts *opts, int argc, char **argv, struct pc_error *err)
{
	int i, ret;

	memset(opts, 0, sizeof(*opts));
	opts->output = "perf.data";
	opts->s.rate.freq = 4000;
	opts->s.clockid = -1;
	opts->sb.synth = REC_SYNTH_ALL;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct rec_opt_def *d;

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
			if (d->arg == REC_ARG) {
				if (eq)
					val = eq + 1;
				else if (i + 1 < argc)
					val = argv[++i];
				else
					return pc_error_set(err, EINVAL, "option '%s' needs a value", a);
			} else if (d->arg == REC_OPTARG) {
				val = eq ? eq + 1 : NULL;
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
			if (d->arg == REC_OPTARG) {
				ret = apply(opts, d->id, p[1] ? p + 1 : NULL, err);
				if (ret)
					return ret;
				break;
			}
			if (d->arg == REC_ARG) {
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

	/* as perf: refused, not one of the two silently dropped */
	if (opts->s.rate.period_set && opts->s.rate.freq_set)
		return pc_error_set(err, EINVAL,
				    "cannot set frequency and period at the same time (-c and -F)");
	targets_override(&opts->t);
	if (opts->argc && (opts->t.nr_pids || opts->t.system_wide))
		pc_info("both a target and a command: the command runs, the target is recorded\n");
	if (!opts->argc && !opts->t.nr_pids && !opts->t.system_wide && !opts->t.cpu_list &&
	    !opts->t.user)
		return pc_error_set(err, EINVAL,
				    "nothing to record: give a command, -p, -t, -u, -a or -C");
	if (opts->t.cpu_list && !opts->t.nr_pids)
		opts->t.system_wide = true;
	if (opts->t.pids_are_tids)
		opts->t.no_inherit = true;	/* -t means this thread, as in perf */
	ret = rec_output_opts_check(&opts->out, opts->snapshot_size, opts->output, err);
	if (!ret)
		ret = rec_opts_check_threads(opts, err);
	if (ret)
		return ret;
	return rec_opts_check_sample(opts, err);
}

void rec_opts_free(struct rec_opts *opts)
{
	for (int i = 0; opts->event_filters && i < opts->nr_event_specs; i++)
		free(opts->event_filters[i]);
	free(opts->event_filters);
	opts->event_filters = NULL;
	free(opts->event_specs);
	free(opts->t.pids);
	free(opts->sb.cgroup_names);
	if (opts->threads)
		rec_threads_spec_free(opts->threads);
	free(opts->threads);
	opts->threads = NULL;
	opts->event_specs = NULL;
	opts->t.pids = NULL;
	opts->sb.cgroup_names = NULL;
}
