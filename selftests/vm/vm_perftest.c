// SPDX-License-Identifier: GPL-2.0
/*
 * vm/perftest, the TAP adapter around upstream `perf test`, driven by a
 * stand-in perf (a shell script) whose test 2 fails a given number of times
 * before it passes.  Host-only: needs build/static/vm/perftest.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"

/*
 * A perf that lists three tests; test 2 fails until it has run FAILS times
 * (its run count lives in the script's directory), test 3 is skipped without
 * a reason and says why only under -v, above usage text.
 */
static const char fake_perf[] =
	"#!/bin/sh\n"
	"d=$(dirname \"$0\")\n"
	"case \"$2\" in\n"
	"list) printf '  1: Always good\\n  2: Races with the machine\\n  3: Quiet skip\\n'; exit 0;;\n"
	"-h) echo 'usage: perf test'; exit 0;;\n"
	"-v) printf '  3: Quiet skip :\\n--- start ---\\ntest child forked, pid 1\\n"
	"Skipping: no widget here\\n Usage: perf widget\\n\\ntest child finished with -2\\n"
	"---- end ----\\nQuiet skip: Skip\\n'; exit 0;;\n"
	"esac\n"
	"n=$(cat \"$d/runs\" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > \"$d/runs\"\n"
	"v=Ok; [ $n -le $(cat \"$d/fails\") ] && v='FAILED!'\n"
	"case \"$2\" in\n"
	"2) echo \"  2: Races with the machine : $v\";;\n"
	"*) echo '  1: Always good : Ok'; echo \"  2: Races with the machine : $v\"; echo '  3: Quiet skip : Skip';;\n"
	"esac\n"
	/* perf's closing summary lists failures as 'N.M: DESC': not verdicts */
	"[ $v = Ok ] || printf '=== Test Summary ===\\nList of failed tests:\\n"
	"    2: Races with the machine\\n   10.47: PMU metric parsing: ampere_ampereone\\n'\n";

FIXTURE(perftest) {
	char *dir;
	char perftest[PATH_MAX];
	char perf[PATH_MAX];
	struct pc_run run;
};

FIXTURE_SETUP(perftest)
{
	const char *src = pc_test_srcdir("vm/perftest.c");
	FILE *f;

	memset(&self->run, 0, sizeof(self->run));
	self->dir = NULL;
	if (!src)
		SKIP(return, "no source tree (vm/perftest.c) beside the test");
	snprintf(self->perftest, sizeof(self->perftest), "%s/build/static/vm/perftest", src);
	if (access(self->perftest, X_OK))
		SKIP(return, "vm/perftest is not built (make static)");
	self->dir = pc_test_mkdtemp("perftest");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->perf, sizeof(self->perf), "%s/perf", self->dir);
	f = fopen(self->perf, "w");
	ASSERT_NE(NULL, f);
	fputs(fake_perf, f);
	fclose(f);
	ASSERT_EQ(0, chmod(self->perf, 0755));
}

FIXTURE_TEARDOWN(perftest)
{
	pc_run_free(&self->run);
	if (self->dir)
		pc_test_rmdir(self->dir);
}

/* How many times the stand-in perf ran a test suite or a test. */
static int perf_runs(FIXTURE_DATA(perftest) *self)
{
	char path[PATH_MAX + 8], *runs;
	int n;

	snprintf(path, sizeof(path), "%s/runs", self->dir);
	runs = pc_test_slurp(path, NULL);
	n = runs ? atoi(runs) : -1;
	free(runs);
	return n;
}

/* Runs vm/perftest over the stand-in perf whose test 2 fails FAILS times. */
static void run_with_failures(struct __test_metadata *_metadata, FIXTURE_DATA(perftest) *self, int fails)
{
	char path[PATH_MAX + 8];
	FILE *f;

	snprintf(path, sizeof(path), "%s/fails", self->dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "%d\n", fails);
	fclose(f);
	char *argv[] = { self->perftest, self->perf, "30", NULL };
	ASSERT_EQ(0, pc_test_run(&self->run, 60, argv));
	ASSERT_EQ(0, self->run.exit_code);
	ASSERT_NE(NULL, self->run.out);
}

