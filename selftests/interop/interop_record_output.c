// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop for record's output options: the upstream perf beside
 * perfcheck (6.1 on this host, each guest's own: 5.10, 6.1, 6.12, 7.2)
 * reads what -z, --compression-level, -o - (also with -z), --overwrite,
 * -D and --switch-output write: `perf script` and `perf report --stdio`
 * exit 0 with an empty stderr, and perf script shows as many samples as
 * the recorder says it wrote.
 */
#include <dirent.h>

#include "kselftest_harness.h"
#include "interop_tools.h"

FIXTURE(out) {
	char *dir;
};

FIXTURE_VARIANT(out) {
	const char *opts[8];
	bool pipe;			/* -o -: perf reads it with -i - from stdin */
	bool switched;			/* --switch-output: read the first file */
};

FIXTURE_VARIANT_ADD(out, z) { .opts = { "-z" } };
FIXTURE_VARIANT_ADD(out, z_callchains) { .opts = { "-z", "-g" } };
FIXTURE_VARIANT_ADD(out, compression_level) { .opts = { "--compression-level=12" } };
FIXTURE_VARIANT_ADD(out, pipe) { .opts = { "-g" }, .pipe = true };
FIXTURE_VARIANT_ADD(out, pipe_z) { .opts = { "-z" }, .pipe = true };
FIXTURE_VARIANT_ADD(out, overwrite) { .opts = { "--overwrite", "-m", "8" } };
FIXTURE_VARIANT_ADD(out, delay) { .opts = { "-D", "100" } };
FIXTURE_VARIANT_ADD(out, switch_output) {
	.opts = { "--switch-output=16K", "-m", "8" }, .switched = true };

FIXTURE_SETUP(out)
{
	if (!up_perf())
		SKIP(return, "no upstream perf here (guest without the upstream payload: "
			     "make matrix without --no-upstream)");
	if (!up_pcwork())
		SKIP(return, "pcwork is not next to perfcheck (make)");
	self->dir = pc_test_mkdtemp("interop-record-output");
	ASSERT_NE(NULL, self->dir);
}

FIXTURE_TEARDOWN(out)
{
	if (self->dir)
		pc_test_rmdir(self->dir);
}

/* The samples of "[ perfcheck record: ... (N samples, M lost) ]", or -1. */
static long summary_samples(const char *err)
{
	const char *p = strstr(err ? err : "", " samples, ");

	if (!p)
		return -1;
	while (p > err && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return strtol(p, NULL, 10);
}

/* The oldest file perf.data.TIMESTAMP of dir (the first one switched). */
static int first_switched(const char *dir, char *path, size_t size)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort), found = -1;

	for (int i = 0; i < n; i++) {
		if (found < 0 && !strncmp(list[i]->d_name, "perf.data.", 10)) {
			snprintf(path, size, "%s/%s", dir, list[i]->d_name);
			found = 0;
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	return found;
}

TEST_F(out, upstream_perf_reads_the_file_without_a_warning)
{
	char file[PATH_MAX], cmd[2 * PATH_MAX + 64], *argv[32];
	char *sh[] = { "/bin/sh", "-c", cmd, NULL };
	struct pc_run run;
	long written;
	int n = 0, lines = 0;

	snprintf(file, sizeof(file), "%s/perf.data", self->dir);
	argv[n++] = (char *)pc_test_perfcheck();
	argv[n++] = "record";
	argv[n++] = "-e";
	argv[n++] = "cpu-clock";
	argv[n++] = "-c";
	argv[n++] = UP_PERIOD;
	for (int i = 0; variant->opts[i]; i++)
		argv[n++] = (char *)variant->opts[i];
	argv[n++] = "-o";
	argv[n++] = variant->pipe ? "-" : file;
	argv[n++] = "--";
	argv[n++] = (char *)up_pcwork();
	argv[n++] = "syscalls";
	argv[n++] = UP_WORK_MS;
	argv[n] = NULL;
	ASSERT_EQ(0, up_run(&run, 120, argv));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	if (variant->pipe)
		ASSERT_EQ(0, up_write_file(file, run.out, run.out_len));
	written = variant->switched ? -1 : summary_samples(run.err);
	if (variant->switched)
		ASSERT_EQ(0, first_switched(self->dir, file, sizeof(file))) TH_LOG("no switched file");
	pc_run_free(&run);

	/* perf reads a pipe from its stdin: -i - */
	snprintf(cmd, sizeof(cmd), "'%s' script -F ip -G -i %s'%s'", up_perf(),
		 variant->pipe ? "- < " : "", file);
	ASSERT_EQ(0, up_run(&run, 180, sh));
	EXPECT_EQ(0, run.exit_code);
	EXPECT_STREQ("", run.err);
	for (const char *p = run.out; p && *p; p++)
		lines += *p == '\n';
	/* the file perf read no sample of, for a look later (in a guest: an artifact) */
	if (lines == 0 || (written >= 0 && written != lines))
		up_keep(strrchr(self->dir, '/') + 1, "perf.data", NULL, file);
	EXPECT_GT(lines, 0);
	if (written >= 0)
		EXPECT_EQ(written, lines) TH_LOG("perf script shows %d of the %ld samples written",
						 lines, written);
	pc_run_free(&run);

	snprintf(cmd, sizeof(cmd), "'%s' report --stdio -i %s'%s'", up_perf(),
		 variant->pipe ? "- < " : "", file);
	ASSERT_EQ(0, up_run(&run, 180, sh));
	EXPECT_EQ(0, run.exit_code);
	EXPECT_STREQ("", run.err);
	EXPECT_NE(NULL, strstr(run.out, "cpu-clock")) TH_LOG("%.1000s", run.out);
	pc_run_free(&run);
}

/* perf report -D of a recording of cpu-clock with the variant's options, in run */
static void dump_recording(struct __test_metadata *_metadata, FIXTURE_DATA(out) *self,
			   const FIXTURE_VARIANT(out) *variant, struct pc_run *run)
{
	char file[PATH_MAX], cmd[2 * PATH_MAX + 64], *argv[32];
	char *sh[] = { "/bin/sh", "-c", cmd, NULL };
	int n = 0;

	snprintf(file, sizeof(file), "%s/perf.data", self->dir);
	argv[n++] = (char *)pc_test_perfcheck();
	argv[n++] = "record";
	argv[n++] = "-e";
	argv[n++] = "cpu-clock";
	argv[n++] = "-c";
	argv[n++] = UP_PERIOD;
	for (int i = 0; variant->opts[i]; i++)
		argv[n++] = (char *)variant->opts[i];
	argv[n++] = "-o";
	argv[n++] = variant->pipe ? "-" : file;
	argv[n++] = "--";
	argv[n++] = (char *)up_pcwork();
	argv[n++] = "syscalls";
	argv[n++] = UP_WORK_MS;
	argv[n] = NULL;
	ASSERT_EQ(0, up_run(run, 120, argv));
	ASSERT_EQ(0, run->exit_code) TH_LOG("%s", run->err);
	if (variant->pipe)
		ASSERT_EQ(0, up_write_file(file, run->out, run->out_len));
	if (variant->switched)
		ASSERT_EQ(0, first_switched(self->dir, file, sizeof(file))) TH_LOG("no switched file");
	pc_run_free(run);

	snprintf(cmd, sizeof(cmd), "'%s' report -D -i %s'%s'", up_perf(),
		 variant->pipe ? "- < " : "", file);
	ASSERT_EQ(0, up_run(run, 180, sh));
	EXPECT_EQ(0, run->exit_code);
	EXPECT_STREQ("", run->err);
}

/*
 * perf report -D of our file (a pipe: from stdin; --switch-output: the
 * first file) shows perf 6.1's preamble: ID_INDEX, THREAD_MAP and CPU_MAP
 * (perf's range form for the online cpus), once each and in that order,
 * without a warning; no FINISHED_INIT (a perf before 5.19 stops at it).
 */
TEST_F(out, upstream_perf_dumps_the_preamble_in_perf_order)
{
	static const char *const names[] = { "PERF_RECORD_ID_INDEX nr: ",
		"PERF_RECORD_THREAD_MAP nr: ", "PERF_RECORD_CPU_MAP: " };
	char cmd[128];
	const char *prev = NULL;
	struct pc_run run;

	dump_recording(_metadata, self, variant, &run);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *at = strstr(run.out, names[i]);

		ASSERT_NE(NULL, at) TH_LOG("no %s in perf's dump", names[i]);
		EXPECT_EQ(NULL, strstr(at + 1, names[i])) TH_LOG("a second %s", names[i]);
		if (prev)
			EXPECT_LT(prev, at) TH_LOG("%s out of perf's order", names[i]);
		prev = at;
	}
	EXPECT_EQ(NULL, strstr(run.out, "PERF_RECORD_FINISHED_INIT"));
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		snprintf(cmd, sizeof(cmd), "PERF_RECORD_CPU_MAP: 0-%ld\n",
			 sysconf(_SC_NPROCESSORS_ONLN) - 1);
		EXPECT_NE(NULL, strstr(run.out, cmd)) TH_LOG("want %s", cmd);
	}
	pc_run_free(&run);
}

