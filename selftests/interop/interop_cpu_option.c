// SPDX-License-Identifier: GPL-2.0
/*
 * -C (--cpu) against the system perf 6.1, on files and pipes it records
 * here: perf tests the list before reading (the first event of each type
 * must sample the CPU; each CPU must be below the file's number of CPUs,
 * which a pipe does not have yet), and when that fails script exits 255
 * with perf's message and report prints its first line, then "failed to
 * set cpu bitmap", exit 0.  When it passes, only those CPUs' samples count.
 * stdout, stderr and the exit status are compared.  Skips where no perf is
 * installed (the QEMU guests) or it may not record.
 */
#include "kselftest_harness.h"
#include "lib/perfcmp.h"

FIXTURE(cpu) {
	char *dir;
	char path[512], pipe[512];
	struct pc_run perf, ours;
};

FIXTURE_SETUP(cpu)
{
	memset(&self->perf, 0, sizeof(self->perf));
	memset(&self->ours, 0, sizeof(self->ours));
	self->dir = pc_test_mkdtemp("interop-cpu-option");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	snprintf(self->pipe, sizeof(self->pipe), "%s/pipe.data", self->dir);
}

FIXTURE_TEARDOWN(cpu)
{
	pc_run_free(&self->perf);
	pc_run_free(&self->ours);
	pc_test_rmdir(self->dir);
}

#define RECORD(opts)                                                                       \
	do {                                                                               \
		char why_[300];                                                            \
		if (!perfcmp_record(self->path, opts, PERFCMP_SPIN, why_, sizeof(why_)))    \
			SKIP(return, "%s", why_);                                          \
	} while (0)

/* perf record OPTS -o - into self->pipe */
#define RECORD_PIPE(opts)                                                                  \
	do {                                                                               \
		struct pc_run r_;                                                          \
		RECORD(opts);                                                              \
		ASSERT_EQ(0, perfcmp_sh(&r_, "perf record %s -o - -- sh -c '%s' >'%s'",    \
					opts, PERFCMP_SPIN, self->pipe));                  \
		ASSERT_EQ(0, r_.exit_code) TH_LOG("%s", r_.err);                           \
		pc_run_free(&r_);                                                          \
	} while (0)

/* perf CMD ARGS and ours (INPUT as -i's argument and stdin): out, err and status equal */
static void same_all(struct __test_metadata *_metadata, FIXTURE_DATA(cpu) *self,
		     const char *cmd, const char *args, const char *input)
{
	char first[800];
	const char *in = strcmp(input, self->pipe) ? input : "-";

	ASSERT_EQ(0, perfcmp_sh(&self->perf, "perf %s -i '%s' %s <'%s'", cmd, in, args, input));
	ASSERT_EQ(0, perfcmp_sh(&self->ours, "'%s' %s --compat 6.1 -i '%s' %s <'%s'",
				pc_test_perfcheck(), cmd, in, args, input));
	perfcmp_cut_tip(self->perf.out);
	EXPECT_EQ(self->perf.exit_code, self->ours.exit_code) TH_LOG("perf: %s", self->perf.err);
	EXPECT_TRUE(perfcmp_same(self->perf.out, self->ours.out, first, sizeof(first)))
		TH_LOG("perf %s %s: first difference at %s", cmd, args, first);
	EXPECT_STREQ(self->perf.err, self->ours.err);
}

TEST_F(cpu, script_cpu_beyond_the_files_cpus_fails_as_perf)
{
	RECORD("--sample-cpu -e cpu-clock -c 100000");
	same_all(_metadata, self, "script", "-C 4096,9999", self->path);
	EXPECT_EQ(255, self->ours.exit_code);
	EXPECT_NE(NULL, strstr(self->ours.err, "Requested CPU 4096 too large"));
}

TEST_F(cpu, script_cpu_of_a_file_without_cpus_fails_as_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same_all(_metadata, self, "script", "-C 0", self->path);
	EXPECT_NE(NULL, strstr(self->ours.err, "File does not contain CPU events"));
}

TEST_F(cpu, report_cpu_beyond_the_files_cpus_stops_as_perf)
{
	RECORD("--sample-cpu -e cpu-clock -c 100000");
	same_all(_metadata, self, "report", "--stdio -C 4096", self->path);
	EXPECT_NE(NULL, strstr(self->ours.err, "failed to set cpu bitmap"));
}

/* the samples of one CPU alone (the first sample's): rows, totals and the Samples line */
TEST_F(cpu, report_cpu_keeps_that_cpus_samples_as_perf)
{
	char args[64];
	struct pc_run r;
	unsigned int c = 0;

	RECORD("--sample-cpu -e cpu-clock -c 100000");
	ASSERT_EQ(0, perfcmp_sh(&r, "perf script -F cpu -i '%s' 2>/dev/null | head -1", self->path));
	ASSERT_EQ(1, sscanf(r.out ? r.out : "", " [%u]", &c)) TH_LOG("perf script -F cpu: %s", r.out);
	pc_run_free(&r);
	snprintf(args, sizeof(args), "--stdio -C %u --no-children", c);
	same_all(_metadata, self, "report", args, self->path);
	EXPECT_NE(NULL, strstr(self->ours.out, "# Samples: "));
}

/* a pipe's features come after -C is tested: perf says every CPU is too large */
TEST_F(cpu, script_cpu_on_a_pipe_fails_as_perf)
{
	RECORD_PIPE("--sample-cpu -e cpu-clock -c 100000");
	same_all(_metadata, self, "script", "-C 0", self->pipe);
	EXPECT_EQ(255, self->ours.exit_code);
}

TEST_F(cpu, report_cpu_on_a_pipe_stops_as_perf)
{
	RECORD_PIPE("--sample-cpu -e cpu-clock -c 100000");
	same_all(_metadata, self, "report", "--stdio -C 1,0", self->pipe);
	EXPECT_NE(NULL, strstr(self->ours.err, "Requested CPU 0 too large"));
}

TEST_HARNESS_MAIN
