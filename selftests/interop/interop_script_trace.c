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

#include "lib/perfcmp.h"
#include "perfdata/perfdata.h"

PERFCMP_FIXTURE(trace, "interop-script-trace")

/* system wide for 0.2 s: every task's switches and wakeups */
#define RECORD(opts) PERFCMP_RECORD(self->c.path, opts " -a", "sleep 0.2")

/* perf script and ours on the file: the same text, a sched_switch line at least */
#define SAME() perfcmp_same_script(_metadata, &self->c, "", "==> next_comm=", 1)

TEST_F_TIMEOUT(trace, sched_switch_default_layout_matches_perf_script, 300)
{
	RECORD("-e sched:sched_switch");
	SAME();
}

TEST_F_TIMEOUT(trace, kernel_functions_in_formats_named_as_perf_script, 300)
{
	RECORD("-e sched:sched_switch -e sched:sched_wakeup -e timer:hrtimer_start");
	/* sleep arms an hrtimer: its function field is a kernel address perf names */
	SAME();
	EXPECT_NE(NULL, strstr(self->c.perf.out, "function=hrtimer_wakeup"));
}

/* perf's tracepoint default shows the callchain when the samples carry one */
TEST_F_TIMEOUT(trace, tracepoint_callchains_follow_the_trace_as_perf_script, 300)
{
	RECORD("-e sched:sched_switch -g");
	perfcmp_same_script(_metadata, &self->c, "", "__schedule+", 1);
}

/* -F +FIELD edits the default: the trace and the field, no callchain */
TEST_F_TIMEOUT(trace, edited_tracepoint_fields_leave_the_callchain_out_as_perf, 300)
{
	RECORD("-e sched:sched_switch -g");
	perfcmp_same_script(_metadata, &self->c, "-F +period", "==> next_comm=", 1);
	EXPECT_EQ(NULL, strstr(self->c.perf.out, "__schedule+"));
}

/* the TRACING_DATA feature's size in the section table lowered: the section is cut */
TEST_F_TIMEOUT(trace, cut_tracing_data_is_an_offset_error_exit_2, 300)
{
	struct pd_file_header h;
	uint64_t sec[2], off;
	char want[600];
	int fd;

	RECORD("-e sched:sched_switch");
	fd = open(self->c.path, O_RDWR);
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
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' script -i '%s'", pc_test_perfcheck(),
				self->c.path));
	EXPECT_EQ(2, self->c.ours.exit_code);
	EXPECT_TRUE(!self->c.ours.out || !self->c.ours.out[0]) TH_LOG("printed before the error");
	snprintf(want, sizeof(want), "%s: offset 0x", self->c.path);
	EXPECT_NE(NULL, strstr(self->c.ours.err, want)) TH_LOG("%s", self->c.ours.err);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "TRACING_DATA")) TH_LOG("%s", self->c.ours.err);
}

/* perf record -o - into the fixture's pipe, or SKIP (return) with the reason */
#define RECORD_PIPE()                                                                      \
	do {                                                                               \
		char why_[300];                                                            \
		if (!perfcmp_record_pipe(self->c.pipe, "-e sched:sched_switch -a", "sleep 0.2", \
					 why_, sizeof(why_)))                              \
			SKIP(return, "%s", why_);                                          \
	} while (0)

/* in a pipe the section follows a record of type 66; events are named from it */
TEST_F_TIMEOUT(trace, pipe_tracing_data_record_matches_perf_script, 300)
{
	char in[600];

	RECORD_PIPE();
	snprintf(in, sizeof(in), "-i - < '%s'", self->c.pipe);
	perfcmp_same_script_in(_metadata, &self->c, "", in, "sched:sched_switch: prev_comm=", 1);
}

/* the pipe cut inside the TRACING_DATA that follows record 66 */
TEST_F_TIMEOUT(trace, pipe_cut_inside_tracing_data_is_an_offset_error_exit_2, 300)
{
	struct perf_event_header eh;
	uint64_t off = 16;
	int fd;

	RECORD_PIPE();
	fd = open(self->c.pipe, O_RDWR);
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
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' script -i - < '%s'", pc_test_perfcheck(),
				self->c.pipe));
	EXPECT_EQ(2, self->c.ours.exit_code);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "<stdin>: offset 0x")) TH_LOG("%s", self->c.ours.err);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "TRACING_DATA")) TH_LOG("%s", self->c.ours.err);
}

/* report groups tracepoint samples by comm, dso, sym, one table per event, as perf */
TEST_F_TIMEOUT(trace, report_of_two_tracepoints_matches_perf, 300)
{
	RECORD("-e sched:sched_switch -e sched:sched_wakeup");
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "");
	ASSERT_NE(NULL, strstr(self->c.perf.out, "of event 'sched:sched_wakeup'"));
	perfcmp_expect_same(_metadata, &self->c);
}

TEST_HARNESS_MAIN
