// SPDX-License-Identifier: GPL-2.0
/*
 * The feature table: one row per perf_event feature the project may ask a
 * kernel for, indexed by enum pc_feature (oldest first; the ladder walks it
 * newest first).  Adding a feature = one enum value, one row, and at most a
 * setup/clear function when the info masks do not say it all.
 *
 * Every probe is the baseline attr (pc_feature_baseline_attr) plus the one
 * feature, so that a refusal can only be about that feature.  Versions
 * come from the upstream commit that added the bit (its subject is quoted);
 * the rows that kernels.md measured say so.
 */
#include "probes/internal.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "uapi/perf_compat.h"

#define BIT(n)		(1ULL << (n))
#define FEAT(f)		(1ULL << PC_FEAT_##f)

void pc_feature_baseline_attr(union pc_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->attr.type = PERF_TYPE_SOFTWARE;
	a->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	/* the system header's size: older kernels accept its zero tail */
	a->attr.size = sizeof(struct perf_event_attr);
	a->attr.sample_period = 100000;
	a->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	/* disabled: the probe never samples; user space only: paranoid 2 allows it */
	a->attr.disabled = 1;
	a->attr.exclude_kernel = 1;
	a->attr.exclude_hv = 1;
}

/* ---- probes that need more than the info masks ---- */

static void setup_use_clockid(union pc_attr *a, unsigned long *flags)
{
	a->attr.use_clockid = 1;
	a->attr.clockid = CLOCK_MONOTONIC;
}

static void setup_build_id(union pc_attr *a, unsigned long *flags)
{
	/* build ids ride in MMAP2 records; the bit alone means nothing */
	a->attr.mmap2 = 1;
	pc_attr_set(&a->attr, PC_ATTR_build_id, true);
}

static void setup_inherit_thread(union pc_attr *a, unsigned long *flags)
{
	/* the kernel refuses inherit_thread without inherit */
	a->attr.inherit = 1;
	pc_attr_set(&a->attr, PC_ATTR_inherit_thread, true);
}

static void setup_sigtrap(union pc_attr *a, unsigned long *flags)
{
	/* the kernel only allows synchronous signals with remove_on_exec */
	pc_attr_set(&a->attr, PC_ATTR_remove_on_exec, true);
	pc_attr_set(&a->attr, PC_ATTR_sigtrap, true);
}

static void setup_inherit_sample_read(union pc_attr *a, unsigned long *flags)
{
	a->attr.inherit = 1;
	a->attr.sample_type |= PERF_SAMPLE_READ;	/* the baseline has TID */
}

static void setup_defer_callchain(union pc_attr *a, unsigned long *flags)
{
	/* as upstream perf probes it: only the request bit, on a callchain sample */
	a->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	pc_attr_set(&a->attr, PC_ATTR_defer_callchain, true);
}

/*
 * Branch-stack features: software events refuse any branch stack, so the
 * base is a hardware cycles event with a plain branch stack.  The kernel
 * checks the branch_sample_type bits it knows before asking a PMU, so an
 * EINVAL where the base gets another errno still proves the bit unknown;
 * the same errno as the base (no PMU, no LBR) decides nothing.
 */
static void branch_base(union pc_attr *a)
{
	pc_feature_baseline_attr(a);
	a->attr.type = PERF_TYPE_HARDWARE;
	a->attr.config = PERF_COUNT_HW_CPU_CYCLES;
	a->attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	a->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
}

static void setup_lbr_flags(union pc_attr *a, unsigned long *flags)
{
	branch_base(a);
	a->attr.branch_sample_type |= PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES;
}

static void setup_branch_counters(union pc_attr *a, unsigned long *flags)
{
	branch_base(a);
	a->attr.branch_sample_type |= PC_SAMPLE_BRANCH_COUNTERS;
}

