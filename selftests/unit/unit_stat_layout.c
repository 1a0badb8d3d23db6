// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck stat --compat 7.2 and --compat 6.12: lines as perf 7.2.13 and
 * perf 6.12.117 print them, column for column (each expected line below is
 * one that perf printed on this host, with the numbers of the line given).  The same lines in perf 6.1's layout
 * keep their metric and widths (interop_stat compares both with the perf of
 * each row).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * perf 7.2 shows no metric beside an event given with -e (reading.c gives
 * the printer none): the same line without its metric
 */
static struct stat_line no_metric(struct stat_line l)
{
	l.metric = (struct stat_metric){ 0 };
	return l;
}

#define PAD38 "                                      "

TEST(a_count_leaves_38_blank_columns_for_perf_7_2s_metric)
{
	struct stat_line l = clock_line(1.04), l72 = no_metric(l);
	char *s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l72);

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
	struct stat_line l = no_metric(clock_line(121.91));
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
	struct stat_line l = no_metric(clock_line(122.11));
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
	struct stat_line l = clock_line(246.799330), l72;
	char *s;

	l.aggr = &at;
	l.v.run = l.v.ena = 246799330;
	l72 = no_metric(l);
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_JSON, &l72);
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
	struct stat_line l = no_metric(clock_line(0.88));
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
	struct stat_line l = clock_line(1.05), l72;
	char *s;

	l.interval = 0.1;
	l.v.run = l.v.ena = 1054154;
	l72 = no_metric(l);
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_CSV, &l72);
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

/* perf 6.12.117's lines */

TEST(a_metric_takes_38_columns_in_6_12)
{
	struct stat_line l = clock_line(843.15);
	char *s;

	l.metric.value = 1.961;
	s = printed(STAT_LAYOUT_6_12, STAT_FMT_STD, &l);
	EXPECT_STREQ("            843.15 msec task-clock                       #    1.961 CPUs utilized"
		     "             \n", s);
	free(s);
}

TEST(an_uncounted_event_leaves_38_blank_columns_in_6_12)
{
	struct stat_line l = { .event = "cycles", .unit = "", .supported = false, .noise_pct = -1,
			       .interval = -1 };
	char *s = printed(STAT_LAYOUT_6_12, STAT_FMT_STD, &l);

	EXPECT_STREQ("   <not supported>      cycles                          " PAD38 "\n", s);
	free(s);
}

TEST(an_event_given_with_e_names_its_pmu_in_a_cpu_line_in_6_12)
{
	struct stat_aggr_of at = { .mode = STAT_AGGR_CPU, .at = { .cpu = 0 }, .nr = 1 };
	struct stat_line l = clock_line(115.73);
	char *s;

	l.aggr = &at;
	l.pmu = "software";
	l.metric.value = 0.529;
	s = printed(STAT_LAYOUT_6_12, STAT_FMT_STD, &l);
	EXPECT_STREQ("CPU0               115.73 msec task-clock [software]            #    0.529 CPUs "
		     "utilized             \n", s);
	free(s);
	/* the default set's events: their name alone */
	l.pmu = NULL;
	s = printed(STAT_LAYOUT_6_12, STAT_FMT_STD, &l);
	EXPECT_EQ(0, strncmp(s, "CPU0               115.73 msec task-clock                       #", 64))
		TH_LOG("%s", s);
	free(s);
}

TEST(the_pmu_is_named_in_cpu_lines_only_in_6_12)
{
	struct stat_aggr_of at = { .mode = STAT_AGGR_SOCKET, .at = { .socket = 0 }, .nr = 2 };
	struct stat_line l = clock_line(741.72);
	char *s;

	l.aggr = &at;
	l.pmu = "software";
	l.metric.value = 1.801;
	s = printed(STAT_LAYOUT_6_12, STAT_FMT_STD, &l);
	EXPECT_STREQ("S0        2             741.72 msec task-clock                       #    1.801 "
		     "CPUs utilized             \n", s);
	free(s);
}

TEST(json_quotes_the_metric_value_in_6_12)
{
	struct stat_aggr_of at = { .mode = STAT_AGGR_CPU, .at = { .cpu = 0 }, .nr = 1 };
	struct stat_line l = clock_line(170.987720);
	char *s;

	l.aggr = &at;
	l.pmu = "software";
	l.v.run = l.v.ena = 170987720;
	l.metric.value = 0.985651;
	s = printed(STAT_LAYOUT_6_12, STAT_FMT_JSON, &l);
	EXPECT_STREQ("{\"cpu\" : \"0\", \"counter-value\" : \"170.987720\", \"unit\" : \"msec\", "
		     "\"event\" : \"task-clock [software]\", \"event-runtime\" : 170987720, "
		     "\"pcnt-running\" : 100.00, \"metric-value\" : \"0.985651\", "
		     "\"metric-unit\" : \"CPUs utilized\"}\n", s);
	free(s);
}

