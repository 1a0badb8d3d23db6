// SPDX-License-Identifier: GPL-2.0
/*
 * Each matrix row's own perf (its staged payload, or the system perf of
 * the same version) under `perfcheck emulate ROW` on this host exits as
 * in that row's guest and opens the attrs recorded there
 * (fixtures/emulate-ladder/ROW/VARIANT.attrs).  See
 * selftests/lib/emulate_ladder.h.
 */
#include "kselftest_harness.h"
#include "emulate_ladder.h"

EL_VARIANTS_SAMPLING
EL_VARIANTS_SIDEBAND

TEST_F_TIMEOUT(ladder, emulated_5_10_opens_what_the_5_10_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "5.10", NULL);
}

TEST_F_TIMEOUT(ladder, emulated_6_1_opens_what_the_6_1_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "6.1", NULL);
}

TEST_F_TIMEOUT(ladder, emulated_6_12_opens_what_the_6_12_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "6.12", NULL);
}

TEST_F_TIMEOUT(ladder, emulated_7_2_opens_what_the_7_2_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "7.2", NULL);
}

TEST_HARNESS_MAIN
