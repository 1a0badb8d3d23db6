// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-matrix runner's own tests (vm/run): recorded guest consoles are
 * replayed by a stand-in QEMU (vm/tests/fake-qemu) with a fixed nonce, and
 * the guest init's own timeout path runs for real on this host
 * (build/static/vm/init --host).  Host-only: skips inside the guests.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"

#define NONCE "t3stn0nce"
#define M "PCVM:" NONCE ":"

static const char *srcdir(void)
{
	return pc_test_srcdir("vm/run");
}

static int have_runner(void)
{
	char path[PATH_MAX + 64];
	const char *src = srcdir();

	if (!src)
		return 0;
	snprintf(path, sizeof(path), "%s/build/static/vm/init", src);
	return access(path, X_OK) == 0 && pc_test_have_program("prove");
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static char *slurp(const char *dir, const char *name)
{
	char path[PATH_MAX];
	char *buf = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return strdup("");
	if (getdelim(&buf, &cap, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/*
 * Runs vm/run on a matrix of one "file" row named 6.1 whose guest prints
 * CONSOLE, asking for the kernel's mmap selftest; extra matrix rows may be
 * given.  Fills run and returns the result.json of row 6.1 (malloc'd).
 */
static char *replay_ex(struct __test_metadata *_metadata, struct pc_run *run, const char *dir,
		       const char *console, int hang, const char *extra_rows, const char *tests,
		       const char *artifacts)
{
	char matrix[PATH_MAX], results[PATH_MAX], qemu[PATH_MAX], stat[PATH_MAX],
	     runner[PATH_MAX], env_console[PATH_MAX + 32], rows[2 * PATH_MAX],
	     env_art[PATH_MAX + 32];
	const char *src = srcdir();

	put(dir, "console.txt", console);
	snprintf(rows, sizeof(rows), "6.1 file %s/console.txt\n%s", dir, extra_rows ? extra_rows : "");
	put(dir, "kernels", rows);
	snprintf(matrix, sizeof(matrix), "%s/kernels", dir);
	snprintf(results, sizeof(results), "%s/results", dir);
	snprintf(qemu, sizeof(qemu), "PERFCHECK_QEMU=%s/vm/tests/fake-qemu", src);
	snprintf(stat, sizeof(stat), "%s/build/static", src);
	snprintf(runner, sizeof(runner), "%s/vm/run", src);
	snprintf(env_console, sizeof(env_console), "PCVM_FAKE_CONSOLE=%s/console.txt", dir);
	snprintf(env_art, sizeof(env_art), "PCVM_FAKE_ARTIFACTS=%s", artifacts ? artifacts : "");
	/* perf test is part of the upstream suite: only asked for, it runs with it */
	char *argv[] = { "env", "PERFCHECK_VM_NONCE=" NONCE, "PERFCHECK_VM_ACCEL=tcg",
			 strcmp(tests, "perf-test") ? "PERFCHECK_NO_UPSTREAM=1" : "PERFCHECK_NO_UPSTREAM=", qemu,
			 env_console, hang ? "PCVM_FAKE_HANG=1" : "PCVM_FAKE_HANG=", env_art,
			 runner, "-q", "-j", "2", "--matrix", matrix, "--results", results,
			 "--static", stat, "--boot-timeout", "5", "--step-timeout", "2",
			 "all", (char *)tests, NULL };

	EXPECT_EQ(0, pc_test_run(run, 120, argv));
	return slurp(results, "6.1/result.json");
}

static char *replay(struct __test_metadata *_metadata, struct pc_run *run, const char *dir,
		    const char *console, int hang, const char *extra_rows)
{
	return replay_ex(_metadata, run, dir, console, hang, extra_rows, "mmap", NULL);
}

/* The artifacts a guest would ship: its facts (init --facts) and probe result. */
static char *guest_artifacts(const char *dir, const char *facts, const char *probe_json)
{
	static char art[PATH_MAX];
	char cmd[2 * PATH_MAX + 64], sub[PATH_MAX];

	if (snprintf(art, sizeof(art), "%s/art", dir) >= (int)sizeof(art))
		return NULL;
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/collect/facts' '%s/collect/probe-json'", art, art);
	if (system(cmd))
		return NULL;
	if (snprintf(sub, sizeof(sub), "%s/collect/facts", art) >= (int)sizeof(sub))
		return NULL;
	put(sub, "facts.txt", facts);
	if (snprintf(sub, sizeof(sub), "%s/collect/probe-json", art) >= (int)sizeof(sub))
		return NULL;
	put(sub, "probe.json", probe_json);
	return art;
}

/* The reason of case ID in a result.json, "" when absent. */
static const char *case_reason(const char *result, const char *id)
{
	static char reason[512];
	char key[512];
	const char *p, *end;

	snprintf(key, sizeof(key), "\"id\" : \"%s\",", id);
	p = strstr(result, key);
	if (!p)
		return "";
	end = strchr(p, '}');
	p = strstr(p, "\"reason\" : \"");
	if (!p || (end && p > end))
		return "";
	p += strlen("\"reason\" : \"");
	snprintf(reason, sizeof(reason), "%.*s", (int)strcspn(p, "\""), p);
	return reason;
}

/* The status of case ID in a result.json, "" when absent. */
static const char *case_status(const char *result, const char *id)
{
	static char status[32];
	char key[512];
	const char *p, *end;

	snprintf(key, sizeof(key), "\"id\" : \"%s\",", id);
	p = strstr(result, key);
	if (!p)
		return "";
	end = strchr(p, '}');
	p = strstr(p, "\"status\" : \"");
	if (!p || (end && p > end))
		return "";
	p += strlen("\"status\" : \"");
	snprintf(status, sizeof(status), "%.*s", (int)strcspn(p, "\""), p);
	return status;
}

#define HELLO M "hello release=6.1.0-test machine=x86_64 boot_ms=2000 calib_ns=1 ref_ns=1 factor=7.00 tests=5\n"
#define MMAP_OK M "begin kernel mmap timeout=30\nTAP version 13\n1..1\nok 1 perf_mmap.rb.map\n" \
		M "end kernel mmap status=exit:0 elapsed_ms=90\n"

FIXTURE(vm) {
	char *dir;
	struct pc_run run;
	char *result;
};

FIXTURE_SETUP(vm)
{
	if (!have_runner())
		SKIP(return, "no vm/run and build/static (not a source tree, or make static not run)");
	self->dir = pc_test_mkdtemp("vm");
	ASSERT_NE(NULL, self->dir);
}

FIXTURE_TEARDOWN(vm)
{
	if (self->result) {
		free(self->result);
		pc_run_free(&self->run);
	}
	if (self->dir)
		pc_test_rmdir(self->dir);
}

TEST_F_TIMEOUT(vm, finished_guest_passes_its_cases, 120)
{
	self->result = replay(_metadata, &self->run, self->dir,
			      "SeaBIOS garbage \x1b[2J\n" HELLO MMAP_OK M "artifacts ok\n" M "done\n", 0, NULL);
	EXPECT_NE(NULL, strstr(self->result, "\"state\" : \"finished\""));
	EXPECT_STREQ("pass", case_status(self->result, "kernel/mmap:perf_mmap.rb.map"));
}

TEST_F_TIMEOUT(vm, panic_fails_the_running_test_and_not_runs_the_rest, 120)
{
	self->result = replay(_metadata, &self->run, self->dir,
			      HELLO M "begin probe expect timeout=30\nchecking\n"
			      "[    3.100000] Kernel panic - not syncing: Attempted to kill init!\n", 0, NULL);
	EXPECT_NE(NULL, strstr(self->result, "\"state\" : \"panicked\""));
	EXPECT_NE(NULL, strstr(self->result, "guest panicked during this step"));
	EXPECT_NE(NULL, strstr(self->result, "\"reason\" : \"guest panicked before this test\""));
	EXPECT_NE(NULL, strstr(self->result, "console_tail"));
	EXPECT_NE(NULL, strstr(self->result, "Kernel panic - not syncing"));
	EXPECT_NE(0, self->run.exit_code);
}

TEST_F_TIMEOUT(vm, hung_guest_is_killed_after_its_step_timeout, 120)
{
	time_t t0 = time(NULL);

	self->result = replay(_metadata, &self->run, self->dir,
			      HELLO M "begin kernel mmap timeout=1\nTAP version 13\n1..1\n", 1, NULL);
	EXPECT_NE(NULL, strstr(self->result, "\"state\" : \"hung\""));
	EXPECT_NE(NULL, strstr(self->result, "guest hung during this test"));
	EXPECT_LT(time(NULL) - t0, 60);
	EXPECT_NE(0, self->run.exit_code);
}

TEST_F_TIMEOUT(vm, guest_that_never_boots_is_not_run_with_console_tail, 120)
{
	self->result = replay(_metadata, &self->run, self->dir, "just garbage\nno markers", 1, NULL);
	EXPECT_NE(NULL, strstr(self->result, "\"state\" : \"no-boot\""));
	EXPECT_NE(NULL, strstr(self->result, "\"status\" : \"not-run\""));
	EXPECT_NE(NULL, strstr(self->result, "just garbage"));
	EXPECT_NE(0, self->run.exit_code);
}

TEST_F_TIMEOUT(vm, output_stopping_mid_line_is_a_failure_not_a_pass, 120)
{
	self->result = replay(_metadata, &self->run, self->dir,
			      HELLO M "begin kernel mmap timeout=30\nTAP version 13\n1..2\nok 1 perf_mmap.rb.map\nok 2 perf_m",
			      0, NULL);
	EXPECT_NE(NULL, strstr(self->result, "\"state\" : \"exited\""));
	EXPECT_NE(NULL, strstr(self->result, "guest stopped before its end during this test"));
	EXPECT_NE(0, self->run.exit_code);
}

TEST_F_TIMEOUT(vm, markers_with_another_nonce_are_test_output, 120)
{
	self->result = replay(_metadata, &self->run, self->dir,
			      HELLO "PCVM:forged:done\n" M "begin kernel mmap timeout=30\n"
			      "PCVM:forged:end kernel mmap status=exit:0 elapsed_ms=1\n", 0, NULL);
	EXPECT_EQ(NULL, strstr(self->result, "\"state\" : \"finished\""));
	EXPECT_NE(0, self->run.exit_code);
}

TEST_F_TIMEOUT(vm, kernel_messages_inside_tap_are_kept_out_of_it, 120)
{
	self->result = replay(_metadata, &self->run, self->dir,
			      HELLO M "begin kernel mmap timeout=30\nTAP version 13\n1..1\n"
			      "[    2.500000] random: crng init done\nok 1 perf_mmap.rb.map\n"
			      M "end kernel mmap status=exit:0 elapsed_ms=90\n" M "done\n", 0, NULL);
	EXPECT_NE(NULL, strstr(self->result, "\"status\" : \"pass\""));
	EXPECT_EQ(NULL, strstr(self->result, "\"status\" : \"error\""));
}

TEST_F_TIMEOUT(vm, kernel_splat_fails_the_row_even_when_tests_pass, 120)
{
	self->result = replay(_metadata, &self->run, self->dir,
			      HELLO MMAP_OK "[    4.000000] WARNING: CPU: 0 PID: 1 at kernel/events/core.c:1 x\n"
			      M "done\n", 0, NULL);
	EXPECT_NE(NULL, strstr(self->result, "\"state\" : \"finished\""));
	EXPECT_NE(NULL, strstr(self->result, "WARNING: CPU: 0 PID: 1"));
	EXPECT_NE(0, self->run.exit_code);
}

TEST_F_TIMEOUT(vm, probe_differing_from_baseline_fails_the_run, 120)
{
	self->result = replay(_metadata, &self->run, self->dir,
			      HELLO M "begin probe expect timeout=30\n"
			      "sigtrap: expected supported, got missing\n"
			      M "end probe expect status=exit:1 elapsed_ms=5\n" MMAP_OK M "done\n", 0, NULL);
	EXPECT_STREQ("fail", case_status(self->result, "probe/expect"));
	EXPECT_NE(NULL, strstr(self->result, "\"reason\" : \"exit:1: sigtrap: expected supported, got missing\""));
	EXPECT_NE(0, self->run.exit_code);
}

TEST_F_TIMEOUT(vm, probe_matching_baseline_and_passing_tests_exit_zero, 120)
{
	self->result = replay(_metadata, &self->run, self->dir,
			      HELLO M "begin probe expect timeout=30\n"
			      M "end probe expect status=exit:0 elapsed_ms=5\n" MMAP_OK M "done\n", 0, NULL);
	EXPECT_STREQ("pass", case_status(self->result, "probe/expect"));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.out);
}

TEST_F_TIMEOUT(vm, missing_kernel_package_is_a_clear_error_and_others_still_run, 120)
{
	char *other;

	self->result = replay(_metadata, &self->run, self->dir, HELLO MMAP_OK M "done\n", 0,
			      "nope deb bookworm-security ^perfcheck-no-such-kernel$ - boot/vmlinuz-* -\n");
	EXPECT_NE(NULL, strstr(self->result, "\"state\" : \"finished\""));
	other = slurp(self->dir, "results/nope/result.json");
	EXPECT_NE(NULL, strstr(other, "\"state\" : \"fetch-failed\""));
	EXPECT_NE(NULL, strstr(other, "no package matching '^perfcheck-no-such-kernel$'"));
	EXPECT_NE(NULL, strstr(other, "\"status\" : \"not-run\""));
	EXPECT_NE(0, self->run.exit_code);
	free(other);
}

TEST_F_TIMEOUT(vm, shards_run_their_rows_and_merge_into_one_report, 120)
{
	char matrix[PATH_MAX + 16], results[PATH_MAX + 16], qemu[PATH_MAX + 32], stat[PATH_MAX + 16],
	     runner[PATH_MAX + 16], report[PATH_MAX + 16], env_console[PATH_MAX + 32],
	     rows[3 * PATH_MAX];
	const char *src = srcdir();
	struct pc_run run;
	char *merged;

	put(self->dir, "console.txt", HELLO MMAP_OK M "done\n");
	snprintf(rows, sizeof(rows), "6.1 file %s/console.txt\n6.12 file %s/console.txt\n",
		 self->dir, self->dir);
	put(self->dir, "kernels", rows);
	snprintf(matrix, sizeof(matrix), "%s/kernels", self->dir);
	snprintf(results, sizeof(results), "%s/results", self->dir);
	snprintf(qemu, sizeof(qemu), "PERFCHECK_QEMU=%s/vm/tests/fake-qemu", src);
	snprintf(stat, sizeof(stat), "%s/build/static", src);
	snprintf(runner, sizeof(runner), "%s/vm/run", src);
	snprintf(report, sizeof(report), "%s/vm/report", src);
	snprintf(env_console, sizeof(env_console), "PCVM_FAKE_CONSOLE=%s/console.txt", self->dir);
	for (int shard = 1; shard <= 2; shard++) {
		char *argv[] = { "env", "PERFCHECK_VM_NONCE=" NONCE, "PERFCHECK_VM_ACCEL=tcg", "PERFCHECK_NO_UPSTREAM=1", qemu,
				 env_console, runner, "-q", "--no-report", "--shard", shard == 1 ? "1/2" : "2/2",
				 "--matrix", matrix, "--results", results, "--static", stat, "all", "mmap",
				 NULL };

		ASSERT_EQ(0, pc_test_run(&run, 120, argv));
		EXPECT_EQ(NULL, strstr(run.out, "kernel x test"));	/* no report per shard */
		pc_run_free(&run);
	}
	merged = slurp(self->dir, "results/6.12/result.json");
	EXPECT_NE(NULL, strstr(merged, "\"row\" : \"6.12\""));
	free(merged);
	char *argv[] = { report, results, NULL };

	ASSERT_EQ(0, pc_test_run(&run, 60, argv));
	EXPECT_NE(NULL, strstr(run.out, "2 kernels"));
	merged = slurp(results, "summary.md");
	EXPECT_NE(NULL, strstr(merged, "| test | 6.1 | 6.12 |"));
	free(merged);
	pc_run_free(&run);
}

#define ROE_FAIL M "begin kernel remove_on_exec timeout=30\nTAP version 13\n1..1\n" \
		 "# RUN remove_on_exec.fork_only ...\n" \
		 "# remove_on_exec.c:90:fork_only:Expected fd (-1) != -1 (-1)\n" \
		 "not ok 1 remove_on_exec.fork_only\n" \
		 M "end kernel remove_on_exec status=exit:1 elapsed_ms=40\n"
#define ARTS M "artifacts ok\n" M "done\n"
#define PROBE_OK M "begin probe expect timeout=30\n" M "end probe expect status=exit:0 elapsed_ms=5\n"
#define FACTS_NO_PMU "pmu no cycles No such file or directory (errno 2)\ncpus 2\ntool.sh /bin/sh\n"
#define FACTS_PMU "pmu yes\ncpus 2\ntool.sh /bin/sh\n"
#define PROBE_ALL "{\"release\":\"6.1.0-test\",\"machine\":\"x86_64\",\"features\":" \
		  "{\"sigtrap\":\"supported\",\"remove_on_exec\":\"supported\"},\"errno\":{}}"
#define PROBE_NO_ROE "{\"release\":\"6.1.0-test\",\"machine\":\"x86_64\",\"features\":" \
		     "{\"sigtrap\":\"missing\",\"remove_on_exec\":\"missing\"}," \
		     "\"errno\":{\"sigtrap\":22,\"remove_on_exec\":22}}"

/* vm/expectations: "needs: pmu", evaluated from the row's own facts. */
TEST_F_TIMEOUT(vm, failure_of_a_test_needing_a_pmu_is_a_skip_on_a_row_without_one, 120)
{
	self->result = replay_ex(_metadata, &self->run, self->dir, HELLO PROBE_OK ROE_FAIL ARTS, 0, NULL,
				 "remove_on_exec", guest_artifacts(self->dir, FACTS_NO_PMU, PROBE_ALL));
	EXPECT_STREQ("skip", case_status(self->result, "kernel/remove_on_exec:remove_on_exec.fork_only"));
	EXPECT_EQ(0, strncmp(case_reason(self->result, "kernel/remove_on_exec:remove_on_exec.fork_only"),
			     "no PMU (probe: cycles No such file", 34));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.out);
}

TEST_F_TIMEOUT(vm, failure_of_a_test_needing_a_pmu_fails_on_a_row_with_one, 120)
{
	self->result = replay_ex(_metadata, &self->run, self->dir, HELLO PROBE_OK ROE_FAIL ARTS, 0, NULL,
				 "remove_on_exec", guest_artifacts(self->dir, FACTS_PMU, PROBE_ALL));
	EXPECT_STREQ("fail", case_status(self->result, "kernel/remove_on_exec:remove_on_exec.fork_only"));
	EXPECT_NE(0, self->run.exit_code);
}

TEST_F_TIMEOUT(vm, unmet_probe_feature_is_named_with_its_errno, 120)
{
	self->result = replay_ex(_metadata, &self->run, self->dir, HELLO PROBE_OK ROE_FAIL ARTS, 0, NULL,
				 "remove_on_exec", guest_artifacts(self->dir, FACTS_PMU, PROBE_NO_ROE));
	EXPECT_STREQ("skip", case_status(self->result, "kernel/remove_on_exec:remove_on_exec.fork_only"));
	EXPECT_EQ(0, strncmp(case_reason(self->result, "kernel/remove_on_exec:remove_on_exec.fork_only"),
			     "no remove_on_exec (probe: missing, errno 22)", 44));
	EXPECT_EQ(0, self->run.exit_code);
}

TEST_F_TIMEOUT(vm, without_facts_nothing_is_derived, 120)
{
	self->result = replay_ex(_metadata, &self->run, self->dir, HELLO PROBE_OK ROE_FAIL M "done\n", 0, NULL,
				 "remove_on_exec", NULL);
	EXPECT_STREQ("fail", case_status(self->result, "kernel/remove_on_exec:remove_on_exec.fork_only"));
	EXPECT_NE(0, self->run.exit_code);
}

/* vm/known-failures: by kernel range of the booted release, not by row name. */
TEST_F_TIMEOUT(vm, known_failure_applies_by_kernel_range, 120)
{
	static const char wm[] = M "begin kernel watermark_signal timeout=30\nTAP version 13\n1..1\n"
				 "not ok 1 watermark_signal.watermark_signal\n"
				 M "end kernel watermark_signal status=exit:1 elapsed_ms=40\n" M "done\n";
	char *console = malloc(4096);

	ASSERT_NE(NULL, console);
	snprintf(console, 4096, "%s%s%s", HELLO, PROBE_OK, wm);	/* 6.1.0-test: before 6.12 */
	self->result = replay_ex(_metadata, &self->run, self->dir, console, 0, NULL, "watermark_signal", NULL);
	EXPECT_STREQ("skip", case_status(self->result, "kernel/watermark_signal:watermark_signal.watermark_signal"));
	EXPECT_EQ(0, self->run.exit_code);
	free(self->result);
	pc_run_free(&self->run);
	snprintf(console, 4096, M "hello release=6.12.9-test machine=x86_64 boot_ms=2000 calib_ns=1 "
		 "ref_ns=1 factor=7.00 tests=5\n%s%s", PROBE_OK, wm);
	self->result = replay_ex(_metadata, &self->run, self->dir, console, 0, NULL, "watermark_signal", NULL);
	EXPECT_STREQ("fail", case_status(self->result, "kernel/watermark_signal:watermark_signal.watermark_signal"));
	EXPECT_NE(0, self->run.exit_code);
	free(console);
}

/* perf test's cases: derived by description, on the case and in its TAP line. */
TEST_F_TIMEOUT(vm, perf_test_case_needing_a_pmu_is_a_skip_in_result_and_tap, 120)
{
	char results[PATH_MAX + 16];
	char *tap;

	self->result = replay_ex(_metadata, &self->run, self->dir,
				 HELLO PROBE_OK M "begin perf-test perf-test timeout=900\nTAP version 13\n"
				 "ok 1 2:Detect openat syscall event\n"
				 "not ok 2 26:Object code reading\n1..2\n"
				 M "end perf-test perf-test status=exit:0 elapsed_ms=900\n" ARTS, 0, NULL,
				 "perf-test", guest_artifacts(self->dir, FACTS_NO_PMU, PROBE_ALL));
	EXPECT_STREQ("pass", case_status(self->result, "perf-test/2:Detect openat syscall event"));
	EXPECT_STREQ("skip", case_status(self->result, "perf-test/26:Object code reading"));
	EXPECT_EQ(0, strncmp(case_reason(self->result, "perf-test/26:Object code reading"), "no PMU (probe", 13));
	snprintf(results, sizeof(results), "%s/results", self->dir);
	tap = slurp(results, "6.1/tap/perf-test.perf-test.tap");
	EXPECT_NE(NULL, strstr(tap, "ok 2 26:Object code reading # SKIP no PMU (probe)")) TH_LOG("%s", tap);
	free(tap);
}

/*
 * arm64 guests under QEMU: perf's "#slots" metrics and its user-space counter
 * reading fail where the PMU reports 0 slots and kernel.perf_user_access is
 * 0; the same failures with slots and access are failures.
 */
#define PERFTEST_ARM64 M "begin perf-test perf-test timeout=900\nTAP version 13\n" \
		       "not ok 1 10.3:Parsing of PMU event table metrics\n" \
		       "not ok 2 10.47:PMU metric parsing: ampere_ampereone\n" \
		       "not ok 3 73.2:User space counter reading of instructions\n1..3\n" \
		       M "end perf-test perf-test status=exit:0 elapsed_ms=900\n"
#define FACTS_QEMU_PMU "pmu yes\npmu_cap.armv8_pmuv3.slots 0x00000000\nperf_user_access 0\ncpus 1\n"
#define FACTS_FULL_PMU "pmu yes\npmu_cap.armv8_pmuv3.slots 0x00000004\nperf_user_access 1\ncpus 1\n"

TEST_F_TIMEOUT(vm, perf_test_slots_metrics_and_user_read_skip_where_the_pmu_lacks_them, 120)
{
	const char *r;

	self->result = replay_ex(_metadata, &self->run, self->dir, HELLO PROBE_OK PERFTEST_ARM64 ARTS, 0, NULL,
				 "perf-test", guest_artifacts(self->dir, FACTS_QEMU_PMU, PROBE_ALL));
	r = self->result;
	EXPECT_STREQ("skip", case_status(r, "perf-test/10.3:Parsing of PMU event table metrics"));
	EXPECT_STREQ("skip", case_status(r, "perf-test/10.47:PMU metric parsing: ampere_ampereone"));
	EXPECT_EQ(0, strncmp(case_reason(r, "perf-test/10.47:PMU metric parsing: ampere_ampereone"),
			     "the PMU reports no slots per cycle (armv8_pmuv3/caps/slots 0x00000000)", 70))
		TH_LOG("%s", case_reason(r, "perf-test/10.47:PMU metric parsing: ampere_ampereone"));
	EXPECT_STREQ("skip", case_status(r, "perf-test/73.2:User space counter reading of instructions"));
	EXPECT_EQ(0, strncmp(case_reason(r, "perf-test/73.2:User space counter reading of instructions"),
			     "user-space counter access is off", 32));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.out);
}

TEST_F_TIMEOUT(vm, perf_test_slots_metrics_and_user_read_fail_where_the_pmu_has_them, 120)
{
	self->result = replay_ex(_metadata, &self->run, self->dir, HELLO PROBE_OK PERFTEST_ARM64 ARTS, 0, NULL,
				 "perf-test", guest_artifacts(self->dir, FACTS_FULL_PMU, PROBE_ALL));
	EXPECT_STREQ("fail", case_status(self->result, "perf-test/10.3:Parsing of PMU event table metrics"));
	EXPECT_STREQ("fail", case_status(self->result, "perf-test/10.47:PMU metric parsing: ampere_ampereone"));
	EXPECT_STREQ("fail", case_status(self->result, "perf-test/73.2:User space counter reading of instructions"));
	EXPECT_NE(0, self->run.exit_code);
}

/*
 * perf test's exit-events case races with the machine: where init --facts
 * measured SIGCHLD more than 1000 polls after the EXIT record its failure is
 * a skip naming the figure, elsewhere a failure.
 */
#define PERFTEST_EXIT M "begin perf-test perf-test timeout=900\nTAP version 13\n" \
		      "not ok 1 78:Number of exit events of a simple workload\n1..1\n" \
		      M "end perf-test perf-test status=exit:0 elapsed_ms=900\n"
#define EXIT_CASE "perf-test/78:Number of exit events of a simple workload"

TEST_F_TIMEOUT(vm, perf_test_exit_events_skips_where_sigchld_comes_after_1000_polls, 120)
{
	self->result = replay_ex(_metadata, &self->run, self->dir, HELLO PROBE_OK PERFTEST_EXIT ARTS, 0, NULL,
				 "perf-test", guest_artifacts(self->dir, "pmu no\nexit_race_polls 2165\ncpus 1\n",
							      PROBE_ALL));
	EXPECT_STREQ("skip", case_status(self->result, EXIT_CASE));
	EXPECT_NE(NULL, strstr(case_reason(self->result, EXIT_CASE),
			       "a child's SIGCHLD reached its parent 2165 immediate polls after"))
		TH_LOG("%s", case_reason(self->result, EXIT_CASE));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.out);
}

