// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record's option families of perf record, what the file holds
 * for them and how bad ones are refused: unknown terms, modifiers and PMUs
 * name themselves (exit 129), a branch stack without a PMU that records
 * branches fails as perf's does with the reason at -v, leader sampling
 * opens both events reading the group (PERF_FORMAT_GROUP), --namespaces and
 * --all-cgroups synthesize their records, -u records the user's processes,
 * -c with -F is refused as perf refuses it, and targets that exclude each
 * other are settled as perf settles them (-p over -a and -C, -a over
 * --per-thread), said in a warning; --dry-run checks and opens nothing, -n
 * records no sample, and a frequency above the kernel's limit is lowered
 * with a warning, or refused with --strict-freq; --synth=no makes nothing
 * of what already runs.
 */
#include <pwd.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "record_common.h"

FIXTURE(opt)
{
	char *dir;
	char *out;
};

FIXTURE_SETUP(opt)
{
	self->dir = pc_test_mkdtemp("record-options");
	ASSERT_NE(NULL, self->dir);
	self->out = strdup(rt_path(self->dir, "perf.data"));
}

FIXTURE_TEARDOWN(opt)
{
	free(self->out);
	pc_test_rmdir(self->dir);
}

/* perfcheck script -D of the file, into run */
static int dump(struct pc_run *run, const char *path)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "script", "-D", "-i", (char *)path, NULL };

	return pc_test_run(run, 120, argv);
}

