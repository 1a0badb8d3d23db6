// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop, --transaction: perf record opens PERF_SAMPLE_TRANSACTION
 * for it, on any event, and so does perfcheck record.  Neither -vv nor perf
 * evlist -v can show it (perf's attr printer has no name for the bit), so
 * the attr parity tests list the difference of their texts; here the bit is
 * read from the files each tool wrote, with the library reader, and the
 * samples' transaction words are read back by upstream perf.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "interop_tools.h"
#include "perfdata/perfdata.h"

FIXTURE(transaction) {
	char *dir;
	char data[512];
	struct up_version v;
};

FIXTURE_SETUP(transaction)
{
	UP_REQUIRE_PERF_AND_PCWORK(&self->v);
	self->dir = pc_test_mkdtemp("interop-tx");
	ASSERT_NE(NULL, self->dir);
	TH_LOG("upstream %s", self->v.text);
}

FIXTURE_TEARDOWN(transaction)
{
	pc_test_rmdir(self->dir);
}

/* TOOL record --transaction -e cpu-clock into self->data; 0 when it exited 0. */
static int record_with(struct __test_metadata *_metadata, FIXTURE_DATA(transaction) *self,
		       const char *tool, const char *name)
{
	static const char *const opts[] = { "-e", "cpu-clock", "--transaction", NULL };
	char *vv;
	int code;

	snprintf(self->data, sizeof(self->data), "%s/%s.data", self->dir, name);
	vv = up_record_vv(tool, opts, 0, self->data, &code);
	if (code)
		TH_LOG("%s record --transaction exited %d: %.2000s", name, code, vv ? vv : "");
	free(vv);
	return code;
}

/* The sample_type of the file's first event, 0 when it cannot be read. */
static uint64_t file_sample_type(struct __test_metadata *_metadata, const char *path)
{
	struct pd_reader r;
	struct pc_error err;
	uint64_t type = 0;

	if (pd_reader_open(&r, path, &err)) {
		TH_LOG("%s", err.msg);
		return 0;
	}
	if (r.nr_evsels)
		type = r.evsels[0].attr.attr.sample_type;
	pd_reader_close(&r);
	return type;
}

TEST_F_TIMEOUT(transaction, perfs_file_samples_the_transaction_word, 300)
{
	ASSERT_EQ(0, record_with(_metadata, self, up_perf(), "perf"));
	EXPECT_TRUE(file_sample_type(_metadata, self->data) & PERF_SAMPLE_TRANSACTION)
		TH_LOG("perf's file has no PERF_SAMPLE_TRANSACTION: what it opens changed");
}

TEST_F_TIMEOUT(transaction, our_file_samples_the_transaction_word_as_perfs, 300)
{
	ASSERT_EQ(0, record_with(_metadata, self, pc_test_perfcheck(), "perfcheck"));
	EXPECT_TRUE(file_sample_type(_metadata, self->data) & PERF_SAMPLE_TRANSACTION);
}

/* perf report -s transaction reads the word of our samples: 0, one row of no flags */
TEST_F_TIMEOUT(transaction, perf_reports_our_transaction_samples, 300)
{
	char *argv[] = { (char *)up_perf(), "report", "--stdio", "-s", "transaction",
			 "-i", self->data, NULL };
	struct pc_run run;

	ASSERT_EQ(0, record_with(_metadata, self, pc_test_perfcheck(), "perfcheck"));
	ASSERT_EQ(0, up_run(&run, 120, argv));
	EXPECT_EQ(0, run.exit_code) TH_LOG("perf report: %s", run.err);
	EXPECT_NE(NULL, strstr(run.out, "# Overhead  Transaction")) TH_LOG("%s", run.out);
	EXPECT_NE(NULL, strstr(run.out, "   100.00%")) TH_LOG("%s", run.out);
	pc_run_free(&run);
}

TEST_HARNESS_MAIN
