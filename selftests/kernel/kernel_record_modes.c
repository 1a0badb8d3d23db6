// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record's modes, one behaviour each: --switch-output by signal,
 * size and time writes perf's timestamped names, --switch-max-files keeps
 * the newest N, --timestamp-filename names the single file so; -D holds
 * the events back for its delay; --control's fifo and fd take perf's
 * commands and ack each; --filter reaches the kernel's tracepoint filter,
 * and --exclude-perf adds the recorder's own pid to it.
 */
#include <dirent.h>
#include <poll.h>
#include <regex.h>

#include "kselftest_harness.h"
#include "record_common.h"

FIXTURE(modes)
{
	char *dir;
	char *out;
};

FIXTURE_SETUP(modes)
{
	self->dir = pc_test_mkdtemp("record-modes");
	ASSERT_NE(NULL, self->dir);
	self->out = strdup(rt_path(self->dir, "perf.data"));
}

FIXTURE_TEARDOWN(modes)
{
	free(self->out);
	pc_test_rmdir(self->dir);
}

/* The files of dir named perf.data.YYYYMMDDHHMMSScc (perf's), sorted; -1 if another file is there. */
static int stamped_files(const char *dir, char names[][64], int max)
{
	struct dirent **list;
	regex_t re;
	int n = scandir(dir, &list, NULL, alphasort), k = 0, other = 0;

	regcomp(&re, "^perf\\.data\\.[0-9]{16}$", REG_EXTENDED | REG_NOSUB);
	for (int i = 0; i < n; i++) {
		const char *d = list[i]->d_name;

		if (!strcmp(d, ".") || !strcmp(d, ".."))
			;
		else if (!regexec(&re, d, 0, NULL, 0) && k < max)
			snprintf(names[k++], 64, "%.63s", d);
		else if (strcmp(d, "ctl") && strcmp(d, "ack"))
			other++;
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	regfree(&re);
	return other ? -1 : k;
}

/* Every named file reads back whole, with samples. */
static void expect_readable(struct __test_metadata *_metadata, const char *dir,
			    char names[][64], int n)
{
	for (int i = 0; i < n; i++) {
		struct rt_file f;

		ASSERT_EQ(0, rt_read(rt_path(dir, names[i]), &f)) TH_LOG("%s: %s", names[i], f.err);
		EXPECT_FALSE(f.recovered) TH_LOG("%s was not finalized", names[i]);
		EXPECT_GT(f.mmaps + f.comms, 0) TH_LOG("%s starts without its tasks", names[i]);
	}
}

TEST_F(modes, switch_output_on_sigusr2_writes_one_stamped_file_per_signal_and_one_last)
{
	const char *opts[] = { "-e", "cpu-clock", "--switch-output", "-o", self->out, NULL };
	char errfile[PATH_MAX];
	char names[16][64];
	pid_t pid;
	int n;

	/* stderr outside the directory counted */
	snprintf(errfile, sizeof(errfile), "%s.stderr", self->dir);
	pid = rt_spawn(opts, "spin", "30", errfile);
	ASSERT_GT(pid, 0);
	usleep(700000);
	kill(pid, SIGUSR2);
	usleep(500000);
	kill(pid, SIGUSR2);
	usleep(500000);
	kill(pid, SIGINT);
	/* SIGINT stops the recording, which stops the workload with SIGTERM */
	EXPECT_EQ(128 + SIGTERM, rt_wait(pid, 60)) TH_LOG("%s", rt_slurp(errfile));
	EXPECT_EQ(2, pc_count_substr(rt_slurp(errfile), "[ perfcheck record: Dump "));
	n = stamped_files(self->dir, names, 16);
	EXPECT_EQ(3, n) TH_LOG("two dumps and the last file expected");
	if (n > 0)
		expect_readable(_metadata, self->dir, names, n);
	unlink(errfile);
}

/*
 * --switch-output-event: each exec (a sched:sched_process_exec record,
 * anywhere on the machine) starts a new file, as perf's side band does; the
 * command execs three times, 1.2 s apart, so at least that many switches
 */
TEST_F(modes, switch_output_event_starts_a_new_file_at_each_hit)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "record", "-e", "cpu-clock",
			 "--switch-output-event", "sched:sched_process_exec", "-o", self->out, "--",
			 "/bin/sh", "-c", "for i in 1 2 3; do sleep 1.2; /bin/true; done; sleep 1.2",
			 NULL };
	static char names[1024][64];	/* every exec of the machine switches: a busy one, many */
	struct pc_run run;
	int n;

	if (pc_test_tracepoint_id("sched", "sched_process_exec") < 0)
		SKIP(return, "no sched:sched_process_exec in tracefs (not mounted here)");
	ASSERT_EQ(0, pc_test_run(&run, 120, argv));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	/* the command's own exec, then three: each a file of its own, and the last */
	EXPECT_LE(4, pc_count_substr(run.err, "[ perfcheck record: Dump ")) TH_LOG("%s", run.err);
	n = stamped_files(self->dir, names, 1024);
	EXPECT_LE(5, n) TH_LOG("%s", run.err);
	if (n > 0)
		expect_readable(_metadata, self->dir, names, n);
	pc_run_free(&run);
}