TEST_F(opt, bad_event_syntax_is_a_usage_error_naming_the_culprit)
{
	static const char *const bad[][2] = {
		{ "cpu-clock/nosuchterm=1/", "'nosuchterm'" },
		{ "cpu-clock:Z", "'Z'" },
		{ "nosuchpmu/config=1/", "'nosuchpmu'" },
		{ "{cpu-clock,page-faults", "no closing '}'" },
		{ "cpu-clock/period=x/", "period=x" },
		{ "{cpu-clock,{page-faults}}", "do not nest" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *opts[] = { "-e", bad[i][0], "-o", self->out, NULL };
		struct pc_run run;

		ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
		EXPECT_EQ(129, run.exit_code) TH_LOG("-e %s: %s", bad[i][0], run.err);
		EXPECT_NE(NULL, strstr(run.err, bad[i][1]))
			TH_LOG("-e %s: '%s' not named: %s", bad[i][0], bad[i][1], run.err);
		pc_run_free(&run);
	}
}

TEST_F(opt, bad_sample_options_are_usage_errors_naming_the_value)
{
	static const char *const bad[][3] = {
		{ "--user-regs=sp,nosuchreg", "nosuchreg" }, { "-Inosuchreg", "nosuchreg" },
		{ "-k", "nosuchclock", "nosuchclock" }, { "-j", "nosuchbranch", "nosuchbranch" },
		{ "--call-graph", "dwarf,0", "dwarf,0" }, { "-u", "no-such-user-pc", "no-such-user-pc" },
		{ "-G", "/", "system-wide" }, { "--all-user", "--all-kernel", "cannot go together" },
		{ "--user-callchains", "--kernel-callchains", "cannot go together" },
		/* -e cpu-clock comes first: --filter on a software event */
		{ "--filter", "x", "does not support address filtering" },
		/* perf's checks and words */
		{ "--vmlinux", "/nonexistent/vmlinux", "Invalid file: /nonexistent/vmlinux" },
		{ "--aux-sample", "No AUX area event to sample" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *opts[8] = { "-e", "cpu-clock", bad[i][0] };
		const char *want = bad[i][2] ? bad[i][2] : bad[i][1];
		struct pc_run run;
		int n = 3;

		if (bad[i][2])
			opts[n++] = bad[i][1];
		opts[n++] = "-o";
		opts[n++] = self->out;
		opts[n] = NULL;
		ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
		EXPECT_EQ(129, run.exit_code) TH_LOG("%s %s: %s", bad[i][0], bad[i][1], run.err);
		EXPECT_NE(NULL, strstr(run.err, want))
			TH_LOG("%s %s: '%s' not named: %s", bad[i][0], bad[i][1], want, run.err);
		pc_run_free(&run);
	}
}

/* Software events never record a branch stack, whatever the PMU: always refused. */
TEST_F(opt, branch_stack_on_a_software_event_fails_as_perf_with_the_reason_at_v)
{
	static const char *const modes[][3] = {
		{ "-b" }, { "-j", "any,u" }, { "--call-graph", "lbr" },
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		const char *opts[8] = { "-v", "-e", "cpu-clock", modes[i][0] };
		struct pc_run run;
		int n = 4;

		if (modes[i][1])
			opts[n++] = modes[i][1];
		opts[n++] = "-o";
		opts[n++] = self->out;
		opts[n] = NULL;
		ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
		EXPECT_EQ(255, run.exit_code) TH_LOG("%s: %s", modes[i][0], run.err);
		EXPECT_NE(NULL, strstr(run.err, "doesn't support branch stack sampling"))
			TH_LOG("%s: %s", modes[i][0], run.err);
		EXPECT_NE(NULL, strstr(run.err, "needs a PMU that records taken branches"))
			TH_LOG("%s: no reason at -v: %s", modes[i][0], run.err);
		pc_run_free(&run);
	}
}

/* The attr tried for a cache event is perf's encoding, opened or not. */
TEST_F(opt, cache_events_are_encoded_as_perf_encodes_them)
{
	const char *opts[] = { "-vv", "-e", "L1-dcache-load-misses", "-o", self->out, NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
	EXPECT_NE(NULL, strstr(run.err, "  type                             3\n")) TH_LOG("%s", run.err);
	EXPECT_NE(NULL, strstr(run.err, "  config                           0x10000\n"))
		TH_LOG("%s", run.err);
	pc_run_free(&run);
}

TEST_F(opt, leader_sampling_reads_the_group_in_both_events_attrs)
{
	const char *opts[] = { "-q", "-e", "{cpu-clock,page-faults}:S", "-o", self->out, NULL };
	struct pc_run run, d;
	struct rt_file f;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.3"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.samples, 0);
	ASSERT_EQ(0, dump(&d, self->out));
	EXPECT_EQ(0, d.exit_code) TH_LOG("%s", d.err);
	/* the header's attrs: both events read the group */
	EXPECT_EQ(0, pc_count_substr(d.err, "warning"));
	pc_run_free(&d);
	{
		char *argv[] = { (char *)pc_test_perfcheck(), "script", "-D", "--header", "-i",
				 self->out, NULL };

		ASSERT_EQ(0, pc_test_run(&d, 120, argv));
		EXPECT_EQ(2, pc_count_substr(d.out, "ID|GROUP")) TH_LOG("%.3000s", d.out);
		pc_run_free(&d);
	}
	pc_run_free(&run);
}

TEST_F(opt, namespaces_are_synthesized_for_the_workload_and_recorded)
{
	const char *opts[] = { "-q", "-e", "cpu-clock", "--namespaces", "-o", self->out, NULL };
	struct pc_run run, d;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, dump(&d, self->out));
	EXPECT_EQ(0, d.exit_code) TH_LOG("%s", d.err);
	EXPECT_LE(1, pc_count_substr(d.out, "PERF_RECORD_NAMESPACES")) TH_LOG("%.2000s", d.out);
	pc_run_free(&d);
	pc_run_free(&run);
}

/* A cgroup2 hierarchy mounted somewhere (the guests mount none): 1 when this test mounted it. */
static int have_cgroup2(char *dir, size_t size, const char *base)
{
	char line[4096];
	FILE *f = fopen("/proc/self/mounts", "r");
	bool found = false;

	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, " cgroup2 ") != NULL;
	if (f)
		fclose(f);
	if (found)
		return 0;
	snprintf(dir, size, "%s/cg2", base);
	if (mkdir(dir, 0755) || mount("none", dir, "cgroup2", 0, NULL))
		return -errno;
	return 1;
}

TEST_F(opt, all_cgroups_synthesizes_the_root_cgroup)
{
	const char *opts[] = { "-q", "-e", "cpu-clock", "--all-cgroups", "-o", self->out, NULL };
	struct pc_run run, d;
	char mnt[PATH_MAX] = "";
	int mounted = have_cgroup2(mnt, sizeof(mnt), self->dir);

	if (mounted < 0)
		SKIP(return, "no cgroup2 hierarchy mounted and none can be (%s)", strerror(-mounted));
	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
	if (mounted > 0)
		umount(mnt);
	if (run.exit_code && strstr(run.err, "cgroup"))
		SKIP(pc_run_free(&run); return, "the kernel refused cgroup: %s", run.err);
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, dump(&d, self->out));
	EXPECT_EQ(0, d.exit_code) TH_LOG("%s", d.err);
	EXPECT_LE(1, pc_count_substr(d.out, "PERF_RECORD_CGROUP")) TH_LOG("%.2000s", d.out);
	pc_run_free(&d);
	pc_run_free(&run);
}