TEST(json_gives_an_uncounted_event_a_metric_of_0_in_6_12)
{
	struct stat_line l = clock_line(0);
	char *s;

	l.v = (struct stat_value){ .counted = false };
	l.interval = 0.206721018;
	s = printed(STAT_LAYOUT_6_12, STAT_FMT_JSON, &l);
	EXPECT_STREQ("{\"interval\" : 0.206721018, \"counter-value\" : \"<not counted>\", "
		     "\"unit\" : \"msec\", \"event\" : \"task-clock\", \"event-runtime\" : 0, "
		     "\"pcnt-running\" : 100.00, \"metric-value\" : \"0.000000\", \"metric-unit\" : \"\"}\n",
		     s);
	free(s);
}

TEST(an_unsupported_event_counts_no_cpus_of_its_core_in_6_12)
{
	struct stat_aggr_of at = { .mode = STAT_AGGR_CORE, .at = { .socket = 0, .die = 0, .core = 0 },
				   .nr = 1 };
	struct stat_line l = { .event = "cycles", .unit = "", .supported = false, .noise_pct = -1,
			       .interval = -1, .aggr = &at };
	char *s = printed(STAT_LAYOUT_6_12, STAT_FMT_STD, &l);

	EXPECT_STREQ("S0-D0-C0              0    <not supported>      cycles                          "
		     PAD38 "\n", s);
	free(s);
}

TEST(csv_time_is_unpadded_in_6_12)
{
	struct stat_line l = clock_line(0.91);
	char *s;

	l.interval = 0.100138576;
	l.v.run = l.v.ena = 914632;
	l.metric.value = 0.009;
	s = printed(STAT_LAYOUT_6_12, STAT_FMT_CSV, &l);
	EXPECT_STREQ("0.100138576,0.91,msec,task-clock,914632,100.00,0.009,CPUs utilized\n", s);
	free(s);
}

TEST(a_thread_has_no_space_before_its_count_in_6_12)
{
	struct stat_line l = clock_line(0.03);
	char *s;

	l.comm = "tokio-rt-worker";
	l.tid = 69;
	l.metric.value = 0;
	s = printed(STAT_LAYOUT_6_12, STAT_FMT_STD, &l);
	EXPECT_STREQ(" tokio-rt-worker-69                    0.03 msec task-clock                       "
		     "#    0.000 CPUs utilized             \n", s);
	free(s);
}

TEST(a_noise_follows_the_38_columns_in_6_12)
{
	struct stat_line l = clock_line(1.37);
	char *s;

	l.metric.value = 0.013;
	l.noise_pct = 5.64;
	s = printed(STAT_LAYOUT_6_12, STAT_FMT_STD, &l);
	EXPECT_STREQ("              1.37 msec task-clock                       #    0.013 CPUs utilized"
		     "               ( +-  5.64% )\n", s);
	free(s);
}

TEST(interval_headers_are_perf_6_12s)
{
	static const struct { enum stat_aggr mode; bool threads; const char *line; } h[] = {
		{ STAT_AGGR_GLOBAL, false, "#           time             counts unit events\n" },
		{ STAT_AGGR_CPU, false, "#           time cpu                counts unit events\n" },
		{ STAT_AGGR_SOCKET, false, "#           time socket cpus             counts unit events\n" },
		{ STAT_AGGR_DIE, false,
		  "#           time die          cpus             counts unit events\n" },
		{ STAT_AGGR_CORE, false,
		  "#           time core               cpus             counts unit events\n" },
		{ STAT_AGGR_NODE, false, "#           time node   cpus             counts unit events\n" },
		{ STAT_AGGR_GLOBAL, true,
		  "#           time             comm-pid                 counts unit events\n" },
	};

	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		char *text = NULL;
		size_t size = 0;
		FILE *f = open_memstream(&text, &size);
		struct stat_printer p = { .out = f, .format = STAT_FMT_STD,
					  .layout = STAT_LAYOUT_6_12 };

		ASSERT_NE(NULL, f);
		stat_print_interval_header(&p, h[i].mode, h[i].threads, false);
		fclose(f);
		EXPECT_STREQ(h[i].line, text);
		free(text);
	}
}

/* perf 6.1.187: an unsupported event on a socket of 2 cpus counts 1 */
TEST(an_unsupported_event_counts_1_cpu_of_its_aggregate_in_6_1)
{
	struct stat_aggr_of at = { .mode = STAT_AGGR_SOCKET, .at = { .socket = 0 }, .nr = 2 };
	struct stat_line l = { .event = "cycles", .unit = "", .supported = false, .noise_pct = -1,
			       .interval = -1, .aggr = &at };
	char *s = printed(STAT_LAYOUT_6_1, STAT_FMT_STD, &l);

	EXPECT_STREQ("S0        1    <not supported>      cycles                          "
		     "                            \n", s);
	free(s);
}

/* perf 6.1.187's -I --per-thread title: its threads' column one wider */
TEST(a_thread_interval_header_is_one_wider_in_6_1)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	struct stat_printer p = { .out = f, .format = STAT_FMT_STD };

	ASSERT_NE(NULL, f);
	stat_print_interval_header(&p, STAT_AGGR_GLOBAL, true, false);
	fclose(f);
	EXPECT_STREQ("#           time             comm-pid                  counts unit events\n", text);
	free(text);
}

