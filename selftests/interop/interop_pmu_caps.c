// SPDX-License-Identifier: GPL-2.0
/*
 * The PMUs' capabilities in the header perfcheck record writes, against the
 * header the upstream perf of this machine writes (the system perf on a
 * host, Debian's perf of the kernel's suite in a guest of the matrix), as
 * that perf's `report --header-only -I` lists them: PMU_CAPS present or
 * missing alike, and the same "pmu capabilities" lines (none on a machine
 * without a PMU; arm64's armv8_pmuv3_0 slots; x86's cpu branches,
 * max_precise, pmu_name).
 *
 * perf 6.6 and later also write an empty CPU_PMU_CAPS for the placeholder
 * cpu PMU they make up on a machine without a core PMU ("# cpu pmu
 * capabilities: not available"), where perf 6.1 and perfcheck write none:
 * both say that PMU has no capabilities, and that line is left out.  Before
 * 6.6, perf wrote CPU_PMU_CAPS for a PMU named cpu alone; perfcheck, as
 * later perfs, for the core PMU whatever its name (arm64's armv8_pmuv3_0):
 * with such a perf, the "cpu pmu capabilities" line perf lacks is left out
 * of ours (measured: perf 6.1 and 7.2 in the 6.1-arm64 and 7.2-arm64 guests).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "lib/interop_tools.h"

FIXTURE(caps) {
	const char *perf;
	char *dir;
	struct pc_run theirs, ours, run;
};

FIXTURE_SETUP(caps)
{
	memset(&self->theirs, 0, sizeof(self->theirs));
	memset(&self->ours, 0, sizeof(self->ours));
	memset(&self->run, 0, sizeof(self->run));
	self->dir = NULL;
	self->perf = up_perf();
	if (!self->perf)
		SKIP(return, "no upstream perf here (PERFCHECK_PERF, upstream/perf, or perf in PATH)");
	self->dir = pc_test_mkdtemp("interop-pmu-caps");
	ASSERT_NE(NULL, self->dir);
}

FIXTURE_TEARDOWN(caps)
{
	pc_run_free(&self->theirs);
	pc_run_free(&self->ours);
	pc_run_free(&self->run);
	if (self->dir)
		pc_test_rmdir(self->dir);
}

/* TOOL record -e cpu-clock -o DIR/NAME -- sleep 0: 0, else the run's exit code */
static int record(FIXTURE_DATA(caps) *self, const char *tool, const char *name, char *path,
		  size_t size)
{
	char *argv[] = { (char *)tool, "record", "-q", "-e", "cpu-clock", "-o", path, "--",
			 "sleep", "0", NULL };

	snprintf(path, size, "%s/%s", self->dir, name);
	pc_run_free(&self->run);
	memset(&self->run, 0, sizeof(self->run));
	if (up_run(&self->run, 120, argv))
		return 127;
	return self->run.exit_code;
}

/*
 * What the header says of the PMUs' capabilities: whether PMU_CAPS is among
 * the missing features, then each "pmu capabilities" line but the empty cpu
 * one (see the top of this file)
 */
static void caps_view(const char *text, char *out, size_t size)
{
	static const char empty_cpu[] = "# cpu pmu capabilities: not available";
	const char *p = text, *missing = strstr(text, "# missing features:");
	size_t n = 0;

	out[0] = '\0';
	if (missing) {
		size_t len = strcspn(missing, "\n");
		char line[1024];

		snprintf(line, sizeof(line), "%.*s ", (int)len, missing);
		n += (size_t)snprintf(out + n, size - n, "PMU_CAPS %s\n",
				      strstr(line, " PMU_CAPS ") ? "missing" : "written");
	}
	while (*p && n < size) {
		size_t len = strcspn(p, "\n");

		if (memmem(p, len, " pmu capabilities: ", 19) &&
		    !(len == strlen(empty_cpu) && !strncmp(p, empty_cpu, len)))
			n += (size_t)snprintf(out + n, size - n, "%.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/* The "# cpu pmu capabilities: " line out of a caps_view */
static void drop_cpu_line(char *view)
{
	char *line = strstr(view, "# cpu pmu capabilities: "), *next;

	if (!line)
		return;
	next = strchr(line, '\n');
	next = next ? next + 1 : line + strlen(line);
	memmove(line, next, strlen(next) + 1);
}

/* perf report --header-only -I of path into run */
static void header_of(struct __test_metadata *_metadata, const char *perf, const char *path,
		      struct pc_run *run)
{
	char *argv[] = { (char *)perf, "report", "--header-only", "-I", "-i", (char *)path, NULL };

	ASSERT_EQ(0, up_run(run, 120, argv));
	ASSERT_EQ(0, run->exit_code) TH_LOG("%s", run->err);
}

TEST_F(caps, pmu_capabilities_are_what_this_perf_record_writes)
{
	char theirs[512], ours[512], a[4096], b[4096];
	struct up_version v;
	int rc = record(self, self->perf, "perf.data", theirs, sizeof(theirs));

	if (rc)
		SKIP(return, "%s record failed (exit %d): %.300s", self->perf, rc, self->run.err);
	ASSERT_EQ(0, record(self, pc_test_perfcheck(), "ours.data", ours, sizeof(ours)))
		TH_LOG("%s", self->run.err);
	header_of(_metadata, self->perf, theirs, &self->theirs);
	header_of(_metadata, self->perf, ours, &self->ours);
	caps_view(self->theirs.out ? self->theirs.out : "", a, sizeof(a));
	caps_view(self->ours.out ? self->ours.out : "", b, sizeof(b));
	ASSERT_EQ(0, up_perf_version(&v));
	if ((v.major < 6 || (v.major == 6 && v.minor < 6)) && !strstr(a, "# cpu pmu capabilities: "))
		drop_cpu_line(b);
	/* a perf that lists the missing features at all */
	if (!a[0])
		SKIP(return, "%s lists no missing features", self->perf);
	EXPECT_STREQ(a, b) TH_LOG("perf's header:\n%s\nours:\n%s", self->theirs.out,
				   self->ours.out);
	/* perf reads our header without a word */
	EXPECT_EQ(NULL, strstr(self->ours.err ? self->ours.err : "", "arning"))
		TH_LOG("%s", self->ours.err);
}

TEST_HARNESS_MAIN
