// SPDX-License-Identifier: GPL-2.0
/*
 * A pipe file brings its attrs as records, and more may come after the
 * first samples.  Events seen before must stay valid: report and script
 * read a sample's event after later ATTR records were added (this was a
 * heap-use-after-free under AddressSanitizer; the same file is kept as
 * fuzz/regressions/pipe-late-attrs-uaf.data).
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "reader_util.h"

#define LATE_ATTRS 4

/* ATTR, one SAMPLE, then four more ATTRs: the six-record file of the regression */
static void six_records(struct synth *d)
{
	union pc_attr a;
	struct pd_sample v = rt_id(42, 42, 1000);

	memset(&a, 0, sizeof(a));
	a.attr.type = PERF_TYPE_SOFTWARE;
	a.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	a.attr.size = PERF_ATTR_SIZE_VER5;
	a.attr.sample_period = 100000;
	/* no time: the sample goes to the consumer before the later ATTRs are read */
	a.attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			     PERF_SAMPLE_PERIOD;
	uint64_t id = 7;

	synth_pipe_header(d);
	synth_attr(d, &a.attr, &id, 1);
	v.id = 7;
	v.ip = 0x400123;
	v.period = 100000;
	synth_sample(d, &a.attr, &v);
	for (int i = 0; i < LATE_ATTRS; i++) {
		id = 100 + (uint64_t)i;
		a.attr.config = PERF_COUNT_SW_TASK_CLOCK;
		synth_attr(d, &a.attr, &id, 1);
	}
}

FIXTURE(late) {
	char *dir;
	char path[4096];
	struct pc_run run;
};

FIXTURE_SETUP(late)
{
	struct synth d = { 0 };
	FILE *f;

	self->dir = pc_test_mkdtemp("late-attrs");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/pipe.data", self->dir);
	six_records(&d);
	f = fopen(self->path, "wb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(d.len, fwrite(d.buf, 1, d.len, f));
	fclose(f);
	synth_free(&d);
	memset(&self->run, 0, sizeof(self->run));
}

FIXTURE_TEARDOWN(late)
{
	pc_run_free(&self->run);
	pc_test_rmdir(self->dir);
}

TEST_F(late, report_counts_the_sample_of_the_first_event)
{
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, NULL, NULL, NULL,
				  NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	/* one table, for the event that took the sample, with its one sample */
	/* a pipe without names: perf's name from the attr (exclude_guest 0: ":HG") */
	EXPECT_NE(NULL, strstr(self->run.out, "Samples: 1  of event 'cpu-clock:HG'"))
		TH_LOG("%s", self->run.out);
	EXPECT_EQ(1, pc_count_substr(self->run.out, "# Samples:"));
}

TEST_F(late, script_prints_the_sample)
{
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, NULL, NULL, NULL,
				  NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_EQ(1, pc_count_substr(self->run.out, "cpu-clock"))
		TH_LOG("%s", self->run.out);
}

TEST_HARNESS_MAIN
