// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script -i - on pipe streams the system perf 6.1 writes here
 * (perf record -o -), against perf script -i - on the same stream, byte for
 * byte: kernel and vdso addresses resolved as for files, event names as
 * perf derives them, --show-*-events; and DWARF unwinding of a pipe equal
 * to the file it came from (perf inject -o -).  Skips where no perf is
 * installed (the QEMU guests) or it may not record.
 */
#include "kselftest_harness.h"
#include "lib/perfcmp.h"

FIXTURE(pipe) {
	char *dir;
	char path[512], pipe[512];
	struct pc_run perf, ours;
};

FIXTURE_SETUP(pipe)
{
	memset(&self->perf, 0, sizeof(self->perf));
	memset(&self->ours, 0, sizeof(self->ours));
	self->dir = pc_test_mkdtemp("interop-script-pipe");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	snprintf(self->pipe, sizeof(self->pipe), "%s/pipe.data", self->dir);
}

FIXTURE_TEARDOWN(pipe)
{
	pc_run_free(&self->perf);
	pc_run_free(&self->ours);
	pc_test_rmdir(self->dir);
}

/* perf record OPTS -o - into self->pipe (after a file recording shows perf can record) */
#define RECORD_PIPE(opts)                                                                  \
	do {                                                                               \
		char why_[300];                                                            \
		struct pc_run r_;                                                          \
		if (!perfcmp_record(self->path, opts, "true", why_, sizeof(why_)))         \
			SKIP(return, "%s", why_);                                          \
		ASSERT_EQ(0, perfcmp_sh(&r_, "perf record %s -o - -- sh -c '%s' >'%s'",    \
					opts, PERFCMP_SPIN, self->pipe));                  \
		ASSERT_EQ(0, r_.exit_code) TH_LOG("%s", r_.err);                           \
		pc_run_free(&r_);                                                          \
	} while (0)

static void same(struct __test_metadata *_metadata, FIXTURE_DATA(pipe) *self,
		 const char *args, const char *what, int min)
{
	char first[800];

	ASSERT_EQ(0, perfcmp_sh(&self->perf, "cat '%s' | perf script -i - %s", self->pipe, args));
	ASSERT_EQ(0, perfcmp_sh(&self->ours, "cat '%s' | '%s' script --compat 6.1 -i - %s",
				self->pipe, pc_test_perfcheck(), args));
	ASSERT_EQ(0, self->perf.exit_code) TH_LOG("%s", self->perf.err);
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	EXPECT_LE(min, pc_count_substr(self->perf.out, what)) TH_LOG("perf: %s", self->perf.out);
	EXPECT_TRUE(perfcmp_same(self->perf.out, self->ours.out, first, sizeof(first)))
		TH_LOG("perf script %s: first difference at %s", args, first);
}

/* kernel symbols from this machine's kallsyms once the pipe's features say it is this one */
TEST_F(pipe, kernel_addresses_resolve_as_perf)
{
	RECORD_PIPE("-e cpu-clock -c 100000");
	same(_metadata, self, "", "([kernel.kallsyms])", 3);
	EXPECT_GT(pc_count_substr(self->ours.out, "([kernel.kallsyms])"),
		  pc_count_substr(self->ours.out, "[unknown] ([kernel.kallsyms])"));
}

/* a modifier in the event: perf names it from the pipe's EVENT_UPDATE */
TEST_F(pipe, event_names_with_modifiers_match_perf)
{
	RECORD_PIPE("-e cpu-clock:u -c 100000");
	same(_metadata, self, "-F comm,tid,event,ip,sym", "cpu-clock:u:", 3);
}

TEST_F(pipe, show_events_match_perf)
{
	RECORD_PIPE("-e cpu-clock -c 100000 --switch-events");
	same(_metadata, self, "--show-task-events --show-mmap-events --show-switch-events",
	     "PERF_RECORD_", 5);
}

