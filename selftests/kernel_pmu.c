// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware counters, where a PMU counts them (arm64 guests with QEMU's
 * PMUv3 under -icount; real machines): an exact instruction count of a
 * known loop, a group of cycles and instructions scheduled as one, more
 * events than counters multiplexed and scaled, and leader sampling (a
 * sample of the leader reads the whole group).  Each skips, naming the
 * open's errno, where no PMU counts instructions.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "probes/probe.h"

/* n iterations of two instructions each: the count grows by exactly 2 per iteration */
static void __attribute__((noinline)) loop(unsigned long n)
{
#if defined(__aarch64__)
	__asm__ volatile("1: subs %0, %0, #1\n\t"
			 "b.ne 1b"
			 : "+r"(n) : : "cc");
#elif defined(__x86_64__)
	__asm__ volatile("1: dec %0\n\t"
			 "jnz 1b"
			 : "+r"(n) : : "cc");
#else
	for (volatile unsigned long i = 0; i < n; i++)
		;
#endif
}

#define LOOP_INSNS 2

static int open_hw(uint64_t config, int group_fd, uint64_t read_format, uint64_t period,
		   uint64_t sample_type, struct pc_error *err)
{
	union pc_attr a;
	struct pc_open_info info;

	memset(&a, 0, sizeof(a));
	a.attr.size = PERF_ATTR_SIZE_VER5;
	a.attr.type = PERF_TYPE_HARDWARE;
	a.attr.config = config;
	a.attr.read_format = read_format;
	a.attr.disabled = group_fd < 0;
	a.attr.exclude_kernel = 1;
	a.attr.exclude_hv = 1;
	a.attr.sample_period = period;
	a.attr.sample_type = sample_type;
	return pc_event_open(&a, config == PERF_COUNT_HW_CPU_CYCLES ? "cycles" : "instructions",
			     0, -1, group_fd, PERF_FLAG_FD_CLOEXEC, &info, err);
}