/* (the row's perf 6.1 may still excuse the case for another reason: perf>=6.6) */
TEST_F_TIMEOUT(vm, perf_test_exit_events_is_not_excused_where_sigchld_comes_in_time, 120)
{
	self->result = replay_ex(_metadata, &self->run, self->dir, HELLO PROBE_OK PERFTEST_EXIT ARTS, 0, NULL,
				 "perf-test", guest_artifacts(self->dir, "pmu no\nexit_race_polls 40\ncpus 1\n",
							      PROBE_ALL));
	EXPECT_EQ(NULL, strstr(case_reason(self->result, EXIT_CASE), "SIGCHLD"))
		TH_LOG("%s", case_reason(self->result, EXIT_CASE));
}

/*
 * perf test's JSON linter pipes perf stat -a --per-thread into python3: where
 * python3 is a launcher script (its helpers end before perf reads their
 * names) its failure is a skip naming that, elsewhere a failure.
 */
#define PERFTEST_JSON M "begin perf-test perf-test timeout=900\nTAP version 13\n" \
		      "not ok 1 96:perf stat JSON output linter\n1..1\n" \
		      M "end perf-test perf-test status=exit:0 elapsed_ms=900\n"
#define JSON_CASE "perf-test/96:perf stat JSON output linter"

TEST_F_TIMEOUT(vm, perf_test_json_linter_skips_where_python3_is_a_launcher_script, 120)
{
	self->result = replay_ex(_metadata, &self->run, self->dir, HELLO PROBE_OK PERFTEST_JSON ARTS, 0, NULL,
				 "perf-test", guest_artifacts(self->dir, "pmu no\ntool.python3 /home/u/.pyenv/shims/python3\n"
							      "script.python3 yes\ncpus 2\n", PROBE_ALL));
	EXPECT_STREQ("skip", case_status(self->result, JSON_CASE));
	EXPECT_NE(NULL, strstr(case_reason(self->result, JSON_CASE), "is a script that starts helper processes"))
		TH_LOG("%s", case_reason(self->result, JSON_CASE));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.out);
}