TEST_F(modes, switch_output_by_size_with_max_files_keeps_the_newest)
{
	const char *opts[] = { "-q", "-e", "cpu-clock", "-m", "8", "--switch-output=8K",
			       "--switch-max-files", "3", "-o", self->out, NULL };
	char names[16][64];
	struct pc_run run;
	int n;

	/*
	 * 2 s of the workload's CPU time: some 8000 samples at perf's 4 kHz, dozens
	 * of 8 KiB files.  2 s of wall time left too few to fill three in the 6.12
	 * guest under load (2 files, 2026-11-23).
	 */
	ASSERT_EQ(0, rt_record(&run, 60, opts, "cpuspin", "2"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	n = stamped_files(self->dir, names, 16);
	EXPECT_EQ(3, n) TH_LOG("%s", run.err);
	if (n > 0)
		expect_readable(_metadata, self->dir, names, n);
	pc_run_free(&run);
}

TEST_F(modes, switch_output_by_time_switches_each_period)
{
	const char *opts[] = { "-e", "cpu-clock", "--switch-output=1s", "-o", self->out, NULL };
	char names[16][64];
	struct pc_run run;
	int n;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "2.5"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	n = stamped_files(self->dir, names, 16);
	/* 2.5 s: two switches, give or take one on a slow guest */
	EXPECT_GE(n, 2) TH_LOG("%s", run.err);
	EXPECT_LE(n, 4) TH_LOG("%s", run.err);
	if (n > 0)
		expect_readable(_metadata, self->dir, names, n);
	pc_run_free(&run);
}

TEST_F(modes, timestamp_filename_names_the_one_file)
{
	const char *opts[] = { "-e", "cpu-clock", "--timestamp-filename", "-o", self->out, NULL };
	char names[4][64];
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.2"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(1, stamped_files(self->dir, names, 4));
	EXPECT_NE(NULL, strstr(run.err, names[0])) TH_LOG("the summary names %s", run.err);
	expect_readable(_metadata, self->dir, names, 1);
	pc_run_free(&run);
}

/* The time of the earliest and the latest sample of path, in seconds. */
static int sample_span(const char *path, double *first, double *last)
{
	struct pc_error err = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	uint64_t pos = 0, t0 = 0, t1 = 0;

	if (pd_reader_open(&r, path, &err))
		return -1;
	while (pd_reader_next(&r, &pos, &rec, &err) == 1) {
		struct pd_sample s;

		if (rec.header.type != PERF_RECORD_SAMPLE || pd_parse_sample(&r, &rec, &s, &err))
			continue;
		/* the rings of two cpus interleave: the earliest and the latest */
		if (!t0 || s.time < t0)
			t0 = s.time;
		if (s.time > t1)
			t1 = s.time;
	}
	pd_reader_close(&r);
	*first = t0 / 1e9;
	*last = t1 / 1e9;
	return t0 ? 0 : -1;
}

TEST_F(modes, delay_holds_the_events_back_for_its_milliseconds)
{
	const char *opts[] = { "-e", "cpu-clock", "-D", "600", "-o", self->out, NULL };
	const char *nodelay[] = { "-q", "-e", "cpu-clock", "-o", self->out, NULL };
	struct pc_run run;
	double d0, d1, n0, n1;
	struct rt_file f;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "1.2"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_NE(NULL, strstr(run.err, "Events disabled\nEvents enabled\n")) TH_LOG("%s", run.err);
	ASSERT_EQ(0, sample_span(self->out, &d0, &d1));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.mmaps, 0) TH_LOG("the workload's maps were not synthesized at enable");
	pc_run_free(&run);
	ASSERT_EQ(0, rt_record(&run, 60, nodelay, "spin", "1.2"));
	ASSERT_EQ(0, sample_span(self->out, &n0, &n1));
	/*
	 * The delayed samples span at least half the delay less of the same 1.2 s
	 * workload: the delay counts from the workload's start, as perf's, and
	 * its exec takes part of it (0.2 s in the 6.1-arm64 guest under TCG:
	 * delayed 0.804 s, not delayed 1.201 s).
	 */
	EXPECT_LT(d1 - d0, (n1 - n0) - 0.3) TH_LOG("delayed %.3f s, not delayed %.3f s",
						   d1 - d0, n1 - n0);
	pc_run_free(&run);
}

/* Writes cmd to the control fifo and waits (5 s at most) for "ack\n". */
static int command(int ctl, int ack, const char *cmd)
{
	char buf[8] = "";
	struct pollfd p = { .fd = ack, .events = POLLIN };
	size_t len = strlen(cmd);

	if (write(ctl, cmd, len) != (ssize_t)len || poll(&p, 1, 5000) != 1)
		return -1;
	if (read(ack, buf, 4) != 4)
		return -1;
	return strncmp(buf, "ack\n", 4) ? -1 : 0;
}

TEST_F(modes, control_fifo_acks_ping_enable_disable_and_stop)
{
	char ctlspec[PATH_MAX + 16];
	const char *opts[] = { "-e", "cpu-clock", "-D", "-1", "--control", ctlspec, "-o",
			       self->out, NULL };
	char *ctl = strdup(rt_path(self->dir, "ctl")), *ack = strdup(rt_path(self->dir, "ack"));
	char errfile[PATH_MAX];
	struct rt_file f;
	int cfd, afd;
	pid_t pid;

	snprintf(ctlspec, sizeof(ctlspec), "fifo:%s,%s", ctl, ack);
	snprintf(errfile, sizeof(errfile), "%s.stderr", self->dir);
	ASSERT_EQ(0, mkfifo(ctl, 0600));
	ASSERT_EQ(0, mkfifo(ack, 0600));
	cfd = open(ctl, O_RDWR);
	afd = open(ack, O_RDWR);
	ASSERT_GE(cfd, 0);
	ASSERT_GE(afd, 0);
	pid = rt_spawn(opts, "spin", "30", errfile);
	ASSERT_GT(pid, 0);
	EXPECT_EQ(0, command(cfd, afd, "ping\n"));
	EXPECT_EQ(0, command(cfd, afd, "enable\n"));
	usleep(300000);
	EXPECT_EQ(0, command(cfd, afd, "disable\n"));
	EXPECT_EQ(0, command(cfd, afd, "stop\n"));
	/* stop ends the recording; the workload is stopped with it */
	EXPECT_NE(-1, rt_wait(pid, 30)) TH_LOG("%s", rt_slurp(errfile));
	EXPECT_NE(NULL, strstr(rt_slurp(errfile), "Events enabled\nEvents disabled\n"));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.samples, 0) TH_LOG("nothing sampled while enabled");
	close(cfd);
	close(afd);
	unlink(errfile);
	free(ctl);
	free(ack);
}

