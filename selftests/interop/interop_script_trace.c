// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script on tracepoint files the system perf records here: the
 * default layout of tracepoint events (comm tid [cpu] time: event: trace)
 * and the trace text, with kernel functions named from the session's
 * kernel map, byte for byte perf script's (--compat 6.1); a TRACING_DATA
 * section cut short is "FILE: offset 0xOFF: ..." and exit 2.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/perfcmp.h"
#include "perfdata/perfdata.h"

FIXTURE(trace) {
	char *dir;
	char path[512];
	struct pc_run perf, ours;
};

FIXTURE_SETUP(trace)
{
	memset(&self->perf, 0, sizeof(self->perf));
	memset(&self->ours, 0, sizeof(self->ours));
	self->dir = pc_test_mkdtemp("interop-script-trace");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(trace)
{
	pc_run_free(&self->perf);
	pc_run_free(&self->ours);
	pc_test_rmdir(self->dir);
}

#define RECORD(opts)                                                                       \
	do {                                                                               \
		char why_[300];                                                            \
		if (!perfcmp_record(self->path, opts " -a", "sleep 0.2", why_, sizeof(why_))) \
			SKIP(return, "%s", why_);                                          \
	} while (0)

static void same_script(struct __test_metadata *_metadata, FIXTURE_DATA(trace) *self)
{
	char first[800];

	ASSERT_EQ(0, perfcmp_sh(&self->perf, "perf script -i '%s' 2>/dev/null", self->path));
	ASSERT_EQ(0, self->perf.exit_code);
	ASSERT_EQ(0, perfcmp_sh(&self->ours, "'%s' script --compat 6.1 -i '%s'",
				pc_test_perfcheck(), self->path));
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	ASSERT_NE(NULL, strstr(self->perf.out, "==> next_comm="));
	EXPECT_TRUE(perfcmp_same(self->perf.out, self->ours.out, first, sizeof(first)))
		TH_LOG("perf script: first difference at %s", first);
}

TEST_F_TIMEOUT(trace, sched_switch_default_layout_matches_perf_script, 300)
{
	RECORD("-e sched:sched_switch");
	same_script(_metadata, self);
}

TEST_F_TIMEOUT(trace, kernel_functions_in_formats_named_as_perf_script, 300)
{
	RECORD("-e sched:sched_switch -e sched:sched_wakeup -e timer:hrtimer_start");
	/* sleep arms an hrtimer: its function field is a kernel address perf names */
	same_script(_metadata, self);
	EXPECT_NE(NULL, strstr(self->perf.out, "function=hrtimer_wakeup"));
}

/* the TRACING_DATA feature's size in the section table lowered: the section is cut */
TEST_F_TIMEOUT(trace, cut_tracing_data_is_an_offset_error_exit_2, 300)
{
	struct pd_file_header h;
	uint64_t sec[2], off;
	char want[600];
	int fd;

	RECORD("-e sched:sched_switch");
	fd = open(self->path, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)sizeof(h), pread(fd, &h, sizeof(h), 0));
	/* TRACING_DATA is feature bit 1, the first section after the data (bit 0 is reserved) */
	ASSERT_TRUE(h.adds_features[0] & (1ULL << PD_FEAT_TRACING_DATA));
	off = h.data.offset + h.data.size;
	ASSERT_EQ((ssize_t)sizeof(sec), pread(fd, sec, sizeof(sec), (off_t)off));
	ASSERT_LT(64, sec[1]);
	sec[1] = 64;
	ASSERT_EQ((ssize_t)sizeof(sec), pwrite(fd, sec, sizeof(sec), (off_t)off));
	close(fd);
	ASSERT_EQ(0, perfcmp_sh(&self->ours, "'%s' script -i '%s'", pc_test_perfcheck(),
				self->path));
	EXPECT_EQ(2, self->ours.exit_code);
	EXPECT_TRUE(!self->ours.out || !self->ours.out[0]) TH_LOG("printed before the error");
	snprintf(want, sizeof(want), "%s: offset 0x", self->path);
	EXPECT_NE(NULL, strstr(self->ours.err, want)) TH_LOG("%s", self->ours.err);
	EXPECT_NE(NULL, strstr(self->ours.err, "TRACING_DATA")) TH_LOG("%s", self->ours.err);
}


