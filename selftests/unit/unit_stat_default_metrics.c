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

#define HW "{branch-misses,branches},branches,cpu-cycles,{cpu-cycles,instructions}," \
	   "{cpu-cycles,stalled-cycles-frontend},{cpu-cycles,stalled-cycles-backend}," \
	   "{stalled-cycles-backend,instructions,stalled-cycles-frontend}"

/* the order perf 7.2.13 opens them in (stat -vv), each hardware metric a group */
TEST(the_set_is_perf_7_2s_software_events_by_name_then_its_metric_groups)
{
	EXPECT_STREQ("context-switches,cpu-migrations,page-faults,task-clock," HW,
		     stat_default_events_7_2(false));
	EXPECT_STREQ("context-switches,cpu-clock,cpu-migrations,page-faults," HW,
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

/* perf 7.2's hardware groups of the set, as stat_evlist_build makes them: name, config, leader */
static const struct {
	const char *name;
	uint64_t config;
	int leader, nr_members;
} hw_set[] = {
	{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES, 0, 2 },
	{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, 0 },
	{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 2, 1 },
	{ "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES, 3, 1 },
	{ "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES, 4, 2 },
	{ "instructions", PERF_COUNT_HW_INSTRUCTIONS, 4, 0 },
	{ "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES, 6, 2 },
	{ "stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 6, 0 },
	{ "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES, 8, 2 },
	{ "stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 8, 0 },
	{ "stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 10, 3 },
	{ "instructions", PERF_COUNT_HW_INSTRUCTIONS, 10, 0 },
	{ "stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 10, 0 },
};
#define NR_HW ((int)(sizeof(hw_set) / sizeof(hw_set[0])))

/*
 * The std lines perf 7.2's layout prints of the hardware half of the
 * default set: each event counts counts[config] (0: unsupported), in 1 s
 * of task-clock; counter never_ran (an index of hw_set, -1: none) enabled
 * but never running
 */
static char *hw_lines_as(const double counts[PERF_COUNT_HW_MAX], int never_ran,
			 enum stat_format format)
{
	struct stat_counter c[NR_HW];
	struct stat_value v[NR_HW];
	struct stat_evlist l = { .c = c, .nr = NR_HW };
	struct stat_context ctx = { .clock_ns = 1e9 };
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	struct stat_printer p = { .out = f, .format = format, .layout = STAT_LAYOUT_7_2,
				  .no_big_num = true };

	if (!f)
		return NULL;
	memset(c, 0, sizeof(c));
	memset(v, 0, sizeof(v));
	for (int i = 0; i < NR_HW; i++) {
		c[i].attr = attr_of(PERF_TYPE_HARDWARE, hw_set[i].config);
		snprintf(c[i].name, sizeof(c[i].name), "%s", hw_set[i].name);
		c[i].leader = hw_set[i].leader;
		c[i].nr_members = hw_set[i].nr_members;
		c[i].from_default = true;
		c[i].supported = counts[hw_set[i].config] > 0;
		v[i] = (struct stat_value){ .val = counts[hw_set[i].config], .run = 1, .ena = 1,
					    .counted = c[i].supported };
		if (i == never_ran)
			v[i] = (struct stat_value){ .ena = 1 };
	}
	stat_print_values(&p, &l, 0, NR_HW, v, &ctx, NULL, -1, NULL, 0, NULL);
	fclose(f);
	return text;
}

static char *hw_lines(const double counts[PERF_COUNT_HW_MAX])
{
	return hw_lines_as(counts, -1, STAT_FMT_STD);
}

/* text's lines, each cut to its event name and metric unit: "EVENT UNIT\n" */
static void names_and_units(const char *text, char *out, size_t n)
{
	char event[64], value[64], unit[128];
	size_t len = 0;

	out[0] = '\0';
	for (const char *p = text; p && *p && len < n; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *hash = strchr(p, '#');

		if (sscanf(p, "%*s %63s", event) != 1 || !hash || (strchr(p, '\n') && hash > strchr(p, '\n')))
			continue;
		if (sscanf(hash + 1, "%63s %127[^\n]", value, unit) != 2)
			continue;
		for (char *e = unit + strlen(unit); e > unit && e[-1] == ' '; )
			*--e = '\0';
		len += snprintf(out + len, n - len, "%s %s\n", event, unit);
	}
}

/* a machine counting every event: a line per metric, on its display member, in perf's order */
TEST(every_default_metric_shows_once_on_its_display_member_in_perfs_order)
{
	double counts[PERF_COUNT_HW_MAX] = { 0 };
	char *s, got[2048];

	counts[PERF_COUNT_HW_CPU_CYCLES] = 2e9;
	counts[PERF_COUNT_HW_INSTRUCTIONS] = 3e9;
	counts[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = 4e8;
	counts[PERF_COUNT_HW_BRANCH_MISSES] = 2e7;
	counts[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = 5e8;
	counts[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = 6e8;
	s = hw_lines(counts);
	ASSERT_NE(NULL, s);
	names_and_units(s, got, sizeof(got));
	EXPECT_STREQ("branch-misses %  branch_miss_rate\n"
		     "branches M/sec  branch_frequency\n"
		     "cpu-cycles GHz  cycles_frequency\n"
		     "instructions instructions  insn_per_cycle\n"
		     "stalled-cycles-frontend frontend_cycles_idle\n"
		     "stalled-cycles-backend backend_cycles_idle\n"
		     "stalled-cycles-backend stalled_cycles_per_instruction\n", got) TH_LOG("%s", s);
	/* each from its own group's counts: 5 %, 400 M/sec, 2 GHz, 1.5, 0.25, 0.30, max/insn 0.20 */
	EXPECT_NE(NULL, strstr(s, "#      5.0 %  branch_miss_rate")) TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "#    400.0 M/sec  branch_frequency")) TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "#      2.0 GHz  cycles_frequency")) TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "#      1.5 instructions  insn_per_cycle")) TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "#     0.25 frontend_cycles_idle")) TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "#     0.30 backend_cycles_idle")) TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "#     0.20 stalled_cycles_per_instruction")) TH_LOG("%s", s);
	free(s);
}

/* the 7.2-arm64 guest: no branch events, stalls that count 0: no branch lines */
TEST(a_display_member_that_cannot_count_is_hidden)
{
	double counts[PERF_COUNT_HW_MAX] = { 0 };
	char *s, got[2048];

	counts[PERF_COUNT_HW_CPU_CYCLES] = 299727755;
	counts[PERF_COUNT_HW_INSTRUCTIONS] = 299710749;
	/* counted, zero: a value (not unsupported) */
	counts[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = 1e-300;
	counts[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = 1e-300;
	s = hw_lines(counts);
	ASSERT_NE(NULL, s);
	names_and_units(s, got, sizeof(got));
	EXPECT_STREQ("cpu-cycles GHz  cycles_frequency\n"
		     "instructions instructions  insn_per_cycle\n"
		     "stalled-cycles-frontend frontend_cycles_idle\n"
		     "stalled-cycles-backend backend_cycles_idle\n"
		     "stalled-cycles-backend stalled_cycles_per_instruction\n", got) TH_LOG("%s", s);
	free(s);
}

/* no PMU (this host): cycles_frequency's cpu-cycles alone, <not supported> with nan */
TEST(without_a_pmu_only_cpu_cycles_shows_unsupported)
{
	double counts[PERF_COUNT_HW_MAX] = { 0 };
	char *s;

	s = hw_lines(counts);
	ASSERT_NE(NULL, s);
	EXPECT_STREQ("   <not supported>      cpu-cycles                       #      nan GHz  "
		     "cycles_frequency     \n", s);
	free(s);
}
/* all counts of the arm64 guest's run */
static void arm64_guest_counts(double counts[PERF_COUNT_HW_MAX])
{
	memset(counts, 0, PERF_COUNT_HW_MAX * sizeof(double));
	counts[PERF_COUNT_HW_CPU_CYCLES] = 1222239;
	counts[PERF_COUNT_HW_INSTRUCTIONS] = 1222239;
	counts[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = 1e-300;
	counts[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = 1e-300;
}

/* a short run the multiplexing never gave a turn to a group: perf 7.2 says <not counted> */
TEST(a_display_member_that_never_ran_is_not_counted_with_nan)
{
	double counts[PERF_COUNT_HW_MAX];
	char *s;

	arm64_guest_counts(counts);
	s = hw_lines_as(counts, 10, STAT_FMT_STD);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, "     <not counted>      stalled-cycles-backend           #      nan "
				  "stalled_cycles_per_instruction  (0.00%)\n")) TH_LOG("%s", s);
	free(s);
}

/* JSON: the metrics with a MetricThreshold say whether it holds ("bad") */
TEST(json_says_each_thresholds_verdict)
{
	double counts[PERF_COUNT_HW_MAX];
	char *s;

	arm64_guest_counts(counts);
	counts[PERF_COUNT_HW_INSTRUCTIONS] = 611119;	/* 0.5 per cycle: below 1, bad */
	s = hw_lines_as(counts, -1, STAT_FMT_JSON);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, "\"metric-unit\" : \"instructions  insn_per_cycle\", "
				  "\"metric-threshold\" : \"bad\"}")) TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "\"metric-unit\" : \"frontend_cycles_idle\", "
				  "\"metric-threshold\" : \"good\"}")) TH_LOG("%s", s);
	/* no threshold: no key */
	EXPECT_NE(NULL, strstr(s, "\"metric-unit\" : \"stalled_cycles_per_instruction\"}"))
		TH_LOG("%s", s);
	EXPECT_NE(NULL, strstr(s, "\"metric-unit\" : \"GHz  cycles_frequency\"}")) TH_LOG("%s", s);
	free(s);
}

TEST_HARNESS_MAIN