/* perf 7.2.13's default set: each line with its Default metric */
static struct stat_line default_line(const char *event, double val, double metric,
				     const char *unit)
{
	return (struct stat_line){ .event = event, .unit = "", .supported = true,
				   .v = { .val = val, .run = 1212461, .ena = 1212461, .counted = true },
				   .metric = { .value = metric, .fmt = "%8.1f", .unit = unit },
				   .noise_pct = -1, .interval = -1 };
}

TEST(a_default_metric_takes_38_columns_in_7_2)
{
	struct stat_line l = default_line("context-switches", 1, 826.2, "cs/sec  cs_per_second");
	char *s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);

	EXPECT_STREQ("                 1      context-switches                 #    826.2 cs/sec  "
		     "cs_per_second     \n", s);
	free(s);
}

TEST(a_long_default_metric_unit_overflows_its_columns_in_7_2)
{
	struct stat_line l = default_line("cpu-migrations", 0, 0,
					  "migrations/sec  migrations_per_second");
	char *s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);

	EXPECT_STREQ("                 0      cpu-migrations                   #      0.0 "
		     "migrations/sec  migrations_per_second\n", s);
	free(s);
}

TEST(an_unsupported_default_event_shows_a_nan_metric_in_7_2)
{
	struct stat_line l = default_line("cpu-cycles", 0, NAN, "GHz  cycles_frequency");
	char *s;

	l.supported = false;
	l.v = (struct stat_value){ 0 };
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);
	EXPECT_STREQ("   <not supported>      cpu-cycles                       #      nan GHz  "
		     "cycles_frequency     \n", s);
	free(s);
}

TEST(csv_leaves_a_nan_default_metric_empty_in_7_2)
{
	struct stat_line l = default_line("task-clock", 1.21, NAN, "CPUs  CPUs_utilized");
	char *s;

	l.unit = "msec";
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_CSV, &l);
	EXPECT_STREQ("1.21,msec,task-clock,1212461,100.00,,CPUs  CPUs_utilized\n", s);
	free(s);
	l = default_line("context-switches", 1, 824.8, "cs/sec  cs_per_second");
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_CSV, &l);
	EXPECT_STREQ("1,,context-switches,1212461,100.00,824.8,cs/sec  cs_per_second\n", s);
	free(s);
}

TEST(json_quotes_a_nan_default_metric_in_7_2)
{
	struct stat_line l = default_line("task-clock", 0.900927, NAN, "CPUs  CPUs_utilized");
	char *s;

	l.unit = "msec";
	l.v.run = l.v.ena = 900927;
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_JSON, &l);
	EXPECT_STREQ("{\"counter-value\" : \"0.900927\", \"unit\" : \"msec\", \"event\" : \"task-clock\", "
		     "\"event-runtime\" : 900927, \"pcnt-running\" : 100.00, \"metric-value\" : \"nan\", "
		     "\"metric-unit\" : \"CPUs  CPUs_utilized\"}\n", s);
	free(s);
}

TEST(a_noise_follows_a_default_metric_in_7_2)
{
	struct stat_line l = default_line("page-faults", 74, 61443.4,
					  "faults/sec  page_faults_per_second");
	char *s;

	l.noise_pct = 0.90;
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);
	EXPECT_STREQ("                74      page-faults                      #  61443.4 faults/sec  "
		     "page_faults_per_second  ( +-  0.90% )\n", s);
	free(s);
}

/*
 * -G: perf 6.12 and 7.2 pad the cgroup's name to 16 columns (a longer one
 * overflows), 6.1 prints it as it is (perf 6.12.117 and 7.2.13 on this host)
 */
TEST(a_cgroup_name_takes_16_columns_in_6_12_and_7_2)
{
	struct stat_line l = no_metric(clock_line(1.04)), m = clock_line(1.04);
	char *s;

	l.cgroup = m.cgroup = "ab";
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);
	ASSERT_NE(NULL, s);
	EXPECT_STREQ("              1.04 msec task-clock                       ab              " PAD38
		     "\n", s);
	free(s);
	s = printed(STAT_LAYOUT_6_12, STAT_FMT_STD, &m);
	ASSERT_NE(NULL, s);
	EXPECT_STREQ("              1.04 msec task-clock                       ab               #    "
		     "0.017 CPUs utilized             \n", s);
	free(s);
	l.cgroup = "pc-longer-cgroup-name-x";
	s = printed(STAT_LAYOUT_7_2, STAT_FMT_STD, &l);
	ASSERT_NE(NULL, s);
	EXPECT_STREQ("              1.04 msec task-clock                       pc-longer-cgroup-name-x"
		     PAD38 "\n", s);
	free(s);
	s = printed(STAT_LAYOUT_6_1, STAT_FMT_STD, &m);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, " ab #")) TH_LOG("%s", s);
	free(s);
}

TEST_HARNESS_MAIN
