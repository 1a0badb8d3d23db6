/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-feature probe layer: one table of perf_event features, a lazy
 * tri-state cache of what the running kernel accepts, and the one function
 * through which every event of the project is opened (pc_event_open), with
 * the retry ladder that clears what the kernel lacks.
 *
 * (Contract shared by recorder/ and selftests/; implemented in probes/.)
 */
#ifndef PERFCHECK_PROBES_PROBE_H
#define PERFCHECK_PROBES_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "uapi/perf_compat.h"
#include "util/error.h"

/* One value per row of the feature table (probes/features.c), newest last. */
enum pc_feature {
	PC_FEAT_SAMPLE_ID_ALL,
	PC_FEAT_EXCLUDE_GUEST,		/* exclude_guest and exclude_host */
	PC_FEAT_MMAP2,
	PC_FEAT_COMM_EXEC,
	PC_FEAT_FD_CLOEXEC,		/* PERF_FLAG_FD_CLOEXEC open flag */
	PC_FEAT_USE_CLOCKID,
	PC_FEAT_CONTEXT_SWITCH,
	PC_FEAT_WRITE_BACKWARD,
	PC_FEAT_NAMESPACES,
	PC_FEAT_LBR_FLAGS,
	PC_FEAT_KSYMBOL,
	PC_FEAT_BPF_EVENT,
	PC_FEAT_AUX_OUTPUT,
	PC_FEAT_CGROUP,
	PC_FEAT_TEXT_POKE,
	PC_FEAT_DATA_PAGE_SIZE,
	PC_FEAT_CODE_PAGE_SIZE,
	PC_FEAT_WEIGHT_STRUCT,
	PC_FEAT_BUILD_ID,
	PC_FEAT_INHERIT_THREAD,
	PC_FEAT_REMOVE_ON_EXEC,
	PC_FEAT_SIGTRAP,
	PC_FEAT_READ_LOST,		/* PERF_FORMAT_LOST */
	PC_FEAT_BRANCH_COUNTERS,
	PC_FEAT_INHERIT_SAMPLE_READ,	/* inherit with PERF_SAMPLE_READ */
	PC_FEAT_DEFER_CALLCHAIN,	/* defer_callchain and defer_output */
	PC_FEAT_MAX_STACK,		/* perf_event_max_stack sysctl limit */
	PC_FEAT__COUNT
};

enum pc_feature_status {
	PC_FEATURE_UNKNOWN,		/* probe could not decide (errno kept) */
	PC_FEATURE_SUPPORTED,
	PC_FEATURE_MISSING,
};

const char *pc_feature_name(enum pc_feature feat);
/* Probes once per process (cached); errno_out gets the probe's errno if not NULL. */
enum pc_feature_status pc_feature_probe(enum pc_feature feat, int *errno_out);

struct pc_open_info {
	uint64_t cleared;		/* bit (1ULL << enum pc_feature) per feature cleared */
	uint32_t attr_size;		/* attr.size the kernel finally accepted */
	bool fell_back_to_cpu_clock;	/* hardware event not countable here */
};

/*
 * The one open path.  Opens attr (its size field says how many bytes are
 * meaningful); on EINVAL/E2BIG/EOPNOTSUPP finds which requested features the
 * kernel lacks, clears them (and their dependents) in attr, says
 * "switching off FEATURE" at -v, and retries.  attr is left as opened.
 * Returns the fd, or -errno with err naming the event and what was refused.
 */
int pc_event_open(union pc_attr *attr, const char *event_name, pid_t pid, int cpu,
		  int group_fd, unsigned long flags, struct pc_open_info *info,
		  struct pc_error *err);

#endif
