// SPDX-License-Identifier: GPL-2.0
/*
 * The seam under the probe layer, and a simulated kernel behind it.
 *
 * The simulated kernel decides from the raw attr bits with its own
 * knowledge of which bit belongs to which feature (deliberately not the
 * probe table's, so that a wrong table row shows up as a test failure).
 * It checks in the order the real perf_event_open does: attr size, open
 * flags, attr bits and their combinations, the callchain depth, then the
 * PMU (none: no hardware events, no branch stacks, no AUX).
 */
#include "probes/simkernel.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util/sys.h"

static int real_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		     unsigned long flags)
{
	return pc_sys_perf_event_open(attr, pid, cpu, group_fd, flags);
}

static pc_open_fn open_fn = real_open;
static bool sim_active;
static struct pc_sim_profile sim;
static int sim_busy_left, sim_eintr_left;
static unsigned int sim_opens;

int pc_kernel_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		   unsigned long flags)
{
	return open_fn(attr, pid, cpu, group_fd, flags);
}

pc_open_fn pc_kernel_set_open(pc_open_fn fn)
{
	pc_open_fn old = open_fn;

	open_fn = fn ? fn : real_open;
	return old;
}

int pc_kernel_max_stack(long *value)
{
	if (sim_active) {
		if (sim.max_stack <= 0)
			return -ENOENT;
		*value = sim.max_stack;
		return 0;
	}
	return pc_read_int_file("/proc/sys/kernel/perf_event_max_stack", value);
}

#define FEAT(f)		(1ULL << PC_FEAT_##f)
#define ALL		((1ULL << PC_FEAT__COUNT) - 1)
#define NEWER_THAN_5_10	(FEAT(DATA_PAGE_SIZE) | FEAT(CODE_PAGE_SIZE) | FEAT(WEIGHT_STRUCT) | \
			 FEAT(BUILD_ID) | FEAT(INHERIT_THREAD) | FEAT(REMOVE_ON_EXEC) | \
			 FEAT(SIGTRAP) | NEWER_THAN_5_19)
#define NEWER_THAN_5_19	(FEAT(READ_LOST) | NEWER_THAN_6_1)
#define NEWER_THAN_6_1	(FEAT(BRANCH_COUNTERS) | FEAT(INHERIT_SAMPLE_READ) | NEWER_THAN_6_18)
#define NEWER_THAN_6_18	FEAT(DEFER_CALLCHAIN)

/*
 * Matrix kernels: the measured rows of kernels.md (build_id, sigtrap,
 * inherit_sample_read, defer_callchain), the rest by the version each
 * feature appeared in.  attr_size is sizeof(struct perf_event_attr) there:
 * VER6 (5.10), VER7 (6.1), VER8 (6.12, 6.18), VER9 (7.2).
 */
const struct pc_sim_profile pc_sim_profiles[] = {
	{ "5.10", 120, ALL & ~NEWER_THAN_5_10, EINVAL, 0, 0, 0, 127, false },
	{ "6.1", 128, ALL & ~NEWER_THAN_6_1, EINVAL, 0, 0, 0, 127, false },
	{ "6.12", 136, ALL & ~NEWER_THAN_6_18, EINVAL, 0, 0, 0, 127, false },
	{ "6.18", 136, ALL & ~NEWER_THAN_6_18, EINVAL, 0, 0, 0, 127, false },
	{ "7.2", 144, ALL, EINVAL, 0, 0, 0, 127, false },
	/* adversarial */
	{ "eopnotsupp", 128, ALL & ~NEWER_THAN_6_1, EOPNOTSUPP, 0, 0, 0, 127, false },
	{ "e2big", 120, ALL & ~NEWER_THAN_6_18, EINVAL, 0, 0, 0, 127, false },
	{ "ebusy", 136, ALL & ~NEWER_THAN_6_18, EINVAL, 0, 2, 0, 127, false },
	{ "eintr", 136, ALL & ~NEWER_THAN_6_18, EINVAL, 0, 0, 3, 127, false },
	{ "reject-all", 136, ALL, EINVAL, EINVAL, 0, 0, 127, false },
	{ NULL },
};

