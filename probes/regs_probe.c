// SPDX-License-Identifier: GPL-2.0
/*
 * Whether the kernel samples a set of user registers: the open perf
 * tries before it adds a register only some machines have (the arm64 SVE
 * vector granule, VG): a user-space cycles event sampling
 * PERF_SAMPLE_REGS_USER with that mask, opened and closed at once.
 */
#include "probes/internal.h"

#include <string.h>

int pc_probe_user_regs(uint64_t mask)
{
	union pc_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.attr.size = PERF_ATTR_SIZE_VER3;	/* the first with sample_regs_user */
	attr.attr.type = PERF_TYPE_HARDWARE;
	attr.attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.attr.sample_type = PERF_SAMPLE_REGS_USER;
	attr.attr.sample_period = 1;
	attr.attr.sample_regs_user = mask;
	attr.attr.disabled = 1;
	attr.attr.exclude_kernel = 1;
	return pc_probe_try(&attr, PERF_FLAG_FD_CLOEXEC);
}