TEST_F_TIMEOUT(vm, perf_test_json_linter_fails_where_python3_is_a_program, 120)
{
	self->result = replay_ex(_metadata, &self->run, self->dir, HELLO PROBE_OK PERFTEST_JSON ARTS, 0, NULL,
				 "perf-test", guest_artifacts(self->dir, "pmu no\ntool.python3 /usr/bin/python3\n"
							      "script.python3 no\ncpus 2\n", PROBE_ALL));
	EXPECT_STREQ("fail", case_status(self->result, JSON_CASE));
	EXPECT_NE(0, self->run.exit_code);
}

/*
 * The kernel's sigtrap_threads counts signals of a write watchpoint: where
 * init --facts saw a watchpoint count none of its writes (a hypervisor that
 * never traps) the failure is a skip naming that, elsewhere a failure.
 */
#define SIGTRAP_FAIL(attempt) M "begin kernel sigtrap_threads timeout=30" attempt "\nTAP version 13\n1..2\n" \
		  "ok 1 sigtrap_threads.remain_disabled\nnot ok 2 sigtrap_threads.enable_event\n" \
		  M "end kernel sigtrap_threads status=exit:1 elapsed_ms=30000" attempt "\n"
#define SIGTRAP_CASE "kernel/sigtrap_threads:sigtrap_threads.enable_event"

