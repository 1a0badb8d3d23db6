// SPDX-License-Identifier: GPL-2.0
/*
 * The kselftest -> prove seam (selftests/tap-exec): kselftest results that
 * prove would misread are translated, and nothing else is touched.
 * This binary re-runs itself through tap-exec with --emit MODE to produce
 * each kind of kselftest output.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"

static char self[PATH_MAX];

static const char *tap_exec(void)
{
	static char path[PATH_MAX + 32];
	const char *src = pc_test_srcdir("selftests/tap-exec");

	if (!src)
		return NULL;
	snprintf(path, sizeof(path), "%s/selftests/tap-exec", src);
	return path;
}

static int emit(const char *mode)
{
	if (!strcmp(mode, "whole-skip"))
		ksft_exit_skip("no such feature here\n");
	ksft_print_header();
	ksft_set_plan(1);
	if (!strcmp(mode, "xfail")) {
		ksft_test_result_xfail("known kernel bug\n");
		ksft_exit(1);
	}
	if (!strcmp(mode, "xpass")) {
		ksft_test_result_code(KSFT_XPASS, "unexpected", "\n");
		ksft_exit_xpass();
	}
	if (!strcmp(mode, "fail")) {
		ksft_test_result_fail("broken\n");
		ksft_exit_fail();
	}
	if (!strcmp(mode, "hang")) {
		pause();
		return 0;
	}
	ksft_test_result_pass("fine\n");
	ksft_exit_pass();
	return 0;
}

/* Runs this binary's MODE through tap-exec; false when the test must stop. */
static bool through_seam(struct __test_metadata *_metadata, struct pc_run *run,
			 const char *mode, const char *timeout)
{
	const char *seam = tap_exec();
	char *argv[] = { "env", (char *)timeout, (char *)seam, self, "--emit",
			 (char *)mode, NULL };

	memset(run, 0, sizeof(*run));
	if (!seam)
		SKIP(return false, "selftests/tap-exec not present (not a source tree)");
	EXPECT_EQ(0, pc_test_run(run, 60, argv));
	return run->out != NULL;
}

TEST(xfail_is_reported_as_todo)
{
	struct pc_run run;

	if (!through_seam(_metadata, &run, "xfail", "PERFCHECK_TEST_TIMEOUT=30"))
		return;
	EXPECT_NE(NULL, strstr(run.out, "not ok 1 # TODO XFAIL known kernel bug"));
	EXPECT_EQ(0, run.exit_code);
	pc_run_free(&run);
}

TEST(xpass_is_reported_as_failure)
{
	struct pc_run run;

	if (!through_seam(_metadata, &run, "xpass", "PERFCHECK_TEST_TIMEOUT=30"))
		return;
	EXPECT_NE(NULL, strstr(run.out, "not ok 1 unexpected # XPASS"));
	EXPECT_NE(0, run.exit_code);
	pc_run_free(&run);
}

TEST(whole_program_skip_exits_zero_with_reason)
{
	struct pc_run run;

	if (!through_seam(_metadata, &run, "whole-skip", "PERFCHECK_TEST_TIMEOUT=30"))
		return;
	EXPECT_NE(NULL, strstr(run.out, "1..0 # SKIP no such feature here"));
	EXPECT_EQ(0, run.exit_code);
	pc_run_free(&run);
}

TEST(failure_stays_failure)
{
	struct pc_run run;

	if (!through_seam(_metadata, &run, "fail", "PERFCHECK_TEST_TIMEOUT=30"))
		return;
	EXPECT_NE(NULL, strstr(run.out, "not ok 1 broken"));
	EXPECT_NE(0, run.exit_code);
	pc_run_free(&run);
}

TEST(pass_is_untouched)
{
	struct pc_run run;

	if (!through_seam(_metadata, &run, "pass", "PERFCHECK_TEST_TIMEOUT=30"))
		return;
	EXPECT_NE(NULL, strstr(run.out, "ok 1 fine"));
	EXPECT_EQ(0, run.exit_code);
	pc_run_free(&run);
}

TEST(hung_test_is_killed_and_fails)
{
	struct pc_run run;

	if (!through_seam(_metadata, &run, "hang", "PERFCHECK_TEST_TIMEOUT=1"))
		return;
	EXPECT_NE(NULL, strstr(run.out, "not ok - timeout"));
	EXPECT_EQ(124, run.exit_code);
	pc_run_free(&run);
}

int main(int argc, char **argv)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0)
		self[n] = '\0';
	if (argc == 3 && !strcmp(argv[1], "--emit"))
		return emit(argv[2]);
	return test_harness_run(argc, argv);
}
