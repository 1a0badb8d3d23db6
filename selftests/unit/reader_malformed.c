// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input to perfcheck script, report and -D: a message naming the file
 * and the offset ("FILE: offset 0xOFF: what"), exit status 2, no crash, no
 * hang, and whatever was printed before the defect kept.  The fuzzer's
 * findings (fuzz/regressions/) are replayed here.
 */
#include <dirent.h>
#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(bad) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
};

FIXTURE_SETUP(bad)
{
	struct pd_sample id = rt_id(100, 100, 1);

	self->dir = pc_test_mkdtemp("reader-malformed");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_attr(&self->a, PERF_ATTR_SIZE_VER9);
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &id);
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0);
}

FIXTURE_TEARDOWN(bad)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	pc_test_rmdir(self->dir);
}

/* Runs a command, expects exit 2 and "PATH: offset 0x" on stderr. */
static void refused(struct __test_metadata *_metadata, FIXTURE_DATA(bad) *self,
		    const char *cmd, const char *opt, const char *what)
{
	char prefix[600];

	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, cmd, "-i", self->path, opt, NULL, NULL, NULL));
	EXPECT_EQ(2, self->run.exit_code) TH_LOG("%s %s: %s", cmd, opt ? opt : "", self->run.err);
	snprintf(prefix, sizeof(prefix), "%s: offset 0x", self->path);
	EXPECT_NE(NULL, strstr(self->run.err, prefix)) TH_LOG("stderr: %s", self->run.err);
	if (what)
		EXPECT_NE(NULL, strstr(self->run.err, what)) TH_LOG("stderr: %s", self->run.err);
}

/* Appends a record of type with body bytes as given (no sample_id). */
static void raw_record(struct synth *d, uint32_t type, const void *body, size_t n)
{
	struct perf_event_header h = { type, 0, (uint16_t)(sizeof(h) + ((n + 7) & ~7UL)) };
	static const char zero[8];

	synth_put(d, &h, sizeof(h));
	synth_put(d, body, n);
	synth_put(d, zero, ((n + 7) & ~7UL) - n);
}

TEST_F(bad, mmap_filename_without_terminator_is_refused)
{
	uint8_t body[32 + 24 + 8 + 16];

	/* pid, tid, start, len, pgoff, maj/min/ino/gen, prot/flags, then a full name */
	memset(body, 'A', sizeof(body));
	memset(body, 0, 64);
	rt_attr(&self->a, PERF_ATTR_SIZE_VER9);
	self->a.attr.sample_id_all = 0;
	synth_free(&self->d);
	raw_record(&self->d, PERF_RECORD_MMAP2, body, sizeof(body));
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	refused(_metadata, self, "script", NULL, "not NUL-terminated");
	refused(_metadata, self, "report", NULL, "not NUL-terminated");
}

TEST_F(bad, comm_without_terminator_is_refused)
{
	uint8_t body[8 + 16];

	memset(body, 'B', sizeof(body));
	memset(body, 0, 8);
	self->a.attr.sample_id_all = 0;
	synth_free(&self->d);
	raw_record(&self->d, PERF_RECORD_COMM, body, sizeof(body));
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	refused(_metadata, self, "script", NULL, "COMM");
}

TEST_F(bad, callchain_longer_than_its_record_is_refused_after_the_good_samples)
{
	size_t at = self->d.len;
	uint64_t huge = 1ULL << 40;

	rt_sample(&self->d, &self->a.attr, 100, 100, 2 * RT_SEC, RT_KIP(2), 0);
	/* IP, TID, TIME, PERIOD, then the callchain nr */
	memcpy(self->d.buf + at + 8 + 32, &huge, 8);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	refused(_metadata, self, "script", NULL, NULL);
	/* the sample before the defect is not lost */
	EXPECT_EQ(1, pc_count_substr(self->run.out, "alpha     100     1.000000:"));
	refused(_metadata, self, "script", "-D", NULL);
	refused(_metadata, self, "report", NULL, NULL);
}

TEST_F(bad, record_running_past_the_data_section_is_refused)
{
	uint16_t size = 0x7ff8;
	uint64_t data_start;
	FILE *f;

	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	/* the first record claims 32 KB: patch its header.size in place */
	f = fopen(self->path, "r+b");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, fseek(f, 40, SEEK_SET));	/* header.data.offset */
	ASSERT_EQ(1, fread(&data_start, 8, 1, f));
	ASSERT_EQ(0, fseek(f, (long)data_start + 6, SEEK_SET));
	ASSERT_EQ(1, fwrite(&size, 2, 1, f));
	fclose(f);
	refused(_metadata, self, "script", NULL, NULL);
	refused(_metadata, self, "script", "-D", NULL);
}

TEST_F(bad, every_truncation_of_a_file_exits_0_or_2_without_crashing)
{
	FILE *f;
	char *whole;
	long size;

	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	f = fopen(self->path, "rb");
	ASSERT_NE(NULL, f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	whole = malloc((size_t)size);
	ASSERT_EQ((size_t)size, fread(whole, 1, (size_t)size, f));
	fclose(f);
	for (long cut = 0; cut < size; cut += 8) {
		f = fopen(self->path, "wb");
		ASSERT_NE(NULL, f);
		fwrite(whole, 1, (size_t)cut, f);
		fclose(f);
		pc_run_free(&self->run);
		ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, NULL, NULL, NULL,
					  NULL));
		ASSERT_TRUE(self->run.exit_code == 0 || self->run.exit_code == 2)
			TH_LOG("cut at %ld: exit %d: %s", cut, self->run.exit_code, self->run.err);
		if (self->run.exit_code == 2)
			ASSERT_NE(NULL, strstr(self->run.err, self->path));
	}
	free(whole);
}

static const char *regressions_dir(void)
{
	static char path[PATH_MAX + 32];
	const char *src = pc_test_srcdir("fuzz/regressions");

	if (!src)
		return NULL;
	snprintf(path, sizeof(path), "%s/fuzz/regressions", src);
	return path;
}

TEST_F(bad, fuzzer_findings_exit_0_or_2_in_every_mode)
{
	const char *dir = regressions_dir();
	static const char *const modes[][2] = {
		{ "script", NULL }, { "script", "--no-merge-callchains" },
		{ "script", "--merge-late-deferred" }, { "script", "-D" }, { "report", NULL },
	};
	struct dirent *de;
	DIR *dp;
	int files = 0;

	if (!dir)
		SKIP(return, "fuzz/regressions not present (not a source tree)");
	dp = opendir(dir);
	ASSERT_NE(NULL, dp);
	while ((de = readdir(dp))) {
		char file[PATH_MAX + 300];

		if (de->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s", dir, de->d_name);
		files++;
		for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			pc_run_free(&self->run);
			ASSERT_EQ(0, rt_perfcheck(&self->run, modes[m][0], "-i", file,
						  modes[m][1], NULL, NULL, NULL));
			EXPECT_TRUE(self->run.exit_code == 0 || self->run.exit_code == 2)
				TH_LOG("%s %s %s: exit %d", modes[m][0], modes[m][1] ? modes[m][1] : "",
				       de->d_name, self->run.exit_code);
		}
	}
	closedir(dp);
	EXPECT_LT(0, files);
}

TEST_HARNESS_MAIN
