// SPDX-License-Identifier: GPL-2.0
/*
 * The user registers sampled by default (bare --user-regs, --call-graph
 * dwarf): every general register.  perf on arm64 with SVE also asks for
 * the vector granule VG when a cycles event takes it; the kernel refuses
 * VG on software events (EOPNOTSUPP: no PERF_PMU_CAP_EXTENDED_REGS), so
 * that perf 6.12 record -e cpu-clock --call-graph dwarf fails in the
 * 6.12-arm64 guest (measured 2026-11-23).  perfcheck does not add it.
 */
#include "recorder/regs.h"

uint64_t rec_regs_user_default(void)
{
	return REC_REGS_DEFAULT;
}
