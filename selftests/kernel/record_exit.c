// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record's exit status and stop conditions: the workload's code
 * and death come through, --timeout exits 124 with a finalized file,
 * SIGTERM stops and finalizes, our own errors say so.
 */
#include "kselftest_harness.h"
#include "record_common.h"

FIXTURE(rec)
{
	char *dir;
	char *out;
};

FIXTURE_SETUP(rec)
{
	self->dir = pc_test_mkdtemp("record-exit");
	ASSERT_NE(NULL, self->dir);
	self->out = strdup(rt_path(self->dir, "perf.data"));
}

FIXTURE_TEARDOWN(rec)
{
	free(self->out);
	pc_test_rmdir(self->dir);
}

TEST_F(rec, timeout_exits_124_with_a_finalized_file_holding_samples)
{
	const char *opts[] = { "-e", "cpu-clock", "--timeout", "1", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;
	double t0 = wl_now();

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "30"));
	EXPECT_EQ(124, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_LT(wl_now() - t0, 20.0) TH_LOG("the 30 s workload was not stopped");
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered) TH_LOG("the file was not finalized");
	EXPECT_GT(f.samples, 0);
	pc_run_free(&run);
}

/* -r: the recorder reads at SCHED_FIFO, the command it forked before keeps its policy */
TEST_F(rec, realtime_runs_the_recorder_at_sched_fifo_and_the_command_as_it_was)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "record", "-r", "1", "-e", "cpu-clock", "-q",
			 "-o", self->out, "--", "/bin/sh", "-c",
			 "echo $(cut -d' ' -f41 /proc/$PPID/stat) $(cut -d' ' -f41 /proc/$$/stat)",
			 NULL };
	struct pc_run run;

	ASSERT_EQ(0, pc_test_run(&run, 60, argv));
	if (run.exit_code && run.err && strstr(run.err, "Could not set realtime priority"))
		SKIP(return, "SCHED_FIFO refused here: %s", run.err);
	ASSERT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	/* field 41 of stat is the policy: SCHED_FIFO 1 for the recorder, SCHED_OTHER 0 */
	EXPECT_STREQ("1 0\n", run.out) TH_LOG("stderr: %s", run.err);
	pc_run_free(&run);
}

/* --affinity=cpu: the recorder moves onto the cpu of the ring it reads, as perf */
TEST_F(rec, affinity_cpu_reads_each_ring_on_its_own_cpu)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "record", "-a", "--affinity=cpu", "-e",
			 "cpu-clock", "-q", "-o", self->out, "--", "/bin/sh", "-c",
			 "sleep 1; grep Cpus_allowed_list /proc/$PPID/status", NULL };
	struct pc_run run;
	const char *list;

	ASSERT_EQ(0, pc_test_run(&run, 60, argv));
	ASSERT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	list = run.out ? strchr(run.out, ':') : NULL;
	ASSERT_NE(NULL, list) TH_LOG("%s", run.out);
	list += strspn(list + 1, " \t") + 1;
	/* one cpu, not a range or a list: the one whose ring it last read */
	EXPECT_EQ(strspn(list, "0123456789"), strcspn(list, "\n")) TH_LOG("%s", run.out);
	pc_run_free(&run);
}

TEST_F(rec, workload_exit_code_is_the_exit_code)
{
	const char *opts[] = { "-e", "cpu-clock", "-q", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "exit", "7"));
	EXPECT_EQ(7, run.exit_code) TH_LOG("stderr: %s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.samples, 0);
	pc_run_free(&run);
}

TEST_F(rec, workload_killed_by_a_signal_gives_128_plus_signal)
{
	const char *opts[] = { "-e", "cpu-clock", "-q", "-o", self->out, NULL };
	char sig[8];
	struct pc_run run;
	struct rt_file f;

	snprintf(sig, sizeof(sig), "%d", SIGUSR1);
	ASSERT_EQ(0, rt_record(&run, 60, opts, "signal", sig));
	EXPECT_EQ(128 + SIGUSR1, run.exit_code) TH_LOG("stderr: %s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered);
	pc_run_free(&run);
}

TEST_F(rec, sigterm_stops_finalizes_and_reports_the_workload_killed)
{
	const char *opts[] = { "-e", "cpu-clock", "-o", self->out, NULL };
	char *errfile = strdup(rt_path(self->dir, "stderr"));
	struct rt_file f;
	pid_t pid = rt_spawn(opts, "spin", "30", errfile);
	int code;

	ASSERT_GT(pid, 0);
	usleep(1500 * 1000);
	kill(pid, SIGTERM);
	code = rt_wait(pid, 30);
	EXPECT_EQ(128 + SIGTERM, code) TH_LOG("stderr: %s", rt_slurp(errfile));
	EXPECT_NE(NULL, strstr(rt_slurp(errfile), "perfcheck record: Captured and wrote"));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered);
	EXPECT_GT(f.samples, 0);
	free(errfile);
}

