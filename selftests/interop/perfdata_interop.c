// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data interop with the system's perf, both ways: files the library
 * writes are read by `perf script` and `perf report` without an error or
 * a warning, and files `perf record -g` writes are read by the library
 * with as many samples as `perf script` prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/synth.h"
#include "lib/testutil.h"

#define NR_SAMPLES 50

FIXTURE(interop) {
	char *dir;
	char path[512];
};

FIXTURE_SETUP(interop)
{
	if (!pc_test_have_program("perf"))
		SKIP(return, "the system perf is not installed (guest or minimal host)");
	self->dir = pc_test_mkdtemp("interop");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(interop)
{
	pc_test_rmdir(self->dir);
}

/* A recording as our recorder makes them: two events, comm, mmap2, chains. */
static int write_library_file(const char *path)
{
	union pc_attr a, b;
	const struct perf_event_attr *attrs[2] = { &a.attr, &b.attr };
	const char *names[2] = { "cpu-clock", "page-faults" };
	uint64_t ids[2] = { 101, 202 };
	struct synth data = { 0 };
	struct pd_sample v = { 0 };
	int ret;

	for (int i = 0; i < 2; i++) {
		union pc_attr *x = i ? &b : &a;

		memset(x, 0, sizeof(*x));
		x->attr.type = PERF_TYPE_SOFTWARE;
		x->attr.config = i ? PERF_COUNT_SW_PAGE_FAULTS : PERF_COUNT_SW_CPU_CLOCK;
		x->attr.size = PERF_ATTR_SIZE_VER7;
		x->attr.sample_period = 100000;
		x->attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				      PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
				      PERF_SAMPLE_CALLCHAIN;
		x->attr.sample_id_all = 1;
		x->attr.mmap = x->attr.comm = x->attr.mmap2 = x->attr.comm_exec = !i;
		x->attr.exclude_kernel = 1;
		x->attr.exclude_hv = 1;
	}
	v.pid = v.tid = 1234;
	v.time = 1000000000ULL;
	v.id = ids[0];
	synth_comm(&data, &a.attr, 1234, 1234, "workload", &v);
	synth_mmap2(&data, &a.attr, 1234, 1234, 0x400000, 0x10000, 0, "/usr/bin/workload", &v);
	for (int i = 0; i < NR_SAMPLES; i++) {
		uint64_t chain[4] = { PC_CONTEXT_USER, 0x401000 + i, 0x402000, 0x403000 };
		int ev = i % 5 == 4;

		v.id = ids[ev];
		v.ip = chain[1];
		v.time += 250000;
		v.cpu = i % 2;
		v.period = ev ? 1 : 250000;
		v.chain.ips = chain;
		v.chain.nr = 4;
		synth_sample(&data, ev ? &b.attr : &a.attr, &v);
		if (i % 10 == 9)
			synth_finished_round(&data);
	}
	ret = synth_write_file(path, attrs, ids, names, 2, &data);
	synth_free(&data);
	return ret;
}

TEST_F(interop, perf_script_reads_a_library_file_without_warnings)
{
	char *argv[] = { "perf", "script", "-i", self->path, NULL };
	struct pc_run run;

	ASSERT_EQ(0, write_library_file(self->path));
	ASSERT_EQ(0, pc_test_run(&run, 120, argv));
	EXPECT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_STREQ("", run.err);
	/* one header line per sample, each naming its event */
	EXPECT_EQ(NR_SAMPLES / 5 * 4, pc_count_substr(run.out, " cpu-clock:"));
	EXPECT_EQ(NR_SAMPLES / 5, pc_count_substr(run.out, " page-faults:"));
	EXPECT_NE(NULL, strstr(run.out, "workload"));
	pc_run_free(&run);
}

TEST_F(interop, perf_report_reads_a_library_file_without_warnings)
{
	char *argv[] = { "perf", "report", "--stdio", "-i", self->path, NULL };
	struct pc_run run;

	ASSERT_EQ(0, write_library_file(self->path));
	ASSERT_EQ(0, pc_test_run(&run, 120, argv));
	EXPECT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_STREQ("", run.err);
	EXPECT_NE(NULL, strstr(run.out, "# Samples: 40  of event 'cpu-clock'"));
	EXPECT_NE(NULL, strstr(run.out, "# Samples: 10  of event 'page-faults'"));
	pc_run_free(&run);
}

TEST_F(interop, library_reads_perf_record_g_with_the_samples_perf_script_prints)
{
	char *rec[] = { "perf", "record", "-q", "-e", "cpu-clock", "-c", "100000", "-g",
			"-o", self->path, "--", "sh", "-c",
			"i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done", NULL };
	char *script_all[] = { "perf", "script", "-F", "tid", "-i", self->path, NULL };
	struct pd_reader r;
	struct pd_record record;
	struct pd_sample s;
	struct pc_error err;
	struct pc_run run;
	uint64_t pos = 0;
	int samples = 0, chains = 0, lines = 0, ret;

	ASSERT_EQ(0, pc_test_run(&run, 120, rec));
	if (run.exit_code != 0)
		SKIP(pc_run_free(&run); return, "perf record cannot sample here: %s", run.err);
	pc_run_free(&run);

	ASSERT_EQ(0, pd_reader_open(&r, self->path, &err)) TH_LOG("%s", err.msg);
	while ((ret = pd_reader_next(&r, &pos, &record, &err)) == 1) {
		if (record.header.type != PERF_RECORD_SAMPLE)
			continue;
		ASSERT_EQ(0, pd_parse_sample(&r, &record, &s, &err)) TH_LOG("%s", err.msg);
		samples++;
		chains += s.chain.nr > 1;
	}
	EXPECT_EQ(0, ret) TH_LOG("%s", err.msg);
	pd_reader_close(&r);
	EXPECT_LT(0, samples);
	EXPECT_EQ(samples, chains);

	ASSERT_EQ(0, pc_test_run(&run, 120, script_all));
	ASSERT_EQ(0, run.exit_code);
	for (char *p = run.out; (p = strchr(p, '\n')); p++)
		lines++;
	pc_run_free(&run);
	EXPECT_EQ(samples, lines);
}

TEST_HARNESS_MAIN
