// SPDX-License-Identifier: GPL-2.0
/*
 * The probe layer on the real, running kernel.  Written to be right on
 * every kernel of the matrix (5.10 to 7.2, with or without a PMU): the
 * expectations come from raw perf_event_open calls made here, never from
 * a kernel version.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "probe_capture.h"
#include "probes/probe.h"
#include "util/log.h"

/* The independent check: the raw syscall, not the probe layer's seam. */
static int raw_open(union pc_attr *a, unsigned long flags)
{
	int fd = (int)syscall(__NR_perf_event_open, &a->attr, 0, -1, -1, flags);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static void need_baseline(struct __test_metadata *_metadata)
{
	union pc_attr a;
	int ret;

	pc_feature_baseline_attr(&a);
	ret = raw_open(&a, 0);
	if (ret < 0)
		SKIP(return, "the baseline software event does not open here: %s", strerror(-ret));
}

TEST(each_probe_verdict_agrees_with_an_open_of_its_attr)
{
	need_baseline(_metadata);
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		const char *name = pc_feature_name(f);
		unsigned long flags;
		union pc_attr a;
		int e, ret;
		enum pc_feature_status st = pc_feature_probe(f, &e);

		ASSERT_EQ(0, pc_feature_probe_attr(f, &a, &flags));
		ret = raw_open(&a, flags);
		TH_LOG("%-22s %-9s probe errno %3d, open %d", name, pc_feature_status_name(st), e, ret);
		if (f == PC_FEAT_MAX_STACK) {
			/* its attr asks for one frame more than the limit */
			if (st == PC_FEATURE_SUPPORTED) {
				EXPECT_EQ(-EOVERFLOW, ret) TH_LOG("%s", name);
			} else if (st == PC_FEATURE_MISSING) {
				EXPECT_EQ(0, ret) TH_LOG("%s", name);
			}
			continue;
		}
		switch (st) {
		case PC_FEATURE_SUPPORTED:
			EXPECT_EQ(0, ret) TH_LOG("%s supported, but its open fails", name);
			break;
		case PC_FEATURE_MISSING:
			EXPECT_TRUE(ret == -EINVAL || ret == -E2BIG || ret == -EOPNOTSUPP)
				TH_LOG("%s missing, but its open gives %d", name, ret);
			break;
		default:
			EXPECT_EQ(-e, ret) TH_LOG("%s unknown (%d), but its open gives %d", name, e, ret);
			break;
		}
	}
}

TEST(each_probe_attr_asks_only_for_its_feature_and_what_it_needs)
{
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		unsigned long flags;
		union pc_attr a, base;

		pc_feature_probe_attr(f, &a, &flags);
		pc_feature_baseline_attr(&base);
		EXPECT_NE(0, memcmp(&a, &base, sizeof(a)) || flags) TH_LOG("%s: probe attr is the "
									"baseline", pc_feature_name(f));
		if (f != PC_FEAT_MAX_STACK || a.attr.sample_max_stack)
			EXPECT_TRUE(pc_feature_requested(f, &a, flags)) TH_LOG("%s", pc_feature_name(f));
		for (int g = 0; g < PC_FEAT__COUNT; g++) {
			/* another feature in the probe must be one this one depends on */
			if (g == f || !pc_feature_requested(g, &a, flags))
				continue;
			EXPECT_TRUE((pc_feature_info(g)->dependents >> f) & 1)
				TH_LOG("probe of %s also asks for %s", pc_feature_name(f),
				       pc_feature_name(g));
		}
	}
}

TEST(max_stack_probe_matches_the_sysctl)
{
	union pc_attr a;
	long limit;
	int e;

	need_baseline(_metadata);
	if (pc_kernel_max_stack(&limit) < 0)
		SKIP(return, "no /proc/sys/kernel/perf_event_max_stack");
	if (limit >= UINT16_MAX)
		SKIP(return, "perf_event_max_stack %ld does not fit sample_max_stack", limit);
	pc_feature_baseline_attr(&a);
	a.attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	a.attr.sample_max_stack = (uint16_t)limit;
	ASSERT_EQ(0, raw_open(&a, 0));
	a.attr.sample_max_stack = (uint16_t)(limit + 1);
	ASSERT_EQ(-EOVERFLOW, raw_open(&a, 0));
	EXPECT_EQ(PC_FEATURE_SUPPORTED, pc_feature_probe(PC_FEAT_MAX_STACK, &e));
}

/*
 * What perfcheck record asks for: deferred user callchains and inherited
 * counts in every sample.  Each is kept exactly when a minimal open of it
 * works here (6.18: defer_callchain cleared, inherit kept).
 */
