// SPDX-License-Identifier: GPL-2.0
/*
 * The 5.10 row's own perf (its staged payload, or the system perf of the
 * same version) under `perfcheck emulate 5.10` on this host exits as in the
 * 5.10 guest and opens the attrs recorded there
 * (fixtures/emulate-ladder/5.10/VARIANT.attrs).  One file per row: see
 * EL_ROW_TESTS in selftests/lib/emulate_ladder.h.
 */
#include "kselftest_harness.h"
#include "emulate_ladder.h"

EL_VARIANTS_SAMPLING
EL_VARIANTS_SIDEBAND

EL_ROW_TESTS(5_10, "5.10")

TEST_HARNESS_MAIN
