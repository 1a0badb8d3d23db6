/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the feature_*.c selftests: one TEST per row of the feature
 * table, each running that row's behaviour check (probes/behaviour_*.c) on
 * the running kernel.  Proven passes; broken fails with what was seen;
 * refused and not tested skip with the reason the check derived (the
 * probe's verdict and errno, or what the machine lacks).
 */
#ifndef PERFCHECK_SELFTESTS_FEATURE_COMMON_H
#define PERFCHECK_SELFTESTS_FEATURE_COMMON_H

#include "probes/behaviour.h"

#define FEATURE_TEST(name, feat)							\
	TEST(name)									\
	{										\
		const struct pc_behaviour_result *b = pc_behaviour_check(feat);	\
											\
		ASSERT_NE(NULL, b);							\
		TH_LOG("%s: %s (%.1f ms): %s", pc_feature_name(feat),			\
		       pc_behaviour_name(b->verdict), b->ms, b->detail);		\
		if (b->verdict == PC_BEHAVIOUR_REFUSED)					\
			SKIP(return, "refused: %s", b->detail);				\
		if (b->verdict == PC_BEHAVIOUR_NOT_TESTED)				\
			SKIP(return, "not tested: %s", b->detail);			\
		EXPECT_EQ(PC_BEHAVIOUR_PROVEN, b->verdict)				\
			TH_LOG("accepted but broken: %s", b->detail);			\
	}

#endif
