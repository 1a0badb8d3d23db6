// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck report on a pipe-format file (synthesized, no perf needed):
 * a pipe cannot be read ahead, so its PERF_RECORD_LOST_SAMPLES reach the
 * report through the session's callback for non-sample records and are
 * totalled in "# Total Lost Samples:" as for a file.
 */
#include <fcntl.h>
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
	self->dir = pc_test_mkdtemp("unit-report-pipe");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/pipe.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_attr(&self->a, PERF_ATTR_SIZE_VER9);
}

FIXTURE_TEARDOWN(pipe)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	pc_test_rmdir(self->dir);
}

/* the records of self->d after a pipe header and ATTR record */
static int write_pipe(FIXTURE_DATA(pipe) *self)
{
	struct pd_writer w;
	struct pc_error err;
	int fd = open(self->path, O_WRONLY | O_CREAT | O_TRUNC, 0644), ret;

	if (fd < 0)
		return -1;
	ret = pd_writer_open_pipe(&w, fd, self->path, &err);
	if (!ret)
		ret = pd_writer_add_evsel(&w, &self->a.attr, NULL, 0, "cpu-clock", &err);
	if (!ret)
		ret = pd_writer_begin_data(&w, &err);
	if (!ret)
		ret = pd_writer_write(&w, self->d.buf, self->d.len, &err);
	if (!ret)
		ret = pd_writer_finish(&w, &err);
	close(fd);
	return ret;
}

static void lost(FIXTURE_DATA(pipe) *self, uint64_t n, uint64_t t)
{
	struct pd_sample id = rt_id(100, 100, t);

	synth_lost_samples(&self->d, &self->a.attr, n, &id);
}

TEST_F(pipe, lost_samples_of_a_pipe_are_totalled)
{
	struct pd_sample id = rt_id(100, 100, 1);

	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &id);
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC, RT_KIP(1), 0);
	lost(self, 7, RT_SEC + 5);
	rt_sample(&self->d, &self->a.attr, 100, 100, RT_SEC + 10, RT_KIP(1), 0);
	lost(self, 5, RT_SEC + 15);
	ASSERT_EQ(0, write_pipe(self));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "report", "-i", self->path, "--stdio", NULL, NULL,
				  NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.out, "#\n# Total Lost Samples: 12\n#\n# Samples: 2 "))
		TH_LOG("%s", self->run.out);
}

TEST_HARNESS_MAIN
