// SPDX-License-Identifier: GPL-2.0
/*
 * The options that shape each sample and the side band (-d -W -I
 * --user-regs --call-graph -b -j --namespaces --all-cgroups -G -k), and
 * the target options -u --per-thread --all-user --all-kernel, with perf
 * record's spellings.  They only fill the options struct; events.c turns
 * them into attr bits.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "recorder/options_int.h"
#include "recorder/regs.h"
#include "uapi/perf_compat.h"
#include "util/log.h"
#include "util/sys.h"

static int parse_regs(const char *val, uint64_t *mask, const char *what, struct pc_error *err)
{
	const char *p = val;

	if (!val || !*val) {
		*mask = REC_REGS_DEFAULT;
		return 0;
	}
	*mask = 0;
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(rec_regs) / sizeof(rec_regs[0]); i++)
			if (strlen(rec_regs[i].name) == n && !strncasecmp(p, rec_regs[i].name, n))
				break;
		if (i == sizeof(rec_regs) / sizeof(rec_regs[0]))
			return pc_error_set(err, EINVAL, "%s: unknown register '%.*s' (%s)", what,
					    (int)n, p, REC_REGS_NAMES);
		*mask |= 1ULL << rec_regs[i].bit;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

static const struct { const char *name; uint64_t bit; } branch_names[] = {
	{ "u", PERF_SAMPLE_BRANCH_USER }, { "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV }, { "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL }, { "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL }, { "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX }, { "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", PERF_SAMPLE_BRANCH_COND }, { "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", PERF_SAMPLE_BRANCH_CALL }, { "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK },
};

static int parse_branch(const char *val, uint64_t *mask, struct pc_error *err)
{
	const char *p = val;

	*mask = 0;
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(branch_names) / sizeof(branch_names[0]); i++)
			if (strlen(branch_names[i].name) == n && !strncmp(p, branch_names[i].name, n))
				break;
		if (i == sizeof(branch_names) / sizeof(branch_names[0]))
			return pc_error_set(err, EINVAL, "-j: unknown branch filter '%.*s'", (int)n, p);
		*mask |= branch_names[i].bit;
		p += n;
		if (*p)
			p++;
	}
	if (!(*mask & ~(uint64_t)(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
				  PERF_SAMPLE_BRANCH_HV)))
		*mask |= PERF_SAMPLE_BRANCH_ANY;	/* only a privilege level: any branch */
	return 0;
}

static int parse_clockid(const char *val, int *clockid, struct pc_error *err)
{
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	const char *name = val;
	char *end;
	long v;

	if (!strncasecmp(name, "CLOCK_", 6))
		name += 6;
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(name, clocks[i].name)) {
			*clockid = clocks[i].id;
			return 0;
		}
	v = strtol(val, &end, 10);
	if (end != val && !*end && v >= 0 && v < 64) {
		*clockid = (int)v;
		return 0;
	}
	return pc_error_set(err, EINVAL, "-k: unknown clock '%s' (monotonic, monotonic_raw, "
			    "realtime, boottime, tai, or a number)", val);
}

int rec_parse_callgraph(const char *val, enum rec_callgraph *cg, uint32_t *stack_size,
			struct pc_error *err)
{
	if (!strcmp(val, "fp")) {
		*cg = REC_CALLGRAPH_FP;
	} else if (!strcmp(val, "fp,defer")) {
		*cg = REC_CALLGRAPH_FP_DEFER;
	} else if (!strcmp(val, "lbr")) {
		*cg = REC_CALLGRAPH_LBR;
	} else if (!strncmp(val, "dwarf", 5) && (!val[5] || val[5] == ',')) {
		*cg = REC_CALLGRAPH_DWARF;
		*stack_size = 8192;
		if (val[5] == ',') {
			char *end;
			unsigned long v = strtoul(val + 6, &end, 0);

			/* the kernel takes at most a u16 worth, 8-byte aligned */
			if (end == val + 6 || *end || v == 0 || v > 65528)
				return pc_error_set(err, EINVAL, "--call-graph: '%s': the stack size "
						    "must be in [8, 65528]", val);
			*stack_size = (uint32_t)((v + 7) & ~7UL);
		}
	} else {
		return pc_error_set(err, EINVAL, "--call-graph: '%s' is not supported "
				    "(fp, fp,defer, dwarf[,SIZE], lbr)", val);
	}
	return 0;
}

