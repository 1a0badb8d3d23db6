// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF callchains against the system perf: a `perf record --call-graph
 * dwarf -e cpu-clock` file read by `perf script` and by `perfcheck script
 * --compat 6.1` shows the same samples, the same frames at the same
 * addresses with the same symbols.  One difference on purpose: the name
 * of an "(inlined)" entry, which perf takes from addr2line (a symbol-table
 * alias such as __GI_munmap) and we from the DWARF (__munmap); the line
 * is still there, at the same address.
 */
#include "interop_tools.h"
#include "kselftest_harness.h"

FIXTURE(dwarf_script) {
	char *dir;
	char data[PATH_MAX];
	struct up_version v;
};

FIXTURE_SETUP(dwarf_script)
{
	char period[] = "-c", per[] = "250000";
	char *argv[] = { NULL, "record", "-q", "--call-graph", "dwarf", "-e", "cpu-clock",
			 period, per, "-o", self->data, "--", "/bin/sh", "-c",
			 "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done", NULL };
	struct pc_run run;

	argv[0] = (char *)up_perf();
	if (!argv[0])
		SKIP(return, "no upstream perf here (guest without the upstream payload)");
	ASSERT_EQ(0, up_perf_version(&self->v));
	if (self->v.major != 6 || self->v.minor != 1)
		SKIP(return, "the layout compared is perf 6.1's; this perf is %s", self->v.text);
	self->dir = pc_test_mkdtemp("interop-dwarf-script");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	ASSERT_EQ(0, pc_test_run(&run, 120, argv));
	if (run.exit_code)
		SKIP(return, "perf record --call-graph dwarf -e cpu-clock fails here: %.200s",
		     run.err ? run.err : "");
	pc_run_free(&run);
}

FIXTURE_TEARDOWN(dwarf_script)
{
	if (self->dir)
		pc_test_rmdir(self->dir);
}

static bool inlined(const char *line, size_t len)
{
	return len >= 9 && !memcmp(line + len - 9, "(inlined)", 9);
}

/* The address column of a frame line ("\t%16lx ..."), or 0. */
static unsigned long long frame_addr(const char *line)
{
	return line[0] == '\t' ? strtoull(line + 1, NULL, 16) : 0;
}

TEST_F_TIMEOUT(dwarf_script, script_shows_perfs_samples_frames_and_symbols, 600)
{
	char *pargv[] = { (char *)up_perf(), "script", "-i", self->data, NULL };
	char *oargv[] = { (char *)pc_test_perfcheck(), "script", "--compat", "6.1", "-i",
			  self->data, NULL };
	struct pc_run p, o;
	const char *a, *b;
	int lines = 0, named = 0, user = 0;

	ASSERT_EQ(0, pc_test_run(&p, 300, pargv));
	ASSERT_EQ(0, pc_test_run(&o, 300, oargv));
	ASSERT_EQ(0, p.exit_code);
	ASSERT_EQ(0, o.exit_code) TH_LOG("%s", o.err);
	ASSERT_NE(NULL, p.out);
	ASSERT_NE(NULL, o.out);
	for (a = p.out, b = o.out; *a && *b; lines++) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");

		if (la != lb || memcmp(a, b, la)) {
			/* the one difference on purpose: an inlined entry's name */
			ASSERT_TRUE(inlined(a, la) || inlined(b, lb))
				TH_LOG("line %d differs:\nperf:      %.*s\nperfcheck: %.*s", lines + 1,
				       (int)la, a, (int)lb, b);
			ASSERT_EQ(frame_addr(a), frame_addr(b))
				TH_LOG("line %d: not the same address", lines + 1);
			named++;
		}
		if (la > 20 && strstr(a, "(/usr/") && strstr(a, "(/usr/") < a + la)
			user++;
		a += la + (a[la] == '\n');
		b += lb + (b[lb] == '\n');
	}
	EXPECT_EQ('\0', *a) TH_LOG("perf prints more lines than perfcheck after line %d", lines);
	EXPECT_EQ('\0', *b) TH_LOG("perfcheck prints more lines than perf after line %d", lines);
	/* the user frames are there: perf unwound some, and so did we */
	EXPECT_LT(0, user);
	/* names taken apart are few (19 of 2085 lines when this was written) */
	EXPECT_LT(named * 20, lines) TH_LOG("%d of %d lines differ in an inlined name", named, lines);
	TH_LOG("%d lines, %d user frames, %d inlined names differ", lines, user, named);
	pc_run_free(&p);
	pc_run_free(&o);
}

TEST_HARNESS_MAIN
