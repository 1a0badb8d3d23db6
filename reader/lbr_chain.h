/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Callchains of --call-graph lbr recordings as perf shows them: an event
 * whose branch stack is the LBR call stack (PERF_SAMPLE_BRANCH_CALL_STACK)
 * has its user part taken from that stack, not from the recorded chain: the
 * chain up to and with its PERF_CONTEXT_USER, then the first entry's target
 * (where the sample's function was entered: perf 6.1) or the sample's ip
 * (perf 7.2, in kernel samples too), then each entry's source (the call
 * sites, innermost first).  A sample without PERF_CONTEXT_USER in its
 * chain (kernel only) keeps its chain as recorded, as perf does.
 */
#ifndef PERFCHECK_READER_LBR_CHAIN_H
#define PERFCHECK_READER_LBR_CHAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"

/* The most entries a branch stack can have: a record is at most 64 KiB */
#define RD_LBR_MAX 2731

/*
 * Whether smp's chain is spliced with its LBR call stack: then *base_nr is
 * how much of the recorded chain stays and user[0..*user_nr) the frames
 * that follow it (user holds RD_LBR_MAX + 1).
 */
bool rd_lbr_chain(const struct pd_sample *smp, bool first_target, uint64_t *base_nr,
		  uint64_t *user, uint64_t *user_nr);

#endif
