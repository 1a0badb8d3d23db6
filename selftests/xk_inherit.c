// SPDX-License-Identifier: GPL-2.0
/*
 * Inheritance on every kernel: children and threads of the workload are
 * sampled (and not with --no-inherit); with -s, inherit_stat reports each
 * exiting child's count in a PERF_RECORD_READ; inherit with
 * PERF_SAMPLE_READ gives each thread its own count (6.12 and later; before,
 * the probe layer clears it and xk_record checks that the file says so).
 */
#include "kselftest_harness.h"
#include "xk_common.h"

#define PERIOD "1000000"

FIXTURE(inh)
{
	struct xk_dir d;
	struct xk_file f;
};

FIXTURE_SETUP(inh)
{
	ASSERT_EQ(0, xk_dir_make(&self->d, "xk-inherit"));
}

FIXTURE_TEARDOWN(inh)
{
	xk_dir_free(&self->d);
}

static void record(struct __test_metadata *_metadata, FIXTURE_DATA(inh) *self,
		   const char *const *opts, const char *const *wl)
{
	struct pc_run run;

	ASSERT_EQ(0, xk_record(&run, self->d.data, opts, wl, 120));
	ASSERT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, xk_read(self->d.data, &self->f)) TH_LOG("%s", self->f.err);
}

/* tids with samples, other than the workload's first thread */
static int sampled_others(const struct xk_file *f, bool other_pids)
{
	int n = 0;

	for (int i = 1; i < f->nr_tids; i++)
		if (f->tids[i].samples && (!other_pids || f->tids[i].pid != f->tids[0].pid))
			n++;
	return n;
}

TEST_F(inh, forked_children_of_the_workload_are_sampled)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", PERIOD, NULL };
	const char *wl[] = { "fork", "3", NULL };

	record(_metadata, self, opts, wl);
	TH_LOG("%u processes, %d threads sampled", self->f.nr_pids, self->f.nr_tids);
	EXPECT_LE(3, self->f.nr_pids);
	EXPECT_LE(3, self->f.forks);
}

TEST_F(inh, threads_of_the_workload_are_sampled)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", PERIOD, NULL };
	const char *wl[] = { "threads", "3", NULL };
	int threads = 0;

	record(_metadata, self, opts, wl);
	for (int i = 0; i < self->f.nr_tids; i++)
		threads += self->f.tids[i].tid != self->f.tids[i].pid && self->f.tids[i].samples;
	TH_LOG("%u processes, %d threads sampled", self->f.nr_pids, self->f.nr_tids);
	EXPECT_EQ(1, self->f.nr_pids);
	EXPECT_EQ(3, threads);
}

TEST_F(inh, no_inherit_samples_neither_children_nor_threads)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", PERIOD, "--no-inherit", NULL };
	const char *fork_wl[] = { "fork", "3", NULL };
	const char *threads_wl[] = { "threads", "3", NULL };

	record(_metadata, self, opts, fork_wl);
	EXPECT_EQ(0, sampled_others(&self->f, true));
	EXPECT_FALSE(self->f.inherit);
	record(_metadata, self, opts, threads_wl);
	EXPECT_EQ(0, sampled_others(&self->f, false));
}

TEST_F(inh, inherit_stat_reports_each_exiting_child_in_a_read_record)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", PERIOD, "-s", NULL };
	const char *wl[] = { "fork", "3", NULL };

	/* perfcheck record -s asks for PERF_SAMPLE_READ too: without it, no inherit */
	if (!xk_has(PC_FEAT_INHERIT_SAMPLE_READ))
		SKIP(return, "kernel lacks inherit_sample_read (record -s follows no child)");
	record(_metadata, self, opts, wl);
	EXPECT_TRUE(self->f.inherit && self->f.inherit_stat);
	TH_LOG("%llu READ records, %u processes",
	       (unsigned long long)self->f.reads, self->f.nr_pids);
	EXPECT_LE(3, self->f.reads);
	EXPECT_LE(3, self->f.nr_pids);
}

TEST_F(inh, inherited_sample_read_gives_each_thread_its_own_count)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", PERIOD, "-s", NULL };
	const char *wl[] = { "threads", "3", NULL };
	uint64_t period = strtoull(PERIOD, NULL, 0);
	int threads = 0;

	if (!xk_has(PC_FEAT_INHERIT_SAMPLE_READ))
		SKIP(return, "kernel lacks inherit_sample_read");
	record(_metadata, self, opts, wl);
	ASSERT_TRUE(self->f.sample_type & PERF_SAMPLE_READ);
	ASSERT_TRUE(self->f.inherit);
	for (int i = 0; i < self->f.nr_tids; i++) {
		const struct xk_tid *t = &self->f.tids[i];

		if (t->tid == t->pid || !t->samples)
			continue;
		threads++;
		TH_LOG("tid %u: %llu samples, counts %llu..%llu", t->tid,
		       (unsigned long long)t->samples, (unsigned long long)t->read_min,
		       (unsigned long long)t->read_max);
		EXPECT_TRUE(t->read_monotonic);
		/* its own count (per event: one per cpu) starts from zero, not from the
		 * running total of the process */
		EXPECT_GE(3 * period, t->read_min);
		EXPECT_LE(t->read_min, t->read_max);
	}
	EXPECT_EQ(3, threads);
}

TEST_HARNESS_MAIN