static enum pc_feature_status probe_branch(void (*setup)(union pc_attr *, unsigned long *),
					   int *err)
{
	union pc_attr a;
	unsigned long flags = 0;
	int base, ret;

	branch_base(&a);
	base = pc_probe_try(&a, 0);
	setup(&a, &flags);
	ret = pc_probe_try(&a, flags);
	if (base < 0 && ret == base) {
		*err = -ret;
		return PC_FEATURE_UNKNOWN;
	}
	if (base < 0 && ret == -EINVAL) {
		*err = EINVAL;
		return PC_FEATURE_MISSING;
	}
	return pc_probe_verdict(ret, true, err);
}

static enum pc_feature_status probe_lbr_flags(int *err)
{
	return probe_branch(setup_lbr_flags, err);
}

static enum pc_feature_status probe_branch_counters(int *err)
{
	return probe_branch(setup_branch_counters, err);
}

/*
 * perf_event_max_stack: a callchain sample may ask for sample_max_stack
 * frames up to the sysctl, and the kernel refuses more with EOVERFLOW.
 * Supported = the limit is readable, accepted, and enforced.
 */
static void setup_max_stack_at(union pc_attr *a, long limit)
{
	a->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->attr.sample_max_stack = (uint16_t)limit;
}

static void setup_max_stack(union pc_attr *a, unsigned long *flags)
{
	long limit;

	if (pc_kernel_max_stack(&limit) == 0 && limit >= 0 && limit < UINT16_MAX)
		setup_max_stack_at(a, limit + 1);
}

static enum pc_feature_status probe_max_stack(int *err)
{
	union pc_attr a;
	long limit;
	int ret = pc_kernel_max_stack(&limit);

	if (ret < 0) {
		*err = -ret;
		return PC_FEATURE_UNKNOWN;
	}
	if (limit < 1 || limit >= UINT16_MAX) {
		*err = ERANGE;		/* sample_max_stack is a u16 */
		return PC_FEATURE_UNKNOWN;
	}
	pc_feature_baseline_attr(&a);
	setup_max_stack_at(&a, limit);
	ret = pc_probe_try(&a, 0);
	if (ret < 0)
		return pc_probe_verdict(ret, false, err);
	setup_max_stack_at(&a, limit + 1);
	ret = pc_probe_try(&a, 0);
	if (ret == -EOVERFLOW) {
		*err = 0;
		return PC_FEATURE_SUPPORTED;
	}
	if (ret == 0) {
		*err = 0;
		return PC_FEATURE_MISSING;	/* the limit is not enforced per event */
	}
	*err = -ret;
	return PC_FEATURE_UNKNOWN;
}

/* ---- requested/clear that differ from "any of the masks" ---- */

static bool requested_inherit_sample_read(const union pc_attr *a, unsigned long flags)
{
	return a->attr.inherit && (a->attr.sample_type & PERF_SAMPLE_READ);
}

static bool requested_max_stack(const union pc_attr *a, unsigned long flags)
{
	return (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN) && a->attr.sample_max_stack;
}

static void clear_mmap2(union pc_attr *a, unsigned long *flags)
{
	a->attr.mmap2 = 0;
	a->attr.mmap = 1;
}

static void clear_use_clockid(union pc_attr *a, unsigned long *flags)
{
	a->attr.use_clockid = 0;
	a->attr.clockid = 0;
}

static void clear_inherit_sample_read(union pc_attr *a, unsigned long *flags)
{
	/* as perf does: keep the counts in each sample, stop following children */
	a->attr.inherit = 0;
	a->attr.inherit_stat = 0;
}

static void clear_weight_struct(union pc_attr *a, unsigned long *flags)
{
	a->attr.sample_type &= ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT;
	a->attr.sample_type |= PERF_SAMPLE_WEIGHT;
}

static void clear_sigtrap(union pc_attr *a, unsigned long *flags)
{
	pc_attr_set(&a->attr, PC_ATTR_sigtrap, false);
	a->attr.sig_data = 0;
}

static void clear_max_stack(union pc_attr *a, unsigned long *flags)
{
	long limit;

	if (pc_kernel_max_stack(&limit) == 0 && limit >= 0 && limit < a->attr.sample_max_stack)
		a->attr.sample_max_stack = (uint16_t)limit;
	else
		a->attr.sample_max_stack = 0;	/* 0: the kernel's own limit */
}