TEST(recorder_open_keeps_what_the_kernel_has_and_clears_the_rest)
{
	struct pc_open_info info;
	struct pc_error err;
	struct capture cap;
	union pc_attr a, probe;
	bool has_defer, has_isr;
	char *said;
	int fd;

	need_baseline(_metadata);
	pc_feature_baseline_attr(&probe);
	probe.attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	pc_attr_set(&probe.attr, PC_ATTR_defer_callchain, true);
	has_defer = raw_open(&probe, 0) == 0;
	pc_feature_baseline_attr(&probe);
	probe.attr.inherit = 1;
	probe.attr.sample_type |= PERF_SAMPLE_READ;
	has_isr = raw_open(&probe, 0) == 0;
	TH_LOG("this kernel: defer_callchain %s, inherit+SAMPLE_READ %s",
	       has_defer ? "yes" : "no", has_isr ? "yes" : "no");

	pc_feature_baseline_attr(&a);
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			     PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD;
	a.attr.read_format = PERF_FORMAT_ID;
	a.attr.inherit = 1;
	a.attr.mmap = 1;
	a.attr.comm = 1;
	a.attr.mmap2 = 1;
	a.attr.comm_exec = 1;
	a.attr.sample_id_all = 1;
	pc_attr_set(&a.attr, PC_ATTR_defer_callchain, true);
	pc_attr_set(&a.attr, PC_ATTR_defer_output, true);
	pc_verbose = 1;
	ASSERT_EQ(0, capture_start(&cap));
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &err);
	said = capture_end(&cap);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	close(fd);
	EXPECT_EQ(has_defer, pc_attr_test(&a.attr, PC_ATTR_defer_callchain));
	EXPECT_EQ(has_defer, pc_attr_test(&a.attr, PC_ATTR_defer_output));
	EXPECT_EQ(!has_defer, says_switching_off(said, "defer_callchain")) TH_LOG("%s", said);
	EXPECT_EQ(has_isr, (bool)a.attr.inherit);
	EXPECT_EQ(!has_isr, says_switching_off(said, "inherit_sample_read")) TH_LOG("%s", said);
	/* asked for, and older than every kernel of the matrix */
	EXPECT_TRUE(a.attr.mmap2 && a.attr.comm_exec && a.attr.sample_id_all);
	EXPECT_TRUE(a.attr.sample_type & PERF_SAMPLE_READ);
	free(said);
}

TEST(cycles_falls_back_to_cpu_clock_only_when_not_countable)
{
	struct pc_open_info info;
	struct pc_error err;
	union pc_attr a, raw;
	int fd, ret;

	need_baseline(_metadata);
	pc_feature_baseline_attr(&raw);
	raw.attr.type = PERF_TYPE_HARDWARE;
	raw.attr.config = PERF_COUNT_HW_CPU_CYCLES;
	ret = raw_open(&raw, 0);
	if (ret != 0 && ret != -ENOENT && ret != -EOPNOTSUPP && ret != -ENODEV)
		SKIP(return, "cycles fails here with %s", strerror(-ret));
	a = raw;
	pc_verbose = -1;	/* the warning is checked with the simulated kernel */
	fd = pc_event_open(&a, "cycles", 0, -1, -1, 0, &info, &err);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	close(fd);
	EXPECT_EQ(ret != 0, info.fell_back_to_cpu_clock);
	EXPECT_EQ(ret != 0 ? PERF_TYPE_SOFTWARE : PERF_TYPE_HARDWARE, a.attr.type);
}

TEST(refused_attr_is_named_and_dumped_at_vv)
{
	struct pc_error err;
	struct capture cap;
	union pc_attr a;
	char *said;
	int fd;

	need_baseline(_metadata);
	pc_feature_baseline_attr(&a);
	a.attr.sample_type |= 1ULL << 63;	/* no kernel knows this bit */
	pc_verbose = 2;
	ASSERT_EQ(0, capture_start(&cap));
	fd = pc_event_open(&a, "bogus", 0, -1, -1, 0, NULL, &err);
	said = capture_end(&cap);
	EXPECT_EQ(-EINVAL, fd);
	EXPECT_NE(NULL, strstr(err.msg, "cannot open bogus")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "sample_type: IP|TID|0x8000000000000000")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(said, "perf_event_attr:\n  type                             1\n"))
		TH_LOG("%s", said);
	EXPECT_NE(NULL, strstr(said, "sys_perf_event_open failed, error -22")) TH_LOG("%s", said);
	free(said);
}

TEST_HARNESS_MAIN
