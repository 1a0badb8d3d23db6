// SPDX-License-Identifier: GPL-2.0
/*
 * Counting mode on the running kernel: what perf stat relies on.  Group
 * reads agree with what each member reports, and each ioctl of a counter
 * does what its name promises: ENABLE, DISABLE, RESET, REFRESH, PERIOD,
 * ID, SET_OUTPUT, SET_FILTER, PAUSE_OUTPUT, MODIFY_ATTRIBUTES; the mmap
 * user page converts the time counter as sample times run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/hw_breakpoint.h>

#include "kselftest_harness.h"
#include "probes/probe.h"
#include "testutil.h"

#define PAGES 64

static volatile char *touch_pages(int n)
{
	long pg = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	for (int i = 0; i < n; i++)
		p[i * pg] = 1;
	munmap((void *)p, n * pg);
	return p;
}

/* A counter of this thread's page faults (software: every kernel, no PMU). */
static int open_sw(uint64_t config, uint64_t read_format, int group_fd, bool disabled,
		   uint64_t period, struct pc_error *err)
{
	union pc_attr a;
	struct pc_open_info info;

	memset(&a, 0, sizeof(a));
	a.attr.size = PERF_ATTR_SIZE_VER5;
	a.attr.type = PERF_TYPE_SOFTWARE;
	a.attr.config = config;
	a.attr.read_format = read_format;
	a.attr.disabled = disabled;
	a.attr.exclude_kernel = 1;
	a.attr.exclude_hv = 1;
	a.attr.sample_period = period;
	a.attr.sample_type = period ? PERF_SAMPLE_IP | PERF_SAMPLE_TID : 0;
	a.attr.wakeup_events = 1;
	return pc_event_open(&a, "page-faults", 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC, &info, err);
}

static uint64_t read_one(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return UINT64_MAX;
	return v;
}

/* Samples written to a ring: the data pages' records of type SAMPLE. */
struct ring {
	void *base;
	size_t len;
};

static int ring_map(struct ring *r, int fd)
{
	r->len = (1 + 8) * (size_t)sysconf(_SC_PAGESIZE);
	r->base = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	return r->base == MAP_FAILED ? -1 : 0;
}

static int ring_samples(const struct ring *r)
{
	const struct perf_event_mmap_page *pg = r->base;
	const uint8_t *data = (const uint8_t *)r->base + pg->data_offset;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t size = pg->data_size, pos = pg->data_tail;
	int n = 0;

	if (head - pos > size)
		return -1;	/* overwritten: the test asked for too many */
	while (pos < head) {
		struct perf_event_header h;

		for (size_t i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = data[(pos + i) & (size - 1)];
		if (h.size < sizeof(h))
			return -1;
		n += h.type == PERF_RECORD_SAMPLE;
		pos += h.size;
	}
	return n;
}

FIXTURE(counting) {
	struct pc_error err;
};

FIXTURE_SETUP(counting)
{
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, true, 0, &self->err);

	if (fd < 0)
		SKIP(return, "the baseline counter does not open: %s", self->err.msg);
	close(fd);
}

FIXTURE_TEARDOWN(counting) {}

TEST_F(counting, group_read_through_a_member_equals_the_leaders)
{
	uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
		      PERF_FORMAT_TOTAL_TIME_RUNNING;
	int lead = open_sw(PERF_COUNT_SW_TASK_CLOCK, rf, -1, true, 0, &self->err);
	int mem = open_sw(PERF_COUNT_SW_PAGE_FAULTS, rf, lead, false, 0, &self->err);
	uint64_t a[7], b[7], id_lead, id_mem;

	ASSERT_LE(0, lead);
	ASSERT_LE(0, mem) TH_LOG("%s", self->err.msg);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	touch_pages(PAGES);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(sizeof(a), read(lead, a, sizeof(a)));
	ASSERT_EQ(sizeof(b), read(mem, b, sizeof(b)));
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ID, &id_lead));
	ASSERT_EQ(0, ioctl(mem, PERF_EVENT_IOC_ID, &id_mem));
	/* nr, enabled, running, then {value, id} of the leader and the member */
	EXPECT_EQ(2, a[0]);
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	EXPECT_EQ(id_lead, a[4]);
	EXPECT_EQ(id_mem, a[6]);
	EXPECT_LE(PAGES, a[5]);
	EXPECT_LT(0, a[3]);
	close(mem);
	close(lead);
}

