/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcheck record's command line, as parsed: what the user asked for and
 * nothing the recording learns later (the events live in the evlist,
 * evlist.h; what the kernel refused lives in each rec_evsel).
 */
#ifndef PERFCHECK_RECORDER_OPTIONS_H
#define PERFCHECK_RECORDER_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "recorder/output_opts.h"
#include "recorder/threads_spec.h"
#include "util/error.h"

enum rec_callgraph {
	REC_CALLGRAPH_NONE,
	REC_CALLGRAPH_FP,
	REC_CALLGRAPH_FP_DEFER,
	REC_CALLGRAPH_DWARF,
	REC_CALLGRAPH_LBR,
};

/* How samples are taken and what they carry (-c -F -g -d -T ...). */
struct rec_sampling {
	struct rec_rate {
		uint64_t period;	/* -c */
		unsigned int freq;	/* -F; REC_FREQ_MAX for -F max */
		bool period_set, freq_set;
		bool strict;		/* --strict-freq: -F above the kernel's limit fails */
		bool none;		/* -n/--no-samples: counting only, no sample */
	} rate;
	enum rec_callgraph callgraph;
	uint32_t stack_size;		/* --call-graph dwarf,SIZE */
	uint64_t sample_type;		/* PERF_SAMPLE_* bits added by options */
	uint64_t user_regs, intr_regs;	/* --user-regs, -I masks */
	bool user_regs_default;		/* bare --user-regs: rec_regs_user_default() */
	uint64_t branch_type;		/* -b / -j */
	bool data_mmap;			/* -d: mmap_data */
	bool all_user, all_kernel;
	int clockid;			/* -k, -1 = none */
	bool running_time;		/* --running-time: read values with times enabled, running */
	bool user_callchains;		/* --user-callchains: exclude_callchain_kernel */
	bool kernel_callchains;		/* --kernel-callchains: exclude_callchain_user */
	bool no_buffering;		/* --no-buffering: a wakeup for every record */
};
#define REC_FREQ_MAX 0xffffffffU

/* Which tasks and cpus (-p -t -a -C -u --per-thread). */
struct rec_targets {
	pid_t *pids;			/* -p or -t */
	int nr_pids;
	bool pids_are_tids;		/* -t */
	bool system_wide;		/* -a */
	const char *cpu_list;		/* -C */
	const char *user;		/* -u */
	bool per_thread;
	bool no_inherit;
	bool inherit_stat;		/* -s */
};

/* Side-band records asked for (--switch-events --namespaces ...). */
struct rec_sideband {
	bool switch_events;
	bool namespaces;
	bool cgroups;			/* --all-cgroups */
	bool no_bpf_event;		/* --no-bpf-event */
	bool buildid_mmap;		/* --buildid-mmap: build ids in MMAP2, no build-id section */
	const char **cgroup_names;	/* -G, one per event in order */
	int nr_cgroup_names;
	unsigned int synth;		/* --synth: REC_SYNTH_* of the records made for what exists */
};

/* What --synth makes for existing tasks and cgroups (the kernel's map always) */
enum { REC_SYNTH_TASK = 1, REC_SYNTH_MMAP = 2, REC_SYNTH_CGROUP = 4, REC_SYNTH_ALL = 7 };

struct rec_opts {
	const char **event_specs;	/* each -e argument, as given */
	char **event_filters;		/* --filter after each -e (NULL: none; owned) */
	int nr_event_specs;
	struct rec_sampling s;
	struct rec_targets t;
	struct rec_sideband sb;
	const char *output;
	unsigned int mmap_pages;
	size_t snapshot_size;		/* -M bytes, 0 = off */
	struct rec_output_opts out;	/* output and modes (output_opts.h) */
	int argc;			/* the workload */
	char **argv;
	bool dry_run;			/* --dry-run: the options and events checked, nothing opened */
	struct rec_threads_spec *threads; /* --threads[=SPEC]: a perf.data directory; NULL = off */
	bool kcore;			/* --kcore: a perf.data directory with the kernel's text */
};

/* Returns 0, 1 when --help was printed, or -errno with err set. */
int rec_opts_parse(struct rec_opts *opts, int argc, char **argv, struct pc_error *err);
/*
 * Whether the tasks are tracked by a dummy event of their own, as perf
 * adds one: with -D (on from exec, after the delay), and with cpus as the
 * target (-a, -C: on from the open, "immediate").
 */
static inline bool rec_opts_tracking_dummy(const struct rec_opts *opts)
{
	return opts->out.delay_ms || opts->t.system_wide || opts->t.cpu_list;
}
/* The events the recorder appends to -e's: --kcore's text poke dummy, then the tracking dummy. */
static inline int rec_opts_appended_events(const struct rec_opts *opts)
{
	return (rec_opts_tracking_dummy(opts) ? 1 : 0) + (opts->kcore ? 1 : 0);
}
void rec_opts_free(struct rec_opts *opts);
void rec_usage(FILE *out);

#endif