TEST_F_TIMEOUT(perftest, failed_test_that_passes_on_its_third_rerun_is_flaky, 90)
{
	run_with_failures(_metadata, self, 3);	/* the suite's run and two re-runs */
	EXPECT_NE(NULL, strstr(self->run.out, "not ok 2 2:Races with the machine\n"));
	EXPECT_NE(NULL, strstr(self->run.out, "# perftest-flaky: 2 passed on re-run 3\n"));
}

TEST_F_TIMEOUT(perftest, failed_test_that_never_passes_again_is_not_flaky, 90)
{
	run_with_failures(_metadata, self, 100);
	EXPECT_NE(NULL, strstr(self->run.out, "not ok 2 2:Races with the machine\n"));
	EXPECT_EQ(NULL, strstr(self->run.out, "perftest-flaky"));
	EXPECT_EQ(4, perf_runs(self));	/* the suite, then three re-runs alone */
}

/*
 * perf's summary at the end ("List of failed tests:", then "   10.47: PMU
 * metric parsing: ampere_ampereone" on arm64, whose metric names follow a
 * colon) repeats failures already reported: it is no verdict of its own.
 */
TEST_F_TIMEOUT(perftest, summary_list_of_failed_tests_adds_no_verdict, 90)
{
	run_with_failures(_metadata, self, 100);
	EXPECT_NE(NULL, strstr(self->run.out, "\n1..3\n"));
	EXPECT_EQ(NULL, strstr(self->run.out, "not ok 4"));
	EXPECT_EQ(NULL, strstr(self->run.out, "PMU metric parsing: perf test said"));
}

TEST_F_TIMEOUT(perftest, passing_tests_are_not_run_again, 90)
{
	run_with_failures(_metadata, self, 0);
	EXPECT_NE(NULL, strstr(self->run.out, "\nok 2 2:Races with the machine\n"));
	EXPECT_EQ(NULL, strstr(self->run.out, "not ok"));
	EXPECT_EQ(1, perf_runs(self));
}

TEST_F_TIMEOUT(perftest, skip_without_reason_takes_the_skip_line_perf_test_v_printed, 90)
{
	run_with_failures(_metadata, self, 0);
	EXPECT_NE(NULL, strstr(self->run.out, "3:Quiet skip # SKIP perf test -v: Skipping: no widget here\n"));
	EXPECT_NE(NULL, strstr(self->run.out, "\n1..3\n"));
}

/*
 * A test that hangs after some of its subtests printed verdicts is that
 * test's timeout: "1:With subtests", not the next one (perftest named the
 * test after it, and the restart then skipped the one that never ran).
 */
static const char hanging_perf[] =
	"#!/bin/sh\n"
	"case \"$2\" in\n"
	"list) printf '  1: With subtests\\n  2: After it\\n'; exit 0;;\n"
	"-h) echo 'usage: perf test'; exit 0;;\n"
	"esac\n"
	"case \"$*\" in\n"
	"*'-s 1'*) echo '  1: With subtests : Skip (user override)'; echo '  2: After it : Ok'; exit 0;;\n"
	"esac\n"
	"echo '  1: With subtests :'; echo '  1.1: First part : Ok'; exec sleep 60\n";

TEST_F_TIMEOUT(perftest, hang_after_a_subtest_is_that_tests_timeout, 90)
{
	FILE *f = fopen(self->perf, "w");

	ASSERT_NE(NULL, f);
	fputs(hanging_perf, f);
	fclose(f);
	char *argv[] = { self->perftest, self->perf, "2", NULL };
	ASSERT_EQ(0, pc_test_run(&self->run, 60, argv));
	ASSERT_EQ(0, self->run.exit_code);
	ASSERT_NE(NULL, self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "ok 1 1.1:First part\n")) TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, " 1:With subtests # timed out after 2s")) TH_LOG("%s", self->run.out);
	/* the test after it runs, once perf is started again skipping test 1 */
	EXPECT_NE(NULL, strstr(self->run.out, " 2:After it\n")) TH_LOG("%s", self->run.out);
	EXPECT_EQ(NULL, strstr(self->run.out, "2:After it # timed out")) TH_LOG("%s", self->run.out);
}

TEST_HARNESS_MAIN
