// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream perf's ladder on the running kernel (side-band options and features newer than 5.10): what it opens is
 * kept for fixtures/emulate-ladder, and emulating this kernel changes
 * nothing.  And the finding table of `perfcheck emulate --report` with the
 * system perf.  See selftests/lib/emulate_ladder.h.
 */
#include "kselftest_harness.h"
#include "emulate_ladder.h"

EL_VARIANTS_SIDEBAND

TEST_F_TIMEOUT(ladder, emulating_the_running_kernel_opens_what_it_opens, 600)
{
	char *prefix[] = { (char *)up_perf(), NULL };

	if (!up_perf())
		SKIP(return, "no upstream perf here (guest without the upstream payload: "
			     "make matrix without --no-upstream)");
	running_kernel(_metadata, self, variant, prefix, "attrs.txt", NULL);
}

/* perf 7.2 on an older kernel: the ladder at work (staged by fixtures/emulate-ladder/record) */
TEST_F_TIMEOUT(ladder, emulating_the_running_kernel_opens_what_perf_7_2_opens, 600)
{
	char bufs[3][PATH_MAX], payload[256], *prefix[5];

	if (!el_cross_perf("7.2", prefix, bufs, payload, sizeof(payload)))
		SKIP(return, "no perf 7.2 staged beside perfcheck in cross/7.2 (a matrix run with "
			     "fixtures/emulate-ladder/record's payload)");
	running_kernel(_metadata, self, variant, prefix, "attrs-perf-7.2.txt",
		       payload[0] ? payload : NULL);
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
