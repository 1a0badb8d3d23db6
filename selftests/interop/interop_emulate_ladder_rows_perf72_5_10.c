// SPDX-License-Identifier: GPL-2.0
/*
 * Debian's perf 7.2 in the 5.10 row, where its ladder refuses and retries:
 * under `perfcheck emulate 5.10` on this host it exits as in the 5.10 guest
 * and opens the attrs recorded there
 * (fixtures/emulate-ladder/5.10/VARIANT.perf-7.2.attrs).  One file per row:
 * see EL_ROW_PERF72_TESTS in selftests/lib/emulate_ladder.h.
 */
#include "kselftest_harness.h"
#include "emulate_ladder.h"

EL_VARIANTS_SAMPLING
EL_VARIANTS_SIDEBAND

EL_ROW_PERF72_TESTS(5_10, "5.10")

TEST_HARNESS_MAIN
