// SPDX-License-Identifier: GPL-2.0
/*
 * The side-band rows on the running kernel, each proven by the records it
 * makes: sample_id_all (the trailer, and none without the bit), mmap2
 * (dev, inode, offset, prot, flags, path against stat() and the mapping),
 * build_id (against libelf), comm_exec (the flag after exec, not after
 * PR_SET_NAME), context_switch (pairs for the workload's sleeps),
 * namespaces (against /proc/PID/ns/).
 */
#include "kselftest_harness.h"
#include "feature_common.h"

FEATURE_TEST(sample_id_all, PC_FEAT_SAMPLE_ID_ALL)
FEATURE_TEST(mmap2, PC_FEAT_MMAP2)
FEATURE_TEST(build_id, PC_FEAT_BUILD_ID)
FEATURE_TEST(comm_exec, PC_FEAT_COMM_EXEC)
FEATURE_TEST(context_switch, PC_FEAT_CONTEXT_SWITCH)
FEATURE_TEST(namespaces, PC_FEAT_NAMESPACES)

TEST_HARNESS_MAIN