TEST_F(counting, group_values_equal_single_counters_over_the_same_work)
{
	uint64_t rf = PERF_FORMAT_GROUP;
	int lead = open_sw(PERF_COUNT_SW_PAGE_FAULTS, rf, -1, true, 0, &self->err);
	int mem = open_sw(PERF_COUNT_SW_PAGE_FAULTS, rf, lead, false, 0, &self->err);
	int single = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, true, 0, &self->err);
	uint64_t g[3];

	ASSERT_LE(0, lead);
	ASSERT_LE(0, mem);
	ASSERT_LE(0, single);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, ioctl(single, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(PAGES);
	ASSERT_EQ(0, ioctl(single, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(sizeof(g), read(lead, g, sizeof(g)));
	EXPECT_EQ(g[1], g[2]);
	EXPECT_EQ(read_one(single), g[1]);
	EXPECT_LE(PAGES, g[1]);
	close(single);
	close(mem);
	close(lead);
}

TEST_F(counting, disabled_counter_counts_nothing_until_enabled)
{
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, true, 0, &self->err);
	uint64_t before, after;

	ASSERT_LE(0, fd);
	touch_pages(PAGES);
	EXPECT_EQ(0, read_one(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(PAGES);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	before = read_one(fd);
	EXPECT_LE(PAGES, before);
	touch_pages(PAGES);
	after = read_one(fd);
	EXPECT_EQ(before, after) TH_LOG("a disabled counter went on from %llu to %llu",
					(unsigned long long)before, (unsigned long long)after);
	close(fd);
}

TEST_F(counting, reset_zeroes_the_count)
{
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, false, 0, &self->err);

	ASSERT_LE(0, fd);
	touch_pages(PAGES);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_LE(PAGES, read_one(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	EXPECT_EQ(0, read_one(fd));
	close(fd);
}

TEST_F(counting, refresh_enables_for_that_many_overflows)
{
	/* sampling every fault; REFRESH 3 allows three overflows, then disables */
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, true, 1, &self->err);
	struct ring r;
	int samples;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 3));
	touch_pages(PAGES);
	samples = ring_samples(&r);
	EXPECT_EQ(3, samples) TH_LOG("%d samples after REFRESH 3 and %d faults", samples, PAGES);
	munmap(r.base, r.len);
	close(fd);
}

TEST_F(counting, period_ioctl_changes_the_sampling_period)
{
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, true, 1000000, &self->err);
	uint64_t period = 4;
	struct ring r;
	int samples;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(PAGES);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	samples = ring_samples(&r);
	/* one sample per 4 faults: not 0 (the old period), not one per fault */
	EXPECT_LE(PAGES / 4 - 1, samples);
	EXPECT_GE(PAGES / 4 + 4, samples);
	munmap(r.base, r.len);
	close(fd);
}

TEST_F(counting, set_output_sends_samples_to_the_other_ring)
{
	int a = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, true, 1, &self->err);
	int b = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, true, 1, &self->err);
	struct ring r;
	int samples;

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, ring_map(&r, a));
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(16);
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_DISABLE, 0));
	samples = ring_samples(&r);
	/* a stayed disabled: every sample in its ring came from b */
	EXPECT_LE(16, samples);
	munmap(r.base, r.len);
	close(b);
	close(a);
}

TEST_F(counting, pause_output_drops_samples_while_paused)
{
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, true, 1, &self->err);
	struct ring r;
	int paused, resumed;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd));
	if (ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1))
		SKIP(goto out, "PERF_EVENT_IOC_PAUSE_OUTPUT refused: %s (kernel before 4.7)",
		     strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(16);
	paused = ring_samples(&r);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	touch_pages(16);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	resumed = ring_samples(&r);
	EXPECT_EQ(0, paused);
	EXPECT_LE(16, resumed);
out:
	munmap(r.base, r.len);
	close(fd);
}

