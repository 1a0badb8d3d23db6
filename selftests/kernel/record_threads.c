// SPDX-License-Identifier: GPL-2.0
/*
 * record --threads[=SPEC]: a perf.data directory of a header file "data"
 * (with DIR_FORMAT version 1) and one data.N per ring, each read alone by
 * the library reader, their samples adding up to the whole and to the
 * summary; finished when stopped by SIGINT, --timeout or a full disk; a
 * bad SPEC and the options perf refuses with it are usage errors.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "record_common.h"

FIXTURE(thr)
{
	char *dir;
	char *out;
	char *errfile;
	bool mounted;
};

FIXTURE_SETUP(thr)
{
	self->dir = pc_test_mkdtemp("record-threads");
	ASSERT_NE(NULL, self->dir);
	self->out = strdup(rt_path(self->dir, "perf.data"));
	self->errfile = strdup(rt_path(self->dir, "stderr"));
	self->mounted = false;
}

FIXTURE_TEARDOWN(thr)
{
	if (self->mounted)
		umount2(self->dir, MNT_DETACH);
	free(self->out);
	free(self->errfile);
	pc_test_rmdir(self->dir);
}

/* The data.N of dir: how many, and the largest N + 1 (-1 when it cannot be listed). */
static int count_data_files(const char *dir, int *max_n)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	*max_n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "data.", 5))
			continue;
		n++;
		if (atoi(e->d_name + 5) + 1 > *max_n)
			*max_n = atoi(e->d_name + 5) + 1;
	}
	closedir(d);
	return n;
}

/* DIR_FORMAT of the directory's header: its version, or -1 without it. */
static long dir_format(const char *path)
{
	struct pc_error err = { 0 };
	struct pd_reader r;
	const void *data;
	size_t size;
	uint64_t v;
	long ret = -1;

	if (pd_reader_open(&r, path, &err))
		return -1;
	if (!pd_reader_feature(&r, PD_FEAT_DIR_FORMAT, &data, &size) && size == sizeof(v)) {
		memcpy(&v, data, sizeof(v));
		ret = (long)v;
	}
	pd_reader_close(&r);
	return ret;
}

/* The N in "(N samples," of perfcheck record's summary, or -1. */
static long long summary_samples(const char *err)
{
	const char *line = err ? strstr(err, " samples, ") : NULL;

	if (!line)
		return -1;
	while (line > err && line[-1] != '(')
		line--;
	return strtoll(line, NULL, 10);
}

static void record_threads(struct __test_metadata *_metadata, FIXTURE_DATA(thr) *self,
			   const char *spec, struct pc_run *run)
{
	const char *opts[] = { spec, "-e", "task-clock", "-F", "4000", "-o", self->out, NULL };

	ASSERT_EQ(0, rt_record(run, 60, opts, "threads", "0.5"));
	ASSERT_EQ(0, run->exit_code) TH_LOG("%s", run->err);
}

TEST_F(thr, directory_has_the_header_file_and_a_data_file_per_cpu_ring)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct pc_run run;
	struct stat st;
	int max_n;

	record_threads(_metadata, self, "--threads", &run);
	ASSERT_EQ(0, stat(self->out, &st));
	ASSERT_TRUE(S_ISDIR(st.st_mode)) TH_LOG("%s is not a directory", self->out);
	ASSERT_EQ(0, stat(rt_path(self->out, "data"), &st));
	/* perf's names: one data.N per ring, N from 0 */
	EXPECT_EQ(cpus, count_data_files(self->out, &max_n));
	EXPECT_EQ(cpus, max_n);
	EXPECT_EQ(1, dir_format(self->out)) TH_LOG("DIR_FORMAT version 1 in the header");
	pc_run_free(&run);
}

/*
 * Each data.N beside the header file alone in a directory of its own:
 * the reader reads it, and the samples of all add up to the whole.
 */
TEST_F(thr, every_data_file_reads_alone_and_their_samples_add_up)
{
	char one[PATH_MAX / 2], link[PATH_MAX], target[PATH_MAX];
	uint64_t sum = 0;
	struct rt_file whole;
	struct pc_run run;
	int max_n;

	record_threads(_metadata, self, "--threads", &run);
	ASSERT_EQ(0, rt_read(self->out, &whole)) TH_LOG("%s", whole.err);
	EXPECT_FALSE(whole.recovered);
	EXPECT_GT(whole.samples, 0);
	EXPECT_EQ((long long)whole.samples, summary_samples(run.err)) TH_LOG("%s", run.err);
	ASSERT_GT(count_data_files(self->out, &max_n), 0);
	for (int n = 0; n < max_n; n++) {
		struct rt_file f;

		snprintf(one, sizeof(one), "%s/one%d", self->dir, n);
		ASSERT_EQ(0, mkdir(one, 0700));
		snprintf(link, sizeof(link), "%s/data", one);
		snprintf(target, sizeof(target), "%s/data", self->out);
		ASSERT_EQ(0, symlink(target, link));
		snprintf(link, sizeof(link), "%s/data.%d", one, n);
		snprintf(target, sizeof(target), "%s/data.%d", self->out, n);
		ASSERT_EQ(0, symlink(target, link));
		ASSERT_EQ(0, rt_read(one, &f)) TH_LOG("data.%d: %s", n, f.err);
		sum += f.samples;
	}
	EXPECT_EQ(whole.samples, sum);
	pc_run_free(&run);
}

