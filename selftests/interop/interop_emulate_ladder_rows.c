// SPDX-License-Identifier: GPL-2.0
/*
 * Each matrix row's own perf (its staged payload, or the system perf of
 * the same version) under `perfcheck emulate ROW` on this host exits as
 * in that row's guest and opens the attrs recorded there
 * (fixtures/emulate-ladder/ROW/VARIANT.attrs).  See
 * selftests/lib/emulate_ladder.h.
 */
#include "kselftest_harness.h"
#include "emulate_ladder.h"

EL_VARIANTS_SAMPLING
EL_VARIANTS_SIDEBAND

TEST_F_TIMEOUT(ladder, emulated_5_10_opens_what_the_5_10_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "5.10", NULL);
}

TEST_F_TIMEOUT(ladder, emulated_6_1_opens_what_the_6_1_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "6.1", NULL);
}

TEST_F_TIMEOUT(ladder, emulated_6_12_opens_what_the_6_12_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "6.12", NULL);
}

TEST_F_TIMEOUT(ladder, emulated_7_2_opens_what_the_7_2_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "7.2", NULL);
}

/*
 * The finding table shows what the ladder of the system perf gets wrong:
 * perf 6.0 to 6.11 switches off PERF_FORMAT_LOST at the first EINVAL, the
 * newest feature it asked, although Debian's 5.10 has it; the refusal was
 * for the page sizes 5.10 lacks.
 */
FIXTURE(report) {
	int unused;
};

FIXTURE_SETUP(report)
{
}

FIXTURE_TEARDOWN(report)
{
}

TEST_F_TIMEOUT(report, shows_read_lost_given_up_under_5_10, 600)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "emulate", "--report", "--", "perf", NULL };
	const char *why = el_emulate_unavailable(), *line;
	struct up_version v;
	struct pc_run run;
	int n;

	if (why)
		SKIP(return, "%s", why);
	if (!pc_test_have_program("perf") || up_perf_version(&v))
		SKIP(return, "no perf in PATH");
	n = v.major * 1000 + v.minor;
	if (n < 6000 || n >= 6012)
		SKIP(return, "%s: its ladder is not the one that switches off PERF_FORMAT_LOST first "
			     "(6.0 to 6.11)", v.text);
	ASSERT_EQ(0, up_run(&run, 600, argv));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_EQ(21, pc_count_substr(run.out, "\n5.10 ") + pc_count_substr(run.out, "\n6.1 ") +
			      pc_count_substr(run.out, "\n6.12 "))
		TH_LOG("%s", run.out);
	line = strstr(run.out, "\n5.10   record -e cpu-clock --data-page-size");
	ASSERT_NE(NULL, line) TH_LOG("%s", run.out);
	line++;
	/* perf gives up (the page sizes are what 5.10 lacks), read_lost dropped on the way */
	EXPECT_EQ(0, strncmp(strchr(line, '\n') - 9, "read_lost", 9))
		TH_LOG("%.*s", (int)(strchr(line, '\n') - line), line);
	EXPECT_NE(NULL, strstr(line, "data_page_size,code_page_size"));
	pc_run_free(&run);
}

TEST_HARNESS_MAIN