TEST_F(counting, set_filter_counts_only_matching_tracepoint_hits)
{
	long id = pc_test_tracepoint_id("syscalls", "sys_enter_getppid");
	union pc_attr a;
	struct pc_open_info info;
	int all, filtered;
	uint64_t n_all, n_filtered;

	if (id < 0)
		SKIP(return, "no syscalls:sys_enter_getppid tracepoint in tracefs (not mounted, or no syscall tracepoints)");
	memset(&a, 0, sizeof(a));
	a.attr.size = PERF_ATTR_SIZE_VER5;
	a.attr.type = PERF_TYPE_TRACEPOINT;
	a.attr.config = (uint64_t)id;
	a.attr.disabled = 1;
	all = pc_event_open(&a, "syscalls:sys_enter_getppid", 0, -1, -1, PERF_FLAG_FD_CLOEXEC,
			    &info, &self->err);
	if (all < 0)
		SKIP(return, "tracepoint does not open: %s", self->err.msg);
	filtered = pc_event_open(&a, "syscalls:sys_enter_getppid", 0, -1, -1,
				 PERF_FLAG_FD_CLOEXEC, &info, &self->err);
	ASSERT_LE(0, filtered);
	/* getppid has no arguments: filter on the common pid, which never matches 0 */
	ASSERT_EQ(0, ioctl(filtered, PERF_EVENT_IOC_SET_FILTER, "common_pid == 0"));
	ASSERT_EQ(0, ioctl(all, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(filtered, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 10; i++)
		getppid();
	ASSERT_EQ(0, ioctl(all, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(filtered, PERF_EVENT_IOC_DISABLE, 0));
	n_all = read_one(all);
	n_filtered = read_one(filtered);
	EXPECT_EQ(10, n_all);
	EXPECT_EQ(0, n_filtered);
	close(filtered);
	close(all);
}

static volatile uint64_t watched[2];

TEST_F(counting, modify_attributes_moves_a_breakpoint)
{
	union pc_attr a, moved;
	struct pc_open_info info;
	int fd;

	memset(&a, 0, sizeof(a));
	a.attr.size = PERF_ATTR_SIZE_VER5;
	a.attr.type = PERF_TYPE_BREAKPOINT;
	a.attr.bp_type = HW_BREAKPOINT_W;
	a.attr.bp_addr = (uintptr_t)&watched[0];
	a.attr.bp_len = HW_BREAKPOINT_LEN_8;
	a.attr.disabled = 1;
	a.attr.exclude_kernel = 1;
	a.attr.exclude_hv = 1;
	fd = pc_event_open(&a, "mem:watched", 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &self->err);
	if (fd < 0)
		SKIP(return, "no hardware breakpoint here: %s", self->err.msg);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	watched[0] = 1;
	watched[1] = 1;
	/*
	 * The kernel took the breakpoint but the write did not trap: a
	 * hypervisor that keeps the debug registers from its guest (this
	 * test's host VM, 6.18: every write counted 0; QEMU's guests trap).
	 * There is no breakpoint to move.
	 */
	if (read_one(fd) == 0) {
		close(fd);
		SKIP(return, "a write to the watched word counted 0: this machine's hardware "
			     "breakpoints do not trap");
	}
	EXPECT_EQ(1, read_one(fd));
	moved = a;
	moved.attr.bp_addr = (uintptr_t)&watched[1];
	moved.attr.disabled = 0;
	if (ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &moved.attr)) {
		int e = errno;

		close(fd);
		SKIP(return, "PERF_EVENT_IOC_MODIFY_ATTRIBUTES refused: %s (kernel before 4.17)",
		     strerror(e));
	}
	watched[0] = 2;
	watched[1] = 2;
	watched[1] = 3;
	/* only the writes to watched[1] after the move count */
	EXPECT_EQ(3, read_one(fd));
	close(fd);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
static uint64_t read_cycles(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
#elif defined(__aarch64__)
static uint64_t read_cycles(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}
#endif

TEST_F(counting, user_page_time_zero_converts_the_counter_to_perf_time)
{
#if defined(__x86_64__) || defined(__aarch64__)
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, false, 1, &self->err);
	const struct perf_event_mmap_page *pg;
	uint64_t cyc, quot, rem, t_user, t_kernel = 0;
	union pc_attr a;
	struct pc_open_info info;
	struct ring r;
	int sfd;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(&r, fd));
	pg = r.base;
	if (!pg->cap_user_time_zero) {
		munmap(r.base, r.len);
		close(fd);
		SKIP(return, "the kernel sets no cap_user_time_zero on this machine's clock");
	}
	munmap(r.base, r.len);
	close(fd);

	/* a sampling event with TIME: its sample's time against the converted counter */
	memset(&a, 0, sizeof(a));
	a.attr.size = PERF_ATTR_SIZE_VER5;
	a.attr.type = PERF_TYPE_SOFTWARE;
	a.attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	a.attr.sample_period = 1;
	a.attr.sample_type = PERF_SAMPLE_TIME;
	a.attr.exclude_kernel = 1;
	a.attr.disabled = 1;
	sfd = pc_event_open(&a, "page-faults", 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &self->err);
	ASSERT_LE(0, sfd);
	ASSERT_EQ(0, ring_map(&r, sfd));
	pg = r.base;
	ASSERT_EQ(0, ioctl(sfd, PERF_EVENT_IOC_ENABLE, 0));
	cyc = read_cycles();
	touch_pages(1);
	ASSERT_EQ(0, ioctl(sfd, PERF_EVENT_IOC_DISABLE, 0));
	if (pg->cap_user_time_short)
		cyc = pg->time_cycles + ((cyc - pg->time_cycles) & pg->time_mask);
	quot = cyc >> pg->time_shift;
	rem = cyc & (((uint64_t)1 << pg->time_shift) - 1);
	t_user = pg->time_zero + quot * pg->time_mult + ((rem * pg->time_mult) >> pg->time_shift);
	{
		const uint8_t *data = (const uint8_t *)r.base + pg->data_offset;
		struct perf_event_header h;

		ASSERT_LE(sizeof(h) + 8, pg->data_head);
		memcpy(&h, data, sizeof(h));
		ASSERT_EQ(PERF_RECORD_SAMPLE, h.type);
		memcpy(&t_kernel, data + sizeof(h), 8);
	}
	/* the fault came after the counter was read: later, and within 50 ms */
	EXPECT_LE(t_user, t_kernel);
	EXPECT_GT(t_user + 50000000ULL, t_kernel)
		TH_LOG("user-page time %llu, sample time %llu (monotonic now %llu)",
		       (unsigned long long)t_user, (unsigned long long)t_kernel,
		       (unsigned long long)mono_ns());
	munmap(r.base, r.len);
	close(sfd);
#else
	SKIP(return, "no user-readable time counter known for this architecture");
#endif
}

TEST_HARNESS_MAIN
