// SPDX-License-Identifier: GPL-2.0
/*
 * A simulated kernel behind the probe layer's seam: a kernel model decides
 * the ABI; on top, the PMU this project's test machines lack (no hardware
 * events, no branch stacks, no AUX) and the adversarial answers.
 */
#include "simkernel.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "probes/kernel.h"
#include "probes/kmodel.h"

#define FEAT(f)		(1ULL << PC_FEAT_##f)
#define ALL		((1ULL << PC_FEAT__COUNT) - 1)
#define TO_6_1		(ALL & ~(FEAT(BRANCH_COUNTERS) | FEAT(INHERIT_SAMPLE_READ) | \
				 FEAT(DEFER_CALLCHAIN)))
#define TO_6_18		(ALL & ~FEAT(DEFER_CALLCHAIN))

static const struct pc_sim_profile adversarial[] = {
	{ "eopnotsupp", 128, TO_6_1, EOPNOTSUPP, 0, 0, 0, 127, false },
	{ "e2big", 120, TO_6_18, EINVAL, 0, 0, 0, 127, false },
	{ "ebusy", 136, TO_6_18, EINVAL, 0, 2, 0, 127, false },
	{ "eintr", 136, TO_6_18, EINVAL, 0, 0, 3, 127, false },
	{ "reject-all", 136, ALL, EINVAL, EINVAL, 0, 0, 127, false },
};

const struct pc_sim_profile *pc_sim_profile_find(const char *name)
{
	static struct pc_sim_profile matrix[16];
	const struct pc_kernel_model *k = pc_kernel_model_find(name);

	if (k) {
		size_t i = (size_t)(k - pc_kernel_models);

		if (i >= sizeof(matrix) / sizeof(matrix[0]))
			return NULL;
		matrix[i] = (struct pc_sim_profile){
			.name = k->name, .attr_size = k->attr_size, .features = k->features,
			.refuse_errno = k->refuse_errno, .max_stack = k->max_stack,
		};
		return &matrix[i];
	}
	for (size_t i = 0; i < sizeof(adversarial) / sizeof(adversarial[0]); i++)
		if (!strcmp(adversarial[i].name, name))
			return &adversarial[i];
	return NULL;
}

static struct pc_sim_profile sim;
static int sim_busy_left, sim_eintr_left;
static unsigned int sim_opens;

static int fail(int e)
{
	errno = e;
	return -1;
}

static int sim_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags)
{
	struct pc_kernel_model k = {
		.name = sim.name, .attr_size = sim.attr_size, .features = sim.features,
		.refuse_errno = sim.refuse_errno, .max_stack = sim.max_stack,
	};
	uint64_t fw = pc_attr_flags_get(attr), st = attr->sample_type;
	uint32_t size;
	int e;

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
	e = pc_kernel_model_decide(&k, attr, flags, &size);
	if (e == E2BIG)
		attr->size = size;
	if (e)
		return fail(e);
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
}

static int sim_max_stack(long *value)
{
	if (sim.max_stack <= 0)
		return -ENOENT;
	*value = sim.max_stack;
	return 0;
}

void pc_sim_install(const struct pc_sim_profile *profile)
{
	static const struct pc_kernel_ops ops = { sim_open, sim_max_stack };

	sim = *profile;
	sim_busy_left = sim.busy_times;
	sim_eintr_left = sim.eintr_times;
	sim_opens = 0;
	pc_kernel_set_ops(&ops);
	pc_probe_reset();
}

void pc_sim_uninstall(void)
{
	pc_kernel_set_ops(NULL);
	pc_probe_reset();
}

unsigned int pc_sim_open_count(void)
{
	return sim_opens;
}
