// SPDX-License-Identifier: GPL-2.0
/*
 * An event's own cpus (recorder/pmus.c), which perf record sends as an
 * EVENT_UPDATE of type CPUS, from a PMU tree made here (a copy of
 * /sys/bus/event_source/devices in shape): the core PMU's for hardware,
 * cache and raw events, the PMU of the type otherwise, none for software
 * events; and the record that carries them, encoded and read back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"
#include "perfdata/codec.h"
#include "recorder/pmus.h"

FIXTURE(own) {
	char *dir;
	char devices[512];
};

FIXTURE_SETUP(own)
{
	self->dir = pc_test_mkdtemp("own-cpus");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->devices, sizeof(self->devices), "%s/devices", self->dir);
	ASSERT_EQ(0, mkdir(self->devices, 0755));
}

FIXTURE_TEARDOWN(own)
{
	pc_test_rmdir(self->dir);
}

/* path holding text */
static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* DEVICES/PMU with its type, and FILE ("cpus", "cpumask" or NULL) holding list */
static int pmu(const char *devices, const char *name, unsigned int type, const char *file,
	       const char *list)
{
	char p[1024], text[32];

	snprintf(p, sizeof(p), "%s/%s", devices, name);
	if (mkdir(p, 0755) && errno != EEXIST)
		return -1;
	snprintf(p, sizeof(p), "%s/%s/type", devices, name);
	snprintf(text, sizeof(text), "%u\n", type);
	if (write_file(p, text))
		return -1;
	if (!file)
		return 0;
	snprintf(p, sizeof(p), "%s/%s/%s", devices, name, file);
	return write_file(p, list);
}

static struct perf_event_attr attr(uint32_t type, uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = type;
	a.config = config;
	return a;
}

/* the own cpus of a, as "0,1" ("" when none) */
static void own_of(const char *devices, struct perf_event_attr a, char *out, size_t n)
{
	int *cpus = NULL, nr = -1;
	size_t len = 0;

	out[0] = '\0';
	if (rec_own_cpus(devices, &a, &cpus, &nr)) {
		snprintf(out, n, "error");
		return;
	}
	for (int i = 0; i < nr; i++)
		len += snprintf(out + len, n - len, "%s%d", i ? "," : "", cpus[i]);
	free(cpus);
}

/* arm64: the core PMU lists its cpus; a hardware event counts on it (perf 7.2's own cpus) */
TEST_F(own, a_hardware_event_has_the_core_pmus_cpus)
{
	char got[64];

	ASSERT_EQ(0, pmu(self->devices, "armv8_pmuv3_0", 10, "cpus", "0\n"));
	ASSERT_EQ(0, pmu(self->devices, "software", PERF_TYPE_SOFTWARE, NULL, NULL));
	own_of(self->devices, attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), got, sizeof(got));
	EXPECT_STREQ("0", got);
	own_of(self->devices, attr(PERF_TYPE_RAW, 0x11), got, sizeof(got));
	EXPECT_STREQ("0", got);
	own_of(self->devices, attr(10, 0x11), got, sizeof(got));
	EXPECT_STREQ("0", got);
}

TEST_F(own, a_software_event_has_none)
{
	char got[64];

	ASSERT_EQ(0, pmu(self->devices, "armv8_pmuv3_0", 10, "cpus", "0\n"));
	ASSERT_EQ(0, pmu(self->devices, "software", PERF_TYPE_SOFTWARE, NULL, NULL));
	own_of(self->devices, attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK), got, sizeof(got));
	EXPECT_STREQ("", got);
	own_of(self->devices, attr(PERF_TYPE_TRACEPOINT, 1), got, sizeof(got));
	EXPECT_STREQ("", got);
}

/* an uncore PMU's cpumask (the cpu that reads it) comes before its cpus */
TEST_F(own, an_uncore_event_has_its_pmus_cpumask)
{
	char got[64];

	ASSERT_EQ(0, pmu(self->devices, "uncore_imc", 20, "cpumask", "0\n"));
	own_of(self->devices, attr(20, 1), got, sizeof(got));
	EXPECT_STREQ("0", got);
	/* a type no PMU has: none */
	own_of(self->devices, attr(21, 1), got, sizeof(got));
	EXPECT_STREQ("", got);
}

/* x86: "cpu" lists no cpus; as perf, the online ones */
TEST_F(own, a_core_pmu_without_a_list_has_the_online_cpus)
{
	char got[64], online[64];
	size_t len = 0;

	ASSERT_EQ(0, pmu(self->devices, "cpu", 4, NULL, NULL));
	own_of(self->devices, attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS), got,
	       sizeof(got));
	online[0] = '\0';
	{
		FILE *f = fopen("/sys/devices/system/cpu/online", "r");
		int a, b;

		ASSERT_NE(NULL, f);
		/* "0-1" on this machine's kind; a single range is enough to say it */
		if (fscanf(f, "%d-%d", &a, &b) == 2)
			for (int c = a; c <= b; c++)
				len += snprintf(online + len, sizeof(online) - len, "%s%d", c > a ? "," : "", c);
		else
			snprintf(online, sizeof(online), "%d", a);
		fclose(f);
	}
	EXPECT_STREQ(online, got);
}

/* the record: u64 type 3, u64 id, the map as perf writes a CPU_MAP (a range: 32 bytes) */
TEST(event_update_cpus_is_encoded_as_perf_and_read_back)
{
	int32_t cpus[] = { 0, 1, 2, 3 };
	struct pd_buf b = { 0 };
	struct pd_record rec;
	struct pd_cpu_list back;
	struct pc_error err = { 0 };

	ASSERT_EQ(0, pd_encode_event_update(&b, &(struct pd_event_update){
		.type = PD_EVENT_UPDATE_CPUS, .id = 192, .cpus = { cpus, 4 } }));
	memset(&rec, 0, sizeof(rec));
	memcpy(&rec.header, b.data, sizeof(rec.header));
	rec.data = b.data;
	EXPECT_EQ(PC_RECORD_EVENT_UPDATE, rec.header.type);
	EXPECT_EQ(32, rec.header.size);
	ASSERT_EQ(0, pd_decode_cpu_map("t", &rec, 24, &back, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(4, back.nr);
	EXPECT_EQ(0, back.cpus[0]);
	EXPECT_EQ(3, back.cpus[3]);
	free(back.cpus);
	free(b.data);
}

TEST_HARNESS_MAIN
