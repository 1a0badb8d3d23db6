// SPDX-License-Identifier: GPL-2.0
/*
 * What perfcheck record records: children and threads (inherit) or not
 * (--no-inherit), a running process (-p), cpus (-C, -a), callchains that
 * walk back through the workload's own frames, context switches.
 */
#include "kselftest_harness.h"
#include "probes/behaviour.h"
#include "probes/probe.h"
#include "record_common.h"

FIXTURE(tgt)
{
	char *dir;
	char *out;
};

FIXTURE_SETUP(tgt)
{
	self->dir = pc_test_mkdtemp("record-targets");
	ASSERT_NE(NULL, self->dir);
	self->out = strdup(rt_path(self->dir, "perf.data"));
}

FIXTURE_TEARDOWN(tgt)
{
	free(self->out);
	pc_test_rmdir(self->dir);
}

TEST_F(tgt, inherit_records_forked_children)
{
	const char *opts[] = { "-q", "-e", "task-clock", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "fork", "1"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GE(f.nr_pids, 2) TH_LOG("only %d pid(s) sampled", f.nr_pids);
	EXPECT_GT(f.forks, 0) TH_LOG("no FORK record for the child");
	pc_run_free(&run);
}

TEST_F(tgt, inherit_records_threads)
{
	const char *opts[] = { "-q", "-e", "task-clock", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "1"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GE(rt_tids_of(&f, rt_busiest_pid(&f)), 2)
		TH_LOG("only %d thread(s) sampled", rt_tids_of(&f, rt_busiest_pid(&f)));
	pc_run_free(&run);
}

TEST_F(tgt, no_inherit_records_only_the_workload_itself)
{
	const char *opts[] = { "-q", "-i", "-e", "task-clock", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "fork", "1"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.samples, 0);
	EXPECT_EQ(1, f.nr_pids);
	EXPECT_EQ(1, f.nr_tids);
	pc_run_free(&run);
	/* and the same workload's threads are not followed either */
	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "1"));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_EQ(1, f.nr_tids);
	pc_run_free(&run);
}

static pid_t start_workload(const char *mode, const char *arg)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl(rt_self(), rt_self(), "--workload", mode, arg, (char *)NULL);
		_exit(127);
	}
	return pid;
}

TEST_F(tgt, attach_to_a_running_process_until_it_exits)
{
	char pidarg[16];
	const char *opts[] = { "-q", "-e", "task-clock", "-p", pidarg, "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;
	pid_t pid = start_workload("threads", "2");
	int status;

	ASSERT_GT(pid, 0);
	usleep(300 * 1000);
	snprintf(pidarg, sizeof(pidarg), "%d", pid);
	ASSERT_EQ(0, rt_record(&run, 60, opts, NULL, NULL));
	waitpid(pid, &status, 0);
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	/* the target only (a sanitizer runtime may clone a helper at its exit) */
	EXPECT_EQ((uint32_t)pid, rt_busiest_pid(&f));
	EXPECT_GT(rt_pid_samples(&f, (uint32_t)pid) * 10, f.samples * 9);
	EXPECT_GE(rt_tids_of(&f, (uint32_t)pid), 2) TH_LOG("both running threads are recorded");
	/*
	 * what existed before, synthesized from /proc as perf's thread map: a
	 * COMM per thread, no FORK (its one thread started before the attach)
	 */
	EXPECT_GE(f.comms, 2);
	EXPECT_EQ(0, f.forks);
	EXPECT_GT(f.mmaps, 0);
	pc_run_free(&run);
}

TEST_F(tgt, attach_to_a_thread_records_only_that_thread)
{
	char tidarg[16];
	const char *opts[] = { "-q", "-e", "task-clock", "-t", tidarg, "--timeout", "1",
			       "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;
	pid_t pid = start_workload("threads", "3");
	int status;

	ASSERT_GT(pid, 0);
	usleep(300 * 1000);
	snprintf(tidarg, sizeof(tidarg), "%d", pid);
	ASSERT_EQ(0, rt_record(&run, 60, opts, NULL, NULL));
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	EXPECT_EQ(124, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.samples, 0);
	EXPECT_EQ(1, f.nr_tids);
	EXPECT_EQ((uint32_t)pid, f.tids[0]);
	pc_run_free(&run);
}

TEST_F(tgt, cpu_list_records_only_those_cpus)
{
	const char *opts[] = { "-q", "-e", "cpu-clock", "-C", "0", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events need root or perf_event_paranoid <= 0");
	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "1"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.samples, 0);
	EXPECT_EQ(1ULL, f.cpu_mask) TH_LOG("cpus seen: 0x%llx", (unsigned long long)f.cpu_mask);
	pc_run_free(&run);
}

TEST_F(tgt, all_cpus_records_every_cpu_and_the_workload)
{
	const char *opts[] = { "-q", "-a", "-e", "cpu-clock", "-o", self->out, NULL };
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct pc_run run;
	struct rt_file f;

	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events need root or perf_event_paranoid <= 0");
	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "1"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_LT(f.max_cpu, (uint64_t)ncpus);
	if (ncpus <= 64)
		EXPECT_EQ(ncpus == 64 ? ~0ULL : (1ULL << ncpus) - 1, f.cpu_mask)
			TH_LOG("cpu-clock ticks on every cpu, idle or not: 0x%llx",
			       (unsigned long long)f.cpu_mask);
	EXPECT_GE(f.nr_pids, 2) TH_LOG("system-wide sees more than the workload");
	EXPECT_GT(f.comms, 1) TH_LOG("existing processes are synthesized");
	pc_run_free(&run);
}

static int read_pair(const char *path, uint64_t *pair)
{
	unsigned long long a = 0, b = 0;
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%llx %llx", &a, &b);
	fclose(f);
	pair[0] = a;
	pair[1] = b;
	return n == 2 ? 0 : -1;
}

static void check_walkable(struct __test_metadata *_metadata, const char *dir, const char *out,
			   const char *callgraph, bool deferred)
{
	const char *opts[] = { "-q", "-e", "task-clock", "--call-graph", callgraph, "-o", out, NULL };
	char *addrs = strdup(rt_path(dir, "addrs"));
	struct pc_run run;
	struct rt_file f;

	setenv("PC_WL_ADDRS", addrs, 1);
	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "1"));
	unsetenv("PC_WL_ADDRS");
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, read_pair(addrs, f.pair));
	ASSERT_EQ(0, rt_read(out, &f)) TH_LOG("%s", f.err);
	ASSERT_GT(f.samples, 20);
	EXPECT_EQ(f.samples, f.chains) TH_LOG("every sample carries a callchain");
	/* the leaf's return into wl_mid, then wl_mid's into wl_top: a real walk */
	/* deferred: the user part is in CALLCHAIN_DEFERRED records, one per cookie */
	EXPECT_GT(f.chains_with_pair * 2, deferred ? f.deferred : f.samples)
		TH_LOG("%llu of %llu chains walk leaf -> mid -> top",
		       (unsigned long long)f.chains_with_pair, (unsigned long long)f.samples);
	pc_run_free(&run);
	free(addrs);
}

