// SPDX-License-Identifier: GPL-2.0
/*
 * Debian's perf 7.2 on the older rows, where its ladder refuses and
 * retries: under `perfcheck emulate ROW` on this host it exits as in that
 * row's guest and opens the attrs recorded there
 * (fixtures/emulate-ladder/ROW/VARIANT.perf-7.2.attrs).  See
 * selftests/lib/emulate_ladder.h.
 */
#include "kselftest_harness.h"
#include "emulate_ladder.h"

EL_VARIANTS_SAMPLING
EL_VARIANTS_SIDEBAND

TEST_F_TIMEOUT(ladder, emulated_5_10_opens_what_perf_7_2_opened_in_the_5_10_guest, 300)
{
	emulated_row(_metadata, self, variant, "5.10", "7.2");
}

TEST_F_TIMEOUT(ladder, emulated_6_1_opens_what_perf_7_2_opened_in_the_6_1_guest, 300)
{
	emulated_row(_metadata, self, variant, "6.1", "7.2");
}

TEST_F_TIMEOUT(ladder, emulated_6_12_opens_what_perf_7_2_opened_in_the_6_12_guest, 300)
{
	emulated_row(_metadata, self, variant, "6.12", "7.2");
}

TEST_HARNESS_MAIN
