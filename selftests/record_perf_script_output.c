// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record files read back by the system perf: output options: -z
 * (PERF_RECORD_COMPRESSED), --compression-level, --mmap-flush, -m with a
 * unit, -B, -N, --max-size, --timeout in fractions of a second.
 */
#include "kselftest_harness.h"
#include "record_perf_script.h"

FIXTURE_VARIANT_ADD(fam, compressed)
{
	.opts = { "-z", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, compression_level)
{
	.opts = { "--compression-level=9", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, compressed_callchains)
{
	.opts = { "-z", "-g", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_mid", .report = true,
};
FIXTURE_VARIANT_ADD(fam, mmap_flush)
{
	.opts = { "--mmap-flush", "4K", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, mmap_size)
{
	.opts = { "-m", "64K", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, no_buildid)
{
	.opts = { "-B", "-N", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, max_size)
{
	.opts = { "--max-size", "32K", "-e", "task-clock" }, .mode = "spin", .arg = "10",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, timeout_fraction)
{
	.opts = { "--timeout", "0.3", "-e", "task-clock" }, .mode = "spin", .arg = "10",
	.expect = "wl_",
};

FIXTURE_VARIANT_ADD(fam, overwrite_tail_synthesize)
{
	.opts = { "--timeout", "0.5", "--overwrite", "--tail-synthesize", "-m", "8" },
	.mode = "spin", .arg = "10", .expect = "wl_", .report = true,
};

/*
 * perf script prints one line per sample with -F ip alone: as many as the
 * recorder says it wrote, and, where the file is not compressed, as many
 * as the library reader reads.
 */
TEST_F(fam, perf_script_shows_as_many_samples_as_we_wrote_and_read)
{
	const char *opts[16];
	char *script[] = { SYSTEM_PERF, "script", "-F", "ip", "-G", "-i", self->out, NULL };
	struct pc_run run;
	struct rt_file f;
	size_t feat = 0;
	const void *data;
	struct pd_reader r;
	struct pc_error err = { 0 };
	unsigned long long written = 0;
	const char *summary;
	int n = 0, lines = 0;
	bool compressed;

	if (access(SYSTEM_PERF, X_OK))
		SKIP(return, "no system perf here (the guests have none)");
	for (int i = 0; variant->opts[i]; i++)
		opts[n++] = variant->opts[i];
	opts[n++] = "-o";
	opts[n++] = self->out;
	opts[n] = NULL;
	ASSERT_EQ(0, rt_record(&run, 60, opts, variant->mode, variant->arg));
	summary = strstr(run.err, "MB ");
	ASSERT_NE(NULL, summary) TH_LOG("no summary: %s", run.err);
	summary = strstr(summary, " samples, ");
	ASSERT_NE(NULL, summary) TH_LOG("%s", run.err);
	while (summary > run.err && summary[-1] >= '0' && summary[-1] <= '9')
		summary--;
	written = strtoull(summary, NULL, 10);
	pc_run_free(&run);

	ASSERT_EQ(0, pd_reader_open(&r, self->out, &err)) TH_LOG("%s", err.msg);
	compressed = !pd_reader_feature(&r, PD_FEAT_COMPRESSED, &data, &feat);
	pd_reader_close(&r);
	ASSERT_EQ(0, pc_test_run(&run, 120, script));
	EXPECT_EQ(0, run.exit_code);
	EXPECT_STREQ("", run.err);
	for (const char *p = run.out; p && *p; p++)
		lines += *p == '\n';
	EXPECT_EQ((int)written, lines);
	EXPECT_GT(lines, 0);
	if (!compressed) {
		ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
		EXPECT_EQ((int)f.samples, lines);
	}
	pc_run_free(&run);
}

RECORD_TEST_MAIN()
