/* SPDX-License-Identifier: GPL-2.0 */
/* perf 6.1's -I lines of CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY (perf_header_topo.c). */
#ifndef PERFCHECK_READER_PERF_HEADER_TOPO_H
#define PERFCHECK_READER_PERF_HEADER_TOPO_H

#include <stdbool.h>

#include "perfdata/perfdata.h"
#include "reader/out.h"

/* Feature f's full lines from its payload; false when f is not one of the four. */
bool rd_perf_header_topo(struct rd_out *o, const struct pd_reader *r, int f, const uint8_t *p,
			 size_t size);

#endif