TEST_F(modes, control_without_enable_records_no_samples)
{
	int ctlpipe[2], ackpipe[2];
	char spec[64];
	const char *opts[] = { "-q", "-e", "cpu-clock", "-D", "-1", "--control", spec, "-o",
			       self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	/* fd:CTL,ACK: inherited pipes; the control pipe's writer stays open here */
	ASSERT_EQ(0, pipe(ctlpipe));
	ASSERT_EQ(0, pipe(ackpipe));
	snprintf(spec, sizeof(spec), "fd:%d,%d", ctlpipe[0], ackpipe[1]);
	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.5"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_EQ(0, f.samples);
	close(ctlpipe[0]);
	close(ctlpipe[1]);
	close(ackpipe[0]);
	close(ackpipe[1]);
	pc_run_free(&run);
}

/* fork's samples of sched:sched_process_fork under FILTER: -1 when the recording failed */
static long fork_samples(struct __test_metadata *_metadata, const char *out, const char *filter)
{
	const char *opts[] = { "-q", "-e", "sched:sched_process_fork", "--filter", filter, "-o", out,
			       NULL };
	struct pc_run run;
	struct rt_file f;
	long n = -1;

	if (rt_record(&run, 60, opts, "fork", "0.2"))
		return -1;
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	if (!run.exit_code && !rt_read(out, &f))
		n = (long)f.samples;
	pc_run_free(&run);
	return n;
}

/* --filter: the kernel keeps the tracepoint's records the filter matches, and only those */
TEST_F(modes, filter_keeps_only_the_tracepoint_records_it_matches)
{
	if (pc_test_tracepoint_id("sched", "sched_process_fork") < 0)
		SKIP(return, "no sched:sched_process_fork in tracefs (not mounted here)");
	/* the workload forks once: its record passes child_pid != 0, none passes == 0 */
	EXPECT_LE(1, fork_samples(_metadata, self->out, "child_pid != 0"));
	EXPECT_EQ(0, fork_samples(_metadata, self->out, "child_pid == 0"));
}

/* a filter the kernel refuses: perf's message and exit 255, no file left behind */
TEST_F(modes, filter_the_kernel_refuses_fails_naming_it)
{
	const char *opts[] = { "-q", "-e", "sched:sched_process_fork", "--filter",
			       "no_such_field == 1", "-o", self->out, NULL };
	struct pc_run run;

	if (pc_test_tracepoint_id("sched", "sched_process_fork") < 0)
		SKIP(return, "no sched:sched_process_fork in tracefs (not mounted here)");
	ASSERT_EQ(0, rt_record(&run, 60, opts, "exit", "0"));
	EXPECT_EQ(255, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "failed to set filter \"no_such_field == 1\" on event "
					"sched:sched_process_fork with 22")) TH_LOG("%s", run.err);
	EXPECT_NE(0, access(self->out, F_OK));
	pc_run_free(&run);
}

