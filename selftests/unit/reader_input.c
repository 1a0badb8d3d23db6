// SPDX-License-Identifier: GPL-2.0
/*
 * What perfcheck script accepts: every attr size from VER0 up to perf
 * 7.2's, a pipe on stdin, a file whose recording was never finalized
 * (data size 0), a -z stream that ends inside a record, and -F field
 * selection.
 */
#include <unistd.h>
#include <zstd.h>

#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(input) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
};

FIXTURE_SETUP(input)
{
	struct pd_sample id;

	self->dir = pc_test_mkdtemp("reader-input");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_attr(&self->a, PERF_ATTR_SIZE_VER9);
	id = rt_id(100, 100, 1);
	synth_kernel_mmap(&self->d, &self->a.attr, &id);
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &id);
}

FIXTURE_TEARDOWN(input)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	pc_test_rmdir(self->dir);
}

static void two_samples(FIXTURE_DATA(input) *self)
{
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0);
	rt_sample(&self->d, &self->a.attr, 100, 100, 2 * RT_SEC, RT_KIP(2), 0);
}

static void attr_size_reads(struct __test_metadata *_metadata, FIXTURE_DATA(input) *self,
			    uint32_t size)
{
	struct pd_sample id = rt_id(100, 100, 1);

	synth_free(&self->d);
	rt_attr(&self->a, size);
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &id);
	two_samples(self);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, NULL, NULL, NULL, NULL));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("attr size %u: %s", size, self->run.err);
	EXPECT_EQ(2, pc_count_substr(self->run.out, "alpha     100"));
}

TEST_F(input, attr_of_64_bytes_ver0_is_read)
{
	attr_size_reads(_metadata, self, PERF_ATTR_SIZE_VER0);
}

TEST_F(input, attr_of_128_bytes_as_perf_6_1_writes_is_read)
{
	attr_size_reads(_metadata, self, PERF_ATTR_SIZE_VER7);
}

TEST_F(input, attr_of_144_bytes_as_perf_7_2_writes_is_read)
{
	attr_size_reads(_metadata, self, PERF_ATTR_SIZE_VER9);
}

TEST_F(input, pipe_on_stdin_prints_what_the_file_prints)
{
	char cmd[1200];
	char *argv[] = { "sh", "-c", cmd, NULL };
	struct pc_run piped;

	two_samples(self);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, NULL, NULL, NULL, NULL));
	ASSERT_EQ(0, self->run.exit_code);
	snprintf(cmd, sizeof(cmd), "cat '%s' | '%s' script -i -", self->path, pc_test_perfcheck());
	ASSERT_EQ(0, pc_test_run(&piped, 60, argv));
	EXPECT_EQ(0, piped.exit_code) TH_LOG("%s", piped.err);
	EXPECT_STREQ(self->run.out, piped.out);
	pc_run_free(&piped);
}

TEST_F(input, unfinished_file_is_read_to_its_last_whole_record_with_a_warning)
{
	const struct perf_event_attr *attrs[1] = { &self->a.attr };
	struct pd_writer w;
	struct pc_error err;

	two_samples(self);
	ASSERT_EQ(0, pd_writer_open(&w, self->path, &err));
	ASSERT_EQ(0, pd_writer_add_evsel(&w, attrs[0], NULL, 0, "cpu-clock", &err));
	ASSERT_EQ(0, pd_writer_begin_data(&w, &err));
	/* the whole records, then half of one more: a recorder killed mid-write */
	ASSERT_EQ(0, pd_writer_write(&w, self->d.buf, self->d.len, &err));
	ASSERT_EQ(0, pd_writer_flush(&w, &err));
	ASSERT_LE(0, lseek(w.fd, 0, SEEK_END));
	ASSERT_EQ((ssize_t)12, write(w.fd, self->d.buf, 12));
	pd_writer_abort(&w);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, NULL, NULL, NULL, NULL));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_EQ(2, pc_count_substr(self->run.out, "cpu-clock:"));
	EXPECT_NE(NULL, strstr(self->run.err, "Warning")) TH_LOG("%s", self->run.err);
}