static uint64_t count_loop(int fd, unsigned long n)
{
	uint64_t v = 0;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

FIXTURE(pmu) {
	struct pc_error err;
};

FIXTURE_SETUP(pmu)
{
	int fd = open_hw(PERF_COUNT_HW_INSTRUCTIONS, -1, 0, 0, 0, &self->err);

	if (fd < 0)
		SKIP(return, "no PMU counts instructions here (%s)", self->err.msg);
	close(fd);
}

FIXTURE_TEARDOWN(pmu) {}

TEST_F(pmu, instruction_count_of_a_known_loop_is_exact)
{
	int fd = open_hw(PERF_COUNT_HW_INSTRUCTIONS, -1, 0, 0, 0, &self->err);
	uint64_t small, big;

	ASSERT_LE(0, fd);
	count_loop(fd, 1000);			/* warm: pages and caches */
	small = count_loop(fd, 1000000);
	big = count_loop(fd, 3000000);
	/* what is not the loop (the ioctls' user part) is the same in both */
	EXPECT_EQ(2000000ULL * LOOP_INSNS, big - small)
		TH_LOG("1M iterations: %llu, 3M: %llu", (unsigned long long)small,
		       (unsigned long long)big);
	close(fd);
}

TEST_F(pmu, group_of_cycles_and_instructions_counts_as_one)
{
	uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
		      PERF_FORMAT_TOTAL_TIME_RUNNING;
	int lead = open_hw(PERF_COUNT_HW_CPU_CYCLES, -1, rf, 0, 0, &self->err);
	int mem = lead < 0 ? -1 : open_hw(PERF_COUNT_HW_INSTRUCTIONS, lead, rf, 0, 0, &self->err);
	uint64_t g[5];

	if (lead < 0)
		SKIP(return, "no PMU counts cycles here (%s)", self->err.msg);
	ASSERT_LE(0, mem) TH_LOG("%s", self->err.msg);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	loop(2000000);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(sizeof(g), read(lead, g, sizeof(g)));
	EXPECT_EQ(2, g[0]);
	/* a group is on the PMU whole or not at all */
	EXPECT_EQ(g[1], g[2]);
	EXPECT_LE(2000000ULL * LOOP_INSNS, g[4]);
	EXPECT_LT(0, g[3]);
	close(mem);
	close(lead);
}

#define MANY 24

TEST_F(pmu, more_events_than_counters_are_multiplexed_and_scale)
{
	uint64_t rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	int fd[MANY], opened = 0, partial = 0;
	double expect, worst = 0;
	uint64_t v[MANY][3];

	for (int i = 0; i < MANY; i++) {
		fd[i] = open_hw(PERF_COUNT_HW_INSTRUCTIONS, -1, rf, 0, 0, &self->err);
		if (fd[i] < 0)
			break;
		opened++;
	}
	ASSERT_EQ(MANY, opened) TH_LOG("%s", self->err.msg);
	for (int i = 0; i < MANY; i++)
		ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0);
	/* long enough for the rotation (every tick) to give each event its turns */
	loop(200000000);
	for (int i = 0; i < MANY; i++)
		ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
	expect = 200000000.0 * LOOP_INSNS;
	for (int i = 0; i < MANY; i++) {
		double scaled;

		ASSERT_EQ(sizeof(v[i]), read(fd[i], v[i], sizeof(v[i])));
		partial += v[i][2] < v[i][1];
		if (!v[i][2])
			continue;	/* never on the PMU: perf shows <not counted> */
		scaled = (double)v[i][0] * (double)v[i][1] / (double)v[i][2];
		if (scaled / expect - 1 > worst || 1 - scaled / expect > worst)
			worst = scaled / expect > 1 ? scaled / expect - 1 : 1 - scaled / expect;
		close(fd[i]);
	}
	EXPECT_LT(0, partial) TH_LOG("%d events and none ran part of the time: no multiplexing",
				      MANY);
	/* scaling is an estimate: within 25% of the real count */
	EXPECT_GT(0.25, worst) TH_LOG("worst scaled count %.1f%% off", worst * 100);
}

TEST_F(pmu, leader_sampling_reads_the_group_in_each_sample)
{
	uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	int lead = open_hw(PERF_COUNT_HW_CPU_CYCLES, -1, rf, 1000000, PERF_SAMPLE_READ, &self->err);
	int mem = lead < 0 ? -1 : open_hw(PERF_COUNT_HW_INSTRUCTIONS, lead, rf, 0, 0, &self->err);
	size_t len = (1 + 16) * (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	uint64_t pos, head, last_insns = 0;
	int samples = 0, increasing = 0;

	if (lead < 0)
		SKIP(return, "no PMU samples cycles here (%s)", self->err.msg);
	ASSERT_LE(0, mem) TH_LOG("%s", self->err.msg);
	pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, lead, 0);
	ASSERT_NE(MAP_FAILED, pg);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	loop(20000000);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	ASSERT_GE(pg->data_size, head);
	for (pos = 0; pos + sizeof(struct perf_event_header) <= head;) {
		const uint8_t *rec = (const uint8_t *)pg + pg->data_offset + pos;
		struct perf_event_header h;
		uint64_t body[5];

		memcpy(&h, rec, sizeof(h));
		ASSERT_LE(sizeof(h), h.size);
		if (h.type == PERF_RECORD_SAMPLE) {
			/* nr, {leader value, id}, {member value, id} */
			ASSERT_EQ(sizeof(h) + sizeof(body), h.size);
			memcpy(body, rec + sizeof(h), sizeof(body));
			EXPECT_EQ(2, body[0]);
			samples++;
			increasing += body[3] > last_insns;
			last_insns = body[3];
		}
		pos += h.size;
	}
	EXPECT_LE(10, samples);
	EXPECT_EQ(samples, increasing);
	munmap(pg, len);
	close(mem);
	close(lead);
}

TEST_HARNESS_MAIN