TEST_F(thr, sigint_stopped_recording_is_a_finished_directory)
{
	const char *opts[] = { "--threads", "-e", "task-clock", "-o", self->out, NULL };
	struct rt_file f;
	pid_t pid = rt_spawn(opts, "spin", "30", self->errfile);
	int code;

	ASSERT_GT(pid, 0);
	usleep(1000 * 1000);
	kill(pid, SIGINT);
	code = rt_wait(pid, 30);
	kill(-pid, SIGKILL);		/* the workload, if left behind */
	EXPECT_NE(-1, code);
	EXPECT_NE(NULL, strstr(rt_slurp(self->errfile), "perfcheck record: Captured and wrote"))
		TH_LOG("%s", rt_slurp(self->errfile));
	EXPECT_EQ(1, dir_format(self->out));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered) TH_LOG("the header was finished");
	EXPECT_GT(f.samples, 0);
}

TEST_F(thr, timeout_finishes_the_directory_with_exit_124)
{
	const char *opts[] = { "--threads", "--timeout", "0.5", "-e", "task-clock", "-o",
			       self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "30"));
	EXPECT_EQ(124, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_EQ(1, dir_format(self->out));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered);
	EXPECT_GT(f.samples, 0);
	pc_run_free(&run);
}

/*
 * Fills the filesystem of dir up to keep free bytes (a file of the rest):
 * the recording then meets a full disk after a few dozen KiB, however few
 * samples the kernel lets through (a TCG guest throttled task-clock to 491
 * samples in 20 s, 67 KB, and the test's 256 KiB never filled)
 */
static int fill_up_to(const char *dir, long long keep)
{
	struct statvfs sv;
	long long pad;
	int fd, ret;

	if (statvfs(dir, &sv))
		return -1;
	pad = (long long)sv.f_bavail * (long long)sv.f_frsize - keep;
	if (pad <= 0)
		return 0;
	fd = open(rt_path(dir, "pad"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	ret = posix_fallocate(fd, 0, (off_t)pad);
	close(fd);
	return ret ? -1 : 0;
}

TEST_F(thr, full_disk_stops_with_a_clear_error_and_a_directory_perf_can_read)
{
	const char *opts[] = { "--threads", "-g", "-e", "task-clock", "-F", "4000", "-m", "16",
			       "--timeout", "15", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	if (mount("perfcheck", self->dir, "tmpfs", 0, "size=1m"))
		SKIP(return, "cannot mount a tmpfs (%s): needs root", strerror(errno));
	self->mounted = true;
	/* the recorder's 128 KiB held back for the header, and 16 KiB of records */
	ASSERT_EQ(0, fill_up_to(self->dir, (128 + 16) * 1024)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "30"));
	/* a kernel that lets too few samples through for 16 KiB in 15 s (a slow guest) */
	if (run.exit_code == 124 && !strstr(run.err, "No space left on device"))
		SKIP(return, "the disk did not fill in 15 s (%lld samples written): %.200s",
		     summary_samples(run.err), run.err);
	EXPECT_NE(0, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "No space left on device")) TH_LOG("stderr: %s", run.err);
	/* perf reads a directory only with its DIR_FORMAT: it must survive the full disk */
	EXPECT_EQ(1, dir_format(self->out));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered);
	EXPECT_GT(f.samples, 0);
	EXPECT_EQ((long long)f.samples, summary_samples(run.err)) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

TEST_F(thr, previous_recording_becomes_old_whatever_its_kind)
{
	const char *file_opts[] = { "-e", "task-clock", "-o", self->out, NULL };
	struct pc_run run;
	struct stat st;

	ASSERT_EQ(0, rt_record(&run, 60, file_opts, "spin", "0.1"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	record_threads(_metadata, self, "--threads", &run);
	pc_run_free(&run);
	ASSERT_EQ(0, stat(rt_path(self->dir, "perf.data.old"), &st));
	EXPECT_TRUE(S_ISREG(st.st_mode)) TH_LOG("the file became perf.data.old");
	/* a directory over a directory: the older one goes, the last becomes .old */
	record_threads(_metadata, self, "--threads", &run);
	pc_run_free(&run);
	ASSERT_EQ(0, stat(rt_path(self->dir, "perf.data.old"), &st));
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	EXPECT_EQ(1, dir_format(rt_path(self->dir, "perf.data.old")));
	EXPECT_EQ(1, dir_format(self->out));
}

TEST_F(thr, bad_spec_is_a_usage_error_naming_itself)
{
	static const char *const specs[] = { "--threads=bogus", "--threads=0/0:0/1",
					     "--threads=0-1" };

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		const char *opts[] = { specs[i], "-e", "task-clock", "-o", self->out, NULL };
		struct pc_run run;

		ASSERT_EQ(0, rt_record(&run, 30, opts, "spin", "0.1"));
		EXPECT_EQ(129, run.exit_code) TH_LOG("%s: %s", specs[i], run.err);
		EXPECT_NE(NULL, strstr(run.err, specs[i] + 2)) TH_LOG("%s", run.err);
		pc_run_free(&run);
	}
}

TEST_F(thr, pipe_output_is_refused_with_perfs_reason)
{
	const char *opts[] = { "--threads", "-e", "task-clock", "-o", "-", NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 30, opts, "spin", "0.1"));
	EXPECT_EQ(129, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "Parallel trace streaming is not available in pipe "
				 "mode")) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

RECORD_TEST_MAIN()
