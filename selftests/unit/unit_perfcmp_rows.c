// SPDX-License-Identifier: GPL-2.0
/*
 * perfcmp_same_rows, the report comparison's one tolerance: adjacent rows
 * that differ only by a bare address and its level, tied on every other
 * column, compare as a set; anything else still has to be the same line
 * for line.
 */
#include "kselftest_harness.h"
#include "lib/perfcmp.h"

#define ROW(pct, addr) "     " pct "     0.00%  sh       [unknown]             [.] " addr "\n"
#define KROW(pct, addr) "     " pct "     0.00%  sh       [unknown]             [k] " addr "\n"

TEST(tied_bare_address_rows_in_another_order_are_the_same)
{
	const char *perf = "# head\n" ROW("2.57%", "0x0000000000000001")
			   ROW("2.57%", "0x6e6572617020676e") "# tail\n";
	const char *ours = "# head\n" ROW("2.57%", "0x6e6572617020676e")
			   ROW("2.57%", "0x0000000000000001") "# tail\n";
	char first[800];
	int tied = -1;

	EXPECT_TRUE(perfcmp_same_rows(perf, ours, first, sizeof(first), &tied)) TH_LOG("%s", first);
	EXPECT_EQ(1, tied);
}

/* the level is the address's: [k] and [.] rows of one run tie too */
TEST(tied_rows_of_either_level_are_one_run)
{
	const char *perf = KROW("0.03%", "0x00007ffd115a8aa6") ROW("0.03%", "0x989d180000000039");
	const char *ours = ROW("0.03%", "0x989d180000000039") KROW("0.03%", "0x00007ffd115a8aa6");
	char first[800];
	int tied = -1;

	EXPECT_TRUE(perfcmp_same_rows(perf, ours, first, sizeof(first), &tied)) TH_LOG("%s", first);
	EXPECT_EQ(1, tied);
}

TEST(rows_of_other_shares_are_not_tied)
{
	const char *perf = ROW("2.57%", "0x0000000000000001") ROW("2.56%", "0x6e6572617020676e");
	const char *ours = ROW("2.56%", "0x6e6572617020676e") ROW("2.57%", "0x0000000000000001");
	char first[800];
	int tied = -1;

	EXPECT_FALSE(perfcmp_same_rows(perf, ours, first, sizeof(first), &tied));
	EXPECT_NE(NULL, strstr(first, "line 1:")) TH_LOG("%s", first);
}

TEST(an_address_of_only_one_side_is_a_difference)
{
	const char *perf = ROW("2.57%", "0x0000000000000001") ROW("2.57%", "0x0000000000000002");
	const char *ours = ROW("2.57%", "0x0000000000000002") ROW("2.57%", "0x0000000000000003");
	char first[800];
	int tied = -1;

	EXPECT_FALSE(perfcmp_same_rows(perf, ours, first, sizeof(first), &tied));
}

TEST(rows_with_symbols_keep_their_order)
{
	const char *perf = "     1.00%  sh  [.] alpha\n     1.00%  sh  [.] beta\n";
	const char *ours = "     1.00%  sh  [.] beta\n     1.00%  sh  [.] alpha\n";
	char first[800];
	int tied = -1;

	EXPECT_FALSE(perfcmp_same_rows(perf, ours, first, sizeof(first), &tied));
}

TEST_HARNESS_MAIN
