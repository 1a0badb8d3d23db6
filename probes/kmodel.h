/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel models: what perf_event_open of a given kernel refuses, decided
 * from the raw attr bits with the model's own map of bits to features
 * (deliberately not the probe table's, so a wrong table row shows up as a
 * test failure).  Used by `perfcheck emulate` (an old kernel's answers for
 * any program) and by the tests' simulated kernels.
 */
#ifndef PERFCHECK_PROBES_KMODEL_H
#define PERFCHECK_PROBES_KMODEL_H

#include <stdint.h>

#include "probes/probe.h"

struct pc_kernel_model {
	const char *name;		/* "5.10", "6.1", ... */
	uint32_t attr_size;		/* sizeof(struct perf_event_attr) of that kernel */
	uint64_t features;		/* (1ULL << enum pc_feature) it accepts */
	int refuse_errno;		/* answer to an attr bit it does not know */
	long max_stack;			/* kernel.perf_event_max_stack */
};

/* The kernels of the matrix; a NULL name ends the table. */
extern const struct pc_kernel_model pc_kernel_models[];
const struct pc_kernel_model *pc_kernel_model_find(const char *name);

/*
 * 0 when the model's kernel takes attr and flags as far as the ABI goes
 * (size, open flags, attr bits and their combinations, callchain depth);
 * else the errno it answers.  On E2BIG, *size_out is the model's attr size
 * (what the kernel writes back into attr->size).  The PMU (which events
 * exist) is not modelled: that is the real machine's answer.
 */
int pc_kernel_model_decide(const struct pc_kernel_model *k, const struct perf_event_attr *attr,
			   unsigned long flags, uint32_t *size_out);

#endif
