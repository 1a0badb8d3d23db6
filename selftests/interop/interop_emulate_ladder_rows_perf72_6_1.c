// SPDX-License-Identifier: GPL-2.0
/*
 * Debian's perf 7.2 in the 6.1 row, where its ladder refuses and retries:
 * under `perfcheck emulate 6.1` on this host it exits as in the 6.1 guest
 * and opens the attrs recorded there
 * (fixtures/emulate-ladder/6.1/VARIANT.perf-7.2.attrs).  One file per row:
 * see EL_ROW_PERF72_TESTS in selftests/lib/emulate_ladder.h.
 */
#include "kselftest_harness.h"
#include "emulate_ladder.h"

EL_VARIANTS_SAMPLING
EL_VARIANTS_SIDEBAND

EL_ROW_PERF72_TESTS(6_1, "6.1")

TEST_HARNESS_MAIN