TEST_F_TIMEOUT(vm, sigtrap_threads_skips_where_a_watchpoint_never_fires, 120)
{
	self->result = replay_ex(_metadata, &self->run, self->dir,
				 HELLO PROBE_OK SIGTRAP_FAIL("") ARTS, 0, NULL,
				 "sigtrap_threads", guest_artifacts(self->dir, "pmu no\nbreakpoint_writes 0\ncpus 1\n", PROBE_ALL));
	EXPECT_STREQ("skip", case_status(self->result, SIGTRAP_CASE));
	EXPECT_NE(NULL, strstr(case_reason(self->result, SIGTRAP_CASE), "a write watchpoint counted 0 of 4 writes"))
		TH_LOG("%s", case_reason(self->result, SIGTRAP_CASE));
	EXPECT_STREQ("pass", case_status(self->result, "kernel/sigtrap_threads:sigtrap_threads.remain_disabled"));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.out);
}

TEST_F_TIMEOUT(vm, sigtrap_threads_fails_where_a_watchpoint_fires, 120)
{
	self->result = replay_ex(_metadata, &self->run, self->dir,
				 HELLO PROBE_OK SIGTRAP_FAIL("") ARTS, 0, NULL,
				 "sigtrap_threads", guest_artifacts(self->dir, "pmu no\nbreakpoint_writes 4\ncpus 1\n", PROBE_ALL));
	EXPECT_STREQ("fail", case_status(self->result, SIGTRAP_CASE));
	EXPECT_NE(0, self->run.exit_code);
}

