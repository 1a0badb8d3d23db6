/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A PERF_SAMPLE_DATA_SRC word as perf script 6.1 decodes it for -F data_src:
 * "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A".
 */
#ifndef PERFCHECK_READER_DATASRC_H
#define PERFCHECK_READER_DATASRC_H

#include <stddef.h>
#include <stdint.h>

/* The text into buf (always terminated, cut at size - 1 as perf cuts it); its length. */
size_t rd_data_src_text(uint64_t data_src, char *buf, size_t size);

#endif
