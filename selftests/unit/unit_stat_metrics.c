// SPDX-License-Identifier: GPL-2.0
/*
 * The metric perfcheck stat prints beside a count, as perf 6.1's
 * stat-shadow: a cache's read misses as a share of its read accesses
 * counted beside them (what -d adds), none without them; the events' attrs
 * as the event parser makes them.  And perf 6.12's rates: only from a clock
 * counting what the event counts (its modifiers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * -x lines of "cpu-clock:k,faults" (as perf 6.12.117 and 6.1.187 printed
 * them here, with their numbers) in layout
 */
static char *kernel_clock_and_faults(enum stat_layout layout)
{
	struct stat_counter c[2];
	struct stat_evlist l = { .c = c, .nr = 2 };
	struct stat_value v[2] = { { .val = 0.632453, .run = 632453, .ena = 632453, .counted = true },
				   { .val = 48, .run = 632453, .ena = 632453, .counted = true } };
	struct stat_context ctx;
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	struct stat_printer p = { .out = f, .format = STAT_FMT_CSV, .sep = ",", .layout = layout };

	if (!f)
		return NULL;
	memset(c, 0, sizeof(c));
	c[0].attr.attr.type = c[1].attr.attr.type = PERF_TYPE_SOFTWARE;
	c[0].attr.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	c[0].attr.attr.exclude_user = c[0].attr.attr.exclude_hv = 1;
	c[1].attr.attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	snprintf(c[0].name, sizeof(c[0].name), "cpu-clock:k");
	snprintf(c[1].name, sizeof(c[1].name), "faults");
	c[0].supported = c[1].supported = true;
	ctx = stat_context_of(&l, v, 1546340);
	stat_print_values(&p, &l, 0, 2, v, &ctx, NULL, -1, NULL, 0, NULL);
	fclose(f);
	return text;
}

TEST(a_rate_needs_a_clock_of_its_own_modifiers_in_6_12)
{
	char *s = kernel_clock_and_faults(STAT_LAYOUT_6_12);

	EXPECT_STREQ("0.63,msec,cpu-clock:k,632453,100.00,0.409,CPUs utilized\n"
		     "48,,faults,632453,100.00,,\n", s);
	free(s);
}

TEST(a_rate_takes_any_clock_in_6_1)
{
	char *s = kernel_clock_and_faults(STAT_LAYOUT_6_1);

	EXPECT_STREQ("0.63,msec,cpu-clock:k,632453,100.00,0.409,CPUs utilized\n"
		     "48,,faults,632453,100.00,75.895,K/sec\n", s);
	free(s);
}

TEST_HARNESS_MAIN