/*
 * The samples of sys_enter_read of the recorder itself (its pid: other
 * perfcheck processes, those of tests running beside, are not its own),
 * recorded system-wide; -1 when the recording failed.
 */
static long own_reads(struct __test_metadata *_metadata, const char *dir, const char *out,
		      bool exclude)
{
	const char *opts[] = { "-q", "-a", "-e", "syscalls:sys_enter_read", "-o", out,
			       exclude ? "--exclude-perf" : NULL, NULL };
	char *argv[] = { (char *)pc_test_perfcheck(), "script", "-F", "comm,pid", "-i",
			 (char *)out, NULL };
	char errfile[600];
	struct pc_run run;
	const char *line;
	long n = 0;
	pid_t pid;

	snprintf(errfile, sizeof(errfile), "%s.stderr", dir);
	pid = rt_spawn(opts, "spin", "0.2", errfile);
	if (pid <= 0)
		return -1;
	EXPECT_EQ(0, rt_wait(pid, 60)) TH_LOG("%s", rt_slurp(errfile));
	if (pc_test_run(&run, 60, argv))
		return -1;
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	for (line = run.out; !run.exit_code && line && *line;) {
		char comm[64];
		long p;

		if (sscanf(line, "%63s %ld", comm, &p) == 2 && !strcmp(comm, "perfcheck") &&
		    p == (long)pid)
			n++;
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	if (run.exit_code)
		n = -1;
	pc_run_free(&run);
	return n;
}

/*
 * --exclude-perf: the tracepoint's filter leaves out the recorder's own
 * events (it reads its signal and timer fds while recording)
 */
TEST_F(modes, exclude_perf_leaves_the_recorders_own_tracepoint_records_out)
{
	long with;

	if (pc_test_tracepoint_id("syscalls", "sys_enter_read") < 0)
		SKIP(return, "no syscalls:sys_enter_read in tracefs (not mounted here)");
	with = own_reads(_metadata, self->dir, self->out, false);
	if (with == 0)
		SKIP(return, "the recorder read nothing while recording here: nothing to leave out");
	EXPECT_LT(0, with);
	EXPECT_EQ(0, own_reads(_metadata, self->dir, self->out, true));
}

TEST_F(modes, exclude_perf_without_an_event_is_a_usage_error)
{
	const char *opts[] = { "--exclude-perf", "-e", "cpu-clock", "-o", self->out, NULL };
	const char *first[] = { "--exclude-perf", "-o", self->out, NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, first, "exit", "0"));
	EXPECT_EQ(129, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "--exclude-perf option should follow a -e tracepoint"))
		TH_LOG("%s", run.err);
	pc_run_free(&run);
	/* after a software event: no tracepoint to filter, as --filter's error */
	ASSERT_EQ(0, rt_record(&run, 60, opts, "exit", "0"));
	EXPECT_EQ(129, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_NE(0, access(self->out, F_OK));
	pc_run_free(&run);
}

RECORD_TEST_MAIN()