#define MMAP_FAIL M "begin kernel mmap timeout=30\nTAP version 13\n1..1\nnot ok 1 perf_mmap.rb.map\n" \
		  M "end kernel mmap status=exit:1 elapsed_ms=90\n"
#define MMAP_RETRY_OK M "begin kernel mmap timeout=30 attempt=2\nTAP version 13\n1..1\nok 1 perf_mmap.rb.map\n" \
		      M "end kernel mmap status=exit:0 elapsed_ms=90 attempt=2\n"
#define MMAP_RETRY_FAIL M "begin kernel mmap timeout=30 attempt=2\nTAP version 13\n1..1\nnot ok 1 perf_mmap.rb.map\n" \
			M "end kernel mmap status=exit:1 elapsed_ms=90 attempt=2\n"

TEST_F_TIMEOUT(vm, fail_then_pass_on_rerun_is_flaky_never_pass, 120)
{
	char results[PATH_MAX + 16];
	char *s;

	self->result = replay(_metadata, &self->run, self->dir, HELLO PROBE_OK MMAP_FAIL MMAP_RETRY_OK M "done\n", 0, NULL);
	EXPECT_STREQ("flaky", case_status(self->result, "kernel/mmap:perf_mmap.rb.map"));
	EXPECT_EQ(0, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.out, "1 flaky"));
	snprintf(results, sizeof(results), "%s/results", self->dir);
	s = slurp(results, "6.1/tap/kernel.mmap.tap");
	EXPECT_NE(NULL, strstr(s, "# TODO flaky"));
	EXPECT_NE(NULL, strstr(s, "# flaky: kernel/mmap:perf_mmap.rb.map failed, then passed"));
	free(s);
	s = slurp(results, "summary.md");
	EXPECT_NE(NULL, strstr(s, "FLAKY"));
	free(s);
	s = slurp(results, "results.json");
	EXPECT_NE(NULL, strstr(s, "\"flaky\" : 1"));
	free(s);
	s = slurp(results, "junit.xml");
	EXPECT_NE(NULL, strstr(s, "<testcase name=\"1 perf_mmap.rb.map\"><flakyFailure message=\"failed, then passed on re-run 2"))
		TH_LOG("%s", s);
	free(s);
}