TEST_F(rec, summary_line_names_file_samples_and_losses)
{
	const char *opts[] = { "-e", "cpu-clock", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;
	char want[PATH_MAX + 64];

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.5"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	snprintf(want, sizeof(want), " MB %s (%llu samples, 0 lost) ]\n", self->out,
		 (unsigned long long)f.samples);
	EXPECT_NE(NULL, strstr(run.err, want)) TH_LOG("want '%s' in: %s", want, run.err);
	EXPECT_EQ(1, pc_count_substr(run.err, "\n")) TH_LOG("more than one line: %s", run.err);
	pc_run_free(&run);
}

TEST_F(rec, lost_records_are_counted_in_the_summary)
{
	const char *opts[] = { "-e", "page-faults", "-c", "1", "-m", "1", "-o", self->out, NULL };
	unsigned long long samples = 0, lost = 0;
	struct pc_run run;
	struct rt_file f;
	const char *line;

	/*
	 * 64 MiB of first touches, one sample each, into a one-page ring: the
	 * workload outruns the recorder's draining, unless the scheduler of a
	 * loaded machine happens to interleave them; then record again.
	 */
	for (int attempt = 1;; attempt++) {
		ASSERT_EQ(0, rt_record(&run, 60, opts, "faults", "1"));
		ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
		ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
		if (f.lost || attempt == 4)
			break;
		pc_run_free(&run);
	}
	if (!f.lost)
		SKIP(pc_run_free(&run); return, "no PERF_RECORD_LOST in 4 recordings: the recorder "
		     "kept up with 16384 faults into a one-page ring every time");
	line = strstr(run.err, "samples, ");
	ASSERT_NE(NULL, line) TH_LOG("%s", run.err);
	while (line > run.err && line[-1] != '(')
		line--;
	ASSERT_EQ(2, sscanf(line, "%llu samples, %llu lost", &samples, &lost)) TH_LOG("%s", run.err);
	EXPECT_EQ(f.samples, samples);
	EXPECT_GT(lost, 0);
	pc_run_free(&run);
}

TEST_F(rec, quiet_prints_nothing)
{
	const char *opts[] = { "-q", "-e", "cpu-clock", "-o", self->out, NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.2"));
	EXPECT_EQ(0, run.exit_code);
	EXPECT_STREQ("", run.err);
	pc_run_free(&run);
}

TEST_F(rec, existing_output_is_kept_as_dot_old)
{
	const char *opts[] = { "-q", "-e", "cpu-clock", "-o", self->out, NULL };
	char *old = strdup(rt_path(self->dir, "perf.data.old"));
	struct pc_run run;
	struct stat st;
	int fd = open(self->out, O_WRONLY | O_CREAT, 0600);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(4, write(fd, "old\n", 4));
	close(fd);
	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
	EXPECT_EQ(0, run.exit_code);
	ASSERT_EQ(0, stat(old, &st));
	EXPECT_EQ(4, st.st_size);
	pc_run_free(&run);
	free(old);
}

TEST_F(rec, command_that_cannot_run_is_an_error_with_a_message)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "record", "-e", "cpu-clock", "-o", self->out,
			 "--", "/nonexistent/perfcheck-no-such-program", NULL };
	struct pc_run run;

	ASSERT_EQ(0, pc_test_run(&run, 60, argv));
	EXPECT_EQ(127, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "cannot run '/nonexistent/perfcheck-no-such-program'"))
		TH_LOG("stderr: %s", run.err);
	pc_run_free(&run);
}

TEST_F(rec, bad_options_are_usage_errors)
{
	static const char *const bad[][4] = {
		{ "-F", "0" }, { "-m", "3X" }, { "--timeout", "x" }, { "-M", "100" },
		{ "-e", "no-such-event" }, { "--call-graph", "dwarf,x" }, { "-C", "99999" },
		{ "--no-such-option" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *opts[] = { bad[i][0], bad[i][1], "-o", self->out, NULL };
		struct pc_run run;

		if (!bad[i][1]) {
			opts[1] = "-o";
			opts[2] = self->out;
			opts[3] = NULL;
		}
		ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
		EXPECT_NE(0, run.exit_code) TH_LOG("%s %s accepted", bad[i][0], bad[i][1]);
		EXPECT_NE(NULL, strstr(run.err, "perfcheck record: "))
			TH_LOG("%s %s: no message: %s", bad[i][0], bad[i][1], run.err);
		pc_run_free(&run);
	}
}

TEST(help_lists_every_option)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "record", "--help", NULL };
	static const char *const opts[] = {
		"--event", "--count", "--freq", "-g", "--call-graph", "--output", "--pid",
		"--tid", "--all-cpus", "--cpu", "--no-inherit", "--stat", "--mmap-pages",
		"--switch-events", "--timeout", "--snapshot", "--quiet", "--verbose",
	};
	struct pc_run run;

	ASSERT_EQ(0, pc_test_run(&run, 60, argv));
	EXPECT_EQ(0, run.exit_code);
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		const char *opt = opts[i];

		EXPECT_NE(NULL, strstr(run.out, opt)) TH_LOG("%s missing", opt);
	}
	pc_run_free(&run);
}

RECORD_TEST_MAIN()