/* perf record -o - into self->path; false (why set) when perf cannot record */
static bool record_pipe(FIXTURE_DATA(trace) *self, char *why, size_t n)
{
	struct pc_run run = { 0 };
	bool ok;

	ok = !perfcmp_sh(&run, "perf record -q -e sched:sched_switch -a -o - -- sleep 0.2 > '%s'",
			 self->path) && run.exit_code == 0;
	if (!ok)
		snprintf(why, n, "perf record -o - failed: %.200s", run.err ? run.err : "no perf");
	pc_run_free(&run);
	return ok;
}

/* in a pipe the section follows a record of type 66; events are named from it */
TEST_F_TIMEOUT(trace, pipe_tracing_data_record_matches_perf_script, 300)
{
	char why[300], first[800];

	if (!record_pipe(self, why, sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, perfcmp_sh(&self->perf, "perf script -i - < '%s' 2>/dev/null", self->path));
	ASSERT_EQ(0, self->perf.exit_code);
	ASSERT_EQ(0, perfcmp_sh(&self->ours, "'%s' script --compat 6.1 -i - < '%s'",
				pc_test_perfcheck(), self->path));
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	ASSERT_NE(NULL, strstr(self->perf.out, "sched:sched_switch: prev_comm="));
	EXPECT_TRUE(perfcmp_same(self->perf.out, self->ours.out, first, sizeof(first)))
		TH_LOG("perf script -i -: first difference at %s", first);
}

/* the pipe cut inside the TRACING_DATA that follows record 66 */
TEST_F_TIMEOUT(trace, pipe_cut_inside_tracing_data_is_an_offset_error_exit_2, 300)
{
	char why[300];
	struct perf_event_header eh;
	uint64_t off = 16;
	int fd;

	if (!record_pipe(self, why, sizeof(why)))
		SKIP(return, "%s", why);
	fd = open(self->path, O_RDWR);
	ASSERT_LE(0, fd);
	/* walk the records to the TRACING_DATA one, then cut the file 100 bytes after it */
	for (;;) {
		ASSERT_EQ((ssize_t)sizeof(eh), pread(fd, &eh, sizeof(eh), (off_t)off));
		ASSERT_LE(8, eh.size);
		if (eh.type == 66)
			break;
		off += eh.size;
	}
	ASSERT_EQ(0, ftruncate(fd, (off_t)(off + eh.size + 100)));
	close(fd);
	ASSERT_EQ(0, perfcmp_sh(&self->ours, "'%s' script -i - < '%s'", pc_test_perfcheck(),
				self->path));
	EXPECT_EQ(2, self->ours.exit_code);
	EXPECT_NE(NULL, strstr(self->ours.err, "<stdin>: offset 0x")) TH_LOG("%s", self->ours.err);
	EXPECT_NE(NULL, strstr(self->ours.err, "TRACING_DATA")) TH_LOG("%s", self->ours.err);
}


/* report groups tracepoint samples by comm, dso, sym, one table per event, as perf */
TEST_F_TIMEOUT(trace, report_of_two_tracepoints_matches_perf, 300)
{
	char first[800];

	RECORD("-e sched:sched_switch -e sched:sched_wakeup");
	ASSERT_EQ(0, perfcmp_sh(&self->perf, "perf report -i '%s' --stdio 2>/dev/null", self->path));
	ASSERT_EQ(0, self->perf.exit_code);
	ASSERT_EQ(0, perfcmp_sh(&self->ours, "'%s' report --compat 6.1 -i '%s' --stdio",
				pc_test_perfcheck(), self->path));
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	perfcmp_cut_tip(self->perf.out);
	ASSERT_NE(NULL, strstr(self->perf.out, "of event 'sched:sched_wakeup'"));
	EXPECT_TRUE(perfcmp_same(self->perf.out, self->ours.out, first, sizeof(first)))
		TH_LOG("perf report --stdio: first difference at %s", first);
}

TEST_HARNESS_MAIN
