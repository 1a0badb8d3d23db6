// SPDX-License-Identifier: GPL-2.0
/*
 * The rows that need a PMU: lbr_flags and branch_counters (branch stacks),
 * aux_output (an AUX PMU).  Where the probe finds no PMU they skip saying
 * so; where a kernel accepts them, the check says what is not yet verified.
 */
#include "kselftest_harness.h"
#include "feature_common.h"

FEATURE_TEST(lbr_flags, PC_FEAT_LBR_FLAGS)
FEATURE_TEST(branch_counters, PC_FEAT_BRANCH_COUNTERS)
FEATURE_TEST(aux_output, PC_FEAT_AUX_OUTPUT)

TEST_HARNESS_MAIN