TEST_F_TIMEOUT(vm, fail_on_rerun_too_is_a_failure, 120)
{
	self->result = replay(_metadata, &self->run, self->dir, HELLO PROBE_OK MMAP_FAIL MMAP_RETRY_FAIL M "done\n", 0, NULL);
	EXPECT_STREQ("fail", case_status(self->result, "kernel/mmap:perf_mmap.rb.map"));
	EXPECT_NE(NULL, strstr(case_reason(self->result, "kernel/mmap:perf_mmap.rb.map"), "failed again on re-run"));
	EXPECT_NE(0, self->run.exit_code);
}

/* The guest init's per-test timeout, for real, in its host mode. */
TEST_F_TIMEOUT(vm, init_kills_a_test_that_outlives_its_timeout, 120)
{
	char init[PATH_MAX], plan[PATH_MAX], out[PATH_MAX];
	struct pc_run run;

	snprintf(init, sizeof(init), "%s/build/static/vm/init", srcdir());
	snprintf(plan, sizeof(plan), "%s/plan", self->dir);
	snprintf(out, sizeof(out), "%s/out", self->dir);
	put(self->dir, "plan", "nonce n1\ntimeout 1\n"
			       "sh t hang echo started; sleep 60\n"
			       "sh t partial printf 'no newline'\n"
			       "sh t code exit 3\n");
	char *argv[] = { init, "--host", plan, out, NULL };

	ASSERT_EQ(0, pc_test_run(&run, 30, argv));
	EXPECT_NE(NULL, strstr(run.out, "started\nPCVM:n1:end t hang status=timeout"));
	EXPECT_NE(NULL, strstr(run.out, "no newline\nPCVM:n1:end t partial status=exit:0"));
	EXPECT_NE(NULL, strstr(run.out, "PCVM:n1:end t code status=exit:3"));
	EXPECT_NE(NULL, strstr(run.out, "PCVM:n1:done"));
	pc_run_free(&run);
}

/* A results directory holding one row 6.1 with these cases, features and wall time. */
static void synth_results(const char *dir, const char *name, const char *cases, const char *features,
			  const char *wall)
{
	char sub[PATH_MAX], json[4096], cmd[PATH_MAX + 32];

	if (snprintf(sub, sizeof(sub), "%s/%s/6.1", dir, name) >= (int)sizeof(sub))
		return;
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", sub);
	if (system(cmd))
		return;
	snprintf(json, sizeof(json), "{\"row\":\"6.1\",\"kind\":\"file\",\"state\":\"finished\","
		 "\"splats\":[],\"failed\":false,\"wall_s\":%s,\"cases\":[%s],\"features\":{%s}}\n",
		 wall, cases, features);
	put(sub, "result.json", json);
}

static int compare(struct __test_metadata *_metadata, struct pc_run *run, const char *dir)
{
	char report[PATH_MAX + 16], old[PATH_MAX + 16], new[PATH_MAX + 16];

	snprintf(report, sizeof(report), "%s/vm/report", srcdir());
	snprintf(old, sizeof(old), "%s/old", dir);
	snprintf(new, sizeof(new), "%s/new", dir);
	char *argv[] = { report, "--compare", old, new, NULL };

	EXPECT_EQ(0, pc_test_run(run, 60, argv));
	return run->exit_code;
}

TEST_F_TIMEOUT(vm, compare_catches_a_pass_turned_fail, 60)
{
	synth_results(self->dir, "old", "{\"id\":\"kernel/mmap:a\",\"status\":\"pass\"},"
		      "{\"id\":\"kernel/mmap:b\",\"status\":\"fail\",\"reason\":\"x\"}",
		      "\"sigtrap\":\"supported\"", "10");
	synth_results(self->dir, "new", "{\"id\":\"kernel/mmap:a\",\"status\":\"fail\",\"reason\":\"broke\"},"
		      "{\"id\":\"kernel/mmap:b\",\"status\":\"pass\"}",
		      "\"sigtrap\":\"supported\"", "11");
	EXPECT_EQ(1, compare(_metadata, &self->run, self->dir));
	EXPECT_NE(NULL, strstr(self->run.out, "new failures: 1\n  6.1  kernel/mmap:a: pass -> fail (broke)\n"));
	EXPECT_NE(NULL, strstr(self->run.out, "fixed: 1\n  6.1  kernel/mmap:b: fail -> pass\n"));
	EXPECT_NE(NULL, strstr(self->run.out, "verdict: REGRESSION")) TH_LOG("%s", self->run.out);
	pc_run_free(&self->run);
}

TEST_F_TIMEOUT(vm, compare_catches_a_supported_feature_turned_missing, 60)
{
	synth_results(self->dir, "old", "{\"id\":\"kernel/mmap:a\",\"status\":\"pass\"}",
		      "\"sigtrap\":\"supported\",\"build_id\":\"missing\"", "10");
	synth_results(self->dir, "new", "{\"id\":\"kernel/mmap:a\",\"status\":\"pass\"}",
		      "\"sigtrap\":\"missing\",\"build_id\":\"missing\"", "10");
	EXPECT_EQ(1, compare(_metadata, &self->run, self->dir));
	EXPECT_NE(NULL, strstr(self->run.out, "6.1  sigtrap: supported -> missing  REGRESSION"));
	EXPECT_EQ(NULL, strstr(self->run.out, "build_id")) TH_LOG("%s", self->run.out);
	pc_run_free(&self->run);
}

TEST_F_TIMEOUT(vm, compare_catches_a_proven_feature_turned_broken, 60)
{
	synth_results(self->dir, "old", "{\"id\":\"kernel/mmap:a\",\"status\":\"pass\"}",
		      "\"mmap2\":\"supported\"},\"behaviour\":{\"mmap2\":{\"verdict\":\"proven\"}", "10");
	synth_results(self->dir, "new", "{\"id\":\"kernel/mmap:a\",\"status\":\"pass\"}",
		      "\"mmap2\":\"supported\"},\"behaviour\":{\"mmap2\":{\"verdict\":\"broken\"}", "10");
	EXPECT_EQ(1, compare(_metadata, &self->run, self->dir));
	EXPECT_NE(NULL, strstr(self->run.out, "6.1  mmap2 (behaviour): proven -> broken  REGRESSION"))
		TH_LOG("%s", self->run.out);
	pc_run_free(&self->run);
}

