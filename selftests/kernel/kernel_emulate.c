// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck emulate: a program's perf_event_open answered as an older
 * kernel would.  Our own probe run under emulation must find what the real
 * kernel of that version was measured to have (probes/baselines, from the
 * matrix guests), the E2BIG answer carries the model's attr size, and
 * nothing but perf_event_open changes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"
#include "probes/kernel.h"
#include "probes/probe.h"

/* Workload: an attr of 136 bytes with a field past 120 set; prints errno and attr.size. */
static int open_long_attr(void)
{
	union pc_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.attr.size = PERF_ATTR_SIZE_VER8;
	a.attr.type = PERF_TYPE_SOFTWARE;
	a.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	a.attr.exclude_kernel = 1;
	a.bytes[PERF_ATTR_SIZE_VER7] = 1;	/* the first byte a 6.1 kernel does not know */
	fd = pc_kernel_open(&a.attr, 0, -1, -1, 0);
	printf("%s %u\n", fd < 0 ? (errno == E2BIG ? "E2BIG" : strerror(errno)) : "opened",
	       a.attr.size);
	return 0;
}

static int emulate(struct pc_run *run, const char *kernel, char **cmd)
{
	char *argv[24];
	int i = 0;

	argv[i++] = (char *)pc_test_perfcheck();
	argv[i++] = "emulate";
	argv[i++] = (char *)kernel;
	argv[i++] = "--";
	for (; *cmd && i < 23; cmd++)
		argv[i++] = *cmd;
	argv[i] = NULL;
	return pc_test_run(run, 60, argv);
}

/* "feature status" lines of a baseline into status[feature]; false when not found. */
static void parse_baseline(const char *text, char status[PC_FEAT__COUNT][16])
{
	const char *p = text;

	for (int f = 0; f < PC_FEAT__COUNT; f++)
		status[f][0] = '\0';
	while (p && *p) {
		char name[64], st[16];

		if (*p != '#' && sscanf(p, "%63s %15s", name, st) == 2) {
			enum pc_feature f = pc_feature_by_name(name);

			if (f < PC_FEAT__COUNT)
				snprintf(status[f], sizeof(status[f]), "%s", st);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
}

FIXTURE(emulate) {
	struct pc_run run;
};

FIXTURE_VARIANT(emulate) {
	const char *kernel;
};

FIXTURE_VARIANT_ADD(emulate, k5_10) { .kernel = "5.10" };
FIXTURE_VARIANT_ADD(emulate, k6_1) { .kernel = "6.1" };
FIXTURE_VARIANT_ADD(emulate, k6_12) { .kernel = "6.12" };
FIXTURE_VARIANT_ADD(emulate, k7_2) { .kernel = "7.2" };

FIXTURE_SETUP(emulate)
{
	char *argv[] = { "true", NULL };

	memset(&self->run, 0, sizeof(self->run));
	ASSERT_EQ(0, emulate(&self->run, variant->kernel, argv));
	if (self->run.exit_code == 255 && strstr(self->run.err, "seccomp"))
		SKIP(return, "no seccomp user notification here: %s", self->run.err);
	pc_run_free(&self->run);
	memset(&self->run, 0, sizeof(self->run));
}

FIXTURE_TEARDOWN(emulate)
{
	pc_run_free(&self->run);
}

TEST_F(emulate, probe_finds_the_measured_features_of_that_kernel)
{
	static char host[PC_FEAT__COUNT][16], real[PC_FEAT__COUNT][16], emul[PC_FEAT__COUNT][16];
	char rel[64], *probe[] = { (char *)pc_test_perfcheck(), "probe", "--baseline", NULL };
	const char *top;
	char path[1024];
	struct pc_run h = { 0 };
	char *text;
	FILE *f;
	long len;

	snprintf(rel, sizeof(rel), "probes/baselines/%s.txt", variant->kernel);
	top = pc_test_srcdir(rel);
	if (!top)
		SKIP(return, "no source tree here to hold %s (a guest carries binaries only)", rel);
	snprintf(path, sizeof(path), "%s/%s", top, rel);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	ASSERT_NE(NULL, text);
	ASSERT_EQ((size_t)len, fread(text, 1, (size_t)len, f));
	fclose(f);
	parse_baseline(text, real);
	free(text);

	ASSERT_EQ(0, pc_test_run(&h, 60, probe));
	parse_baseline(h.out, host);
	pc_run_free(&h);
	ASSERT_EQ(0, emulate(&self->run, variant->kernel, probe + 0));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	parse_baseline(self->run.out, emul);

	for (int i = 0; i < PC_FEAT__COUNT; i++) {
		const char *name = pc_feature_name(i);

		if (!real[i][0] || !strcmp(real[i], "unknown"))
			continue;	/* measured as undecided (a PMU row): nothing to match */
		if (strcmp(host[i], "supported")) {
			/* what this kernel lacks cannot be emulated into existence */
			EXPECT_STRNE("supported", emul[i]) TH_LOG("%s", name);
			continue;
		}
		EXPECT_STREQ(real[i], emul[i])
			TH_LOG("%s: measured on %s: %s; emulated: %s", name, variant->kernel,
			       real[i], emul[i]);
	}
}

TEST_F(emulate, a_longer_attr_gets_e2big_with_the_kernels_size)
{
	char self_exe[64], *argv[] = { self_exe, "--workload", NULL };
	unsigned int expect = !strcmp(variant->kernel, "5.10") ? 120 :
			      !strcmp(variant->kernel, "6.1") ? 128 : 0;
	struct pc_run real = { 0 };

	snprintf(self_exe, sizeof(self_exe), "/proc/%d/exe", (int)getpid());
	ASSERT_EQ(0, emulate(&self->run, variant->kernel, argv));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	if (expect) {
		char want[32];

		snprintf(want, sizeof(want), "E2BIG %u\n", expect);
		EXPECT_STREQ(want, self->run.out);
		return;
	}
	/*
	 * A model that knows the field lets the call go on: the answer is the
	 * running kernel's own (E2BIG with its size on a kernel older than the attr)
	 */
	ASSERT_EQ(0, pc_test_run(&real, 30, argv));
	EXPECT_STREQ(real.out, self->run.out);
	pc_run_free(&real);
}

TEST_F(emulate, nothing_but_perf_event_open_changes)
{
	char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };

	ASSERT_EQ(0, emulate(&self->run, variant->kernel, argv));
	EXPECT_EQ(3, self->run.exit_code);
	EXPECT_STREQ("out\n", self->run.out);
	EXPECT_STREQ("err\n", self->run.err);
}

TEST(an_unknown_kernel_lists_the_known_ones)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "emulate", "4.19", "--", "true", NULL };
	struct pc_run run = { 0 };

	ASSERT_EQ(0, pc_test_run(&run, 30, argv));
	EXPECT_EQ(129, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "5.10 6.1 6.12 6.18 7.2")) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

TEST(a_program_that_is_not_there_exits_127)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "emulate", "6.1", "--", "/nonexistent/prog",
			 NULL };
	struct pc_run run = { 0 };

	ASSERT_EQ(0, pc_test_run(&run, 30, argv));
	EXPECT_EQ(127, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--workload"))
		return open_long_attr();
	return test_harness_run(argc, argv);
}
