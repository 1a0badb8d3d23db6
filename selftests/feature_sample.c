// SPDX-License-Identifier: GPL-2.0
/*
 * The rows that change what samples and the ring hold: use_clockid (times
 * within CLOCK_MONOTONIC read around them), data_page_size and
 * code_page_size (4 KiB pages, huge pages where the machine has them),
 * write_backward (the newest records whole, read after the fact),
 * read_lost (count = samples + lost), perf_event_max_stack (chains cut at
 * the limit), defer_callchain (every cookie answered), weight_struct (the
 * layout; the weight needs a PMU).
 */
#include "kselftest_harness.h"
#include "feature_common.h"

FEATURE_TEST(use_clockid, PC_FEAT_USE_CLOCKID)
FEATURE_TEST(data_page_size, PC_FEAT_DATA_PAGE_SIZE)
FEATURE_TEST(code_page_size, PC_FEAT_CODE_PAGE_SIZE)
FEATURE_TEST(write_backward, PC_FEAT_WRITE_BACKWARD)
FEATURE_TEST(read_lost, PC_FEAT_READ_LOST)
FEATURE_TEST(perf_event_max_stack, PC_FEAT_MAX_STACK)
FEATURE_TEST(defer_callchain, PC_FEAT_DEFER_CALLCHAIN)
FEATURE_TEST(weight_struct, PC_FEAT_WEIGHT_STRUCT)

TEST_HARNESS_MAIN
