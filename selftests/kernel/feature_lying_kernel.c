// SPDX-License-Identifier: GPL-2.0
/*
 * The behaviour checks can fail: under a lying kernel, one that accepts a
 * feature's bit and ignores it (the probe layer's open seam strips the bit
 * before the real perf_event_open), the probe still says "supported" and
 * each check must say "broken", naming what it saw.  This is the kernel
 * regression the checks exist to catch.  A row the real kernel lacks is
 * skipped: a lie needs the real feature to be stripped.
 *
 * comm_exec has no lie to tell: the kernel flags every COMM from exec
 * whatever the attr says (the bit only lets tools see that it does), so
 * stripping it changes nothing, and its check rightly still proves it.
 */
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "probes/behaviour.h"
#include "probes/kernel.h"

static struct {
	uint64_t flags, sample_type, read_format;
	unsigned long open_flags;
	bool zero_max_stack;
} strip;

static int lying_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		      unsigned long flags)
{
	union pc_attr a;
	size_t n = attr->size && attr->size < sizeof(a) ? attr->size : sizeof(a);
	int fd;

	memset(&a, 0, sizeof(a));
	memcpy(&a, attr, n);
	pc_attr_flags_put(&a.attr, pc_attr_flags_get(&a.attr) & ~strip.flags);
	a.attr.sample_type &= ~strip.sample_type;
	a.attr.read_format &= ~strip.read_format;
	if (strip.zero_max_stack)
		a.attr.sample_max_stack = 0;
	fd = (int)syscall(__NR_perf_event_open, &a.attr, pid, cpu, group_fd,
			  flags & ~strip.open_flags);
	attr->size = a.attr.size;	/* E2BIG writes the kernel's size back */
	return fd;
}

static void lie(bool on)
{
	struct pc_kernel_ops ops = { .open = lying_open };

	pc_kernel_set_ops(on ? &ops : NULL);
}

static void expect_broken(struct __test_metadata *_metadata, enum pc_feature f)
{
	const struct pc_behaviour_result *b;

	lie(false);
	pc_behaviour_reset();
	if (pc_feature_probe(f, NULL) != PC_FEATURE_SUPPORTED) {
		memset(&strip, 0, sizeof(strip));
		SKIP(return, "kernel lacks %s: nothing to lie about", pc_feature_name(f));
	}
	pc_behaviour_reset();
	lie(true);
	b = pc_behaviour_check(f);
	lie(false);
	memset(&strip, 0, sizeof(strip));
	ASSERT_NE(NULL, b);
	TH_LOG("%s under a kernel ignoring it: %s: %s", pc_feature_name(f),
	       pc_behaviour_name(b->verdict), b->detail);
	if (b->verdict == PC_BEHAVIOUR_NOT_TESTED)
		SKIP(return, "the check could not run here: %s", b->detail);
	EXPECT_EQ(PC_BEHAVIOUR_BROKEN, b->verdict);
	pc_behaviour_reset();
}

#define FLAG(bit) (1ULL << PC_ATTR_##bit)

TEST(sample_id_all_ignored_is_broken)
{
	strip.flags = FLAG(sample_id_all);
	expect_broken(_metadata, PC_FEAT_SAMPLE_ID_ALL);
}

TEST(mmap2_ignored_is_broken)
{
	strip.flags = FLAG(mmap2);
	expect_broken(_metadata, PC_FEAT_MMAP2);
}

TEST(build_id_ignored_is_broken)
{
	strip.flags = FLAG(build_id);
	expect_broken(_metadata, PC_FEAT_BUILD_ID);
}

TEST(fd_cloexec_ignored_is_broken)
{
	strip.open_flags = PERF_FLAG_FD_CLOEXEC;
	expect_broken(_metadata, PC_FEAT_FD_CLOEXEC);
}

TEST(context_switch_ignored_is_broken)
{
	strip.flags = FLAG(context_switch);
	expect_broken(_metadata, PC_FEAT_CONTEXT_SWITCH);
}

TEST(write_backward_ignored_is_broken)
{
	strip.flags = FLAG(write_backward);
	expect_broken(_metadata, PC_FEAT_WRITE_BACKWARD);
}

TEST(namespaces_ignored_is_broken)
{
	strip.flags = FLAG(namespaces);
	expect_broken(_metadata, PC_FEAT_NAMESPACES);
}

TEST(ksymbol_ignored_is_broken)
{
	strip.flags = FLAG(ksymbol);
	expect_broken(_metadata, PC_FEAT_KSYMBOL);
}

TEST(bpf_event_ignored_is_broken)
{
	strip.flags = FLAG(bpf_event);
	expect_broken(_metadata, PC_FEAT_BPF_EVENT);
}

TEST(cgroup_records_ignored_is_broken)
{
	strip.flags = FLAG(cgroup);
	expect_broken(_metadata, PC_FEAT_CGROUP);
}

TEST(data_page_size_ignored_is_broken)
{
	strip.sample_type = PERF_SAMPLE_DATA_PAGE_SIZE;
	expect_broken(_metadata, PC_FEAT_DATA_PAGE_SIZE);
}

TEST(code_page_size_ignored_is_broken)
{
	strip.sample_type = PERF_SAMPLE_CODE_PAGE_SIZE;
	expect_broken(_metadata, PC_FEAT_CODE_PAGE_SIZE);
}

TEST(inherit_thread_ignored_is_broken)
{
	strip.flags = FLAG(inherit_thread);
	expect_broken(_metadata, PC_FEAT_INHERIT_THREAD);
}

TEST(remove_on_exec_ignored_is_broken)
{
	strip.flags = FLAG(remove_on_exec);
	expect_broken(_metadata, PC_FEAT_REMOVE_ON_EXEC);
}

TEST(sigtrap_ignored_is_broken)
{
	strip.flags = FLAG(sigtrap);
	expect_broken(_metadata, PC_FEAT_SIGTRAP);
}

TEST(read_lost_ignored_is_broken)
{
	strip.read_format = PERF_FORMAT_LOST;
	expect_broken(_metadata, PC_FEAT_READ_LOST);
}

TEST(inherit_sample_read_ignored_is_broken)
{
	strip.sample_type = PERF_SAMPLE_READ;
	expect_broken(_metadata, PC_FEAT_INHERIT_SAMPLE_READ);
}

/* the probe itself asks for one frame above the sysctl: a kernel that ignores the limit is caught there */
TEST(max_stack_ignored_is_refused_by_the_probe)
{
	enum pc_feature f = PC_FEAT_MAX_STACK;
	const struct pc_behaviour_result *b;

	pc_behaviour_reset();
	if (pc_feature_probe(f, NULL) != PC_FEATURE_SUPPORTED)
		SKIP(return, "kernel lacks %s: nothing to lie about", pc_feature_name(f));
	pc_behaviour_reset();
	strip.zero_max_stack = true;
	lie(true);
	b = pc_behaviour_check(f);
	lie(false);
	memset(&strip, 0, sizeof(strip));
	ASSERT_NE(NULL, b);
	TH_LOG("%s under a kernel ignoring it: %s: %s", pc_feature_name(f),
	       pc_behaviour_name(b->verdict), b->detail);
	EXPECT_EQ(PC_BEHAVIOUR_REFUSED, b->verdict);
	pc_behaviour_reset();
}

TEST_HARNESS_MAIN
