// SPDX-License-Identifier: GPL-2.0
/*
 * The 6.12 row's own perf (its staged payload, or the system perf of the
 * same version) under `perfcheck emulate 6.12` on this host exits as in the
 * 6.12 guest and opens the attrs recorded there
 * (fixtures/emulate-ladder/6.12/VARIANT.attrs).  One file per row: see
 * EL_ROW_TESTS in selftests/lib/emulate_ladder.h.
 */
#include "kselftest_harness.h"
#include "emulate_ladder.h"

EL_VARIANTS_SAMPLING
EL_VARIANTS_SIDEBAND

EL_ROW_TESTS(6_12, "6.12")

TEST_HARNESS_MAIN
