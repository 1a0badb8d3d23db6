// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream perf's ladder on the running kernel (sampling and callchain options): what it opens is
 * kept for fixtures/emulate-ladder, and emulating this kernel changes
 * nothing.  See selftests/lib/emulate_ladder.h.
 */
#include "kselftest_harness.h"
#include "emulate_ladder.h"

EL_VARIANTS_SAMPLING

TEST_F_TIMEOUT(ladder, emulating_the_running_kernel_opens_what_it_opens, 600)
{
	char *prefix[] = { (char *)up_perf(), NULL };

	if (!up_perf())
		SKIP(return, "no upstream perf here (guest without the upstream payload: "
			     "make matrix without --no-upstream)");
	running_kernel(_metadata, self, variant, prefix, "attrs.txt", NULL);
}

/* perf 7.2 on an older kernel: the ladder at work (staged by fixtures/emulate-ladder/record) */
TEST_F_TIMEOUT(ladder, emulating_the_running_kernel_opens_what_perf_7_2_opens, 600)
{
	char bufs[3][PATH_MAX], payload[256], *prefix[5];

	if (!el_cross_perf("7.2", prefix, bufs, payload, sizeof(payload)))
		SKIP(return, "no perf 7.2 staged beside perfcheck in cross/7.2 (a matrix run with "
			     "fixtures/emulate-ladder/record's payload)");
	running_kernel(_metadata, self, variant, prefix, "attrs-perf-7.2.txt",
		       payload[0] ? payload : NULL);
}

TEST_HARNESS_MAIN
