/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A PERF_SAMPLE_DATA_SRC word as perf script decodes it for -F data_src:
 * "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A".  The
 * level differs: perf 6.1 lists the PERF_MEM_LVL bits and the level
 * number together ("N/A or N/A"); newer perf (7.2's layout here) names the
 * level number alone when it is set, else the PERF_MEM_LVL bits.
 */
#ifndef PERFCHECK_READER_DATASRC_H
#define PERFCHECK_READER_DATASRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The text into buf (always terminated, cut at size - 1 as perf cuts it); its length. */
size_t rd_data_src_text(uint64_t data_src, bool layout_7_2, char *buf, size_t size);

#endif
