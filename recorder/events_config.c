// SPDX-License-Identifier: GPL-2.0
/*
 * The attr of each parsed event, from the options, as perf record fills
 * it: sampling (-c -F and per-event terms), sample_type, the tracking bits
 * on the first event, group members that follow their leader, leader
 * sampling (:S: READ with PERF_FORMAT_GROUP, members without a period of
 * their own and with the leader's sample_type, inherit where the kernel
 * takes it with READ), callchain modes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/probe.h"
#include "recorder/events.h"
#include "recorder/regs.h"
#include "util/log.h"
#include "util/sys.h"


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

static void config_callchain(struct perf_event_attr *a, enum rec_callgraph cg,
			     uint32_t stack_size, bool track)
{
	switch (cg) {
	case REC_CALLGRAPH_NONE:
		break;
	case REC_CALLGRAPH_FP:
	case REC_CALLGRAPH_FP_DEFER:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		break;
	case REC_CALLGRAPH_DWARF:
		/* the user stack is copied and unwound later: no user frames from the kernel */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER | PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->sample_regs_user |= rec_regs_user_default();
		a->sample_stack_user = stack_size ? stack_size : 8192;
		a->exclude_callchain_user = 1;
		a->mmap_data |= track;
		break;
	case REC_CALLGRAPH_LBR:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type |= PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					 PERF_SAMPLE_BRANCH_NO_FLAGS |
					 PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_HW_INDEX;
		break;
	}
}

/*
 * Tracepoints and the tracking dummy perf adds sample every event; any
 * other event, a dummy given with -e too, samples at -F's frequency.
 */
static void config_sampling(struct rec_evsel *ev, const struct rec_opts *opts,
			    bool tracking_dummy)
{
	struct perf_event_attr *a = &ev->attr.attr;
	bool one_by_one = ev->tracepoint || tracking_dummy;

	if (opts->s.rate.none) {
		/* -n: perf zeroes the period (or frequency) after choosing it: nothing samples */
		a->sample_period = 0;
		a->freq = !opts->s.rate.period_set && !one_by_one;
		return;
	}
	if (ev->spec.period_set || ev->spec.freq_set)
		return;		/* its own period= or freq= term */
	if (opts->s.rate.period_set) {
		a->sample_period = opts->s.rate.period;
		a->freq = 0;
	} else if (one_by_one) {
		a->sample_period = 1;
	} else {
		a->freq = 1;
		a->sample_freq = opts->s.rate.freq;
	}
}