/*
 * perf 6.1's extra attrs, dumped by perf itself: after the kernel map and
 * before THREAD_MAP, cpu-clock's unit "msec" then its scale 1e-6 by the
 * event's first id (the ID_INDEX's first), and in a pipe its name too.
 */
TEST_F(out, upstream_perf_dumps_the_clocks_unit_scale_and_pipe_name_before_the_thread_map)
{
	char want[256];
	const char *kmap, *tmap, *at;
	unsigned long long id = 0;
	struct pc_run run;

	dump_recording(_metadata, self, variant, &run);
	at = strstr(run.out, "PERF_RECORD_ID_INDEX nr: ");
	ASSERT_NE(NULL, at);
	at = strstr(at, " ... id: ");
	ASSERT_NE(NULL, at);
	ASSERT_EQ(1, sscanf(at, " ... id: %llu", &id));
	kmap = strstr(run.out, "PERF_RECORD_MMAP -1/0: ");
	tmap = strstr(run.out, "PERF_RECORD_THREAD_MAP nr: ");
	ASSERT_NE(NULL, kmap);
	ASSERT_NE(NULL, tmap);
	snprintf(want, sizeof(want),
		 "PERF_RECORD_EVENT_UPDATE\n... id:    %llu\n... unit:  msec\n", id);
	at = strstr(run.out, want);
	ASSERT_NE(NULL, at) TH_LOG("no %s in perf's dump", want);
	EXPECT_LT(kmap, at);
	snprintf(want, sizeof(want),
		 "PERF_RECORD_EVENT_UPDATE\n... id:    %llu\n... scale: 0.000001\n", id);
	EXPECT_LT(at, strstr(run.out, want)) TH_LOG("no %s after the unit", want);
	at = strstr(run.out, want);
	ASSERT_NE(NULL, at);
	snprintf(want, sizeof(want),
		 "PERF_RECORD_EVENT_UPDATE\n... id:    %llu\n... name:  cpu-clock\n", id);
	if (variant->pipe) {
		EXPECT_LT(at, strstr(run.out, want)) TH_LOG("no %s after the scale", want);
		at = strstr(run.out, want);
		ASSERT_NE(NULL, at);
	} else {
		EXPECT_EQ(NULL, strstr(run.out, want)) TH_LOG("a file names its events in EVENT_DESC");
	}
	EXPECT_LT(at, tmap);
	pc_run_free(&run);
}

TEST_HARNESS_MAIN
