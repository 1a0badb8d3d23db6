/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test seam under the probe layer.  Every perf_event_open of probes/
 * (the probes and pc_event_open) goes through pc_kernel_open(), which calls
 * a replaceable function: the real syscall by default, or a simulated
 * kernel that knows a set of features and answers with the errno a real
 * kernel of that kind would give.
 */
#ifndef PERFCHECK_PROBES_SIMKERNEL_H
#define PERFCHECK_PROBES_SIMKERNEL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "probes/probe.h"

typedef int (*pc_open_fn)(struct perf_event_attr *attr, pid_t pid, int cpu,
			  int group_fd, unsigned long flags);

/* Returns an fd or -1 with errno set, like the syscall. */
int pc_kernel_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		   unsigned long flags);
/* Replaces the open function (NULL restores the real syscall); returns the old one. */
pc_open_fn pc_kernel_set_open(pc_open_fn fn);

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

/* The kernels of the matrix and the adversarial ones; NULL-named entry ends it. */
extern const struct pc_sim_profile pc_sim_profiles[];
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
