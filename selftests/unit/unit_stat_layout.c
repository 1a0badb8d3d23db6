// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck stat --compat 7.2: lines as perf 7.2.13 prints them, column for
 * column (each expected line below is one perf 7.2 printed on this host,
 * with the numbers of the line given).  The same lines in perf 6.1's layout
 * keep their metric and widths (interop_stat compares both with the perf of
 * each row).
 */
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "stat/stat.h"

/* What the printer writes for one line. */
static char *printed(enum stat_layout layout, enum stat_format format, const struct stat_line *l)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	struct stat_printer p = { .out = f, .format = format, .sep = ",",
				  .layout = layout };

	if (!f)
		return NULL;
	stat_print_line(&p, l);
	fclose(f);
	return text;
}

static struct stat_line clock_line(double msec)
{
	return (struct stat_line){ .event = "task-clock", .unit = "msec", .supported = true,
				   .v = { .val = msec, .run = 1000000, .ena = 1000000, .counted = true },
				   .metric = { .value = 0.017, .fmt = "%8.3f", .unit = "CPUs utilized" },
				   .noise_pct = -1, .interval = -1 };
}

#define PAD38 "                                      "

TEST(a_count_leaves_38_blank_columns_for_perf_7_2s_metric)
{
	struct stat_line l = clock_line(1.04);
	char *s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);

	ASSERT_NE(NULL, s);
	EXPECT_STREQ("              1.04 msec task-clock                      " PAD38 "\n", s);
	free(s);
	s = printed(STAT_LAYOUT_6_1, STAT_FMT_STD, &l);
	EXPECT_NE(NULL, strstr(s, "#    0.017 CPUs utilized")) TH_LOG("%s", s);
	free(s);
}

TEST(a_cpu_line_has_no_space_before_its_count_in_7_2)
{
	struct stat_aggr_of at = { .mode = STAT_AGGR_CPU, .at = { .cpu = 0 }, .nr = 1 };
	struct stat_line l = clock_line(121.91);
	char *s;

	l.aggr = &at;
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);
	EXPECT_STREQ("CPU0               121.91 msec task-clock                      " PAD38 "\n", s);
	free(s);
}

TEST(a_core_id_takes_11_columns_in_7_2)
{
	struct stat_aggr_of at = { .mode = STAT_AGGR_CORE, .at = { .socket = 0, .die = 0, .core = 0 },
				   .nr = 1 };
	struct stat_line l = clock_line(122.11);
	char *s;

	l.aggr = &at;
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);
	EXPECT_STREQ("S0-D0-C0              1             122.11 msec task-clock                      "
		     PAD38 "\n", s);
	free(s);
}

TEST(an_unsupported_event_counts_no_cpus_of_its_aggregate_in_7_2)
{
	struct stat_aggr_of at = { .mode = STAT_AGGR_SOCKET, .at = { .socket = 0 }, .nr = 2 };
	struct stat_line l = { .event = "cycles", .unit = "", .supported = false, .noise_pct = -1,
			       .interval = -1, .aggr = &at };
	char *s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);

	EXPECT_STREQ("S0        0    <not supported>      cycles                          " PAD38 "\n", s);
	free(s);
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_JSON, &l);
	EXPECT_STREQ("{\"socket\" : \"S0\", \"counters\" : 0, \"counter-value\" : \"<not supported>\", "
		     "\"unit\" : \"\", \"event\" : \"cycles\", \"event-runtime\" : 0, "
		     "\"pcnt-running\" : 100.00}\n", s);
	free(s);
}

TEST(json_names_an_aggregates_cpus_counters_in_7_2)
{
	struct stat_aggr_of at = { .mode = STAT_AGGR_SOCKET, .at = { .socket = 0 }, .nr = 2 };
	struct stat_line l = clock_line(246.799330);
	char *s;

	l.aggr = &at;
	l.v.run = l.v.ena = 246799330;
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_JSON, &l);
	EXPECT_STREQ("{\"socket\" : \"S0\", \"counters\" : 2, \"counter-value\" : \"246.799330\", "
		     "\"unit\" : \"msec\", \"event\" : \"task-clock\", \"event-runtime\" : 246799330, "
		     "\"pcnt-running\" : 100.00}\n", s);
	free(s);
	s = printed(STAT_LAYOUT_6_1, STAT_FMT_JSON, &l);
	EXPECT_NE(NULL, strstr(s, "\"aggregate-number\" : 2")) TH_LOG("%s", s);
	free(s);
}

TEST(a_noise_of_0_is_left_out_in_7_2)
{
	struct stat_line l = clock_line(0.88);
	char *s;

	l.noise_pct = 1.82;
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);
	EXPECT_STREQ("              0.88 msec task-clock                      " PAD38
		     "  ( +-  1.82% )\n", s);
	free(s);
	l.noise_pct = 0;
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);
	EXPECT_EQ(NULL, strstr(s, "( +-")) TH_LOG("%s", s);
	free(s);
}

TEST(csv_time_is_unpadded_in_7_2_and_16_columns_in_6_1)
{
	struct stat_line l = clock_line(1.05);
	char *s;

	l.interval = 0.1;
	l.v.run = l.v.ena = 1054154;
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_CSV, &l);
	EXPECT_STREQ("0.100000000,1.05,msec,task-clock,1054154,100.00,,\n", s);
	free(s);
	s = printed(STAT_LAYOUT_6_1, STAT_FMT_CSV, &l);
	EXPECT_EQ(0, strncmp(s, "     0.100000000,1.05,msec,task-clock,1054154,100.00,", 53))
		TH_LOG("%s", s);
	free(s);
}

TEST(interval_headers_are_perf_7_2s)
{
	static const struct { enum stat_aggr mode; const char *line; } h[] = {
		{ STAT_AGGR_GLOBAL, "#           time             counts unit events\n" },
		{ STAT_AGGR_CPU, "#           time cpu                counts unit events\n" },
		{ STAT_AGGR_SOCKET, "#           time socket ctrs             counts unit events\n" },
		{ STAT_AGGR_DIE, "#           time die          ctrs             counts unit events\n" },
		{ STAT_AGGR_CORE,
		  "#           time core               ctrs             counts unit events\n" },
		{ STAT_AGGR_NODE, "#           time node   ctrs             counts unit events\n" },
	};

	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		char *text = NULL;
		size_t size = 0;
		FILE *f = open_memstream(&text, &size);
		struct stat_printer p = { .out = f, .format = STAT_FMT_STD,
					  .layout = STAT_LAYOUT_7_2 };

		ASSERT_NE(NULL, f);
		stat_print_interval_header(&p, h[i].mode, false, false);
		fclose(f);
		EXPECT_STREQ(h[i].line, text);
		free(text);
	}
}

TEST_HARNESS_MAIN