TEST_F(opt, uid_target_records_the_users_processes)
{
	struct pc_run run;
	pid_t child;
	struct rt_file f;
	char user[64];
	struct passwd *pw;
	FILE *pf = fopen("/etc/passwd", "re");

	/* our name from /etc/passwd (no NSS in static builds); a guest has none: -u takes the uid */
	snprintf(user, sizeof(user), "%u", (unsigned int)geteuid());
	while (pf && (pw = fgetpwent(pf)))
		if (pw->pw_uid == geteuid()) {
			snprintf(user, sizeof(user), "%s", pw->pw_name);
			break;
		}
	if (pf)
		fclose(pf);
	/*
	 * a process of ours that runs while we record, until the recording is over
	 * (a life of 3 s ran out before the recorder had opened its events in a
	 * loaded 6.1 guest: -u root follows every process there)
	 */
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		double t0 = wl_now();

		while (wl_now() - t0 < 120)
			wl_sink++;
		_exit(0);
	}
	{
		const char *o2[] = { "-q", "-e", "cpu-clock", "-u", user, "--timeout", "1",
				     "-o", self->out, NULL };

		ASSERT_EQ(0, rt_record(&run, 60, o2, NULL, NULL));
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	EXPECT_EQ(124, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_LT(0, rt_pid_samples(&f, (uint32_t)child)) TH_LOG("no sample of the user's process");
	pc_run_free(&run);
}

/* perf record refuses a period and a frequency together; neither is dropped silently */
TEST_F(opt, dry_run_checks_the_options_and_writes_nothing)
{
	const char *good[] = { "--dry-run", "-e", "cpu-clock", "-o", self->out, NULL };
	const char *bad[] = { "--dry-run", "-e", "no-such-event", "-o", self->out, NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, good, "spin", "0.1"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_NE(0, access(self->out, F_OK));
	pc_run_free(&run);
	ASSERT_EQ(0, rt_record(&run, 60, bad, "spin", "0.1"));
	EXPECT_EQ(129, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_NE(NULL, strstr(run.err, "no-such-event")) TH_LOG("%s", run.err);
	EXPECT_NE(0, access(self->out, F_OK));
	pc_run_free(&run);
}

TEST_F(opt, no_samples_records_the_side_band_and_no_sample)
{
	const char *opts[] = { "-n", "-e", "cpu-clock", "-o", self->out, NULL };
	struct pc_run run, d;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.2"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, dump(&d, self->out));
	ASSERT_EQ(0, d.exit_code) TH_LOG("%s", d.err);
	EXPECT_EQ(0, pc_count_substr(d.out, "PERF_RECORD_SAMPLE")) TH_LOG("%s", d.out);
	EXPECT_LE(1, pc_count_substr(d.out, "PERF_RECORD_COMM")) TH_LOG("%s", d.out);
	pc_run_free(&d);
	pc_run_free(&run);
}

/* kernel.perf_event_max_sample_rate, or -1 */
static long max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

TEST_F(opt, a_frequency_above_the_limit_is_lowered_or_refused_with_strict_freq)
{
	long max = max_sample_rate();
	char freq[32];
	const char *lowered[] = { "-e", "cpu-clock", "-F", freq, "-o", self->out, NULL };
	const char *strict[] = { "--strict-freq", "-e", "cpu-clock", "-F", freq, "-o",
				 self->out, NULL };
	struct pc_run run;

	if (max <= 0 || max > 100000000)
		SKIP(return, "kernel.perf_event_max_sample_rate unreadable or unbounded here");
	snprintf(freq, sizeof(freq), "%ld", max * 2);
	/*
	 * a short spin: at the limit the samples take most of the time (0.1 s
	 * of spin took 2 s here alone, and over the harness's 30 s beside
	 * seven guests); the warning and the refusal are what is checked
	 */
	ASSERT_EQ(0, rt_record(&run, 60, lowered, "spin", "0.01"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_NE(NULL, strstr(run.err, "lowering -F")) TH_LOG("%s", run.err);
	pc_run_free(&run);
	unlink(self->out);
	ASSERT_EQ(0, rt_record(&run, 60, strict, "spin", "0.01"));
	EXPECT_NE(0, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "--strict-freq")) TH_LOG("%s", run.err);
	EXPECT_NE(0, access(self->out, F_OK));
	pc_run_free(&run);
}

/*
 * --synth no: nothing made for what exists; of the workload, as perf 6.1
 * and 7.2, its COMM "perf-exec" alone (its pid and tid those of its exec)
 */
TEST_F(opt, synth_no_makes_no_record_of_the_tasks_but_the_workloads_perf_exec_comm)
{
	const char *all[] = { "-e", "cpu-clock", "-o", self->out, NULL };
	const char *none[] = { "--synth=no", "-e", "cpu-clock", "-o", self->out, NULL };
	const char *bad[] = { "--synth=bogus", "-e", "cpu-clock", "-o", self->out, NULL };
	struct pc_run run, d;
	const char *at;
	char want[64];
	int pid, tid;

	ASSERT_EQ(0, rt_record(&run, 60, all, "spin", "0.1"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, dump(&d, self->out));
	EXPECT_LE(1, pc_count_substr(d.out, "PERF_RECORD_COMM: ")) TH_LOG("%s", d.out);
	pc_run_free(&d);
	pc_run_free(&run);
	ASSERT_EQ(0, rt_record(&run, 60, none, "spin", "0.1"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, dump(&d, self->out));
	EXPECT_EQ(1, pc_count_substr(d.out, "PERF_RECORD_COMM: ")) TH_LOG("%s", d.out);
	EXPECT_LE(1, pc_count_substr(d.out, "PERF_RECORD_COMM exec: ")) TH_LOG("%s", d.out);
	at = strstr(d.out, "PERF_RECORD_COMM: perf-exec:");
	ASSERT_NE(NULL, at) TH_LOG("%s", d.out);
	ASSERT_EQ(2, sscanf(at, "PERF_RECORD_COMM: perf-exec:%d/%d", &pid, &tid));
	EXPECT_EQ(pid, tid);
	snprintf(want, sizeof(want), ":%d/%d\n", pid, pid);
	at = strstr(d.out, "PERF_RECORD_COMM exec: ");
	ASSERT_NE(NULL, at);
	EXPECT_NE(NULL, strstr(at, want)) TH_LOG("its exec's COMM by pid %d", pid);
	pc_run_free(&d);
	pc_run_free(&run);
	ASSERT_EQ(0, rt_record(&run, 60, bad, "spin", "0.1"));
	EXPECT_EQ(129, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "--synth: 'bogus'")) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

TEST_F(opt, period_and_frequency_together_are_refused)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", "10000", "-F", "100", "-o", self->out,
			       NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
	EXPECT_EQ(129, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_NE(NULL, strstr(run.err, "cannot set frequency and period at the same time"))
		TH_LOG("%s", run.err);
	EXPECT_NE(0, access(self->out, F_OK));
	pc_run_free(&run);
}

/*
 * -p with -a and -C: the process is recorded on every cpu, -a and -C
 * dropped with perf's warning (perf 6.1 opens the pid on each cpu).
 */
TEST_F(opt, pid_overrides_system_wide_and_cpu_list_with_a_warning)
{
	static const char *const over[][2] = { { "-a", NULL }, { "-C", "0" } };

	for (size_t i = 0; i < sizeof(over) / sizeof(over[0]); i++) {
		char pid[16], want[48];
		const char *opts[12] = { "-e", "cpu-clock", over[i][0] };
		int n = 3;
		pid_t child = fork();
		struct pc_run run;
		struct rt_file f;

		ASSERT_LE(0, child);
		if (child == 0) {
			double t0 = wl_now();

			while (wl_now() - t0 < 1.5)
				wl_sink++;
			_exit(0);
		}
		snprintf(pid, sizeof(pid), "%d", (int)child);
		if (over[i][1])
			opts[n++] = over[i][1];
		opts[n++] = "-p";
		opts[n++] = pid;
		opts[n++] = "-o";
		opts[n++] = self->out;
		opts[n] = NULL;
		ASSERT_EQ(0, rt_record(&run, 60, opts, NULL, NULL));
		waitpid(child, NULL, 0);
		EXPECT_EQ(0, run.exit_code) TH_LOG("%s %s: %s", over[i][0], pid, run.err);
		snprintf(want, sizeof(want), "PID/TID switch overriding %s", i ? "CPU" : "SYSTEM");
		EXPECT_NE(NULL, strstr(run.err, want)) TH_LOG("%s", run.err);
		ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
		EXPECT_LT(0, rt_pid_samples(&f, (uint32_t)child));
		/* only the process: no other task of the machine */
		EXPECT_EQ(1, f.nr_pids) TH_LOG("%d processes sampled", f.nr_pids);
		pc_run_free(&run);
	}
}

/* -a with --per-thread: system-wide wins, said as perf says it */
TEST_F(opt, system_wide_overrides_per_thread_with_a_warning)
{
	const char *opts[] = { "-e", "cpu-clock", "-a", "--per-thread", "-o", self->out, NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.2"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_NE(NULL, strstr(run.err, "SYSTEM/CPU switch overriding PER-THREAD"))
		TH_LOG("%s", run.err);
	pc_run_free(&run);
}

RECORD_TEST_MAIN()
