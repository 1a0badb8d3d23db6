// SPDX-License-Identifier: GPL-2.0
/*
 * perf record -z writes the samples inside PERF_RECORD_COMPRESSED records:
 * the reader's input stage expands them, and perfcheck script prints what
 * perf script prints, byte for byte (--compat 6.1, the system perf).
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "reader_util.h"

#define SPIN "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"

TEST(compressed_file_prints_as_perf_script_prints_it)
{
	char *dir = pc_test_mkdtemp("compressed");
	char path[4096], cmd[8192];
	struct pc_run perf = { 0 }, ours = { 0 };
	char *sh[] = { "sh", "-c", cmd, NULL };

	ASSERT_NE(NULL, dir);
	if (!pc_test_have_program("perf")) {
		pc_test_rmdir(dir);
		SKIP(return, "no perf installed");
	}
	snprintf(path, sizeof(path), "%s/z.data", dir);
	snprintf(cmd, sizeof(cmd), "perf record -q -z -e cpu-clock -c 100000 -g -o '%s' -- sh -c '%s'",
		 path, SPIN);
	ASSERT_EQ(0, pc_test_run(&perf, 120, sh));
	if (perf.exit_code) {
		TH_LOG("%s", perf.err ? perf.err : "");
		pc_run_free(&perf);
		pc_test_rmdir(dir);
		SKIP(return, "perf record -z cannot record here (exit %d)", perf.exit_code);
	}
	pc_run_free(&perf);
	snprintf(cmd, sizeof(cmd), "perf script -i '%s'", path);
	ASSERT_EQ(0, pc_test_run(&perf, 120, sh));
	ASSERT_EQ(0, perf.exit_code);
	ASSERT_EQ(0, rt_perfcheck(&ours, "script", "--compat", "6.1", "-i", path, NULL, NULL));
	EXPECT_EQ(0, ours.exit_code) TH_LOG("%s", ours.err);
	EXPECT_STREQ("", ours.err ? ours.err : "");
	EXPECT_LT(10, pc_count_substr(ours.out, "cpu-clock:"));
	EXPECT_STREQ(perf.out, ours.out);
	pc_run_free(&perf);
	pc_run_free(&ours);
	pc_test_rmdir(dir);
}

TEST_HARNESS_MAIN
