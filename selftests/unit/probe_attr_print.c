// SPDX-License-Identifier: GPL-2.0
/*
 * lib/attr: a perf_event_attr printed as perf prints it.  The expected
 * blocks are what the system perf (6.1) printed with -vv for
 * `perf record -e cpu-clock -c 10000 -g` and for the same with
 * `-k mono --switch-events --namespaces -b --overwrite`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kselftest_harness.h"
#include "attr/attr.h"
#include "uapi/perf_compat.h"

static char *print_block(const union pc_attr *a, size_t size)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return NULL;
	pc_attr_fprintf_block(fp, a, size);
	fclose(fp);
	return buf;
}

static void record_attr(union pc_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->attr.type = PERF_TYPE_SOFTWARE;
	a->attr.size = 128;
	a->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	a->attr.sample_period = 10000;
	a->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a->attr.disabled = 1;
	a->attr.inherit = 1;
	a->attr.mmap = 1;
	a->attr.comm = 1;
	a->attr.enable_on_exec = 1;
	a->attr.task = 1;
	a->attr.sample_id_all = 1;
	a->attr.exclude_guest = 1;
	a->attr.mmap2 = 1;
	a->attr.comm_exec = 1;
	a->attr.ksymbol = 1;
	a->attr.bpf_event = 1;
}

TEST(record_attr_prints_as_perf_record_vv)
{
	static const char want[] =
		"------------------------------------------------------------\n"
		"perf_event_attr:\n"
		"  type                             1\n"
		"  size                             128\n"
		"  { sample_period, sample_freq }   10000\n"
		"  sample_type                      IP|TID|TIME|CALLCHAIN\n"
		"  read_format                      ID|LOST\n"
		"  disabled                         1\n"
		"  inherit                          1\n"
		"  mmap                             1\n"
		"  comm                             1\n"
		"  enable_on_exec                   1\n"
		"  task                             1\n"
		"  sample_id_all                    1\n"
		"  exclude_guest                    1\n"
		"  mmap2                            1\n"
		"  comm_exec                        1\n"
		"  ksymbol                          1\n"
		"  bpf_event                        1\n"
		"------------------------------------------------------------\n";
	union pc_attr a;
	char *got;

	record_attr(&a);
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			     PERF_SAMPLE_CALLCHAIN;
	got = print_block(&a, a.attr.size);
	ASSERT_NE(NULL, got);
	EXPECT_STREQ(want, got);
	free(got);
}

TEST(clock_switch_branch_fields_print_in_perfs_order)
{
	static const char want[] =
		"  type                             1\n"
		"  size                             128\n"
		"  { sample_period, sample_freq }   10000\n"
		"  sample_type                      IP|TID|TIME|BRANCH_STACK\n"
		"  read_format                      ID|LOST\n"
		"  disabled                         1\n"
		"  inherit                          1\n"
		"  mmap                             1\n"
		"  comm                             1\n"
		"  enable_on_exec                   1\n"
		"  task                             1\n"
		"  sample_id_all                    1\n"
		"  exclude_guest                    1\n"
		"  mmap2                            1\n"
		"  comm_exec                        1\n"
		"  use_clockid                      1\n"
		"  context_switch                   1\n"
		"  write_backward                   1\n"
		"  namespaces                       1\n"
		"  ksymbol                          1\n"
		"  bpf_event                        1\n"
		"  branch_sample_type               ANY\n"
		"  clockid                          1\n";
	union pc_attr a;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ASSERT_NE(NULL, fp);
	record_attr(&a);
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			     PERF_SAMPLE_BRANCH_STACK;
	a.attr.use_clockid = 1;
	a.attr.clockid = CLOCK_MONOTONIC;
	a.attr.context_switch = 1;
	a.attr.write_backward = 1;
	a.attr.namespaces = 1;
	a.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	pc_attr_fprintf(fp, &a, a.attr.size);
	fclose(fp);
	EXPECT_STREQ(want, buf);
	free(buf);
}

TEST(newer_flags_follow_sigtrap_and_config3_comes_last)
{
	union pc_attr a;
	char *got;

	memset(&a, 0, sizeof(a));
	a.attr.size = PC_ATTR_SIZE_MAX;
	a.attr.sig_data = 7;
	pc_attr_set(&a.attr, PC_ATTR_sigtrap, true);
	pc_attr_set(&a.attr, PC_ATTR_defer_callchain, true);
	pc_attr_set(&a.attr, PC_ATTR_defer_output, true);
	a.words[PC_ATTR_OFF_config3 / 8] = 0x10;
	got = print_block(&a, a.attr.size);
	ASSERT_NE(NULL, got);
	EXPECT_NE(NULL, strstr(got, "  sigtrap                          1\n"
				    "  defer_callchain                  1\n"
				    "  defer_output                     1\n"
				    "  sig_data                         7\n"
				    "  config3                          0x10\n")) TH_LOG("%s", got);
	free(got);
}

TEST(fields_past_the_attr_size_are_not_printed)
{
	union pc_attr a;
	char *got;

	memset(&a, 0, sizeof(a));
	a.attr.size = 64;			/* PERF_ATTR_SIZE_VER0 */
	a.attr.sample_period = 1;
	a.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;	/* offset 72 */
	got = print_block(&a, a.attr.size);
	ASSERT_NE(NULL, got);
	EXPECT_NE(NULL, strstr(got, "sample_period"));
	EXPECT_EQ(NULL, strstr(got, "branch_sample_type")) TH_LOG("%s", got);
	free(got);
}

TEST(unnamed_bits_are_shown_as_hex)
{
	char buf[128];

	pc_attr_sample_type_str(buf, sizeof(buf), PERF_SAMPLE_IP | (1ULL << 40));
	EXPECT_STREQ("IP|0x10000000000", buf);
	pc_attr_read_format_str(buf, sizeof(buf), PERF_FORMAT_GROUP | PERF_FORMAT_ID);
	EXPECT_STREQ("ID|GROUP", buf);
	pc_attr_branch_type_str(buf, sizeof(buf), PERF_SAMPLE_BRANCH_USER | PC_SAMPLE_BRANCH_COUNTERS);
	EXPECT_STREQ("USER|COUNTERS", buf);
	/* truncation keeps the buffer a string */
	pc_attr_sample_type_str(buf, 6, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME);
	EXPECT_STREQ("IP|TI", buf);
}

TEST(one_line_layout_is_perf_evlist_v)
{
	union pc_attr a;
	char line[512], tiny[40];

	record_attr(&a);
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	pc_attr_snprintf_line(line, sizeof(line), &a, a.attr.size);
	EXPECT_EQ(0, strncmp(line, "type: 1, size: 128, { sample_period, sample_freq }: 10000, "
			     "sample_type: IP|TID, read_format: ID|LOST, disabled: 1", 110))
		TH_LOG("%s", line);
	pc_attr_snprintf_line(tiny, sizeof(tiny), &a, a.attr.size);
	EXPECT_STREQ("type: 1, size: 128...", tiny);
}

TEST_HARNESS_MAIN
