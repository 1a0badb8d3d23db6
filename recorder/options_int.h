/* SPDX-License-Identifier: GPL-2.0 */
/* The option table shared by options.c (parser) and options_sample.c. */
#ifndef PERFCHECK_RECORDER_OPTIONS_INT_H
#define PERFCHECK_RECORDER_OPTIONS_INT_H

#include "recorder/options.h"

enum rec_opt_arg { REC_NOARG, REC_ARG, REC_OPTARG /* --name=V or -xV only */ };

enum rec_opt_id {
	O_EVENT = 'e', O_COUNT = 'c', O_FREQ = 'F', O_G = 'g', O_OUTPUT = 'o',
	O_PID = 'p', O_TID = 't', O_ALL = 'a', O_CPU = 'C', O_NOINHERIT = 'i',
	O_STAT = 's', O_MMAP = 'm', O_SNAP = 'M', O_QUIET = 'q', O_VERBOSE = 'v',
	O_HELP = 'h',
	/* sample content, side band and targets (options_sample.c) */
	O_DATA = 'd', O_TIMESTAMP = 'T', O_WEIGHT = 'W', O_INTR_REGS = 'I',
	O_BRANCH_ANY = 'b', O_BRANCH_FILTER = 'j', O_CGROUP = 'G', O_UID = 'u',
	O_CLOCKID = 'k', O_PERIOD = 'P', O_RAW_SAMPLES = 'R',
	O_CALLGRAPH = 256, O_SWITCH, O_TIMEOUT,
	O_PHYS = 512, O_DATA_PAGE, O_CODE_PAGE, O_SAMPLE_CPU, O_USER_REGS, O_NAMESPACES,
	O_ALL_CGROUPS, O_PER_THREAD, O_ALL_USER, O_ALL_KERNEL, O_NO_BPF_EVENT,
	O_SAMPLE_IDENTIFIER, O_RUNNING_TIME, O_USER_CALLCHAINS, O_KERNEL_CALLCHAINS,
	O_BUILDID_MMAP, O_NO_BUFFERING, O_FILTER, O_NO_SAMPLES = 'n', O_STRICT_FREQ = 540,
	O_TIMESTAMP_BOUNDARY, O_DRY_RUN, O_EXCLUDE_PERF, O_SYNTH, O_THREADS,
	O_SAMPLE_MEM_INFO, O_DATA_MMAP, O_LATENCY, O_AIO, O_NUM_THREAD_SYNTH, O_PROC_MAP_TIMEOUT,
	O_DEBUGINFOD, O_TRANSACTION, O_AUX_SAMPLE, O_VMLINUX, O_KCORE,
};

struct rec_opt_def {
	int id;
	const char *lng;
	enum rec_opt_arg arg;
};

/* The options of options_sample.c; 1 when id is not one of them. */
int rec_opts_apply_sample(struct rec_opts *opts, int id, const char *val, struct pc_error *err);
/* --call-graph MODE (also the call-graph= term). */
int rec_parse_callgraph(const char *val, enum rec_callgraph *cg, uint32_t *stack_size,
			struct pc_error *err);
/* --threads[=SPEC]: parsed into opts->threads (options_threads.c). */
int rec_opts_apply_threads(struct rec_opts *opts, const char *val, struct pc_error *err);
/* What cannot go with --threads, refused or dropped with perf's words (options_threads.c). */
int rec_opts_check_threads(struct rec_opts *opts, struct pc_error *err);
/* Checks made once every option is known. */
int rec_opts_check_sample(struct rec_opts *opts, struct pc_error *err);

#endif
