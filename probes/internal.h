/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between the files of probes/: the table row and the probe opener. */
#ifndef PERFCHECK_PROBES_INTERNAL_H
#define PERFCHECK_PROBES_INTERNAL_H

#include "probes/probe.h"

struct pc_feature_row {
	struct pc_feature_info info;
	/* adds the feature to the baseline attr; NULL: set the info masks */
	void (*setup)(union pc_attr *attr, unsigned long *flags);
	/* a probe that needs more than one open (NULL: open the setup attr) */
	enum pc_feature_status (*probe)(int *err);
	/* NULL: any of the info masks is set */
	bool (*requested)(const union pc_attr *attr, unsigned long flags);
	/* NULL: clear the info masks */
	void (*clear)(union pc_attr *attr, unsigned long *flags);
	/* EOPNOTSUPP means "no PMU here can do it", not "unknown bit" */
	bool needs_pmu;
};

extern const struct pc_feature_row pc_feature_rows[PC_FEAT__COUNT];

/* Switches the feature off in attr and flags, as its row says (not its dependents). */
void pc_feature_clear(enum pc_feature feat, union pc_attr *attr, unsigned long *flags);

/* probe_try.c, below the table and the cache (neither calls back into it). */
/* Opens attr on the current thread (any cpu) and closes it: 0 or -errno. */
int pc_probe_try(union pc_attr *attr, unsigned long flags);
/* How a single probe open's result reads as a verdict. */
enum pc_feature_status pc_probe_verdict(int ret, bool needs_pmu, int *err);

/* Retries EINTR and (a few times, with a short sleep) EBUSY; fd or -errno. */
int pc_open_retrying(union pc_attr *attr, pid_t pid, int cpu, int group_fd,
		     unsigned long flags, int *busy_left);
#define PC_EBUSY_TRIES 5

#endif
