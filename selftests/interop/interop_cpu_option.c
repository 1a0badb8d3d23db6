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

PERFCMP_FIXTURE(cpu, "interop-cpu-option")

#define RECORD(opts) PERFCMP_RECORD(self->c.path, opts, PERFCMP_SPIN)

/* perf record OPTS -o - into self->c.pipe */
#define RECORD_PIPE(opts)                                                                  \
	do {                                                                               \
		struct pc_run r_;                                                          \
		RECORD(opts);                                                              \
		ASSERT_EQ(0, perfcmp_sh(&r_, "perf record %s -o - -- sh -c '%s' >'%s'",    \
					opts, PERFCMP_SPIN, self->c.pipe));                \
		ASSERT_EQ(0, r_.exit_code) TH_LOG("%s", r_.err);                           \
		pc_run_free(&r_);                                                          \
	} while (0)

/* perf CMD ARGS and ours (INPUT as -i's argument and stdin): out, err and status equal */
static void same_all(struct __test_metadata *_metadata, FIXTURE_DATA(cpu) *self,
		     const char *cmd, const char *args, const char *input)
{
	char first[800];
	struct perfcmp *c = &self->c;
	const char *in = strcmp(input, c->pipe) ? input : "-";

	ASSERT_EQ(0, perfcmp_sh(&c->perf, "perf %s -i '%s' %s <'%s'", cmd, in, args, input));
	ASSERT_EQ(0, perfcmp_sh(&c->ours, "'%s' %s --compat 6.1 -i '%s' %s <'%s'",
				pc_test_perfcheck(), cmd, in, args, input));
	perfcmp_cut_tip(c->perf.out);
	EXPECT_EQ(c->perf.exit_code, c->ours.exit_code) TH_LOG("perf: %s", c->perf.err);
	EXPECT_TRUE(perfcmp_same(c->perf.out, c->ours.out, first, sizeof(first)))
		TH_LOG("perf %s %s: first difference at %s", cmd, args, first);
	EXPECT_STREQ(c->perf.err, c->ours.err);
}

TEST_F(cpu, script_cpu_beyond_the_files_cpus_fails_as_perf)
{
	RECORD("--sample-cpu -e cpu-clock -c 100000");
	same_all(_metadata, self, "script", "-C 4096,9999", self->c.path);
	EXPECT_EQ(255, self->c.ours.exit_code);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "Requested CPU 4096 too large"));
}

TEST_F(cpu, script_cpu_of_a_file_without_cpus_fails_as_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same_all(_metadata, self, "script", "-C 0", self->c.path);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "File does not contain CPU events"));
}

TEST_F(cpu, report_cpu_beyond_the_files_cpus_stops_as_perf)
{
	RECORD("--sample-cpu -e cpu-clock -c 100000");
	same_all(_metadata, self, "report", "--stdio -C 4096", self->c.path);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "failed to set cpu bitmap"));
}

/* the samples of one CPU alone (the first sample's): rows, totals and the Samples line */
TEST_F(cpu, report_cpu_keeps_that_cpus_samples_as_perf)
{
	char args[64];
	struct pc_run r;
	unsigned int c = 0;

	RECORD("--sample-cpu -e cpu-clock -c 100000");
	ASSERT_EQ(0, perfcmp_sh(&r, "perf script -F cpu -i '%s' 2>/dev/null | head -1",
				self->c.path));
	ASSERT_EQ(1, sscanf(r.out ? r.out : "", " [%u]", &c)) TH_LOG("perf script -F cpu: %s", r.out);
	pc_run_free(&r);
	snprintf(args, sizeof(args), "--stdio -C %u --no-children", c);
	same_all(_metadata, self, "report", args, self->c.path);
	EXPECT_NE(NULL, strstr(self->c.ours.out, "# Samples: "));
}

/* a pipe's features come after -C is tested: perf says every CPU is too large */
TEST_F(cpu, script_cpu_on_a_pipe_fails_as_perf)
{
	RECORD_PIPE("--sample-cpu -e cpu-clock -c 100000");
	same_all(_metadata, self, "script", "-C 0", self->c.pipe);
	EXPECT_EQ(255, self->c.ours.exit_code);
}

TEST_F(cpu, report_cpu_on_a_pipe_stops_as_perf)
{
	RECORD_PIPE("--sample-cpu -e cpu-clock -c 100000");
	same_all(_metadata, self, "report", "--stdio -C 1,0", self->c.pipe);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "Requested CPU 0 too large"));
}

TEST_HARNESS_MAIN