const struct pc_sim_profile *pc_sim_profile_find(const char *name)
{
	for (const struct pc_sim_profile *p = pc_sim_profiles; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

/* The sim's own map of attr bits to features (flags word bit numbers). */
static const struct {
	int bit;
	enum pc_feature feat;
} flag_feature[] = {
	{ 18, PC_FEAT_SAMPLE_ID_ALL },	{ 19, PC_FEAT_EXCLUDE_GUEST },
	{ 20, PC_FEAT_EXCLUDE_GUEST },	{ 23, PC_FEAT_MMAP2 },
	{ 24, PC_FEAT_COMM_EXEC },	{ 25, PC_FEAT_USE_CLOCKID },
	{ 26, PC_FEAT_CONTEXT_SWITCH },	{ 27, PC_FEAT_WRITE_BACKWARD },
	{ 28, PC_FEAT_NAMESPACES },	{ 29, PC_FEAT_KSYMBOL },
	{ 30, PC_FEAT_BPF_EVENT },	{ 31, PC_FEAT_AUX_OUTPUT },
	{ 32, PC_FEAT_CGROUP },		{ 33, PC_FEAT_TEXT_POKE },
	{ 34, PC_FEAT_BUILD_ID },	{ 35, PC_FEAT_INHERIT_THREAD },
	{ 36, PC_FEAT_REMOVE_ON_EXEC },	{ 37, PC_FEAT_SIGTRAP },
	{ 38, PC_FEAT_DEFER_CALLCHAIN },{ 39, PC_FEAT_DEFER_CALLCHAIN },
};

static const struct {
	uint64_t bit;
	enum pc_feature feat;
} sample_feature[] = {
	{ 1ULL << 21, PC_FEAT_CGROUP },
	{ 1ULL << 22, PC_FEAT_DATA_PAGE_SIZE },
	{ 1ULL << 23, PC_FEAT_CODE_PAGE_SIZE },
	{ 1ULL << 24, PC_FEAT_WEIGHT_STRUCT },
};

static bool has(enum pc_feature f)
{
	return (sim.features >> f) & 1;
}

static int fail(int e)
{
	errno = e;
	return -1;
}

static int sim_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags)
{
	const unsigned char *bytes = (const unsigned char *)attr;
	uint32_t size = attr->size ? attr->size : 64;
	uint64_t fw, st = attr->sample_type;
	unsigned long known_flags = PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT |
				    PERF_FLAG_PID_CGROUP;
	int refuse = sim.refuse_errno;

	sim_opens++;
	if (sim.reject_all_errno)
		return fail(sim.reject_all_errno);
	if (sim_eintr_left > 0) {
		sim_eintr_left--;
		return fail(EINTR);
	}
	if (sim_busy_left > 0) {
		sim_busy_left--;
		return fail(EBUSY);
	}
	/* size: like perf_copy_attr, a longer attr is fine if its tail is zero */
	if (size < 64 || size > 4096)
		goto e2big;
	for (uint32_t i = sim.attr_size; i < size; i++)
		if (i < PC_ATTR_SIZE_MAX && bytes[i])
			goto e2big;
	if (has(PC_FEAT_FD_CLOEXEC))
		known_flags |= PERF_FLAG_FD_CLOEXEC;
	if (flags & ~known_flags)
		return fail(EINVAL);

	fw = pc_attr_flags_get(attr);
	if (fw >> 40)
		return fail(EINVAL);
	for (size_t i = 0; i < sizeof(flag_feature) / sizeof(flag_feature[0]); i++)
		if (((fw >> flag_feature[i].bit) & 1) && !has(flag_feature[i].feat))
			return fail(refuse);
	if (st >> 25)
		return fail(EINVAL);
	for (size_t i = 0; i < sizeof(sample_feature) / sizeof(sample_feature[0]); i++)
		if ((st & sample_feature[i].bit) && !has(sample_feature[i].feat))
			return fail(refuse);
	if (attr->read_format >> 5)
		return fail(EINVAL);
	if ((attr->read_format & PERF_FORMAT_LOST) && !has(PC_FEAT_READ_LOST))
		return fail(refuse);
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t bt = attr->branch_sample_type;

		if (bt >> 20)
			return fail(EINVAL);
		if ((bt & (PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES)) &&
		    !has(PC_FEAT_LBR_FLAGS))
			return fail(EINVAL);
		if ((bt & PC_SAMPLE_BRANCH_COUNTERS) && !has(PC_FEAT_BRANCH_COUNTERS))
			return fail(EINVAL);
	}
	if (attr->inherit && (st & PERF_SAMPLE_READ) && !has(PC_FEAT_INHERIT_SAMPLE_READ))
		return fail(EINVAL);
	if (((fw >> 37) & 1) && !((fw >> 36) & 1))	/* sigtrap needs remove_on_exec */
		return fail(EINVAL);
	if (((fw >> 35) & 1) && !attr->inherit)		/* inherit_thread needs inherit */
		return fail(EINVAL);
	if ((st & PERF_SAMPLE_CALLCHAIN) && has(PC_FEAT_MAX_STACK) &&
	    attr->sample_max_stack > sim.max_stack)
		return fail(EOVERFLOW);

	/* the PMU */
	if (attr->type == PERF_TYPE_HARDWARE && !sim.has_pmu)
		return fail(ENOENT);
	if (attr->type != PERF_TYPE_HARDWARE && attr->type != PERF_TYPE_SOFTWARE)
		return fail(ENOENT);
	if (attr->type == PERF_TYPE_SOFTWARE && (st & PERF_SAMPLE_BRANCH_STACK))
		return fail(EOPNOTSUPP);
	if ((fw >> 31) & 1)				/* aux_output: no AUX PMU */
		return fail(EOPNOTSUPP);
	return open("/dev/null", O_RDONLY | ((flags & PERF_FLAG_FD_CLOEXEC) ? O_CLOEXEC : 0));

e2big:
	attr->size = sim.attr_size;
	return fail(E2BIG);
}

void pc_sim_install(const struct pc_sim_profile *profile)
{
	sim = *profile;
	sim_active = true;
	sim_busy_left = sim.busy_times;
	sim_eintr_left = sim.eintr_times;
	sim_opens = 0;
	pc_kernel_set_open(sim_open);
	pc_probe_reset();
}

void pc_sim_uninstall(void)
{
	sim_active = false;
	pc_kernel_set_open(NULL);
	pc_probe_reset();
}

unsigned int pc_sim_open_count(void)
{
	return sim_opens;
}