/* perfcheck record -o - writes no names: perf derives cpu-clock:ppp, and so do we */
TEST_F(pipe, names_derived_from_the_attr_match_perf)
{
	char why[300];
	struct pc_run r;

	if (!perfcmp_record(self->path, "-e cpu-clock -c 100000", "true", why, sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, perfcmp_sh(&r, "'%s' record -e cpu-clock:ppp -c 100000 -o - -- sh -c '%s' >'%s'",
				pc_test_perfcheck(), PERFCMP_SPIN, self->pipe));
	ASSERT_EQ(0, r.exit_code) TH_LOG("%s", r.err);
	pc_run_free(&r);
	same(_metadata, self, "-F event", "cpu-clock:ppp:", 3);
}

/* --call-graph dwarf: a pipe unwinds as the file it was made from (perf inject -o -) */
TEST_F(pipe, dwarf_pipe_unwinds_as_its_file)
{
	char why[300], first[800];

	if (!perfcmp_record(self->path, "--call-graph dwarf -e cpu-clock -c 200000", PERFCMP_SPIN,
			    why, sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, perfcmp_sh(&self->perf, "perf inject -i '%s' -o - | '%s' script --compat 6.1 -i -",
				self->path, pc_test_perfcheck()));
	ASSERT_EQ(0, perfcmp_sh(&self->ours, "'%s' script --compat 6.1 -i '%s'",
				pc_test_perfcheck(), self->path));
	ASSERT_EQ(0, self->perf.exit_code) TH_LOG("%s", self->perf.err);
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	/* user frames beyond the sample's own ip: the unwinder ran */
	EXPECT_LE(10, pc_count_substr(self->ours.out, "libc.so.6)\n"));
	EXPECT_TRUE(perfcmp_same(self->ours.out, self->perf.out, first, sizeof(first)))
		TH_LOG("pipe differs from file at %s", first);
}

/*
 * perf CMD ARGS and ours on the pipe file as stdin (fstat gives both the
 * file's time for "captured on"), byte for byte; perf report's random Tip
 * cut.  perf's output holds what.
 */
static void same_stdin(struct __test_metadata *_metadata, FIXTURE_DATA(pipe) *self,
		       const char *cmd, const char *args, const char *what)
{
	char first[800];

	ASSERT_EQ(0, perfcmp_sh(&self->perf, "perf %s -i - %s <'%s'", cmd, args, self->pipe));
	ASSERT_EQ(0, perfcmp_sh(&self->ours, "'%s' %s --compat 6.1 -i - %s <'%s'",
				pc_test_perfcheck(), cmd, args, self->pipe));
	ASSERT_EQ(0, self->perf.exit_code) TH_LOG("%s", self->perf.err);
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	perfcmp_cut_tip(self->perf.out);
	perfcmp_cut_tip(self->ours.out);
	EXPECT_NE(NULL, strstr(self->perf.out, what)) TH_LOG("perf: %s", self->perf.out);
	EXPECT_TRUE(perfcmp_same(self->perf.out, self->ours.out, first, sizeof(first)))
		TH_LOG("perf %s %s: first difference at %s", cmd, args, first);
}

/* the features come as HEADER_FEATURE records: perf reads the pipe whole to show them */
TEST_F(pipe, report_header_only_shows_the_streams_features_as_perf)
{
	RECORD_PIPE("-e cpu-clock -c 100000");
	same_stdin(_metadata, self, "report", "--header-only", "# hostname : ");
	EXPECT_NE(NULL, strstr(self->ours.out, "# event : name = cpu-clock"));
}

/* script --header: the fixed block, the features as they arrive, then the samples */
TEST_F(pipe, script_header_shows_the_features_before_the_samples_as_perf)
{
	RECORD_PIPE("-e cpu-clock:u -c 100000");
	same_stdin(_metadata, self, "script", "--header", "# cmdline : ");
	EXPECT_NE(NULL, strstr(self->ours.out, "# event : name = cpu-clock:u"));
}

/* script --header-only does not read a pipe: the fixed block alone */
TEST_F(pipe, script_header_only_is_the_fixed_block_as_perf)
{
	RECORD_PIPE("-e cpu-clock -c 100000");
	same_stdin(_metadata, self, "script", "--header-only", "# feat offset    : 0");
	EXPECT_EQ(NULL, strstr(self->ours.out, "# hostname"));
}

TEST_F(pipe, report_header_then_report_matches_perf)
{
	RECORD_PIPE("-e cpu-clock -c 100000");
	same_stdin(_metadata, self, "report", "--header --stdio", "# Total Lost Samples");
}

TEST_HARNESS_MAIN
