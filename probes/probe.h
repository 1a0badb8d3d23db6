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

/* What the table says about a feature (probes/features.c). */
struct pc_feature_info {
	const char *name;
	const char *description;
	const char *since;		/* kernel version it appeared in */
	const char *clearing;		/* what switching it off means */
	/* the attr bits it needs: any of them set means the feature is asked for */
	uint64_t flag_bits;		/* bits of the flags word (offset 40) */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	unsigned long open_flags;
	uint64_t dependents;		/* (1ULL << feature) cleared along with it */
	bool clear_silently;		/* false: an open needing it fails instead */
};

const struct pc_feature_info *pc_feature_info(enum pc_feature feat);
/* PC_FEAT__COUNT when no feature has that name. */
enum pc_feature pc_feature_by_name(const char *name);
/* Status name: "supported", "missing", "unknown". */
const char *pc_feature_status_name(enum pc_feature_status status);
/* Does this attr (and these open flags) ask for the feature? */
bool pc_feature_requested(enum pc_feature feat, const union pc_attr *attr,
			  unsigned long flags);
/*
 * The attrs the probes open, for tests and -vv: the known-good baseline
 * (software cpu-clock sampling, user space only, current thread, any cpu)
 * and a feature's probe attr, which differs from it only by that feature.
 */
void pc_feature_baseline_attr(union pc_attr *attr);
int pc_feature_probe_attr(enum pc_feature feat, union pc_attr *attr, unsigned long *flags);
/* perf_event_max_stack as the kernel (or the simulated one) reports it. */
int pc_kernel_max_stack(long *value);
/* "EINVAL" for EINVAL; NULL for an errno this layer has no name for. */
const char *pc_errno_name(int err);
/* Forgets every cached verdict; the next pc_feature_probe() asks the kernel again. */
void pc_probe_reset(void);

#endif
