// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script -i - on pipe streams the system perf 6.1 writes here
 * (perf record -o -), against perf script -i - on the same stream, byte for
 * byte: kernel and vdso addresses resolved as for files, event names as
 * perf derives them, --show-*-events; and DWARF unwinding of a pipe equal
 * to the file it came from (perf inject -o -).  Skips where no perf is
 * installed (the QEMU guests) or it may not record.
 */
#include "lib/perfcmp.h"

PERFCMP_FIXTURE(pipe, "interop-script-pipe")

/* perf record OPTS -o - into the fixture's pipe (after a file recording shows perf can record) */
#define RECORD_PIPE(opts)                                                                  \
	do {                                                                               \
		char pwhy_[300];                                                           \
		PERFCMP_RECORD(self->c.path, opts, "true");                                \
		ASSERT_TRUE(perfcmp_record_pipe(self->c.pipe, opts, PERFCMP_SPIN, pwhy_,     \
						sizeof(pwhy_))) TH_LOG("%s", pwhy_);      \
	} while (0)

/* cat PIPE | perf script -i - ARGS and ours: the same text, perf's holding what min times */
static void same(struct __test_metadata *_metadata, FIXTURE_DATA(pipe) *self,
		 const char *args, const char *what, int min)
{
	char in[600], all[600];

	snprintf(in, sizeof(in), "cat '%s' |", self->c.pipe);
	snprintf(all, sizeof(all), "-i - %s", args);
	perfcmp_same_script_in(_metadata, &self->c, in, all, what, min);
}

/* kernel symbols from this machine's kallsyms once the pipe's features say it is this one */
TEST_F(pipe, kernel_addresses_resolve_as_perf)
{
	RECORD_PIPE("-e cpu-clock -c 100000");
	same(_metadata, self, "", "([kernel.kallsyms])", 3);
	EXPECT_GT(pc_count_substr(self->c.ours.out, "([kernel.kallsyms])"),
		  pc_count_substr(self->c.ours.out, "[unknown] ([kernel.kallsyms])"));
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
	struct pc_run r;

	PERFCMP_RECORD(self->c.path, "-e cpu-clock -c 100000", "true");
	ASSERT_EQ(0, perfcmp_sh(&r, "'%s' record -e cpu-clock:ppp -c 100000 -o - -- sh -c '%s' >'%s'",
				pc_test_perfcheck(), PERFCMP_SPIN, self->c.pipe));
	ASSERT_EQ(0, r.exit_code) TH_LOG("%s", r.err);
	pc_run_free(&r);
	same(_metadata, self, "-F event", "cpu-clock:ppp:", 3);
}

/* --call-graph dwarf: a pipe unwinds as the file it was made from (perf inject -o -) */
TEST_F(pipe, dwarf_pipe_unwinds_as_its_file)
{
	char first[800];

	PERFCMP_RECORD(self->c.path, "--call-graph dwarf -e cpu-clock -c 200000", PERFCMP_SPIN);
	/* c.perf: ours on the pipe perf inject makes of the file; c.ours: ours on the file */
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf inject -i '%s' -o - | '%s' script --compat 6.1 -i -",
				self->c.path, pc_test_perfcheck()));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' script --compat 6.1 -i '%s'",
				pc_test_perfcheck(), self->c.path));
	perfcmp_assert_ran(_metadata, &self->c);
	/* user frames beyond the sample's own ip: the unwinder ran */
	EXPECT_LE(10, pc_count_substr(self->c.ours.out, "libc.so.6)\n"));
	EXPECT_TRUE(perfcmp_same(self->c.ours.out, self->c.perf.out, first, sizeof(first)))
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

	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf %s -i - %s <'%s'", cmd, args, self->c.pipe));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' %s --compat 6.1 -i - %s <'%s'",
				pc_test_perfcheck(), cmd, args, self->c.pipe));
	ASSERT_EQ(0, self->c.perf.exit_code) TH_LOG("%s", self->c.perf.err);
	ASSERT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);
	perfcmp_cut_tip(self->c.perf.out);
	perfcmp_cut_tip(self->c.ours.out);
	EXPECT_NE(NULL, strstr(self->c.perf.out, what)) TH_LOG("perf: %s", self->c.perf.out);
	EXPECT_TRUE(perfcmp_same(self->c.perf.out, self->c.ours.out, first, sizeof(first)))
		TH_LOG("perf %s %s: first difference at %s", cmd, args, first);
}

/* the features come as HEADER_FEATURE records: perf reads the pipe whole to show them */
TEST_F(pipe, report_header_only_shows_the_streams_features_as_perf)
{
	RECORD_PIPE("-e cpu-clock -c 100000");
	same_stdin(_metadata, self, "report", "--header-only", "# hostname : ");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "# event : name = cpu-clock"));
}

/* script --header: the fixed block, the features as they arrive, then the samples */
TEST_F(pipe, script_header_shows_the_features_before_the_samples_as_perf)
{
	RECORD_PIPE("-e cpu-clock:u -c 100000");
	same_stdin(_metadata, self, "script", "--header", "# cmdline : ");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "# event : name = cpu-clock:u"));
}

/* script --header-only does not read a pipe: the fixed block alone */
TEST_F(pipe, script_header_only_is_the_fixed_block_as_perf)
{
	RECORD_PIPE("-e cpu-clock -c 100000");
	same_stdin(_metadata, self, "script", "--header-only", "# feat offset    : 0");
	EXPECT_EQ(NULL, strstr(self->c.ours.out, "# hostname"));
}

TEST_F(pipe, report_header_then_report_matches_perf)
{
	RECORD_PIPE("-e cpu-clock -c 100000");
	same_stdin(_metadata, self, "report", "--header --stdio", "# Total Lost Samples");
}

TEST_HARNESS_MAIN
