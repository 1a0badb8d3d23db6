// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data directories, as perf record --threads writes them ("data",
 * a perf.data file, and one headerless "data.N" of records per recording
 * thread), against the system perf 6.1 (--compat 6.1), stdout byte for
 * byte: script, report, report --stats and script -D (each record's
 * "OFFSET@FILE"), with -z too (a zstd stream per file).  A data.N cut
 * inside a record is refused naming that file
 * and the offset.  Skips where no perf is installed or it cannot record
 * with --threads.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/perfcmp.h"

PERFCMP_FIXTURE(dir, "interop-dir-format")

#define RECORD_DIR() PERFCMP_RECORD(self->c.path, "--threads -e cpu-clock -c 100000 -g", \
				    PERFCMP_SPIN)

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

TEST_F(dir, script_reads_every_data_file_as_perf)
{
	RECORD_DIR();
	ASSERT_TRUE(is_dir(self->c.path));
	perfcmp_same_script(_metadata, &self->c, "", "cpu-clock", 20);
}

TEST_F(dir, report_counts_the_samples_of_every_file_as_perf)
{
	RECORD_DIR();
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "");
	perfcmp_expect_perf_holds(_metadata, &self->c, "# Samples: ", 1);
	perfcmp_expect_same(_metadata, &self->c);
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "--stats");
	perfcmp_expect_perf_holds(_metadata, &self->c, "SAMPLE events:", 1);
	perfcmp_expect_same(_metadata, &self->c);
}

TEST_F(dir, dump_names_the_file_of_each_record_as_perf)
{
	RECORD_DIR();
	perfcmp_same_script(_metadata, &self->c, "-D", "/data.", 10);
}

/* --threads -z: each data.N is a zstd stream of its own */
TEST_F(dir, compressed_data_files_each_start_their_stream_as_perf)
{
	PERFCMP_RECORD(self->c.path, "--threads -z -e cpu-clock -c 100000 -g", PERFCMP_SPIN);
	perfcmp_same_script(_metadata, &self->c, "", "cpu-clock", 20);
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "--stats");
	perfcmp_expect_perf_holds(_metadata, &self->c, "COMPRESSED", 1);
	perfcmp_expect_same(_metadata, &self->c);
}

TEST_F(dir, data_file_cut_inside_a_record_is_refused_naming_it)
{
	char data0[600], want[700];
	struct stat st;

	RECORD_DIR();
	/* a data.N that holds records (a recording thread may have had none) */
	for (int n = 0; n < 256; n++) {
		snprintf(data0, sizeof(data0), "%s/data.%d", self->c.path, n);
		if (!stat(data0, &st) && st.st_size >= 64)
			break;
		st.st_size = 0;
	}
	if (st.st_size < 64)
		SKIP(return, "perf wrote no records in any data.N of %s", self->c.path);
	ASSERT_EQ(0, truncate(data0, st.st_size - 3));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' script -i '%s'", pc_test_perfcheck(),
				self->c.path));
	EXPECT_EQ(2, self->c.ours.exit_code);
	snprintf(want, sizeof(want), "%s: offset 0x", data0);
	EXPECT_NE(NULL, strstr(self->c.ours.err, want)) TH_LOG("%s", self->c.ours.err);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "runs past the end")) TH_LOG("%s", self->c.ours.err);
}

TEST_F(dir, directory_without_its_data_file_says_so)
{
	char data[600];

	RECORD_DIR();
	snprintf(data, sizeof(data), "%s/data", self->c.path);
	ASSERT_EQ(0, unlink(data));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' script -i '%s'", pc_test_perfcheck(),
				self->c.path));
	EXPECT_NE(0, self->c.ours.exit_code);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "/data: cannot open: No such file"))
		TH_LOG("%s", self->c.ours.err);
}

TEST_HARNESS_MAIN
