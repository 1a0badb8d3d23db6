// SPDX-License-Identifier: GPL-2.0
/*
 * The recording keeps its data when things go wrong: a full disk stops it
 * with a clear error and a finalized file of whole records; a SIGKILL
 * leaves a file the reader recovers to the last whole record.
 */
#include <sys/mount.h>

#include "kselftest_harness.h"
#include "record_common.h"

FIXTURE(rob)
{
	char *dir;
	char *out;
	char *errfile;
	bool mounted;
};

FIXTURE_SETUP(rob)
{
	self->dir = pc_test_mkdtemp("record-robust");
	ASSERT_NE(NULL, self->dir);
	self->out = strdup(rt_path(self->dir, "perf.data"));
	self->errfile = strdup(rt_path(self->dir, "stderr"));
	self->mounted = false;
}

FIXTURE_TEARDOWN(rob)
{
	if (self->mounted)
		umount2(self->dir, MNT_DETACH);
	free(self->out);
	free(self->errfile);
	pc_test_rmdir(self->dir);
}

TEST_F(rob, full_disk_stops_with_a_clear_error_and_a_finalized_file)
{
	const char *line;
	const char *opts[] = { "-g", "-e", "task-clock", "-F", "4000", "-m", "16", "--timeout",
			       "20", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;
	struct stat st;

	/* 256 KiB: the header, a few rounds of samples, then ENOSPC */
	if (mount("perfcheck", self->dir, "tmpfs", 0, "size=256k"))
		SKIP(return, "cannot mount a tmpfs (%s): needs root", strerror(errno));
	self->mounted = true;
	ASSERT_EQ(0, rt_record(&run, 120, opts, "threads", "30"));
	EXPECT_NE(0, run.exit_code);
	EXPECT_NE(124, run.exit_code) TH_LOG("the disk should fill before the timeout");
	EXPECT_NE(NULL, strstr(run.err, "No space left on device")) TH_LOG("stderr: %s", run.err);
	EXPECT_NE(NULL, strstr(run.err, self->out)) TH_LOG("the message names the file");
	ASSERT_EQ(0, stat(self->out, &st));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered) TH_LOG("the file was finalized despite the full disk");
	EXPECT_GT(f.samples, 0);
	/* the summary counts what reached the disk, not what was handed over */
	line = strstr(run.err, " samples, ");
	ASSERT_NE(NULL, line) TH_LOG("%s", run.err);
	while (line > run.err && line[-1] != '(')
		line--;
	EXPECT_EQ(f.samples, strtoull(line, NULL, 10)) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

TEST_F(rob, sigkill_leaves_a_file_the_reader_recovers)
{
	const char *opts[] = { "-e", "task-clock", "-F", "4000", "-m", "16", "-o", self->out, NULL };
	pid_t pid = rt_spawn(opts, "threads", "30", self->errfile);
	struct rt_file f;

	ASSERT_GT(pid, 0);
	/* long enough for several rounds (half a ring each) to reach the disk */
	usleep(3000 * 1000);
	kill(pid, SIGKILL);
	EXPECT_EQ(128 + SIGKILL, rt_wait(pid, 30));
	kill(-pid, SIGKILL);	/* the workload, left behind */
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_TRUE(f.recovered) TH_LOG("the data size should still be 0 in the header");
	EXPECT_GT(f.samples, 0);
	EXPECT_GT(f.rounds, 0);
}

RECORD_TEST_MAIN()