/* ---- the table ---- */

#define F(bit) BIT(PC_ATTR_##bit)

const struct pc_feature_row pc_feature_rows[PC_FEAT__COUNT] = {
	/* v2.6.38, "perf events: Make sample_type identity fields available in all PERF_RECORD_ records" */
	[PC_FEAT_SAMPLE_ID_ALL] = { .info = {
		.name = "sample_id_all", .since = "2.6.38",
		.description = "pid/tid/time/id/cpu appended to every side-band record",
		.clearing = "side-band records carry no time: they cannot be ordered with samples",
		.flag_bits = F(sample_id_all), .clear_silently = true } },
	/* v3.2, "perf, core: Introduce attrs to count in either host or guest mode" */
	[PC_FEAT_EXCLUDE_GUEST] = { .info = {
		.name = "exclude_guest", .since = "3.2",
		.description = "exclude_guest and exclude_host: count host or guest only",
		.clearing = "events also count while a KVM guest runs",
		.flag_bits = F(exclude_guest) | F(exclude_host), .clear_silently = true },
		.setup = NULL },
	/* v3.12, "perf: Add attr->mmap2 attribute to an event" */
	[PC_FEAT_MMAP2] = { .info = {
		.name = "mmap2", .since = "3.12",
		.description = "PERF_RECORD_MMAP2: mappings with inode, protection and flags",
		.clearing = "falls back to PERF_RECORD_MMAP (no inode, no build id)",
		.flag_bits = F(mmap2), .dependents = FEAT(BUILD_ID), .clear_silently = true },
		.clear = clear_mmap2 },
	/* v3.16, "perf: Differentiate exec() and non-exec() comm events" */
	[PC_FEAT_COMM_EXEC] = { .info = {
		.name = "comm_exec", .since = "3.16",
		.description = "PERF_RECORD_MISC_COMM_EXEC on COMM records from exec()",
		.clearing = "an exec cannot be told from a prctl(PR_SET_NAME)",
		.flag_bits = F(comm_exec), .clear_silently = true } },
	/* v3.14, "perf: Introduce a flag to enable close-on-exec in perf_event_open()" */
	[PC_FEAT_FD_CLOEXEC] = { .info = {
		.name = "fd_cloexec", .since = "3.14",
		.description = "PERF_FLAG_FD_CLOEXEC open flag",
		.clearing = "close-on-exec is set with fcntl() right after the open",
		.open_flags = PERF_FLAG_FD_CLOEXEC, .clear_silently = true } },
	/* v4.1, "perf: Add per event clockid support" */
	[PC_FEAT_USE_CLOCKID] = { .info = {
		.name = "use_clockid", .since = "4.1",
		.description = "use_clockid: sample time from a chosen clock",
		.clearing = "sample times come from the perf clock",
		.flag_bits = F(use_clockid), .clear_silently = true },
		.setup = setup_use_clockid, .clear = clear_use_clockid },
	/* v4.3, "perf: Add PERF_RECORD_SWITCH to indicate context switches" */
	[PC_FEAT_CONTEXT_SWITCH] = { .info = {
		.name = "context_switch", .since = "4.3",
		.description = "PERF_RECORD_SWITCH records",
		.clearing = "no context-switch records",
		.flag_bits = F(context_switch), .clear_silently = true } },
	/* v4.7, "perf core: Add backward attribute to perf event" (Wang Nan) */
	[PC_FEAT_WRITE_BACKWARD] = { .info = {
		.name = "write_backward", .since = "4.7",
		.description = "write_backward: the ring buffer is written from its end",
		.clearing = "the overwrite ring would be read wrongly: not dropped silently",
		.flag_bits = F(write_backward), .clear_silently = false } },
	/* v4.12, "perf: Add PERF_RECORD_NAMESPACES to include namespaces related info" */
	[PC_FEAT_NAMESPACES] = { .info = {
		.name = "namespaces", .since = "4.12",
		.description = "PERF_RECORD_NAMESPACES records",
		.clearing = "no namespace records",
		.flag_bits = F(namespaces), .clear_silently = true } },
	/* v4.7, "perf/x86: Add option to disable reading branch flags/cycles" */
	[PC_FEAT_LBR_FLAGS] = { .info = {
		.name = "lbr_flags", .since = "4.7",
		.description = "branch_sample_type NO_FLAGS/NO_CYCLES (needs a branch-stack PMU)",
		.clearing = "branch entries carry flags and cycles again",
		.branch_sample_type = PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES,
		.clear_silently = true },
		.setup = setup_lbr_flags, .probe = probe_lbr_flags, .needs_pmu = true },
	/* v5.1, "perf, bpf: Introduce PERF_RECORD_KSYMBOL" */
	[PC_FEAT_KSYMBOL] = { .info = {
		.name = "ksymbol", .since = "5.1",
		.description = "PERF_RECORD_KSYMBOL records (JIT and BPF symbols)",
		.clearing = "BPF and JIT kernel symbols stay unresolved",
		.flag_bits = F(ksymbol), .clear_silently = true } },
	/* v5.1, "perf, bpf: Introduce PERF_RECORD_BPF_EVENT" */
	[PC_FEAT_BPF_EVENT] = { .info = {
		.name = "bpf_event", .since = "5.1",
		.description = "PERF_RECORD_BPF_EVENT records",
		.clearing = "no BPF program load/unload records",
		.flag_bits = F(bpf_event), .clear_silently = true } },
	/* v5.4, "perf: Allow normal events to output AUX data" */
	[PC_FEAT_AUX_OUTPUT] = { .info = {
		.name = "aux_output", .since = "5.4",
		.description = "aux_output: the event writes into its group's AUX area",
		.clearing = "the AUX data asked for would not exist: not dropped silently",
		.flag_bits = F(aux_output), .clear_silently = false },
		.needs_pmu = true },
	/* v5.7, "perf/core: Add PERF_SAMPLE_CGROUP feature" */
	[PC_FEAT_CGROUP] = { .info = {
		.name = "cgroup", .since = "5.7",
		.description = "PERF_RECORD_CGROUP records and PERF_SAMPLE_CGROUP",
		.clearing = "samples lose their cgroup: not dropped silently",
		.flag_bits = F(cgroup), .sample_type = PERF_SAMPLE_CGROUP,
		.clear_silently = false } },
	/* v5.9, "perf: Add perf text poke event" */
	[PC_FEAT_TEXT_POKE] = { .info = {
		.name = "text_poke", .since = "5.9",
		.description = "PERF_RECORD_TEXT_POKE records (kernel text changes)",
		.clearing = "kernel code patched at run time is decoded from the old bytes",
		.flag_bits = F(text_poke), .clear_silently = true } },
	/* v5.11, "perf/core: Add PERF_SAMPLE_DATA_PAGE_SIZE" */
	[PC_FEAT_DATA_PAGE_SIZE] = { .info = {
		.name = "data_page_size", .since = "5.11",
		.description = "PERF_SAMPLE_DATA_PAGE_SIZE",
		.clearing = "samples lose the data page size: not dropped silently",
		.sample_type = PERF_SAMPLE_DATA_PAGE_SIZE, .clear_silently = false } },
	/* v5.11, "perf/core: Add support for PERF_SAMPLE_CODE_PAGE_SIZE" */
	[PC_FEAT_CODE_PAGE_SIZE] = { .info = {
		.name = "code_page_size", .since = "5.11",
		.description = "PERF_SAMPLE_CODE_PAGE_SIZE",
		.clearing = "samples lose the code page size: not dropped silently",
		.sample_type = PERF_SAMPLE_CODE_PAGE_SIZE, .clear_silently = false } },
	/* v5.12, "perf/core: Add PERF_SAMPLE_WEIGHT_STRUCT" */
	[PC_FEAT_WEIGHT_STRUCT] = { .info = {
		.name = "weight_struct", .since = "5.12",
		.description = "PERF_SAMPLE_WEIGHT_STRUCT (split sample weight)",
		.clearing = "PERF_SAMPLE_WEIGHT instead: one 64-bit weight",
		.sample_type = PERF_SAMPLE_WEIGHT_STRUCT, .clear_silently = true },
		.clear = clear_weight_struct },
	/* v5.12, "perf: Add build id data in mmap2 event"; kernels.md: EINVAL on 5.10, ok on 6.1 */
	[PC_FEAT_BUILD_ID] = { .info = {
		.name = "build_id", .since = "5.12",
		.description = "build ids in PERF_RECORD_MMAP2",
		.clearing = "MMAP2 records carry inode data; build ids are read from the files",
		.flag_bits = F(build_id), .clear_silently = true },
		.setup = setup_build_id },
	/* v5.13, "perf: Support only inheriting events if cloned with CLONE_THREAD" */
	[PC_FEAT_INHERIT_THREAD] = { .info = {
		.name = "inherit_thread", .since = "5.13",
		.description = "inherit_thread: inherit to threads only, not to forked processes",
		.clearing = "the event is inherited by child processes too",
		.flag_bits = F(inherit_thread), .clear_silently = true },
		.setup = setup_inherit_thread },
	/* v5.13, "perf: Add support for event removal on exec" */
	[PC_FEAT_REMOVE_ON_EXEC] = { .info = {
		.name = "remove_on_exec", .since = "5.13",
		.description = "remove_on_exec: the event is closed at exec()",
		.clearing = "the event keeps counting across exec()",
		.flag_bits = F(remove_on_exec), .dependents = FEAT(SIGTRAP),
		.clear_silently = true } },
	/* v5.13, "perf: Add support for SIGTRAP on perf events"; kernels.md: EINVAL on 5.10 */
	[PC_FEAT_SIGTRAP] = { .info = {
		.name = "sigtrap", .since = "5.13",
		.description = "sigtrap: synchronous SIGTRAP on overflow (with sig_data)",
		.clearing = "no SIGTRAP on overflow",
		.flag_bits = F(sigtrap), .clear_silently = true },
		.setup = setup_sigtrap, .clear = clear_sigtrap },
	/* v6.0, "perf/core: Add a new read format to get a number of lost samples" */
	[PC_FEAT_READ_LOST] = { .info = {
		.name = "read_lost", .since = "6.0",
		.description = "PERF_FORMAT_LOST: read() and SAMPLE_READ report lost samples",
		.clearing = "lost samples are known only from PERF_RECORD_LOST",
		.read_format = PERF_FORMAT_LOST, .clear_silently = true } },
	/* v6.8, "perf: Add branch stack counters" */
	[PC_FEAT_BRANCH_COUNTERS] = { .info = {
		.name = "branch_counters", .since = "6.8",
		.description = "branch_sample_type COUNTERS (needs a branch-stack PMU)",
		.clearing = "branch entries carry no event counts",
		.branch_sample_type = PC_SAMPLE_BRANCH_COUNTERS, .clear_silently = true },
		.setup = setup_branch_counters, .probe = probe_branch_counters, .needs_pmu = true },
	/* v6.12, "perf: Support PERF_SAMPLE_READ with inherit"; kernels.md: EINVAL on 6.1, ok on 6.12 */
	[PC_FEAT_INHERIT_SAMPLE_READ] = { .info = {
		.name = "inherit_sample_read", .since = "6.12",
		.description = "inherit together with PERF_SAMPLE_READ",
		.clearing = "inherit is switched off: children of the workload are not followed",
		.flag_bits = F(inherit), .sample_type = PERF_SAMPLE_READ,
		.dependents = FEAT(INHERIT_THREAD), .clear_silently = true },
		.setup = setup_inherit_sample_read, .requested = requested_inherit_sample_read,
		.clear = clear_inherit_sample_read },
	/*
	 * 6.19, the deferred user callchain series ("perf: Support deferred user
	 * callchains", Josh Poimboeuf/Steven Rostedt); kernels.md: EINVAL up to
	 * 6.18, ok on 7.2.  perf 7.2 probes it with defer_callchain alone.
	 */
	[PC_FEAT_DEFER_CALLCHAIN] = { .info = {
		.name = "defer_callchain", .since = "6.19",
		.description = "defer_callchain and defer_output: user callchains unwound at return to user space",
		.clearing = "user callchains are taken in the interrupt, as before",
		.flag_bits = F(defer_callchain) | F(defer_output), .clear_silently = true },
		.setup = setup_defer_callchain },
	/*
	 * v4.8, "perf core: Per event callchain limit" (sample_max_stack); the
	 * sysctl itself is v4.7, "perf core: Allow setting up max frame stack
	 * depth via sysctl".
	 */
	[PC_FEAT_MAX_STACK] = { .info = {
		.name = "perf_event_max_stack", .since = "4.8",
		.description = "sample_max_stack, refused (EOVERFLOW) above kernel.perf_event_max_stack",
		.clearing = "sample_max_stack is lowered to the sysctl's limit",
		.sample_type = PERF_SAMPLE_CALLCHAIN, .clear_silently = true },
		.setup = setup_max_stack, .probe = probe_max_stack,
		.requested = requested_max_stack, .clear = clear_max_stack },
};

