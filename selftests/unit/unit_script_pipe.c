// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script -i - on synthesized pipe streams (no perf, no kernel):
 * the input is read as it comes, in memory that does not grow with it;
 * event names from EVENT_UPDATE records or, without one, from the attr as
 * perf derives them; a stream cut inside a record is refused with its
 * offset.
 */
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(pipe) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
};

FIXTURE_SETUP(pipe)
{
	uint64_t id = 7;

	self->dir = pc_test_mkdtemp("unit-script-pipe");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/pipe.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	memset(&self->a, 0, sizeof(self->a));
	self->a.attr.type = PERF_TYPE_SOFTWARE;
	self->a.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	self->a.attr.size = PERF_ATTR_SIZE_VER5;
	self->a.attr.sample_period = 100000;
	self->a.attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				   PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	self->a.attr.sample_id_all = 1;
	self->a.attr.exclude_kernel = 1;
	self->a.attr.exclude_hv = 1;
	self->a.attr.exclude_guest = 1;
	synth_pipe_header(&self->d);
	synth_attr(&self->d, &self->a.attr, &id, 1);
}

FIXTURE_TEARDOWN(pipe)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	if (!getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(self->dir);
}

static void add_samples(FIXTURE_DATA(pipe) *self, int n)
{
	static uint64_t t = RT_SEC;

	for (int i = 0; i < n; i++) {
		struct pd_sample v = rt_id(42, 42, t += 1000);

		v.id = 7;
		v.ip = 0x400123;
		v.period = 100000;
		synth_sample(&self->d, &self->a.attr, &v);
	}
}

static void write_data(struct __test_metadata *_metadata, FIXTURE_DATA(pipe) *self)
{
	FILE *f = fopen(self->path, "w");

	ASSERT_NE(NULL, f);
	ASSERT_EQ(self->d.len, fwrite(self->d.buf, 1, self->d.len, f));
	ASSERT_EQ(0, fclose(f));
}

/* perfcheck script -i - ARGS with the file fed through a real pipe (cat) */
static void script_pipe(struct __test_metadata *_metadata, FIXTURE_DATA(pipe) *self,
			const char *args)
{
	char cmd[1400];
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };

	if (self->d.buf)
		write_data(_metadata, self);
	snprintf(cmd, sizeof(cmd), "cat '%s' | '%s' script -i - %s", self->path,
		 pc_test_perfcheck(), args);
	pc_run_free(&self->run);
	ASSERT_EQ(0, pc_test_run(&self->run, 120, argv));
}

TEST_F(pipe, unnamed_event_is_named_from_its_attr_modifiers)
{
	add_samples(self, 2);
	script_pipe(_metadata, self, "-F event");
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	/* perf 6.1's rule: with exclude_kernel, exclude_guest set and exclude_host not: "uH" */
	EXPECT_STREQ("cpu-clock:uH: \ncpu-clock:uH: \n", self->run.out);
}

TEST_F(pipe, event_update_name_renames_the_event)
{
	struct perf_event_header h = { PC_RECORD_EVENT_UPDATE, 0, 8 + 16 + 16 };
	uint64_t type_id[2] = { 2, 7 };
	char name[16] = "renamed:ppp";

	synth_put(&self->d, &h, sizeof(h));
	synth_put(&self->d, type_id, sizeof(type_id));
	synth_put(&self->d, name, sizeof(name));
	add_samples(self, 1);
	script_pipe(_metadata, self, "-F event");
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("renamed:ppp: \n", self->run.out);
}

/*
 * 64 MiB of samples through a pipe, in rounds (FINISHED_ROUND after every
 * 4096 samples, as perf record writes them): the reader's peak memory stays
 * far below the input (it held the whole stream before).
 */
TEST_F_TIMEOUT(pipe, memory_does_not_grow_with_the_input, 600)
{
	const long input_kb = 64 * 1024;
	struct rusage ru;
	int n = 0;

#if defined(__SANITIZE_ADDRESS__)
	SKIP(return, "built with AddressSanitizer (make SAN=1): its quarantine keeps what is "
		     "freed, so peak memory grows with any input");
#endif
	while (self->d.len < (size_t)input_kb * 1024) {
		add_samples(self, 4096);
		synth_finished_round(&self->d);
		n += 4096;
	}
	/* the 64 MiB buffer goes before the fork: a child's peak counts its parent's pages */
	write_data(_metadata, self);
	synth_free(&self->d);
	script_pipe(_metadata, self, "-F tid | wc -l");
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_EQ(n, atoi(self->run.out));
	ASSERT_EQ(0, getrusage(RUSAGE_CHILDREN, &ru));
	/* ru_maxrss: the largest child (sh, cat, perfcheck, wc), in KiB */
	EXPECT_GT(input_kb / 4, ru.ru_maxrss) TH_LOG("peak %ld KiB for %ld KiB of input",
						     ru.ru_maxrss, input_kb);
}

TEST_F(pipe, stream_cut_inside_a_record_is_refused_with_its_offset)
{
	size_t cut;

	add_samples(self, 3);
	cut = self->d.len - 8;
	self->d.len = cut;
	script_pipe(_metadata, self, "-F tid");
	EXPECT_EQ(2, self->run.exit_code);
	/* the two whole samples before it are shown */
	EXPECT_STREQ("     42 \n     42 \n", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.err, "runs past the end of the input"))
		TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "<stdin>: offset 0x")) TH_LOG("%s", self->run.err);
}

TEST_F(pipe, stream_cut_inside_a_record_header_is_refused)
{
	add_samples(self, 1);
	synth_put(&self->d, "\x09\0\0", 3);
	script_pipe(_metadata, self, "-F tid");
	EXPECT_EQ(2, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "the input ends 3 bytes into a record header"))
		TH_LOG("%s", self->run.err);
}

TEST_F(pipe, tracing_data_longer_than_the_stream_is_refused)
{
	struct perf_event_header h = { PC_RECORD_HEADER_TRACING_DATA, 0, 16 };
	uint32_t size[2] = { 1 << 20, 0 };

	synth_put(&self->d, &h, sizeof(h));
	synth_put(&self->d, size, sizeof(size));
	synth_put(&self->d, "tracing", 8);
	script_pipe(_metadata, self, "-F tid");
	EXPECT_EQ(2, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "TRACING_DATA of 1048576 bytes runs past the end "
					      "of the input (8 bytes came)"))
		TH_LOG("%s", self->run.err);
}

TEST_HARNESS_MAIN