static void config_one(struct rec_evlist *evl, int i, const struct rec_opts *opts)
{
	bool follow_workload = opts->argc && !opts->t.nr_pids && !opts->t.system_wide &&
			       !opts->t.user;
	struct rec_evsel *ev = evl->evsels[i];
	struct perf_event_attr *a = &ev->attr.attr;
	/* -D, -a, -C: as perf, a dummy event appended by record.c tracks the tasks */
	bool dummy = rec_opts_tracking_dummy(opts);
	bool track = i == (dummy ? evl->nr_evsels - 1 : 0);
	bool leader = ev->leader == i;
	enum rec_callgraph cg = ev->spec.callgraph ? (enum rec_callgraph)(ev->spec.callgraph - 1)
						   : opts->s.callgraph;
	uint32_t stack = ev->spec.stack_size ? ev->spec.stack_size : opts->s.stack_size;

	config_sampling(ev, opts, dummy && track);
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | opts->s.sample_type;
	if (opts->t.system_wide)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (ev->tracepoint)
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (opts->sb.cgroups)
		a->sample_type |= PERF_SAMPLE_CGROUP;
	config_callchain(a, cg, stack, track);
	/* -d and --data-mmap: the data mmaps, on the tracking event */
	if (opts->s.data_mmap)
		a->mmap_data |= track;
	if (opts->s.user_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= opts->s.user_regs_default ? rec_regs_user_default()
								 : opts->s.user_regs;
	}
	if (opts->s.intr_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = opts->s.intr_regs;
	}
	if (opts->s.branch_type) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type |= opts->s.branch_type;
	}
	a->read_format = PERF_FORMAT_ID;
	if (opts->s.running_time)
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* the part of each chain asked for, as perf sets it where chains are sampled */
	if (a->sample_type & PERF_SAMPLE_CALLCHAIN) {
		if (opts->s.user_callchains)
			a->exclude_callchain_kernel = 1;
		if (opts->s.kernel_callchains)
			a->exclude_callchain_user = 1;
	}
	if (opts->s.no_buffering) {
		a->watermark = 0;
		a->wakeup_events = 1;
	}
	if (opts->t.inherit_stat) {
		a->inherit_stat = 1;
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		/*
		 * Per-thread counts in every sample only where the kernel
		 * takes SAMPLE_READ with inherit (6.12+): before that the
		 * ladder would give up inherit to keep it, and -s must
		 * still follow children, as perf record -s does.
		 */
		if (opts->t.no_inherit ||
		    pc_feature_probe(PC_FEAT_INHERIT_SAMPLE_READ, NULL) == PC_FEATURE_SUPPORTED)
			a->sample_type |= PERF_SAMPLE_READ;
	}
	a->disabled = leader;
	a->inherit = !opts->t.no_inherit;
	/* -D: the recorder enables them after the delay, as perf */
	a->enable_on_exec = follow_workload && leader && !opts->out.delay_ms;
	a->pinned = ev->spec.pinned && leader;
	a->sample_id_all = 1;
	a->write_backward = opts->out.overwrite;	/* --overwrite, as perf */
	if (user_only() && !ev->spec.has_modifier) {
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
	}
	if (opts->s.all_user && !ev->spec.has_modifier)
		a->exclude_kernel = 1;
	if (opts->s.all_kernel && !ev->spec.has_modifier)
		a->exclude_user = 1;
	if (opts->s.clockid >= 0) {
		a->use_clockid = 1;
		a->clockid = opts->s.clockid;
	}
	if (track) {
		a->mmap = 1;
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		/* with --kcore the text poke dummy has them, on every cpu (perf's) */
		a->ksymbol = !opts->kcore;
		a->bpf_event = !opts->sb.no_bpf_event;
		a->context_switch = opts->sb.switch_events;
		a->namespaces = opts->sb.namespaces;
		a->cgroup = opts->sb.cgroups;
		pc_attr_set(a, PC_ATTR_build_id, opts->sb.buildid_mmap);
		if (cg == REC_CALLGRAPH_FP_DEFER)
			pc_attr_set(a, PC_ATTR_defer_output, true);
	}
	if (cg == REC_CALLGRAPH_FP_DEFER && !a->exclude_user)
		pc_attr_set(a, PC_ATTR_defer_callchain, true);
	if (dummy && track) {
		/* perf's tracking dummy: period 1, no PERIOD, on from exec (-D) */
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
		a->enable_on_exec = follow_workload;
		/* ...or on from the open with cpus as the target ("immediate") */
		if (opts->t.system_wide || opts->t.cpu_list) {
			a->disabled = 0;
			a->enable_on_exec = 0;
		}
	}
}

/*
 * --kcore's text poke dummy, as perf adds it: on every cpu from the open,
 * whatever the target (the kernel patches its text in any task), sampling
 * nothing, with the text poke and KSYMBOL records (the tracking event then
 * leaves KSYMBOL to it), user space only as perf's "dummy:u".
 */
static void config_text_poke(struct rec_evsel *ev, const struct rec_opts *opts)
{
	struct perf_event_attr *a = &ev->attr.attr;

	a->freq = 0;
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME;
	if (opts->t.system_wide)
		a->sample_type |= PERF_SAMPLE_CPU;
	a->read_format = PERF_FORMAT_ID;
	a->inherit = !opts->t.no_inherit;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->sample_id_all = 1;
	a->ksymbol = 1;
	pc_attr_set(a, PC_ATTR_text_poke, true);
	a->write_backward = opts->out.overwrite;
	if (opts->s.clockid >= 0) {
		a->use_clockid = 1;
		a->clockid = opts->s.clockid;
	}
}

