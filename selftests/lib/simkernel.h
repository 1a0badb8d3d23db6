/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Simulated kernels for the tests: the probe layer's seam (probes/kernel.h)
 * answered by a kernel model (probes/kmodel.h) plus what only tests need:
 * no PMU, EBUSY and EINTR a few times, every open refused.  An accepted
 * open gets an fd of /dev/null.
 */
#ifndef PERFCHECK_SELFTESTS_SIMKERNEL_H
#define PERFCHECK_SELFTESTS_SIMKERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "probes/probe.h"

struct pc_sim_profile {
	const char *name;		/* "6.18", "eopnotsupp", ... */
	uint32_t attr_size;		/* sizeof(struct perf_event_attr) of that kernel */
	uint64_t features;		/* (1ULL << enum pc_feature) it accepts */
	int refuse_errno;		/* answer to an attr bit it does not know */
	int reject_all_errno;		/* non-zero: every open fails with it */
	int busy_times;			/* the first N opens fail with EBUSY */
	int eintr_times;		/* the first N opens fail with EINTR */
	long max_stack;			/* kernel.perf_event_max_stack */
	bool has_pmu;			/* false: hardware events are not countable */
};

/* The kernels of the matrix (from probes/kmodel.c) and the adversarial ones. */
const struct pc_sim_profile *pc_sim_profile_find(const char *name);

/*
 * Makes the probe layer talk to this simulated kernel (copied, so a test
 * may pass a modified profile on its stack) and forgets cached verdicts.
 * pc_sim_uninstall() goes back to the real kernel, also forgetting them.
 */
void pc_sim_install(const struct pc_sim_profile *profile);
void pc_sim_uninstall(void);
/* Number of opens the simulated kernel has seen since install. */
unsigned int pc_sim_open_count(void);

#endif
