// SPDX-License-Identifier: GPL-2.0
/*
 * The metric perfcheck stat prints beside a count, as perf 6.1's
 * stat-shadow: a cache's read misses as a share of its read accesses
 * counted beside them (what -d adds), none without them; the events' attrs
 * as the event parser makes them.
 */
#include "kselftest_harness.h"
#include "stat/stat.h"

static union pc_attr cache_attr(unsigned int cache, unsigned int result)
{
	union pc_attr a = { 0 };

	a.attr.type = PERF_TYPE_HW_CACHE;
	a.attr.config = cache | (PERF_COUNT_HW_CACHE_OP_READ << 8) | ((uint64_t)result << 16);
	return a;
}

TEST(l1_dcache_misses_are_a_share_of_its_loads)
{
	union pc_attr a = cache_attr(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_RESULT_MISS);
	struct stat_context ctx = { .cache_loads = { [PERF_COUNT_HW_CACHE_L1D] = 200 } };
	struct stat_metric m = stat_metric_of(&a, 50, &ctx);

	ASSERT_NE(NULL, m.unit);
	EXPECT_STREQ("of all L1-dcache accesses", m.unit);
	EXPECT_STREQ("%7.2f%%", m.fmt);
	EXPECT_EQ(25.0, m.value);
}

TEST(each_cache_names_its_own_accesses)
{
	static const struct { unsigned int cache; const char *unit; } c[] = {
		{ PERF_COUNT_HW_CACHE_L1I, "of all L1-icache accesses" },
		{ PERF_COUNT_HW_CACHE_LL, "of all LL-cache accesses" },
		{ PERF_COUNT_HW_CACHE_DTLB, "of all dTLB cache accesses" },
		{ PERF_COUNT_HW_CACHE_ITLB, "of all iTLB cache accesses" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		union pc_attr a = cache_attr(c[i].cache, PERF_COUNT_HW_CACHE_RESULT_MISS);
		struct stat_context ctx = { 0 };
		struct stat_metric m;

		ctx.cache_loads[c[i].cache] = 1000;
		m = stat_metric_of(&a, 10, &ctx);
		EXPECT_STREQ(c[i].unit, m.unit ? m.unit : "(none)");
		EXPECT_EQ(1.0, m.value);
	}
}

TEST(misses_without_their_loads_have_no_share)
{
	union pc_attr a = cache_attr(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_RESULT_MISS);
	struct stat_context ctx = { 0 };
	struct stat_metric m = stat_metric_of(&a, 50, &ctx);

	EXPECT_EQ(NULL, m.unit);
}

TEST(loads_themselves_have_a_rate_with_a_clock)
{
	union pc_attr a = cache_attr(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_RESULT_ACCESS);
	struct stat_context ctx = { .clock_ns = 1e9, .cache_loads = { 2e6 } };
	struct stat_metric m = stat_metric_of(&a, 2e6, &ctx);

	EXPECT_STREQ("M/sec", m.unit ? m.unit : "(none)");
	EXPECT_EQ(2.0, m.value);
}

TEST_HARNESS_MAIN
