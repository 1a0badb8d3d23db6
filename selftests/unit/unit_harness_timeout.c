// SPDX-License-Identifier: GPL-2.0
/*
 * The harness's per-test alarm is scaled by the guest's slowdown
 * (selftests/lib/harness_timeout.c) and left alone outside a guest.
 */
#include <stdlib.h>
#include <unistd.h>

#include "kselftest_harness.h"

TEST(alarm_is_scaled_by_the_guest_factor)
{
	unsigned int left;

	ASSERT_EQ(0, setenv("PERFCHECK_VM_FACTOR", "3.5", 1));
	alarm(10);
	left = alarm(0);
	/* 35 s armed; the seconds left, read at once */
	EXPECT_LE(34, left);
	EXPECT_GE(35, left);
}

TEST(alarm_is_unchanged_without_a_factor)
{
	unsigned int left;

	ASSERT_EQ(0, unsetenv("PERFCHECK_VM_FACTOR"));
	ASSERT_EQ(0, unsetenv("PERFCHECK_TIMEOUT_SCALE"));	/* make SAN=1 check sets it */
	alarm(10);
	left = alarm(0);
	EXPECT_LE(9, left);
	EXPECT_GE(10, left);
}

TEST(a_factor_below_one_does_not_shorten_the_alarm)
{
	unsigned int left;

	ASSERT_EQ(0, setenv("PERFCHECK_VM_FACTOR", "0.5", 1));
	ASSERT_EQ(0, unsetenv("PERFCHECK_TIMEOUT_SCALE"));	/* make SAN=1 check sets it */
	alarm(10);
	left = alarm(0);
	EXPECT_LE(9, left);
	EXPECT_GE(10, left);
}

TEST_HARNESS_MAIN
