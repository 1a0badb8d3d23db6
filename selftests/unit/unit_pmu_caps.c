// SPDX-License-Identifier: GPL-2.0
/*
 * CPU_PMU_CAPS and PMU_CAPS as the recorder writes them from a PMU tree
 * (a copy of /sys/bus/event_source/devices made here): the cpu PMU's
 * capabilities apart, every other PMU with capabilities after a count and
 * followed by its name, PMU_CAPS present with a count of 0 where none has
 * any, an empty capability file left out.  The sections are decoded here by
 * perf's layout, not by the reader.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"
#include "perfdata/perfdata.h"
#include "recorder/pmu_caps.h"
#include "recorder/pmus.h"

FIXTURE(caps) {
	char *dir;
	char devices[512], path[512];
	struct pd_reader r;
	bool opened;
};

FIXTURE_SETUP(caps)
{
	self->dir = pc_test_mkdtemp("pmu-caps");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->devices, sizeof(self->devices), "%s/devices", self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	ASSERT_EQ(0, mkdir(self->devices, 0755));
	self->opened = false;
}

FIXTURE_TEARDOWN(caps)
{
	if (self->opened)
		pd_reader_close(&self->r);
	pc_test_rmdir(self->dir);
}

/* DEVICES/PMU/caps/NAME holding text (PMU/ alone when name is NULL) */
static int put(const char *devices, const char *pmu, const char *name, const char *text)
{
	char p[1024];
	int fd;
	ssize_t n;

	snprintf(p, sizeof(p), "%s/%s", devices, pmu);
	if (mkdir(p, 0755) && errno != EEXIST)
		return -1;
	if (!name)
		return 0;
	snprintf(p, sizeof(p), "%s/%s/caps", devices, pmu);
	if (mkdir(p, 0755) && errno != EEXIST)
		return -1;
	snprintf(p, sizeof(p), "%s/%s/caps/%s", devices, pmu, name);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static union pc_attr cpu_clock(void)
{
	union pc_attr a = { 0 };

	a.attr.type = PERF_TYPE_SOFTWARE;
	a.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	a.attr.size = PERF_ATTR_SIZE_VER5;
	return a;
}

/* put() writes under caps/: a PMU's cpus file sits beside caps/ */
static int rename_cpus(const char *devices, const char *pmu)
{
	char from[1024], to[1024];

	snprintf(from, sizeof(from), "%s/%s/caps/cpus", devices, pmu);
	snprintf(to, sizeof(to), "%s/%s/cpus", devices, pmu);
	return rename(from, to);
}

/* Writes a file with the two features from the tree and opens it. */
static int write_and_open(struct _test_data_caps *self)
{
	union pc_attr a = cpu_clock();
	struct pd_writer w;
	struct pc_error err = { 0 };

	if (pd_writer_open(&w, self->path, &err) ||
	    pd_writer_add_evsel(&w, &a.attr, NULL, 0, NULL, &err) ||
	    rec_pmu_caps_write(&w, self->devices) || pd_writer_begin_data(&w, &err) ||
	    pd_writer_finish(&w, &err))
		return -1;
	if (pd_reader_open(&self->r, self->path, &err))
		return -1;
	self->opened = true;
	return 0;
}

/* perf's header string at *off: its text, or NULL */
static const char *str_at(const uint8_t *p, size_t size, size_t *off)
{
	uint32_t len;
	const char *s;

	if (size - *off < 4)
		return NULL;
	memcpy(&len, p + *off, 4);
	if (!len || len % 64 || len > size - *off - 4 || !memchr(p + *off + 4, '\0', len))
		return NULL;
	s = (const char *)p + *off + 4;
	*off += 4 + len;
	return s;
}

/*
 * One PMU's capabilities at *off as "name=value;..." into out: their count,
 * or -1 when the section does not hold them.
 */
static int caps_at(const uint8_t *p, size_t size, size_t *off, char *out, size_t out_size)
{
	uint32_t nr;

	out[0] = '\0';
	if (size - *off < 4)
		return -1;
	memcpy(&nr, p + *off, 4);
	*off += 4;
	for (uint32_t i = 0; i < nr; i++) {
		const char *name = str_at(p, size, off), *value = name ? str_at(p, size, off) : NULL;
		size_t used = strlen(out);

		if (!value)
			return -1;
		snprintf(out + used, out_size - used, "%s=%s;", name, value);
	}
	return (int)nr;
}

/* cap ("name=value") is one of list's "name=value;" entries, in any order (readdir's) */
static int has_cap(const char *list, const char *cap)
{
	char want[256], all[1100];

	snprintf(want, sizeof(want), ";%s;", cap);
	snprintf(all, sizeof(all), ";%s", list);
	return strstr(all, want) != NULL;
}

TEST_F(caps, cpu_pmu_caps_holds_the_cpu_pmus_capabilities_without_a_name)
{
	const void *data;
	size_t size, off = 0;
	char list[1024];

	ASSERT_EQ(0, put(self->devices, "cpu", "branches", "32\n"));
	ASSERT_EQ(0, put(self->devices, "cpu", "max_precise", "3\n"));
	ASSERT_EQ(0, put(self->devices, "cpu", "pmu_name", "skylake\n"));
	ASSERT_EQ(0, write_and_open(self));
	ASSERT_EQ(0, pd_reader_feature(&self->r, PD_FEAT_CPU_PMU_CAPS, &data, &size));
	ASSERT_EQ(3, caps_at(data, size, &off, list, sizeof(list)));
	EXPECT_TRUE(has_cap(list, "branches=32")) TH_LOG("%s", list);
	EXPECT_TRUE(has_cap(list, "max_precise=3")) TH_LOG("%s", list);
	EXPECT_TRUE(has_cap(list, "pmu_name=skylake")) TH_LOG("%s", list);
	/* nothing after the last value: no PMU name in this feature */
	EXPECT_EQ(size, off);
}

TEST_F(caps, pmu_caps_lists_every_other_pmu_with_capabilities_then_its_name)
{
	const void *data;
	const uint8_t *p;
	size_t size, off = 4;
	uint32_t nr;
	char list[1024];
	int seen_pt = 0, seen_arm = 0;

	ASSERT_EQ(0, put(self->devices, "cpu", "branches", "32\n"));
	ASSERT_EQ(0, put(self->devices, "armv8_pmuv3_0", "slots", "0x00000004\n"));
	ASSERT_EQ(0, put(self->devices, "intel_pt", "psb_cyc", "1\n"));
	ASSERT_EQ(0, put(self->devices, "intel_pt", "mtc_periods", "249\n"));
	ASSERT_EQ(0, put(self->devices, "software", NULL, NULL));
	ASSERT_EQ(0, write_and_open(self));
	ASSERT_EQ(0, pd_reader_feature(&self->r, PD_FEAT_PMU_CAPS, &data, &size));
	p = data;
	ASSERT_LE(4, size);
	memcpy(&nr, p, 4);
	ASSERT_EQ(2, nr);
	for (uint32_t i = 0; i < nr; i++) {
		int n = caps_at(p, size, &off, list, sizeof(list));
		const char *pmu = n < 0 ? NULL : str_at(p, size, &off);

		ASSERT_NE(NULL, pmu);
		if (!strcmp(pmu, "intel_pt")) {
			seen_pt++;
			EXPECT_EQ(2, n);
			EXPECT_TRUE(has_cap(list, "psb_cyc=1")) TH_LOG("%s", list);
			EXPECT_TRUE(has_cap(list, "mtc_periods=249")) TH_LOG("%s", list);
		} else if (!strcmp(pmu, "armv8_pmuv3_0")) {
			seen_arm++;
			EXPECT_EQ(1, n);
			EXPECT_STREQ("slots=0x00000004;", list);
		} else {
			TH_LOG("unexpected PMU %s (cpu goes to CPU_PMU_CAPS, software has none)", pmu);
			EXPECT_TRUE(0);
		}
	}
	EXPECT_EQ(1, seen_pt);
	EXPECT_EQ(1, seen_arm);
	EXPECT_EQ(size, off);
}

/*
 * arm64: no "cpu" PMU, the core PMU lists its cpus; its capabilities go to
 * CPU_PMU_CAPS (as perf 6.6 and later) and to PMU_CAPS with its name
 */
TEST_F(caps, a_core_pmu_listing_its_cpus_fills_cpu_pmu_caps_and_pmu_caps)
{
	const void *data;
	const uint8_t *p;
	size_t size, off = 0;
	uint32_t nr;
	char list[1024];

	ASSERT_EQ(0, put(self->devices, "armv8_pmuv3_0", "slots", "0x00000004\n"));
	ASSERT_EQ(0, put(self->devices, "armv8_pmuv3_0", "cpus", "0-1\n"));
	ASSERT_EQ(0, rename_cpus(self->devices, "armv8_pmuv3_0"));
	ASSERT_EQ(0, put(self->devices, "arm_spe_0", "min_interval", "1024\n"));
	ASSERT_EQ(0, write_and_open(self));
	ASSERT_EQ(0, pd_reader_feature(&self->r, PD_FEAT_CPU_PMU_CAPS, &data, &size));
	ASSERT_EQ(1, caps_at(data, size, &off, list, sizeof(list)));
	EXPECT_STREQ("slots=0x00000004;", list);
	ASSERT_EQ(0, pd_reader_feature(&self->r, PD_FEAT_PMU_CAPS, &data, &size));
	p = data;
	memcpy(&nr, p, 4);
	EXPECT_EQ(2, nr);
}

TEST_F(caps, no_capabilities_anywhere_writes_pmu_caps_with_a_count_of_zero)
{
	const void *data;
	size_t size;
	uint32_t nr = 1;

	ASSERT_EQ(0, put(self->devices, "software", NULL, NULL));
	ASSERT_EQ(0, put(self->devices, "tracepoint", NULL, NULL));
	ASSERT_EQ(0, write_and_open(self));
	EXPECT_TRUE(pd_reader_has_feature(&self->r, PD_FEAT_PMU_CAPS));
	ASSERT_EQ(0, pd_reader_feature(&self->r, PD_FEAT_PMU_CAPS, &data, &size));
	ASSERT_EQ(4, size);
	memcpy(&nr, data, 4);
	EXPECT_EQ(0, nr);
	/* no "cpu" PMU (arm64, a guest without one): no CPU_PMU_CAPS, as perf */
	EXPECT_FALSE(pd_reader_has_feature(&self->r, PD_FEAT_CPU_PMU_CAPS));
}

TEST_F(caps, an_empty_capability_file_is_left_out)
{
	const void *data;
	size_t size, off = 0;
	char list[1024];

	ASSERT_EQ(0, put(self->devices, "cpu", "branches", "32\n"));
	ASSERT_EQ(0, put(self->devices, "cpu", "empty", ""));
	ASSERT_EQ(0, write_and_open(self));
	ASSERT_EQ(0, pd_reader_feature(&self->r, PD_FEAT_CPU_PMU_CAPS, &data, &size));
	EXPECT_EQ(1, caps_at(data, size, &off, list, sizeof(list)));
	EXPECT_STREQ("branches=32;", list);
}

/*
 * A pipe is read by whatever perf it reaches: perf 5.10 stops at a feature
 * record past CLOCK_DATA ("wrong feature ID: 31"), so the capabilities stay
 * out of it while the features before them are there.
 */
TEST_F(caps, a_pipe_carries_no_feature_past_clock_data)
{
	union pc_attr a = cpu_clock();
	struct pd_writer w;
	struct pc_error err = { 0 };
	static uint8_t buf[1 << 20];
	size_t len = 0, off = 16;
	int fd, features = 0;
	ssize_t n;

	ASSERT_EQ(0, put(self->devices, "armv8_pmuv3_0", "slots", "0x00000004\n"));
	fd = open(self->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pd_writer_open_pipe(&w, fd, self->path, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, pd_writer_add_evsel(&w, &a.attr, NULL, 0, NULL, &err));
	ASSERT_EQ(0, pd_writer_set_host_features(&w, "0.1-test"));
	ASSERT_EQ(0, rec_pmu_caps_write(&w, self->devices));
	ASSERT_EQ(0, pd_writer_begin_data(&w, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, pd_writer_finish(&w, &err)) TH_LOG("%s", err.msg);
	close(fd);
	fd = open(self->path, O_RDONLY);
	ASSERT_LE(0, fd);
	while ((n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += (size_t)n;
	close(fd);
	/* the pipe header (magic, size 16), then records */
	while (off + 8 <= len) {
		struct perf_event_header h;
		uint64_t feat;

		memcpy(&h, buf + off, sizeof(h));
		ASSERT_LE(8, h.size);
		ASSERT_LE(off + h.size, len);
		if (h.type == 80 /* HEADER_FEATURE */) {
			ASSERT_LE(16, h.size);
			memcpy(&feat, buf + off + 8, 8);
			EXPECT_GE(PD_FEAT_CLOCK_DATA, feat) TH_LOG("feature %llu in the pipe",
								  (unsigned long long)feat);
			features++;
		}
		off += h.size;
	}
	/* HOSTNAME, OSRELEASE, ...: the features a pipe carries are there */
	EXPECT_LE(4, features);
}

/*
 * A PMU_CAPS section whose count of PMUs is more than it holds: the header
 * listing stops with the section's offset and exit 2, and prints none of it
 */
TEST_F(caps, a_pmu_caps_count_past_its_section_is_an_error_naming_its_offset)
{
	char want[700], *argv[6];
	struct pc_run run;
	uint64_t at;
	uint32_t lie = 3;
	int fd;

	ASSERT_EQ(0, put(self->devices, "armv8_pmuv3_0", "slots", "0x00000004\n"));
	ASSERT_EQ(0, write_and_open(self));
	at = self->r.features[PD_FEAT_PMU_CAPS].offset;
	fd = open(self->path, O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(4, pwrite(fd, &lie, 4, (off_t)at));
	close(fd);
	argv[0] = (char *)pc_test_perfcheck();
	argv[1] = "report";
	argv[2] = "--header-only";
	argv[3] = "-i";
	argv[4] = self->path;
	argv[5] = NULL;
	ASSERT_EQ(0, pc_test_run(&run, 30, argv));
	EXPECT_EQ(2, run.exit_code);
	snprintf(want, sizeof(want), "%s: offset 0x%llx: PMU_CAPS: ", self->path,
		 (unsigned long long)at);
	EXPECT_NE(NULL, strstr(run.err ? run.err : "", want)) TH_LOG("%s", run.err);
	EXPECT_EQ(NULL, strstr(run.out ? run.out : "", "pmu capabilities")) TH_LOG("%s", run.out);
	pc_run_free(&run);
}

TEST_HARNESS_MAIN
