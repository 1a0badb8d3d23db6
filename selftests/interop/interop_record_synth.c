// SPDX-License-Identifier: GPL-2.0
/*
 * What perf record writes of a process that ran before the recording, and
 * ours for the same target: perf script --show-task-events
 * --show-mmap-events --show-namespace-events of both files, the records of
 * a three-thread process this test starts, in the same order with the same
 * contents.  perf 6.1 synthesizes from its thread map for -p and -t (a COMM
 * and NAMESPACES per thread, the leader's maps after it, no FORK; -t adds
 * the leader the list lacks) and from /proc for -a (a FORK, NAMESPACES and
 * COMM per thread).  Skips where no perf is installed.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/perfcmp.h"

static void *idle_thread(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/* the target: a leader and two threads, idle until killed */
static pid_t start_target(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		pthread_t t;

		pthread_create(&t, NULL, idle_thread, NULL);
		pthread_create(&t, NULL, idle_thread, NULL);
		idle_thread(NULL);
		_exit(0);
	}
	return pid;
}

/* the target's tids (the leader's first, as /proc lists them): how many, up to max */
static int target_tids(pid_t pid, pid_t *tids, int max)
{
	for (int tries = 0; tries < 500; tries++) {
		char cmd[96];
		struct pc_run run;
		int n = 0;

		snprintf(cmd, sizeof(cmd), "ls /proc/%d/task", (int)pid);
		if (perfcmp_sh(&run, "%s", cmd))
			return -1;
		for (char *p = run.out; p && *p && n < max; p = strchr(p, '\n'), p += !!p)
			if (*p >= '0' && *p <= '9')
				tids[n++] = (pid_t)atoi(p);
		pc_run_free(&run);
		if (n == max)
			return n;
		usleep(10000);
	}
	return -1;
}

/*
 * An MMAP2's file identity left out ("@ 0x1000 fe:00 10953038 0]" becomes
 * "@ 0x1000]"): perf 7.2 writes the build id there ("<1f95...>", its
 * default build-id mmaps), perf 6.1 and ours the device and inode
 */
static void drop_file_id(char *line)
{
	char *at = strstr(line, " @ 0x"), *sp, *end;

	if (!at)
		return;
	sp = strchr(at + 5, ' ');
	end = strstr(at, "]: ");
	if (sp && end && sp < end)
		memmove(sp, end, strlen(end) + 1);
}

/*
 * The synthesized records (time 0) perf script shows of pid in path, one
 * per line, from the record's name on; malloc'd
 */
static char *synthesized_of(struct __test_metadata *_metadata, const char *path, pid_t pid)
{
	struct pc_run run;
	char keys[3][32];
	size_t len = 0;
	char *out;

	if (perfcmp_sh(&run, "perf script --show-task-events --show-mmap-events "
		       "--show-namespace-events -F comm,tid,time -i '%s'", path))
		return NULL;
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	out = calloc(1, run.out_len + 1);
	/* MMAP2 and NAMESPACES " PID/TID", COMM "NAME:PID/TID", FORK "(PID:TID)" */
	snprintf(keys[0], sizeof(keys[0]), " %d/", (int)pid);
	snprintf(keys[1], sizeof(keys[1]), ":%d/", (int)pid);
	snprintf(keys[2], sizeof(keys[2]), "(%d:", (int)pid);
	for (char *l = run.out; out && l && *l; l = strchr(l, '\n'), l += !!l) {
		size_t n = strcspn(l, "\n");
		char *rec = memmem(l, n, "0.000000: PERF_RECORD_", 22), *line;

		if (!rec)
			continue;
		line = strndup(rec + 10, n - (size_t)(rec + 10 - l));
		if (line && !strncmp(line, "PERF_RECORD_MMAP2 ", 18))
			drop_file_id(line);
		if (line && (strstr(line, keys[0]) || strstr(line, keys[1]) || strstr(line, keys[2]))) {
			memcpy(out + len, line, strlen(line));
			len += strlen(line);
			out[len++] = '\n';
		}
		free(line);
	}
	pc_run_free(&run);
	return out;
}

FIXTURE(synth) {
	struct perfcmp c;
	pid_t pid, tids[3];
};

FIXTURE_SETUP(synth)
{
	ASSERT_EQ(0, perfcmp_init(&self->c, "interop-record-synth"));
	self->pid = start_target();
	ASSERT_LT(0, self->pid);
	ASSERT_EQ(3, target_tids(self->pid, self->tids, 3));
}

FIXTURE_TEARDOWN(synth)
{
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, NULL, 0);
	}
	perfcmp_fini(&self->c);
}

/* both tools record TARGET-OPTS for 0.1 s; their synthesized records of the target equal */
static void same_synthesis(struct __test_metadata *_metadata, FIXTURE_DATA(synth) *self,
			   const char *opts, const char *want)
{
	char theirs[600], ours[600];
	char *a, *b;
	struct pc_run run;

	if (!pc_test_have_program("perf"))
		SKIP(return, "no perf installed");
	snprintf(theirs, sizeof(theirs), "%s/perf.data", self->c.dir);
	snprintf(ours, sizeof(ours), "%s/ours.data", self->c.dir);
	ASSERT_EQ(0, perfcmp_sh(&run, "perf record -q -e cpu-clock %s -o '%s' -- sleep 0.1", opts, theirs));
	if (run.exit_code)
		SKIP(return, "perf record %s cannot record here: %.200s", opts, run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, perfcmp_sh(&run, "'%s' record -q -e cpu-clock %s -o '%s' -- sleep 0.1",
				pc_test_perfcheck(), opts, ours));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	a = synthesized_of(_metadata, theirs, self->pid);
	b = synthesized_of(_metadata, ours, self->pid);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_STREQ(a, b) TH_LOG("perf record %s", opts);
	EXPECT_NE(NULL, strstr(a, want)) TH_LOG("perf wrote no %s: %s", want, a);
	free(a);
	free(b);
}

/* -p: each thread's COMM, the leader's maps after its COMM, no FORK */
TEST_F(synth, attach_to_a_process_writes_perfs_comms_and_maps)
{
	char opts[64];

	snprintf(opts, sizeof(opts), "-p %d", (int)self->pid);
	same_synthesis(_metadata, self, opts, "PERF_RECORD_MMAP2 ");
}

/* -p --namespaces: each thread's NAMESPACES after its COMM */
TEST_F(synth, attach_with_namespaces_writes_them_after_each_comm)
{
	char opts[64];

	snprintf(opts, sizeof(opts), "--namespaces -p %d", (int)self->pid);
	same_synthesis(_metadata, self, opts, "PERF_RECORD_NAMESPACES ");
}

/* -t TID of a thread: its COMM, then its leader's COMM and maps (the list lacks it) */
TEST_F(synth, attach_to_a_thread_writes_it_and_its_leader)
{
	char opts[64];

	snprintf(opts, sizeof(opts), "-t %d", (int)self->tids[2]);
	same_synthesis(_metadata, self, opts, "PERF_RECORD_COMM");
}

/* -a --namespaces: per thread a FORK, NAMESPACES and COMM; the leader's maps after its COMM */
TEST_F(synth, system_wide_writes_a_fork_namespaces_and_comm_per_thread)
{
	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events are not allowed (not root, perf_event_paranoid > 0)");
	same_synthesis(_metadata, self, "-a --namespaces", "PERF_RECORD_FORK(");
}

TEST_HARNESS_MAIN