/*
 * -z: the records, then the first 12 bytes of one more, as one zstd stream
 * flushed but never ended in one PERF_RECORD_COMPRESSED: what perf 6.1
 * leaves when its last push is cut (perf reads the whole records, silently)
 */
TEST_F(input, compressed_stream_ending_inside_a_record_prints_its_whole_records_with_a_warning)
{
	/* HEADER_COMPRESSED: version, type 1 (zstd), level, ratio, mmap_len */
	const uint32_t feat[5] = { 0, 1, 1, 0, 528384 };
	uint8_t rec[1 << 16];
	struct perf_event_header h = { 81 /* PERF_RECORD_COMPRESSED */, 0, 0 };
	ZSTD_CCtx *cs = ZSTD_createCCtx();
	ZSTD_outBuffer out = { rec + sizeof(h), sizeof(rec) - sizeof(h), 0 };
	ZSTD_inBuffer in;
	struct pd_writer w;
	struct pc_error err;
	size_t whole;

	ASSERT_NE(NULL, cs);
	two_samples(self);
	whole = self->d.len;
	/* one more sample, of which only 12 bytes go into the stream */
	rt_sample(&self->d, &self->a.attr, 100, 100, 3 * RT_SEC, RT_KIP(3), 0);
	in = (ZSTD_inBuffer){ self->d.buf, whole + 12, 0 };
	ASSERT_EQ(0, ZSTD_compressStream2(cs, &out, &in, ZSTD_e_flush));
	ZSTD_freeCCtx(cs);
	h.size = (uint16_t)(sizeof(h) + out.pos);
	memcpy(rec, &h, sizeof(h));

	ASSERT_EQ(0, pd_writer_open(&w, self->path, &err));
	ASSERT_EQ(0, pd_writer_add_evsel(&w, &self->a.attr, NULL, 0, "cpu-clock", &err));
	ASSERT_EQ(0, pd_writer_set_feature(&w, PD_FEAT_COMPRESSED, feat, sizeof(feat)));
	ASSERT_EQ(0, pd_writer_begin_data(&w, &err));
	ASSERT_EQ(0, pd_writer_write(&w, rec, h.size, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, pd_writer_finish(&w, &err)) TH_LOG("%s", err.msg);

	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, NULL, NULL, NULL, NULL));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_EQ(2, pc_count_substr(self->run.out, "cpu-clock:")) TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.err, "ends inside a record (12 bytes"))
		TH_LOG("%s", self->run.err);
}

TEST_F(input, fields_select_and_order_as_perf_script_F)
{
	two_samples(self);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, "-F",
				  "comm,pid,tid,time,period", NULL, NULL));
	ASSERT_EQ(0, self->run.exit_code);
	/* no ip: the comm takes its 16 columns even though samples have callchains */
	EXPECT_STREQ("           alpha     100/100         1.000000:     250000 \n"
		     "           alpha     100/100         2.000000:     250000 \n", self->run.out);
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, "-F",
				  "tid,event,ip,sym,dso", NULL, NULL));
	EXPECT_STREQ("    100 cpu-clock: \n\tffff888000001010 [unknown] ([kernel.kallsyms])\n"
		     "\t          400500 [unknown] ([unknown])\n\n"
		     "    100 cpu-clock: \n\tffff888000001020 [unknown] ([kernel.kallsyms])\n"
		     "\t          400500 [unknown] ([unknown])\n\n", self->run.out);
}

TEST_F(input, unknown_field_is_a_usage_error)
{
	two_samples(self);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, "-F", "comm,bogus",
				  NULL, NULL));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "bogus"));
}

TEST_F(input, compat_6_1_prints_five_column_pids)
{
	static const char want[] = "alpha   100     1.000000:     250000 cpu-clock: \n";

	two_samples(self);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, "--compat", "6.1",
				  NULL, NULL));
	EXPECT_EQ(0, strncmp(self->run.out, want, strlen(want))) TH_LOG("%s", self->run.out);
}

TEST_HARNESS_MAIN
