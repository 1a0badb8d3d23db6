// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck probe --behaviour: one result per row of the feature table in
 * each output form, verdicts agreeing between them, and an exit status of
 * 1 exactly when a row is accepted but broken.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"
#include "probes/probe.h"

/* TAP lines that start with prefix (a detail may hold "ok ", as in "took ") */
static int count_lines_starting(const char *text, const char *prefix)
{
	int n = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		n += !strncmp(p, prefix, strlen(prefix));
	return n;
}

static int run_probe(struct pc_run *run, const char *form)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "probe", "--behaviour", (char *)form, NULL };

	if (!form)
		argv[3] = NULL;
	return pc_test_run(run, 120, argv);
}

TEST(tap_has_one_line_per_row_and_fails_only_on_broken)
{
	struct pc_run run;
	int not_ok;

	ASSERT_EQ(0, run_probe(&run, "--tap"));
	TH_LOG("%s", run.out);
	ASSERT_NE(NULL, run.out);
	EXPECT_NE(NULL, strstr(run.out, "1..27\n"));
	not_ok = count_lines_starting(run.out, "not ok ");
	EXPECT_EQ(PC_FEAT__COUNT, count_lines_starting(run.out, "ok ") + not_ok);
	EXPECT_EQ(not_ok, pc_count_substr(run.out, "accepted but broken: "));
	EXPECT_EQ(not_ok ? 1 : 0, run.exit_code) TH_LOG("stderr: %s", run.err);
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		char want[64];

		snprintf(want, sizeof(want), " - %s ", pc_feature_name(f));
		EXPECT_EQ(1, pc_count_substr(run.out, want)) TH_LOG("%s", want);
	}
	pc_run_free(&run);
}

TEST(json_names_every_row_with_a_verdict_and_detail)
{
	struct pc_run run;

	ASSERT_EQ(0, run_probe(&run, "--json"));
	ASSERT_NE(NULL, run.out);
	EXPECT_EQ(0, strncmp(run.out, "{\"release\":", 11));
	EXPECT_NE(NULL, strstr(run.out, ",\"behaviour\":{"));
	EXPECT_EQ(PC_FEAT__COUNT, pc_count_substr(run.out, "{\"verdict\":\""));
	EXPECT_EQ(PC_FEAT__COUNT, pc_count_substr(run.out, ",\"detail\":\""));
	EXPECT_EQ(PC_FEAT__COUNT, pc_count_substr(run.out, ",\"ms\":"));
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		char want[64];

		snprintf(want, sizeof(want), "\"%s\":{\"verdict\":", pc_feature_name(f));
		EXPECT_EQ(1, pc_count_substr(run.out, want)) TH_LOG("%s", want);
	}
	pc_run_free(&run);
}

TEST(table_verdicts_are_the_four_words)
{
	const char *words[] = { " proven ", " refused ", " broken ", " not tested " };
	struct pc_run run;
	int seen = 0;

	ASSERT_EQ(0, run_probe(&run, NULL));
	ASSERT_NE(NULL, run.out);
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		seen += pc_count_substr(run.out, words[i]);
	/* a detail may repeat a word: at least one per row */
	EXPECT_LE(PC_FEAT__COUNT, seen);
	EXPECT_NE(NULL, strstr(run.out, "what was seen"));
	pc_run_free(&run);
}

TEST(behaviour_refuses_expect_and_baseline)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "probe", "--behaviour", "--baseline", NULL };
	struct pc_run run;

	ASSERT_EQ(0, pc_test_run(&run, 30, argv));
	EXPECT_EQ(2, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "--behaviour takes --json or --tap"));
	pc_run_free(&run);
}

TEST_HARNESS_MAIN