static int add_cgroups(struct rec_opts *opts, const char *val, struct pc_error *err)
{
	const char *p = val;

	while (*p) {
		size_t n = strcspn(p, ",");
		const char **names = realloc(opts->sb.cgroup_names,
					     (opts->sb.nr_cgroup_names + 1) * sizeof(*names));

		if (!names)
			return pc_error_set(err, ENOMEM, "out of memory");
		opts->sb.cgroup_names = names;
		names[opts->sb.nr_cgroup_names++] = p;	/* up to the next ',' (events.c) */
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

/* --synth LIST: perf's words, "no" or "all" ending the list as in perf */
/*
 * --aio[=N] (N 1..4, perf's limit), --num-thread-synthesize N (1 or more),
 * --proc-map-timeout MS: a number where one is given
 */
static int check_count(int id, const char *val, struct pc_error *err)
{
	const char *name = id == O_AIO ? "--aio" : id == O_NUM_THREAD_SYNTH ?
			   "--num-thread-synthesize" : "--proc-map-timeout";
	unsigned long max = id == O_AIO ? 4 : UINT_MAX, min = id == O_PROC_MAP_TIMEOUT ? 0 : 1;
	char *end;
	unsigned long v;

	if (!val || !*val)
		return id == O_AIO ? 0 : pc_error_set(err, EINVAL, "%s needs a value", name);
	errno = 0;
	v = strtoul(val, &end, 10);
	if (errno || *end || *val == '-' || v < min || v > max)
		return pc_error_set(err, EINVAL, "%s: '%s' is not a number from %lu to %lu", name,
				    val, min, max);
	return 0;
}

static int parse_synth(const char *val, unsigned int *synth, struct pc_error *err)
{
	char *copy = strdup(val), *save = NULL, *tok;
	unsigned int m = 0;

	if (!copy)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcasecmp(tok, "no") || !strcasecmp(tok, "none")) {
			m = 0;
			break;
		}
		if (!strcasecmp(tok, "all")) {
			m = REC_SYNTH_ALL;
			break;
		}
		if (!strcasecmp(tok, "task")) {
			m |= REC_SYNTH_TASK;
		} else if (!strcasecmp(tok, "mmap")) {
			m |= REC_SYNTH_TASK | REC_SYNTH_MMAP;
		} else if (!strcasecmp(tok, "cgroup")) {
			m |= REC_SYNTH_CGROUP;
		} else {
			free(copy);
			return pc_error_set(err, EINVAL, "--synth: '%s' is not no, all, task, mmap or "
					    "cgroup", val);
		}
	}
	free(copy);
	*synth = m;
	return 0;
}