TEST_F_TIMEOUT(vm, compare_lists_skips_flakes_and_slow_rows_without_failing, 60)
{
	synth_results(self->dir, "old", "{\"id\":\"kernel/mmap:a\",\"status\":\"pass\"},"
		      "{\"id\":\"kernel/mmap:b\",\"status\":\"pass\"}", "\"sigtrap\":\"missing\"", "10");
	synth_results(self->dir, "new", "{\"id\":\"kernel/mmap:a\",\"status\":\"skip\",\"reason\":\"no PMU (probe)\"},"
		      "{\"id\":\"kernel/mmap:b\",\"status\":\"flaky\",\"reason\":\"failed, then passed\"}",
		      "\"sigtrap\":\"supported\"", "25");
	EXPECT_EQ(0, compare(_metadata, &self->run, self->dir));
	EXPECT_NE(NULL, strstr(self->run.out, "newly skipped: 1\n  6.1  kernel/mmap:a: no PMU (probe)\n"));
	EXPECT_NE(NULL, strstr(self->run.out, "flaky: 1\n  6.1  kernel/mmap:b: failed, then passed\n"));
	EXPECT_NE(NULL, strstr(self->run.out, "6.1  sigtrap: missing -> supported\n"));
	EXPECT_NE(NULL, strstr(self->run.out, "6.1  10.0s -> 25.0s"));
	EXPECT_NE(NULL, strstr(self->run.out, "verdict: no regression")) TH_LOG("%s", self->run.out);
	pc_run_free(&self->run);
}

/* Feature cells say what the probe and the behaviour checks found: refused, proven, BROKEN. */
TEST_F_TIMEOUT(vm, feature_cells_show_refused_proven_and_broken, 60)
{
	char report[PATH_MAX + 16], res[PATH_MAX + 16];

	/* result.json's "behaviour" is perfcheck probe --behaviour --json's, per feature */
	synth_results(self->dir, "new", "{\"id\":\"kernel/mmap:a\",\"status\":\"pass\"}",
		      "\"sigtrap\":\"supported\",\"mmap2\":\"supported\",\"build_id\":\"missing\","
		      "\"cgroup\":\"supported\"},\"behaviour\":{\"sigtrap\":{\"verdict\":\"broken\","
		      "\"detail\":\"no SIGTRAP\"},\"mmap2\":{\"verdict\":\"proven\"},"
		      "\"cgroup\":{\"verdict\":\"not tested\",\"detail\":\"no cgroup2\"}", "10");
	snprintf(report, sizeof(report), "%s/vm/report", srcdir());
	snprintf(res, sizeof(res), "%s/new", self->dir);
	char *argv[] = { report, res, NULL };

	ASSERT_EQ(0, pc_test_run(&self->run, 60, argv));
	EXPECT_NE(NULL, strstr(self->run.out, "sigtrap   BROKEN")) TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "mmap2     proven"));
	EXPECT_NE(NULL, strstr(self->run.out, "build_id  refused"));
	EXPECT_NE(NULL, strstr(self->run.out, "cgroup    accepted"));
	pc_run_free(&self->run);
}

