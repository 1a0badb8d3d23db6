// SPDX-License-Identifier: GPL-2.0
/*
 * The rows that need a PMU: lbr_flags and branch_counters (a branch-stack
 * PMU), aux_output (an AUX PMU such as Intel PT).  The probe answers first
 * (probes/behaviour.c: no PMU, or refused); when the kernel accepts them,
 * their behaviour is not checked yet, and the result says so rather than
 * counting the acceptance as proof.
 */
#include "probes/behaviour_int.h"

void bh_check_lbr_flags(struct pc_behaviour_result *r)
{
	bh_not_tested(r, "accepted; branch entries without flags and cycles are not checked yet");
}

void bh_check_branch_counters(struct pc_behaviour_result *r)
{
	bh_not_tested(r, "accepted; branch counters are not checked yet");
}

void bh_check_aux_output(struct pc_behaviour_result *r)
{
	bh_not_tested(r, "accepted; AUX output is not checked yet");
}