int rec_opts_apply_sample(struct rec_opts *opts, int id, const char *val, struct pc_error *err)
{
	struct rec_sampling *s = &opts->s;

	switch (id) {
	case O_DATA:
		s->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		s->data_mmap = true;
		return 0;
	case O_SAMPLE_MEM_INFO:
		/* perf 7.2: the data source alone (-d adds the address and data mmaps) */
		s->sample_type |= PERF_SAMPLE_DATA_SRC;
		return 0;
	case O_DATA_MMAP:
		s->data_mmap = true;
		return 0;
	case O_LATENCY:
		/* perf 7.2 asks for switch events to weigh samples by parallelism */
		opts->sb.switch_events = true;
		return 0;
	case O_AIO:
	case O_NUM_THREAD_SYNTH:
	case O_PROC_MAP_TIMEOUT:
		/* how perf writes and synthesizes: nothing the kernel is asked changes */
		return check_count(id, val, err);
	case O_DEBUGINFOD:
		/* where perf fetches debug files from: the recording is the same */
		return 0;
	case O_AUX_SAMPLE:
		/*
		 * AUX area samples need an AUX area event (intel_pt, arm_spe,
		 * cs_etm), which perfcheck does not open: perf's words for a
		 * recording without one
		 */
		return pc_error_set(err, EINVAL, "No AUX area event to sample");
	case O_VMLINUX:
		/* perf's check; record reads no kernel symbols, so the file is not used */
		if (access(val, R_OK))
			return pc_error_set(err, EINVAL, "Invalid file: %s", val);
		return 0;
	case O_PHYS:
		s->sample_type |= PERF_SAMPLE_PHYS_ADDR;
		return 0;
	case O_DATA_PAGE:
		s->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE;
		return 0;
	case O_CODE_PAGE:
		s->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE;
		return 0;
	case O_SAMPLE_CPU:
		s->sample_type |= PERF_SAMPLE_CPU;
		return 0;
	case O_TIMESTAMP:
		s->sample_type |= PERF_SAMPLE_TIME;
		return 0;
	case O_WEIGHT:
#if defined(__x86_64__) || defined(__i386__)
		/* as perf on x86: the split weight, WEIGHT where the kernel lacks it (ladder) */
		s->sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
#else
		/* perf asks for the split weight on x86 only; elsewhere the u64 WEIGHT */
		s->sample_type |= PERF_SAMPLE_WEIGHT;
#endif
		return 0;
	case O_TRANSACTION:
		/*
		 * on any event, as perf: the kernel fills it for PMUs with
		 * transactional memory (Intel TSX aborts), 0 elsewhere
		 */
		s->sample_type |= PERF_SAMPLE_TRANSACTION;
		return 0;
	case O_USER_REGS:
		s->user_regs_default = !val || !*val;
		return parse_regs(val, &s->user_regs, "--user-regs", err);
	case O_INTR_REGS:
		return parse_regs(val, &s->intr_regs, "-I", err);
	case O_BRANCH_ANY:
		s->branch_type |= PERF_SAMPLE_BRANCH_ANY;
		return 0;
	case O_BRANCH_FILTER:
		return parse_branch(val, &s->branch_type, err);
	case O_NAMESPACES:
		opts->sb.namespaces = true;
		return 0;
	case O_ALL_CGROUPS:
		opts->sb.cgroups = true;
		return 0;
	case O_NO_BPF_EVENT:
		opts->sb.no_bpf_event = true;
		return 0;
	case O_CGROUP:
		return add_cgroups(opts, val, err);
	case O_UID:
		if (!*val)
			return pc_error_set(err, EINVAL, "-u: empty user");
		opts->t.user = val;
		return 0;
	case O_PER_THREAD:
		opts->t.per_thread = true;
		return 0;
	case O_ALL_USER:
		s->all_user = true;
		return 0;
	case O_ALL_KERNEL:
		s->all_kernel = true;
		return 0;
	case O_CLOCKID:
		return parse_clockid(val, &s->clockid, err);
	case O_PERIOD:
	case O_SAMPLE_IDENTIFIER:
		/* perf asks for PERIOD and IDENTIFIER with these; the recorder always does */
		return 0;
	case O_RAW_SAMPLES:
		s->sample_type |= PERF_SAMPLE_TIME | PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
		return 0;
	case O_RUNNING_TIME:
		s->running_time = true;
		return 0;
	case O_USER_CALLCHAINS:
		s->user_callchains = true;
		return 0;
	case O_KERNEL_CALLCHAINS:
		s->kernel_callchains = true;
		return 0;
	case O_NO_BUFFERING:
		s->no_buffering = true;
		return 0;
	case O_NO_SAMPLES:
		s->rate.none = true;
		return 0;
	case O_STRICT_FREQ:
		s->rate.strict = true;
		return 0;
	case O_TIMESTAMP_BOUNDARY:
		/* the first and last sample times go to SAMPLE_TIME always (perf: with -B only so) */
		return 0;
	case O_DRY_RUN:
		opts->dry_run = true;
		return 0;
	case O_KCORE:
		opts->kcore = true;
		return 0;
	case O_SYNTH:
		return parse_synth(val, &opts->sb.synth, err);
	case O_BUILDID_MMAP:
		opts->sb.buildid_mmap = true;
		opts->out.no_buildid = true;
		return 0;
	}
	return pc_error_set(err, EINVAL, "option %d is not handled", id);
}

int rec_opts_check_sample(struct rec_opts *opts, struct pc_error *err)
{
	if (opts->s.all_user && opts->s.all_kernel)
		return pc_error_set(err, EINVAL, "--all-user and --all-kernel cannot go together");
	if (opts->s.user_callchains && opts->s.kernel_callchains)
		return pc_error_set(err, EINVAL, "--user-callchains and --kernel-callchains "
				    "cannot go together (a chain of neither part)");
	if (opts->sb.nr_cgroup_names && !opts->t.system_wide)
		return pc_error_set(err, EINVAL,
				    "-G: cgroup monitoring only available in system-wide mode (-a)");
	if (opts->t.per_thread)
		opts->t.no_inherit = true;	/* a cpu -1 ring cannot take inherited events */
	if (opts->kcore && opts->out.pipe)
		return pc_error_set(err, EINVAL, "--kcore writes a perf.data directory: not with -o -");
	if (opts->kcore && (opts->out.switch_mode || opts->out.timestamp_filename))
		return pc_error_set(err, EINVAL, "--kcore with --switch-output or "
				    "--timestamp-filename: a perf.data directory is not renamed "
				    "file by file");
	/* its text poke event is opened on every cpu, which a cpu -1 ring cannot take */
	if (opts->kcore && opts->t.per_thread)
		return pc_error_set(err, EINVAL, "--kcore cannot go with --per-thread (its text "
				    "poke event is opened on every cpu)");
	if (opts->t.user) {
		uid_t uid;

		if (pc_user_uid(opts->t.user, &uid))
			return pc_error_set(err, EINVAL, "-u: no such user '%s'", opts->t.user);
	}
	return 0;
}
