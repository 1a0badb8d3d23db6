// SPDX-License-Identifier: GPL-2.0
/*
 * perf 7.2's default event set and its Default metrics: `perf stat` without
 * -e and `perfcheck stat --compat 7.2` without -e print the same layout
 * (numbers masked: the counts differ run to run), per task and -a, -a -A,
 * in std, -x, and -j.  Only perf 7.2 prints that set: any other perf skips,
 * saying so.  On a machine with a PMU (the arm64 guests) the set's hardware
 * metrics, each a group of its own, show where their events count (and
 * multiplex: the running percentages) as perf's do.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "interop_tools.h"
#include "stat_layout.h"
#include "testutil.h"

FIXTURE(interop_stat_default) {
	const char *perf;
	struct pc_run theirs, ours;
};

FIXTURE_SETUP(interop_stat_default)
{
	struct up_version v;

	memset(&self->theirs, 0, sizeof(self->theirs));
	memset(&self->ours, 0, sizeof(self->ours));
	self->perf = up_perf();
	if (!self->perf)
		SKIP(return, "no upstream perf here (PERFCHECK_PERF, upstream/perf, or perf in PATH)");
	ASSERT_EQ(0, up_perf_version(&v));
	if (v.major != 7 || v.minor != 2)
		SKIP(return, "%s: the default set compared is perf 7.2's", v.text);
}

FIXTURE_TEARDOWN(interop_stat_default)
{
	pc_run_free(&self->theirs);
	pc_run_free(&self->ours);
}

/* TOOL stat [--compat 7.2] [ARGS...] -- a shell loop: no -e */
static void stat_default(struct pc_run *run, const char *tool, bool ours, const char *a1,
			 const char *a2)
{
	char *argv[14];
	int i = 0;

	argv[i++] = (char *)tool;
	argv[i++] = "stat";
	if (ours) {
		argv[i++] = "--compat";
		argv[i++] = "7.2";
	}
	if (a1)
		argv[i++] = (char *)a1;
	if (a2)
		argv[i++] = (char *)a2;
	argv[i++] = "--";
	/* busy long enough that every group gets its turn on a PMU that multiplexes */
	argv[i++] = "sh";
	argv[i++] = "-c";
	argv[i++] = "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done";
	argv[i] = NULL;
	up_run(run, 60, argv);
}

/* perf stat A1 A2 and perfcheck stat --compat 7.2 A1 A2: the same layout */
static void same_layout(struct __test_metadata *_metadata, FIXTURE_DATA(interop_stat_default) *self,
			const char *a1, const char *a2)
{
	static char a[16384], b[16384];

	stat_default(&self->theirs, self->perf, false, a1, a2);
	ASSERT_EQ(0, self->theirs.exit_code) TH_LOG("%s", self->theirs.err);
	stat_default(&self->ours, pc_test_perfcheck(), true, a1, a2);
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	up_stat_layout_of(self->theirs.err, a, sizeof(a));
	up_stat_layout_of(self->ours.err, b, sizeof(b));
	EXPECT_STREQ(a, b) TH_LOG("perf:\n%s\nperfcheck:\n%s", self->theirs.err, self->ours.err);
}

TEST_F(interop_stat_default, a_command_in_std)
{
	same_layout(_metadata, self, NULL, NULL);
}

TEST_F(interop_stat_default, a_command_in_csv)
{
	same_layout(_metadata, self, "-x,", NULL);
}

TEST_F(interop_stat_default, a_command_in_json)
{
	same_layout(_metadata, self, "-j", NULL);
}

TEST_F(interop_stat_default, every_cpu_in_std)
{
	same_layout(_metadata, self, "-a", NULL);
}

TEST_F(interop_stat_default, every_cpu_in_csv)
{
	same_layout(_metadata, self, "-a", "-x,");
}

TEST_F(interop_stat_default, every_cpu_in_json)
{
	same_layout(_metadata, self, "-a", "-j");
}

TEST_F(interop_stat_default, each_cpu_in_std)
{
	same_layout(_metadata, self, "-a", "-A");
}

TEST_HARNESS_MAIN
