// SPDX-License-Identifier: GPL-2.0
/*
 * A smoke run of the kernel matrix's real VM path, so that `make check`
 * covers it: one Debian kernel (PERFCHECK_SMOKE_KERNEL, default 6.1) boots
 * under QEMU with the static binaries and runs a few tests; the runner's
 * result says the guest booted, ran them, sent its artifacts back and
 * logged no splat.  Skips where there is no QEMU or no static build (inside
 * the guests, or before `make static`).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"

static const char *srcdir(void)
{
	return pc_test_srcdir("build/static/vm/init");
}

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return strdup("");
	if (getdelim(&buf, &cap, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/* One boot, in main() before the harness forks the tests; each test checks it. */
static struct pc_run shared_run;
static char *shared_dir;
static const char *smoke_kernel = "6.1";

static void boot_once(void)
{
	const char *src = srcdir();
	const char *k = getenv("PERFCHECK_SMOKE_KERNEL");
	char runner[PATH_MAX + 16], results[PATH_MAX + 16];

	if (!src || !pc_test_have_program("qemu-system-x86_64"))
		return;
	if (k && *k)
		smoke_kernel = k;
	shared_dir = pc_test_mkdtemp("vm-smoke");
	if (!shared_dir)
		return;
	snprintf(runner, sizeof(runner), "%s/vm/run", src);
	snprintf(results, sizeof(results), "%s/results", shared_dir);
	char *argv[] = { runner, "-q", "--no-upstream", "--results", results, "--timeout", "60",
			 (char *)smoke_kernel, "mmap", "perfdata_roundtrip", NULL };

	if (pc_test_run(&shared_run, 600, argv))
		memset(&shared_run, 0, sizeof(shared_run));
}

FIXTURE(smoke) {
	char *result;
	char kernel[32];
};

FIXTURE_SETUP(smoke)
{
	char path[PATH_MAX + 64];

	if (!shared_dir)
		SKIP(return, "no QEMU or no static build (make static), or inside a guest");
	snprintf(self->kernel, sizeof(self->kernel), "%s", smoke_kernel);
	snprintf(path, sizeof(path), "%s/results/%s/result.json", shared_dir, self->kernel);
	self->result = slurp(path);
	if (strstr(self->result, "cannot fetch the package lists"))
		SKIP(return, "Debian's archive is unreachable and nothing is cached");
}

FIXTURE_TEARDOWN(smoke)
{
	free(self->result);
}

TEST_F_TIMEOUT(smoke, guest_boots_and_finishes, 60)
{
	EXPECT_NE(NULL, strstr(self->result, "\"state\" : \"finished\""))
		TH_LOG("%s", shared_run.err);
}

TEST_F_TIMEOUT(smoke, kernel_selftest_passes_in_the_guest, 60)
{
	char path[PATH_MAX + 64];
	char *tap;

	snprintf(path, sizeof(path), "%s/results/%s/tap/kernel.mmap.tap", shared_dir, self->kernel);
	tap = slurp(path);
	EXPECT_NE(NULL, strstr(tap, "\nok 3 perf_mmap.rb.map\n"));
	EXPECT_EQ(NULL, strstr(tap, "not ok"));
	free(tap);
}

TEST_F_TIMEOUT(smoke, our_selftest_runs_in_the_guest, 60)
{
	EXPECT_NE(NULL, strstr(self->result, "perfcheck/perfdata_roundtrip:"));
	EXPECT_EQ(NULL, strstr(self->result, "\"status\" : \"not-run\""));
}

TEST_F_TIMEOUT(smoke, artifacts_come_back_from_the_guest, 60)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/results/%s/artifacts/dmesg.txt", shared_dir, self->kernel);
	EXPECT_EQ(0, access(path, R_OK));
	EXPECT_NE(NULL, strstr(self->result, "\"artifacts\" : \"ok\""));
}

TEST_F_TIMEOUT(smoke, guest_logs_no_splat, 60)
{
	EXPECT_NE(NULL, strstr(self->result, "\"splats\" : []"));
}

/* The facts expectations are derived from: a TCG guest has no PMU, and says why. */
TEST_F_TIMEOUT(smoke, guest_facts_are_collected, 60)
{
	EXPECT_NE(NULL, strstr(self->result, "\"facts\" : {"));
	EXPECT_TRUE(strstr(self->result, "\"pmu\" : \"yes\"") ||
		    strstr(self->result, "\"pmu\" : \"no cycles "));
	EXPECT_NE(NULL, strstr(self->result, "\"tool.sh\" : \"/bin/sh\""));
}

TEST_F_TIMEOUT(smoke, speed_factor_is_measured, 60)
{
	EXPECT_NE(NULL, strstr(self->result, "\"factor\" : "));
	EXPECT_EQ(NULL, strstr(self->result, "\"factor\" : null"));
}

TEST_F_TIMEOUT(smoke, results_merge_into_tap_junit_and_markdown, 60)
{
	char path[PATH_MAX + 64];
	char *md;

	snprintf(path, sizeof(path), "%s/results/junit.xml", shared_dir);
	EXPECT_EQ(0, access(path, R_OK));
	snprintf(path, sizeof(path), "%s/results/%s/tap/kernel.mmap.tap", shared_dir, self->kernel);
	EXPECT_EQ(0, access(path, R_OK));
	snprintf(path, sizeof(path), "%s/results/summary.md", shared_dir);
	md = slurp(path);
	EXPECT_NE(NULL, strstr(md, "### kernel x test"));
	free(md);
}

int main(int argc, char **argv)
{
	boot_once();
	int ret = test_harness_run(argc, argv);

	if (shared_dir)
		pc_test_rmdir(shared_dir);
	return ret;
}
