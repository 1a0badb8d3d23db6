// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop, perf -> perfcheck: files written by this machine's
 * upstream perf (the system's on a host, that kernel's Debian perf in a
 * matrix guest) are printed by `perfcheck script` exactly as `perf script`
 * prints them: the same samples, headers and callchain addresses, and the
 * same symbols wherever both resolve them (interop_script.h).  On a kernel
 * with deferred callchains and a perf that records them, both the merged
 * output and --no-merge-callchains are compared.  In a guest the files and
 * perf's outputs are kept as artifacts: fixtures/upstream is made of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "interop_script.h"
#include "interop_tools.h"

FIXTURE(perf_records) {
	char *dir;
	char data[512];
	struct up_version v;
};

FIXTURE_SETUP(perf_records)
{
	if (!up_perf())
		SKIP(return, "no upstream perf here (guest without the upstream payload: "
			     "make matrix without --no-upstream)");
	if (!up_pcwork())
		SKIP(return, "pcwork is not next to perfcheck (make)");
	ASSERT_EQ(0, up_perf_version(&self->v));
	self->dir = pc_test_mkdtemp("interop-perf");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	TH_LOG("upstream %s", self->v.text);
}

FIXTURE_TEARDOWN(perf_records)
{
	pc_test_rmdir(self->dir);
}

/* The last perf record command line, kept beside its file. */
static char last_command[1024];

/* perf record OPTS -o DATA -- pcwork MODE MS; returns perf's exit code. */
static int perf_record(struct __test_metadata *_metadata, const char *data, const char *const *opts,
		       const char *mode)
{
	char *argv[32];
	struct pc_run run;
	int n = 0, code;

	argv[n++] = (char *)up_perf();
	argv[n++] = "record";
	argv[n++] = "-q";
	for (; *opts; opts++)
		argv[n++] = (char *)*opts;
	argv[n++] = "-o";
	argv[n++] = (char *)data;
	argv[n++] = "--";
	argv[n++] = (char *)up_pcwork();
	argv[n++] = (char *)mode;
	argv[n++] = UP_WORK_MS;
	argv[n] = NULL;
	last_command[0] = '\0';
	for (int i = 0; i < n; i++) {
		size_t l = strlen(last_command);

		snprintf(last_command + l, sizeof(last_command) - l, "%s%s", i ? " " : "", argv[i]);
	}
	up_run(&run, 300, argv);
	code = run.exit_code;
	if (code)
		TH_LOG("perf record: exit %d: %s", code, run.err ? run.err : "");
	pc_run_free(&run);
	return code;
}

/*
 * Runs `perf script -i DATA EXTRA` and `perfcheck script --compat V -i DATA
 * EXTRA`, keeps both under NAME, and compares them.
 */
static void compare_scripts(struct __test_metadata *_metadata, FIXTURE_DATA(perf_records) *self,
			    const char *name, const char *extra)
{
	char *pa[] = { (char *)up_perf(), "script", "-i", self->data, (char *)extra, NULL };
	char *pb[] = { (char *)pc_test_perfcheck(), "script", "--compat",
		       (char *)up_compat(&self->v), "-i", self->data, (char *)extra, NULL };
	struct pc_run a, b;
	struct is_cmp c;
	char sum[512];
	char file[128];
	int ret;

	ASSERT_EQ(0, up_run(&a, 600, pa));
	ASSERT_EQ(0, up_run(&b, 600, pb));
	up_keep(name, "perf.data", NULL, self->data);
	snprintf(file, sizeof(file), "perf-script%s.txt", extra ? "-no-merge" : "");
	up_keep(name, file, a.out, NULL);
	snprintf(file, sizeof(file), "perfcheck-script%s.txt", extra ? "-no-merge" : "");
	up_keep(name, file, b.out, NULL);
	up_keep(name, "perf-version.txt", self->v.text, NULL);
	up_keep(name, "command.txt", last_command, NULL);
	up_keep(name, "pcwork", NULL, up_pcwork());
	EXPECT_EQ(0, a.exit_code) TH_LOG("perf script: %s", a.err);
	EXPECT_EQ(0, b.exit_code) TH_LOG("perfcheck script: %s", b.err);
	ret = is_compare_text(a.out, b.out, &c);
	is_cmp_summary(&c, sum, sizeof(sum));
	TH_LOG("%s: %s", name, sum);
	if (ret)
		ksft_print_msg("%s\n", c.why);	/* the reason the matrix shows */
	EXPECT_EQ(0, ret) TH_LOG("perfcheck script differs from %s's perf script: %s",
				 self->v.text, c.why);
	/* an empty comparison proves nothing (how many depends on the load:
	 * a busy host throttles sampling, kernel.perf_event_max_sample_rate) */
	EXPECT_LT(0, c.samples);
	pc_run_free(&a);
	pc_run_free(&b);
}

TEST_F_TIMEOUT(perf_records, script_matches_perf_script_on_a_callchain_recording, 600)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", UP_PERIOD, "-g", NULL };

	ASSERT_EQ(0, perf_record(_metadata, self->data, opts, "syscalls"));
	compare_scripts(_metadata, self, "fp", NULL);
}

TEST_F_TIMEOUT(perf_records, script_matches_perf_script_without_callchains, 600)
{
	const char *opts[] = { "-e", "cpu-clock", "-F", "997", NULL };

	ASSERT_EQ(0, perf_record(_metadata, self->data, opts, "spin"));
	compare_scripts(_metadata, self, "nocallchain", NULL);
}

TEST_F_TIMEOUT(perf_records, script_matches_perf_script_with_two_events, 600)
{
	const char *opts[] = { "-e", "cpu-clock,task-clock", "-c", UP_PERIOD, "-g", NULL };

	ASSERT_EQ(0, perf_record(_metadata, self->data, opts, "syscalls"));
	compare_scripts(_metadata, self, "two-events", NULL);
}

static bool defer_usable(struct __test_metadata *_metadata, FIXTURE_DATA(perf_records) *self)
{
	if (!up_kernel_has(PC_FEAT_DEFER_CALLCHAIN))
		return false;
	return up_perf_knows_defer(self->dir);
}

TEST_F_TIMEOUT(perf_records, merged_script_matches_perf_script_with_deferred_callchains, 600)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", UP_PERIOD, "--call-graph", "fp,defer", NULL };

	if (!up_kernel_has(PC_FEAT_DEFER_CALLCHAIN))
		SKIP(return, "kernel lacks defer_callchain");
	if (!defer_usable(_metadata, self))
		SKIP(return, "%s does not record --call-graph fp,defer", self->v.text);
	ASSERT_EQ(0, perf_record(_metadata, self->data, opts, "syscalls"));
	compare_scripts(_metadata, self, "fp-defer", NULL);
}

TEST_F_TIMEOUT(perf_records, no_merge_script_matches_perf_script_with_deferred_callchains, 600)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", UP_PERIOD, "--call-graph", "fp,defer", NULL };

	if (!up_kernel_has(PC_FEAT_DEFER_CALLCHAIN))
		SKIP(return, "kernel lacks defer_callchain");
	if (!defer_usable(_metadata, self))
		SKIP(return, "%s does not record --call-graph fp,defer", self->v.text);
	ASSERT_EQ(0, perf_record(_metadata, self->data, opts, "syscalls"));
	compare_scripts(_metadata, self, "fp-defer-no-merge", "--no-merge-callchains");
}

TEST_HARNESS_MAIN