/* The first program of NAMES found in PATH, or NULL. */
static const char *browser(void)
{
	static const char *const names[] = { "chromium", "chromium-browser", "google-chrome" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (pc_test_have_program(names[i]))
			return names[i];
	return NULL;
}

/*
 * results/index.html as a person sees it: rendered by headless Chromium,
 * the DOM it built holds the kernel x test table with a red FAIL cell that
 * links to the case's log and carries its reason on hover, the feature
 * table, and the comparison with the baseline naming the regression; a
 * screenshot is drawn.
 */
TEST_F_TIMEOUT(vm, page_renders_the_matrix_in_a_browser, 180)
{
	char report[PATH_MAX + 16], old[PATH_MAX + 16], new[PATH_MAX + 16], url[PATH_MAX + 64],
	     shot[PATH_MAX + 32], shotarg[PATH_MAX + 48];
	const char *b = browser();
	struct pc_run run;
	char *page;

	if (!b)
		SKIP(return, "no chromium in PATH (package chromium: make deps)");
	synth_results(self->dir, "old", "{\"id\":\"kernel/mmap:a\",\"status\":\"pass\"}",
		      "\"sigtrap\":\"supported\"", "10");
	synth_results(self->dir, "new", "{\"id\":\"kernel/mmap:a\",\"status\":\"fail\",\"reason\":\"broke <here>\"},"
		      "{\"id\":\"perf-test/7:Simple expression parser\",\"status\":\"skip\",\"reason\":\"no PMU (probe)\"}",
		      "\"sigtrap\":\"missing\"", "11");
	snprintf(report, sizeof(report), "%s/vm/report", srcdir());
	snprintf(old, sizeof(old), "%s/old", self->dir);
	snprintf(new, sizeof(new), "%s/new", self->dir);
	char *rargv[] = { report, "--baseline", old, new, NULL };

	ASSERT_EQ(0, pc_test_run(&run, 60, rargv));
	pc_run_free(&run);
	page = slurp(new, "index.html");
	EXPECT_EQ(NULL, strstr(page, "http"));	/* self-contained: nothing to fetch */
	EXPECT_EQ(NULL, strstr(page, "<script"));
	free(page);
	snprintf(url, sizeof(url), "file://%s/index.html", new);
	char *argv[] = { (char *)b, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", url, NULL };

	ASSERT_EQ(0, pc_test_run(&run, 120, argv)) TH_LOG("%s", run.err);
	EXPECT_NE(NULL, strstr(run.out, "<tbody><tr><th>test</th><th>6.1</th></tr>"));
	EXPECT_NE(NULL, strstr(run.out, "<td class=\"c fail\" title=\"broke &lt;here&gt;\">"
				      "<a href=\"6.1/tap/kernel.mmap.tap\">FAIL<sup>1</sup></a></td>"));
	EXPECT_NE(NULL, strstr(run.out, "<a href=\"6.1/tap/perf-test.perf-test.tap\">skip<sup>2</sup></a>"));
	EXPECT_NE(NULL, strstr(run.out, "<li>no PMU (probe)</li>"));
	/* a refused feature: the cell says so (the kernel x feature table of issue 15) */
	EXPECT_NE(NULL, strstr(run.out, "<td>sigtrap</td><td class=\"c no\""));
	EXPECT_NE(NULL, strstr(run.out, ">refused</td>"));
	EXPECT_NE(NULL, strstr(run.out, "REGRESSION: a new failure"));
	EXPECT_NE(NULL, strstr(run.out, "<tr class=\"reg\"><td>new failure</td><td>6.1</td><td><code>kernel/mmap:a</code>"))
		TH_LOG("%s", run.out);
	pc_run_free(&run);
	snprintf(shot, sizeof(shot), "%s/shot.png", self->dir);
	snprintf(shotarg, sizeof(shotarg), "--screenshot=%s", shot);
	char *sargv[] = { (char *)b, "--headless", "--no-sandbox", "--disable-gpu", shotarg,
			  "--window-size=1000,800", url, NULL };

	ASSERT_EQ(0, pc_test_run(&run, 120, sargv));
	page = slurp(self->dir, "shot.png");
	EXPECT_EQ(0, memcmp(page, "\x89PNG", 4));
	free(page);
	pc_run_free(&run);
}

/* The guest init re-runs a failing test once, in its own directory, but not a known failure. */
TEST_F_TIMEOUT(vm, init_reruns_a_failing_test_once_unless_told_not_to, 120)
{
	char init[PATH_MAX], plan[PATH_MAX], out[PATH_MAX], script[PATH_MAX + 64], text[4 * PATH_MAX];
	struct pc_run run;

	snprintf(init, sizeof(init), "%s/build/static/vm/init", srcdir());
	snprintf(plan, sizeof(plan), "%s/plan", self->dir);
	snprintf(out, sizeof(out), "%s/out", self->dir);
	snprintf(script, sizeof(script), "%s/flip.sh", self->dir);
	/* fails the first time, passes the second */
	snprintf(text, sizeof(text), "[ -e '%s/flipped' ] && exit 0; touch '%s/flipped'; exit 1\n",
		 self->dir, self->dir);
	put(self->dir, "flip.sh", text);
	put(self->dir, "skip.sh", "exit 4\n");	/* kselftest's skip status */
	snprintf(text, sizeof(text), "nonce n1\ntimeout 10\nretry 1\nnoretry t known\n"
		 "run t flip /bin/sh %s\nrun t always /bin/false\nrun t known /bin/false\n"
		 "run t skip /bin/sh %s/skip.sh\n", script, self->dir);
	put(self->dir, "plan", text);
	char *argv[] = { init, "--host", plan, out, NULL };

	ASSERT_EQ(0, pc_test_run(&run, 60, argv));
	EXPECT_NE(NULL, strstr(run.out, "PCVM:n1:end t flip status=exit:1 elapsed_ms="));
	EXPECT_NE(NULL, strstr(run.out, "PCVM:n1:begin t flip timeout=10 attempt=2"));
	EXPECT_NE(NULL, strstr(run.out, "PCVM:n1:begin t always timeout=10 attempt=2"));
	EXPECT_EQ(NULL, strstr(run.out, "PCVM:n1:begin t always timeout=10 attempt=3"));
	EXPECT_EQ(NULL, strstr(run.out, "PCVM:n1:begin t known timeout=10 attempt=2"));
	EXPECT_EQ(NULL, strstr(run.out, "PCVM:n1:begin t skip timeout=10 attempt=2"));
	EXPECT_NE(NULL, strstr(run.out, "attempt=2\nPCVM:n1:end t flip status=exit:0"))
		TH_LOG("%s", run.out);
	snprintf(script, sizeof(script), "%s/t/flip/retry", out);
	EXPECT_EQ(0, access(script, F_OK));
	pc_run_free(&run);
}

/*
 * With "jobs 2", init runs tests side by side: both start before either
 * ends, each one's TAP is printed whole between its begin and end markers,
 * an "alone" test runs by itself first, a failed one is re-run by itself
 * after the others, and the timeout of one that shares the CPU with another
 * is twice its own.
 */
TEST_F_TIMEOUT(vm, init_runs_tests_side_by_side_and_prints_each_whole, 120)
{
	char init[PATH_MAX], plan[PATH_MAX], out[PATH_MAX], text[4 * PATH_MAX];
	struct pc_run run;
	const char *sa, *sb, *ea, *eb, *first, *again;

	snprintf(init, sizeof(init), "%s/build/static/vm/init", srcdir());
	snprintf(plan, sizeof(plan), "%s/plan", self->dir);
	snprintf(out, sizeof(out), "%s/out", self->dir);
	/* each waits for the other to have started: side by side, or a timeout */
	snprintf(text, sizeof(text), "echo 1..1; touch '%s/a.up'; i=0; while [ ! -e '%s/b.up' ] && "
		 "[ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; [ -e '%s/b.up' ] && echo ok 1 a\n",
		 self->dir, self->dir, self->dir);
	put(self->dir, "a.sh", text);
	snprintf(text, sizeof(text), "echo 1..1; touch '%s/b.up'; i=0; while [ ! -e '%s/a.up' ] && "
		 "[ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; [ -e '%s/a.up' ] && echo ok 1 b\n",
		 self->dir, self->dir, self->dir);
	put(self->dir, "b.sh", text);
	snprintf(text, sizeof(text), "nonce n1\ntimeout 30\nretry 1\njobs 2\nalone t first\n"
		 "run t first /bin/echo first\nrun t a /bin/sh %s/a.sh\nrun t b /bin/sh %s/b.sh\n"
		 "run t f /bin/false\n", self->dir, self->dir);
	put(self->dir, "plan", text);
	char *argv[] = { init, "--host", plan, out, NULL };

	ASSERT_EQ(0, pc_test_run(&run, 90, argv));
	sa = strstr(run.out, "PCVM:n1:start t a timeout=60\n");
	sb = strstr(run.out, "PCVM:n1:start t b timeout=60\n");
	ea = strstr(run.out, "PCVM:n1:begin t a timeout=60\n1..1\nok 1 a\nPCVM:n1:end t a status=exit:0 ");
	eb = strstr(run.out, "PCVM:n1:begin t b timeout=60\n1..1\nok 1 b\nPCVM:n1:end t b status=exit:0 ");
	first = strstr(run.out, "PCVM:n1:begin t first timeout=30\nfirst\nPCVM:n1:end t first status=exit:0 ");
	again = strstr(run.out, "PCVM:n1:begin t f timeout=30 attempt=2\n");
	ASSERT_TRUE(sa && sb && ea && eb && first && again) TH_LOG("%s", run.out);
	EXPECT_TRUE(sa < ea && sb < ea && sa < eb && sb < eb);
	EXPECT_TRUE(first < sa && first < sb);
	EXPECT_TRUE(again > ea && again > eb);
	EXPECT_EQ(NULL, strstr(run.out, "PCVM:n1:start t first"));
	pc_run_free(&run);
}

/* init --facts: what expectations are derived from, on this machine. */
TEST_F_TIMEOUT(vm, init_facts_name_the_pmu_and_tools, 60)
{
	char init[PATH_MAX];
	struct pc_run run;

	snprintf(init, sizeof(init), "%s/build/static/vm/init", srcdir());
	char *argv[] = { init, "--facts", NULL };

	ASSERT_EQ(0, pc_test_run(&run, 30, argv));
	EXPECT_EQ(0, strncmp(run.out, "pmu ", 4));
	EXPECT_TRUE(!strncmp(run.out, "pmu yes\n", 8) || !strncmp(run.out, "pmu no cycles ", 14));
	EXPECT_NE(NULL, strstr(run.out, "\ntool.sh /"));
	pc_run_free(&run);
}

TEST_HARNESS_MAIN