const struct pc_feature_info *pc_feature_info(enum pc_feature feat)
{
	if ((unsigned int)feat >= PC_FEAT__COUNT)
		return NULL;
	return &pc_feature_rows[feat].info;
}

const char *pc_feature_name(enum pc_feature feat)
{
	const struct pc_feature_info *info = pc_feature_info(feat);

	return info ? info->name : "?";
}

enum pc_feature pc_feature_by_name(const char *name)
{
	for (int f = 0; f < PC_FEAT__COUNT; f++)
		if (!strcmp(pc_feature_rows[f].info.name, name))
			return (enum pc_feature)f;
	return PC_FEAT__COUNT;
}

const char *pc_feature_status_name(enum pc_feature_status status)
{
	switch (status) {
	case PC_FEATURE_SUPPORTED:	return "supported";
	case PC_FEATURE_MISSING:	return "missing";
	default:			return "unknown";
	}
}

bool pc_feature_requested(enum pc_feature feat, const union pc_attr *a, unsigned long flags)
{
	const struct pc_feature_row *row;
	const struct pc_feature_info *in;

	if ((unsigned int)feat >= PC_FEAT__COUNT)
		return false;
	row = &pc_feature_rows[feat];
	in = &row->info;
	if (row->requested)
		return row->requested(a, flags);
	if (pc_attr_flags_get(&a->attr) & in->flag_bits)
		return true;
	if ((a->attr.sample_type & in->sample_type) || (a->attr.read_format & in->read_format))
		return true;
	if ((a->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	    (a->attr.branch_sample_type & in->branch_sample_type))
		return true;
	return (flags & in->open_flags) != 0;
}

/* Switches the feature off in attr and flags, as its row says. */
void pc_feature_clear(enum pc_feature feat, union pc_attr *a, unsigned long *flags)
{
	const struct pc_feature_row *row = &pc_feature_rows[feat];
	const struct pc_feature_info *in = &row->info;

	if (row->clear) {
		row->clear(a, flags);
		return;
	}
	pc_attr_flags_put(&a->attr, pc_attr_flags_get(&a->attr) & ~in->flag_bits);
	a->attr.sample_type &= ~in->sample_type;
	a->attr.read_format &= ~in->read_format;
	a->attr.branch_sample_type &= ~in->branch_sample_type;
	*flags &= ~in->open_flags;
}

int pc_feature_probe_attr(enum pc_feature feat, union pc_attr *a, unsigned long *flags)
{
	const struct pc_feature_row *row;

	if ((unsigned int)feat >= PC_FEAT__COUNT)
		return -EINVAL;
	row = &pc_feature_rows[feat];
	pc_feature_baseline_attr(a);
	*flags = 0;
	if (row->setup) {
		row->setup(a, flags);
		return 0;
	}
	pc_attr_flags_put(&a->attr, pc_attr_flags_get(&a->attr) | row->info.flag_bits);
	a->attr.sample_type |= row->info.sample_type;
	a->attr.read_format |= row->info.read_format;
	*flags |= row->info.open_flags;
	return 0;
}
