// SPDX-License-Identifier: GPL-2.0
/*
 * The rows about which tasks an event follows and what it does to them:
 * fd_cloexec (FD_CLOEXEC set by the kernel), exclude_guest (host work still
 * counted), inherit_thread (threads counted, forked children not),
 * remove_on_exec (counting stops at exec), sigtrap (si_code TRAP_PERF and
 * si_perf_data), inherit_sample_read (each thread's samples read its own
 * count).
 */
#include "kselftest_harness.h"
#include "feature_common.h"

FEATURE_TEST(fd_cloexec, PC_FEAT_FD_CLOEXEC)
FEATURE_TEST(exclude_guest, PC_FEAT_EXCLUDE_GUEST)
FEATURE_TEST(inherit_thread, PC_FEAT_INHERIT_THREAD)
FEATURE_TEST(remove_on_exec, PC_FEAT_REMOVE_ON_EXEC)
FEATURE_TEST(sigtrap, PC_FEAT_SIGTRAP)
FEATURE_TEST(inherit_sample_read, PC_FEAT_INHERIT_SAMPLE_READ)

TEST_HARNESS_MAIN