TEST_F(tgt, callchains_walk_through_the_workload_frames)
{
	check_walkable(_metadata, self->dir, self->out, "fp", false);
}

/*
 * Whether the kernel defers user chains: it takes defer_callchain and its
 * behaviour check saw cookies answered.  A kernel that takes the bit without
 * a deferred unwinder (arm64 7.2) gives ordinary chains: why says so.
 */
static bool kernel_defers(char *why, size_t len)
{
	const struct pc_behaviour_result *b;

	snprintf(why, len, "kernel lacks defer_callchain");
	if (pc_feature_probe(PC_FEAT_DEFER_CALLCHAIN, NULL) != PC_FEATURE_SUPPORTED)
		return false;
	b = pc_behaviour_check(PC_FEAT_DEFER_CALLCHAIN);
	if (b && b->verdict == PC_BEHAVIOUR_NOT_TESTED) {
		snprintf(why, len, "kernel takes defer_callchain and does not defer: %s", b->detail);
		return false;
	}
	return true;
}

TEST_F(tgt, deferred_callchains_fall_back_where_the_kernel_lacks_them)
{
	char why[400];

	if (kernel_defers(why, sizeof(why)))
		SKIP(return, "kernel defers user callchains: the deferred test covers it");
	TH_LOG("%s", why);
	check_walkable(_metadata, self->dir, self->out, "fp,defer", false);
}

TEST_F(tgt, deferred_callchains_arrive_in_their_own_records)
{
	struct rt_file f;
	char why[400];

	if (!kernel_defers(why, sizeof(why)))
		SKIP(return, "%s", why);
	check_walkable(_metadata, self->dir, self->out, "fp,defer", true);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.deferred, 0) TH_LOG("no PERF_RECORD_CALLCHAIN_DEFERRED");
}

TEST_F(tgt, switch_events_records_context_switches)
{
	const char *opts[] = { "-q", "--switch-events", "-e", "task-clock", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "1"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.switches, 0);
	pc_run_free(&run);
}

TEST_F(tgt, several_events_share_one_ring_per_cpu_and_keep_their_ids)
{
	const char *opts[] = { "-q", "-e", "task-clock,page-faults", "-c", "1000", "-o",
			       self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.5"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_EQ(2, f.nr_evsels);
	EXPECT_GT(f.evsel_samples[0], 0) TH_LOG("no task-clock sample");
	EXPECT_GT(f.evsel_samples[1], 0) TH_LOG("no page-faults sample");
	pc_run_free(&run);
}

RECORD_TEST_MAIN()