/* :S: the leader's samples read the group; the members only count. */
static void config_leader_sampling(struct rec_evlist *evl, int i)
{
	struct rec_evsel *ev = evl->evsels[i];
	struct rec_evsel *lead = evl->evsels[ev->leader];
	struct perf_event_attr *a = &ev->attr.attr;

	if (!ev->spec.sample_read)
		return;
	a->sample_type |= PERF_SAMPLE_READ;
	a->read_format |= PERF_FORMAT_ID;
	/*
	 * inherit stays: the ladder switches it off where the kernel refuses
	 * inherit with PERF_SAMPLE_READ (before 6.12), as perf 7.x does
	 */
	if (lead->nr_members > 1)
		a->read_format |= PERF_FORMAT_GROUP;
	if (ev == lead || !lead->spec.sample_read)
		return;
	if (!ev->spec.period_set && !ev->spec.freq_set) {
		a->freq = 0;
		a->sample_freq = 0;
	}
	a->sample_type |= lead->attr.attr.sample_type;
}

int rec_events_config(struct rec_evlist *evl, const struct rec_opts *opts, struct pc_error *err)
{
	for (int i = 0; i < evl->nr_evsels; i++) {
		if (evl->evsels[i]->every_cpu)
			config_text_poke(evl->evsels[i], opts);
		else
			config_one(evl, i, opts);
	}
	/* leaders first: members take the leader's final sample_type */
	for (int i = 0; i < evl->nr_evsels; i++)
		if (evl->evsels[i]->leader == i)
			config_leader_sampling(evl, i);
	for (int i = 0; i < evl->nr_evsels; i++) {
		struct rec_evsel *ev = evl->evsels[i];

		if (ev->leader != i)
			config_leader_sampling(evl, i);
		ev->attr.attr.size = rec_attr_min_size(&ev->attr);
	}
	return 0;
}

/*
 * The kernel refuses a frequency above kernel.perf_event_max_sample_rate
 * (which it lowers by itself when sampling interrupts take too long): as
 * perf, a frequency above it is lowered to it with a warning, or with
 * --strict-freq an explicit -F above it is an error that says so.  -F max
 * is that limit.
 */
int rec_events_check_freq(struct rec_evlist *evl, const struct rec_opts *opts,
			  struct pc_error *err)
{
	long max;

	if (pc_read_int_file("/proc/sys/kernel/perf_event_max_sample_rate", &max) || max <= 0) {
		if (opts->s.rate.freq == REC_FREQ_MAX)
			return pc_error_set(err, ENOENT, "-F max: cannot read "
					    "kernel.perf_event_max_sample_rate");
		return 0;
	}
	for (int i = 0; i < evl->nr_evsels; i++) {
		struct rec_evsel *ev = evl->evsels[i];
		struct perf_event_attr *a = &ev->attr.attr;

		if (!a->freq || a->sample_freq <= (uint64_t)max)
			continue;
		if (opts->s.rate.freq == REC_FREQ_MAX && !ev->spec.freq_set) {
			pc_info("-F max: %ld samples/s (kernel.perf_event_max_sample_rate)\n", max);
			a->sample_freq = (uint64_t)max;
			continue;
		}
		if (opts->s.rate.strict && (opts->s.rate.freq_set || ev->spec.freq_set))
			return pc_error_set(err, EINVAL,
					    "%s: -F %llu is above the kernel's limit of %ld samples/s "
					    "(kernel.perf_event_max_sample_rate), and --strict-freq "
					    "refuses to lower it: use -F %ld or lower",
					    ev->name, (unsigned long long)a->sample_freq, max, max);
		pc_warn("%s: lowering -F %llu to %ld samples/s, the kernel's limit "
			"(kernel.perf_event_max_sample_rate; --strict-freq refuses instead)\n",
			ev->name, (unsigned long long)a->sample_freq, max);
		a->sample_freq = (uint64_t)max;
	}
	return 0;
}
