// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record's output and modes, one behaviour each: a recording that
 * fails before it starts leaves the previous file alone and no other file;
 * a successful one rotates it to .old; -o - writes the pipe format; -z
 * writes PERF_RECORD_COMPRESSED records and the COMPRESSED feature; -B
 * leaves BUILD_ID out; --timeout takes fractions, --max-size stops the
 * recording; -m takes units; options that cannot go together exit 129.
 */
#include <dirent.h>
#include <inttypes.h>
#include <sched.h>

#include "kselftest_harness.h"
#include "probes/probe.h"
#include "record_common.h"

static const char previous[] = "the previous recording, kept byte for byte\n";

FIXTURE(out)
{
	char *dir;
	char *out;
};

FIXTURE_SETUP(out)
{
	self->dir = pc_test_mkdtemp("record-output");
	ASSERT_NE(NULL, self->dir);
	self->out = strdup(rt_path(self->dir, "perf.data"));
}

FIXTURE_TEARDOWN(out)
{
	free(self->out);
	pc_test_rmdir(self->dir);
}

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	bool ok = fd >= 0 && write(fd, buf, len) == (ssize_t)len;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* The names in dir, space-separated and sorted, for messages and checks. */
static const char *dir_names(const char *dir)
{
	static char buf[1024];
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort);

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(list[i]->d_name, ".") && strcmp(list[i]->d_name, "..") &&
		    strlen(buf) + strlen(list[i]->d_name) + 2 < sizeof(buf)) {
			strcat(buf, list[i]->d_name);
			strcat(buf, " ");
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	return buf;
}

/* Records under RLIMIT_NOFILE = nofile (through the shell's ulimit). */
static int record_with_nofile(struct pc_run *run, int nofile, const char *const *opts)
{
	char cmd[4096];
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	int n = snprintf(cmd, sizeof(cmd), "ulimit -n %d && exec '%s' record", nofile,
			 pc_test_perfcheck());

	for (; *opts; opts++)
		n += snprintf(cmd + n, sizeof(cmd) - n, " '%s'", *opts);
	snprintf(cmd + n, sizeof(cmd) - n, " -- '%s' --workload spin 0.2", rt_self());
	return pc_test_run(run, 60, argv);
}

