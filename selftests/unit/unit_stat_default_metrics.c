// SPDX-License-Identifier: GPL-2.0
/*
 * perf 7.2's default set and its Default metrics (stat/default_metrics.c):
 * the set in perf 7.2.13's order, and each metric's value from the counts
 * of a line perf 7.2.13 printed on this host (software events only).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "stat/stat.h"

static union pc_attr attr_of(uint32_t type, uint64_t config)
{
	union pc_attr a;

	memset(&a, 0, sizeof(a));
	a.attr.type = type;
	a.attr.config = config;
	return a;
}

/* The metric's value as perf's JSON prints it */
static const char *json_value(const struct stat_metric *m, char *buf, size_t size)
{
	snprintf(buf, size, "%f", m->value);
	return buf;
}

TEST(the_set_is_perf_7_2s_software_events_by_name_then_cpu_cycles)
{
	EXPECT_STREQ("context-switches,cpu-migrations,page-faults,task-clock,cpu-cycles",
		     stat_default_events_7_2(false));
	EXPECT_STREQ("context-switches,cpu-clock,cpu-migrations,page-faults,cpu-cycles",
		     stat_default_events_7_2(true));
}

TEST(context_switches_per_second_of_the_clock)
{
	union pc_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct stat_value v = { .val = 1, .counted = true };
	struct stat_context ctx = { .clock_ns = 900927 };
	struct stat_metric m = stat_default_metric_7_2(&a, &v, &ctx);
	char buf[64];

	EXPECT_STREQ("1109.967844", json_value(&m, buf, sizeof(buf)));
	EXPECT_STREQ("cs/sec  cs_per_second", m.unit);
	EXPECT_STREQ("%8.1f", m.fmt);
}

TEST(page_faults_per_second_of_the_clock)
{
	union pc_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	struct stat_value v = { .val = 74, .counted = true };
	struct stat_context ctx = { .clock_ns = 900927 };
	struct stat_metric m = stat_default_metric_7_2(&a, &v, &ctx);
	char buf[64];

	EXPECT_STREQ("82137.620473", json_value(&m, buf, sizeof(buf)));
	EXPECT_STREQ("faults/sec  page_faults_per_second", m.unit);
}

TEST(cpu_migrations_per_second_of_the_clock)
{
	union pc_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS);
	struct stat_value v = { .val = 0, .counted = true };
	struct stat_context ctx = { .clock_ns = 900927 };
	struct stat_metric m = stat_default_metric_7_2(&a, &v, &ctx);
	char buf[64];

	EXPECT_STREQ("0.000000", json_value(&m, buf, sizeof(buf)));
	EXPECT_STREQ("migrations/sec  migrations_per_second", m.unit);
}

TEST(a_task_clock_utilizes_nan_cpus)
{
	union pc_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	struct stat_value v = { .val = 0.900927, .counted = true };
	struct stat_context ctx = { .clock_ns = 900927, .wall_ns = 101000000 };
	struct stat_metric m = stat_default_metric_7_2(&a, &v, &ctx);
	char buf[64];

	EXPECT_STREQ("nan", json_value(&m, buf, sizeof(buf)));
	EXPECT_STREQ("CPUs  CPUs_utilized", m.unit);
}

TEST(a_cpu_clock_utilizes_its_msec_over_the_elapsed_time)
{
	union pc_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	struct stat_value v = { .val = 111.756897, .counted = true };
	struct stat_context ctx = { .clock_ns = 111756897, .wall_ns = 111765614 };
	struct stat_metric m = stat_default_metric_7_2(&a, &v, &ctx);
	char buf[64];

	EXPECT_STREQ("0.999922", json_value(&m, buf, sizeof(buf)));
	EXPECT_STREQ("CPUs  CPUs_utilized", m.unit);
}

TEST(an_uncounted_event_has_a_nan_rate)
{
	union pc_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	struct stat_value v = { .counted = false };
	struct stat_context ctx = { 0 };
	struct stat_metric m = stat_default_metric_7_2(&a, &v, &ctx);

	EXPECT_TRUE(isnan(m.value));
	EXPECT_STREQ("cs/sec  cs_per_second", m.unit);
}

TEST(unsupported_cycles_have_a_nan_frequency)
{
	union pc_attr a = attr_of(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	struct stat_value v = { .counted = false };
	struct stat_context ctx = { .clock_ns = 900927 };
	struct stat_metric m = stat_default_metric_7_2(&a, &v, &ctx);

	EXPECT_TRUE(isnan(m.value));
	EXPECT_STREQ("GHz  cycles_frequency", m.unit);
}

TEST(an_event_outside_the_group_has_no_metric)
{
	union pc_attr a = attr_of(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN);
	struct stat_value v = { .val = 3, .counted = true };
	struct stat_context ctx = { .clock_ns = 900927 };
	struct stat_metric m = stat_default_metric_7_2(&a, &v, &ctx);

	EXPECT_EQ(NULL, m.unit);
}

/* The std lines of an unsupported L1-dcache-loads that -d added, in layout */
static char *unsupported_detailed(enum stat_layout layout)
{
	struct stat_counter c;
	struct stat_evlist l = { .c = &c, .nr = 1 };
	struct stat_value v = { 0 };
	struct stat_context ctx = { 0 };
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	struct stat_printer p = { .out = f, .format = STAT_FMT_STD, .layout = layout };

	if (!f)
		return NULL;
	memset(&c, 0, sizeof(c));
	c.attr = attr_of(PERF_TYPE_HW_CACHE, 0);
	snprintf(c.name, sizeof(c.name), "L1-dcache-loads");
	c.detailed = true;
	stat_print_values(&p, &l, 0, 1, &v, &ctx, NULL, -1, NULL, 0, NULL);
	fclose(f);
	return text;
}

TEST(an_unsupported_detailed_event_is_left_out_in_7_2)
{
	char *s = unsupported_detailed(STAT_LAYOUT_7_2);

	EXPECT_STREQ("", s);
	free(s);
	s = unsupported_detailed(STAT_LAYOUT_6_1);
	EXPECT_NE(NULL, strstr(s, "<not supported>      L1-dcache-loads")) TH_LOG("%s", s);
	free(s);
}

TEST_HARNESS_MAIN
