// SPDX-License-Identifier: GPL-2.0
/*
 * The user registers perf samples by default (bare --user-regs,
 * --call-graph dwarf): every general register, and on arm64 with SVE also
 * the vector granule VG when the kernel samples it (perf's
 * arch__user_reg_mask tries that open first).
 */
#include "recorder/regs.h"

#include "probes/probe.h"

#if defined(__aarch64__)
#include <sys/auxv.h>
#ifndef HWCAP_SVE
#define HWCAP_SVE (1UL << 22)
#endif
#define REC_REG_ARM64_VG 46

uint64_t rec_regs_user_default(void)
{
	static int known;
	static uint64_t mask;

	if (!known) {
		mask = REC_REGS_DEFAULT;
		if ((getauxval(AT_HWCAP) & HWCAP_SVE) &&
		    !pc_probe_user_regs(mask | (1ULL << REC_REG_ARM64_VG)))
			mask |= 1ULL << REC_REG_ARM64_VG;
		known = 1;
	}
	return mask;
}
#else
uint64_t rec_regs_user_default(void)
{
	return REC_REGS_DEFAULT;
}
#endif