TEST_F(out, emfile_before_the_first_sample_leaves_the_previous_file_and_no_other)
{
	/* sixteen events on every cpu: more fds than the limit allows */
	const char *opts[] = { "-e", "cpu-clock,cpu-clock,cpu-clock,cpu-clock,cpu-clock,"
			       "cpu-clock,cpu-clock,cpu-clock,cpu-clock,cpu-clock,cpu-clock,"
			       "cpu-clock,cpu-clock,cpu-clock,cpu-clock,cpu-clock",
			       "-o", self->out, NULL };
	struct pc_run run;

	ASSERT_EQ(0, write_file(self->out, previous, sizeof(previous) - 1));
	ASSERT_EQ(0, record_with_nofile(&run, 16, opts));
	EXPECT_EQ(255, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_NE(NULL, strcasestr(run.err, "too many open files")) TH_LOG("stderr: %s", run.err);
	EXPECT_STREQ(previous, rt_slurp(self->out));
	EXPECT_STREQ("perf.data ", dir_names(self->dir));
	pc_run_free(&run);
}

/* RAM and swap in bytes, from /proc/meminfo (0 when unknown). */
static unsigned long long memory_bytes(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kb, total = 0;
	char key[64];

	if (!f)
		return 0;
	while (fscanf(f, "%63s %llu kB\n", key, &kb) == 2)
		if (!strcmp(key, "MemTotal:") || !strcmp(key, "SwapTotal:"))
			total += kb * 1024;
	fclose(f);
	return total;
}

TEST_F(out, snapshot_ring_that_cannot_be_allocated_leaves_the_previous_file)
{
	const char *opts[] = { "-e", "cpu-clock", "-M", "100G", "-o", self->out, NULL };
	const char *asan = getenv("ASAN_OPTIONS");
	unsigned long long mem = memory_bytes();
	char env[512];
	struct pc_run run;

	/* the kernel refuses (overcommit heuristic) what exceeds RAM and swap */
	if (!mem || mem >= (100ULL << 30))
		SKIP(return, "RAM and swap (%llu bytes) could hold a 100G ring", mem);
	/* under ASan a failed malloc must return NULL, as libc's does */
	snprintf(env, sizeof(env), "%s%sallocator_may_return_null=1", asan ? asan : "",
		 asan ? ":" : "");
	setenv("ASAN_OPTIONS", env, 1);
	ASSERT_EQ(0, write_file(self->out, previous, sizeof(previous) - 1));
	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.2"));
	EXPECT_EQ(255, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_STREQ(previous, rt_slurp(self->out));
	EXPECT_STREQ("perf.data ", dir_names(self->dir));
	pc_run_free(&run);
}

TEST_F(out, a_recording_that_starts_rotates_the_previous_file_to_old)
{
	const char *opts[] = { "-q", "-e", "cpu-clock", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	ASSERT_EQ(0, write_file(self->out, previous, sizeof(previous) - 1));
	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.2"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_STREQ(previous, rt_slurp(rt_path(self->dir, "perf.data.old")));
	EXPECT_STREQ("perf.data perf.data.old ", dir_names(self->dir));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.samples, 0);
	pc_run_free(&run);
}

TEST_F(out, dash_o_dash_writes_the_pipe_format_to_stdout)
{
	const char *opts[] = { "-e", "cpu-clock", "-o", "-", NULL };
	char *pipe_file = rt_path(self->dir, "pipe.data");
	struct pd_reader r;
	struct pc_error err = { 0 };
	struct pc_run run;
	struct rt_file f;
	unsigned long long summary = 0;
	const char *p;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.3"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	ASSERT_EQ(0, write_file(pipe_file, run.out, run.out_len));
	ASSERT_EQ(0, pd_reader_open(&r, pipe_file, &err)) TH_LOG("%s", err.msg);
	EXPECT_TRUE(r.pipe_format);
	pd_reader_close(&r);
	ASSERT_EQ(0, rt_read(pipe_file, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.samples, 0);
	p = strstr(run.err, "MB - (");
	ASSERT_NE(NULL, p) TH_LOG("no summary for -: %s", run.err);
	summary = strtoull(p + 6, NULL, 10);
	EXPECT_EQ(summary, f.samples);
	EXPECT_STREQ("pipe.data ", dir_names(self->dir));
	pc_run_free(&run);
}

TEST_F(out, pipe_format_with_callchains_is_read_by_perf_script_as_by_ours)
{
	const char *opts[] = { "-q", "-g", "-e", "cpu-clock", "-o", "-", NULL };
	char *pipe_file = rt_path(self->dir, "pipe.data");
	char cmd[PATH_MAX + 64];
	char *script[] = { "/bin/sh", "-c", cmd, NULL };
	struct pc_run run, pr;
	struct rt_file f;

	if (access("/usr/bin/perf", X_OK))
		SKIP(return, "no system perf here (the guests have none)");
	ASSERT_EQ(0, rt_use_copy(self->dir));
	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.3"));
	rt_workload_copy[0] = '\0';
	ASSERT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	ASSERT_EQ(0, write_file(pipe_file, run.out, run.out_len));
	ASSERT_EQ(0, rt_read(pipe_file, &f)) TH_LOG("%s", f.err);
	/* perf reads a pipe from its stdin: -i - */
	snprintf(cmd, sizeof(cmd), "/usr/bin/perf script -F comm,tid,ip -i - < '%s'", pipe_file);
	ASSERT_EQ(0, pc_test_run(&pr, 120, script));
	EXPECT_EQ(0, pr.exit_code);
	EXPECT_STREQ("", pr.err);
	/* one line per sample, then one per frame: as many sample lines as we read */
	EXPECT_EQ((int)f.samples, pc_count_substr(pr.out, "pc-workload "))
		TH_LOG("%.2000s", pr.out);
	EXPECT_GT(f.chains, 0);
	pc_run_free(&pr);
	pc_run_free(&run);
}

/* Counts the records of type in path's data section (not decompressed). */
static long count_type(const char *path, uint32_t type, size_t *feat_size, int feat)
{
	struct pc_error err = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	uint64_t pos = 0;
	const void *data;
	long n = 0;

	if (pd_reader_open(&r, path, &err))
		return -1;
	while (pd_reader_next(&r, &pos, &rec, &err) == 1)
		n += rec.header.type == type;
	*feat_size = 0;
	if (!pd_reader_feature(&r, feat, &data, feat_size) && feat == PD_FEAT_COMPRESSED &&
	    *feat_size >= 20) {
		uint32_t f[5];

		memcpy(f, data, sizeof(f));
		if (f[1] != 1)		/* type: zstd */
			*feat_size = 0;
	}
	pd_reader_close(&r);
	return n;
}

TEST_F(out, z_writes_compressed_records_and_the_compressed_feature_instead_of_samples)
{
	const char *opts[] = { "-q", "-z", "-e", "cpu-clock", "-o", self->out, NULL };
	struct pc_run run;
	size_t feat = 0;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.3"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_GT(count_type(self->out, PC_RECORD_COMPRESSED, &feat, PD_FEAT_COMPRESSED), 0);
	EXPECT_EQ(20, feat) TH_LOG("HEADER_COMPRESSED missing or not zstd");
	EXPECT_EQ(0, count_type(self->out, PERF_RECORD_SAMPLE, &feat, PD_FEAT_COMPRESSED));
	pc_run_free(&run);
}

TEST_F(out, compression_level_above_22_is_a_usage_error)
{
	const char *opts[] = { "--compression-level=23", "-e", "cpu-clock", "-o", self->out,
			       NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
	EXPECT_EQ(129, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_NE(NULL, strstr(run.err, "--compression-level: '23'"));
	EXPECT_STREQ("", dir_names(self->dir));
	pc_run_free(&run);
}

TEST_F(out, no_buildid_leaves_the_build_id_section_out)
{
	const char *with[] = { "-q", "-e", "cpu-clock", "-o", self->out, NULL };
	const char *without[] = { "-q", "-B", "-e", "cpu-clock", "-o", self->out, NULL };
	struct pc_run run;
	size_t size = 0;

	ASSERT_EQ(0, rt_record(&run, 60, with, "spin", "0.2"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	count_type(self->out, 0, &size, PD_FEAT_BUILD_ID);
	EXPECT_GT(size, 0) TH_LOG("no BUILD_ID section without -B: the comparison proves nothing");
	pc_run_free(&run);
	ASSERT_EQ(0, rt_record(&run, 60, without, "spin", "0.2"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	count_type(self->out, 0, &size, PD_FEAT_BUILD_ID);
	EXPECT_EQ(0, size);
	pc_run_free(&run);
}

static int add_name(const struct pd_build_id_entry *e, const uint8_t *id, size_t id_size,
		    const char *filename, void *ctx)
{
	char *names = ctx;

	(void)e;
	(void)id;
	(void)id_size;
	if (strlen(names) + strlen(filename) + 2 < 4096) {
		strcat(names, filename);
		strcat(names, "\n");
	}
	return 0;
}

/* The BUILD_ID section's file names, one a line, into names (4096 bytes). */
static void build_id_names(struct __test_metadata *_metadata, const char *path, char *names)
{
	struct pd_reader r;
	struct pc_error err;

	names[0] = '\0';
	ASSERT_EQ(0, pd_reader_open(&r, path, &err)) TH_LOG("%s", err.msg);
	/* no entry: no section (-ENOENT), as perf writes none either */
	if (r.features[PD_FEAT_BUILD_ID].size)
		EXPECT_EQ(0, pd_reader_build_ids(&r, add_name, names, &err)) TH_LOG("%s", err.msg);
	pd_reader_close(&r);
}

/* a period no workload reaches: no sample, so nothing is hit */
TEST_F(out, buildid_all_lists_every_object_mapped_hit_or_not)
{
	const char *hit[] = { "-q", "-e", "cpu-clock", "-c", "1000000000000", "-o", self->out,
			      NULL };
	const char *all[] = { "-q", "--buildid-all", "-e", "cpu-clock", "-c", "1000000000000",
			      "-o", self->out, NULL };
	char names[4096];
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, hit, "spin", "0.05"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	build_id_names(_metadata, self->out, names);
	EXPECT_STREQ("", names);
	pc_run_free(&run);
	ASSERT_EQ(0, rt_record(&run, 60, all, "spin", "0.05"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	build_id_names(_metadata, self->out, names);
	/* the workload's own binary (static or not), and the vdso the kernel mapped */
	EXPECT_NE(NULL, strstr(names, "[vdso]\n")) TH_LOG("%s", names);
	EXPECT_LE(2, pc_count_substr(names, "\n")) TH_LOG("%s", names);
	if (access("/sys/kernel/notes", R_OK) == 0)
		EXPECT_NE(NULL, strstr(names, "[kernel.kallsyms]\n")) TH_LOG("%s", names);
	pc_run_free(&run);
}

TEST_F(out, timeout_takes_fractional_seconds)
{
	const char *opts[] = { "-q", "-e", "cpu-clock", "--timeout", "0.3", "-o", self->out,
			       NULL };
	struct pc_run run;
	struct rt_file f;
	double t0 = wl_now();

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "30"));
	EXPECT_EQ(124, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_LT(wl_now() - t0, 10.0);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered);
	pc_run_free(&run);
}

TEST_F(out, max_size_stops_the_recording_with_a_finalized_file)
{
	const char *opts[] = { "-e", "cpu-clock", "-m", "16", "--max-size", "16K", "-o", self->out,
			       NULL };
	struct pc_run run;
	struct rt_file f;
	struct stat st;
	double t0 = wl_now();

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "30"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_NE(NULL, strstr(run.err, "size limit reached")) TH_LOG("stderr: %s", run.err);
	EXPECT_LT(wl_now() - t0, 20.0) TH_LOG("the 30 s workload was not stopped");
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered);
	EXPECT_GT(f.samples, 0);
	/* stopped at the first drain past 16K: at most one ring (64K a cpu) more */
	ASSERT_EQ(0, stat(self->out, &st));
	EXPECT_LT(st.st_size, 16 * 1024 + 64 * 1024 * 64);
	pc_run_free(&run);
}

TEST_F(out, mmap_pages_take_a_size_with_a_unit)
{
	const char *opts[] = { "-q", "-m", "64K", "-e", "cpu-clock", "-o", self->out, NULL };
	const char *bad[] = { "-m", "64X", "-e", "cpu-clock", "-o", self->out, NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, rt_record(&run, 60, bad, "spin", "0.1"));
	EXPECT_EQ(129, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_NE(NULL, strstr(run.err, "-m: '64X'"));
	pc_run_free(&run);
}

TEST_F(out, mmap_pages_not_a_power_of_two_are_rounded_up_as_perf_says)
{
	const char *opts[] = { "-m", "3", "-e", "cpu-clock", "-o", self->out, NULL };
	char expect[64];
	struct pc_run run;

	snprintf(expect, sizeof(expect), "rounding mmap pages size to %ldK (4 pages)",
		 4 * sysconf(_SC_PAGESIZE) / 1024);
	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
	EXPECT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_NE(NULL, strstr(run.err, expect)) TH_LOG("stderr: %s", run.err);
	pc_run_free(&run);
}

TEST_F(out, overwrite_with_a_snapshot_ring_is_refused_with_the_reason)
{
	const char *opts[] = { "--overwrite", "-M", "64K", "-e", "cpu-clock", "-o", self->out,
			       NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
	EXPECT_EQ(129, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_NE(NULL, strstr(run.err, "--overwrite cannot be used with -M"));
	pc_run_free(&run);
}

TEST_F(out, switch_output_into_a_pipe_is_refused_with_the_reason)
{
	const char *opts[] = { "--switch-output", "-o", "-", "-e", "cpu-clock", NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "0.1"));
	EXPECT_EQ(129, run.exit_code) TH_LOG("stderr: %s", run.err);
	EXPECT_NE(NULL, strstr(run.err, "--switch-output cannot be used with -o -"));
	pc_run_free(&run);
}

/*
 * What the samples of path cover: their count, the CPU time their periods add
 * up to (cpu-clock counts nanoseconds of the task's CPU time), the newest
 * sample time and the time of the last EXIT.
 */
struct kept {
	uint64_t samples, period_ns, newest, exit;
};

static int kept_samples(const char *path, struct kept *k)
{
	struct pc_error err = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	uint64_t pos = 0;

	memset(k, 0, sizeof(*k));
	if (pd_reader_open(&r, path, &err))
		return -1;
	while (pd_reader_next(&r, &pos, &rec, &err) == 1) {
		struct pd_sample s;

		if (rec.header.type == PERF_RECORD_EXIT && !pd_parse_sample_id(&r, &rec, &s, &err) &&
		    s.time > k->exit)
			k->exit = s.time;
		if (rec.header.type != PERF_RECORD_SAMPLE || pd_parse_sample(&r, &rec, &s, &err))
			continue;
		k->samples++;
		k->period_ns += s.period;
		if (s.time > k->newest)
			k->newest = s.time;
	}
	pd_reader_close(&r);
	return k->samples ? 0 : -1;
}

TEST_F(out, overwrite_keeps_only_the_newest_records_of_each_ring)
{
	const char *opts[] = { "-q", "-e", "cpu-clock", "-m", "4", "--overwrite", "-o", self->out,
			       NULL };
	/* 4 pages hold at most size / 48-byte samples */
	const uint64_t room = (uint64_t)4 * sysconf(_SC_PAGESIZE) / 48;
	struct pc_run run;
	struct kept k;
	int e = 0;

	cpu_set_t one, all;

	if (pc_feature_probe(PC_FEAT_WRITE_BACKWARD, &e) != PC_FEATURE_SUPPORTED)
		SKIP(return, "the kernel has no write_backward (errno %d)", e);
	/* one cpu, one ring: what it keeps is the newest of the whole run */
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all)) {
			CPU_SET(c, &one);
			break;
		}
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
	/*
	 * 0.6 s of the workload's own CPU time, however long a loaded machine
	 * takes to give it: at 4000 Hz of cpu-clock about 2400 samples, several
	 * times what the ring holds, so the ring must have overwritten its oldest.
	 */
	ASSERT_EQ(0, rt_record(&run, 120, opts, "cpuspin", "0.6"));
	sched_setaffinity(0, sizeof(all), &all);
	EXPECT_EQ(0, run.exit_code) TH_LOG("stderr: %s", run.err);
	ASSERT_EQ(0, kept_samples(self->out, &k)) TH_LOG("no sample read from %s", self->out);
	EXPECT_LE(k.samples, room);
	/* what is left covers far less than the run's CPU time (periods, not wall clock) */
	EXPECT_LT(k.period_ns, 300000000ull) TH_LOG("%" PRIu64 " samples hold %.3f s of CPU time",
						    k.samples, k.period_ns / 1e9);
	/* and it is its end: the workload's EXIT, the ring's newest record, is kept */
	ASSERT_NE(0, k.exit) TH_LOG("no EXIT record: the newest records were not kept");
	EXPECT_LE(k.newest, k.exit);
	pc_run_free(&run);
}

TEST_F(out, tail_synthesize_names_the_tasks_the_overwritten_rings_lost)
{
	const char *opts[] = { "-q", "-e", "cpu-clock", "-m", "4", "--overwrite",
			       "--tail-synthesize", "--timeout", "0.8", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;
	int e = 0;

	if (pc_feature_probe(PC_FEAT_WRITE_BACKWARD, &e) != PC_FEATURE_SUPPORTED)
		SKIP(return, "the kernel has no write_backward (errno %d)", e);
	/* stopped by --timeout while the workload runs: its /proc is there to read */
	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "20"));
	EXPECT_EQ(124, run.exit_code) TH_LOG("stderr: %s", run.err);
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_GT(f.samples, 0);
	EXPECT_GT(f.mmaps, 0) TH_LOG("no synthesized maps at the end");
	EXPECT_GT(f.comms, 0);
	pc_run_free(&run);
}

RECORD_TEST_MAIN()
