/* SPDX-License-Identifier: GPL-2.0 */
/* perf 6.1's header lines of the smaller features (see perf_header_misc.c). */
#ifndef PERFCHECK_READER_PERF_HEADER_MISC_H
#define PERFCHECK_READER_PERF_HEADER_MISC_H

#include "perfdata/perfdata.h"
#include "reader/out.h"

/* Feature f's lines from its payload p (size bytes); nothing for a feature it does not print. */
int rd_perf_header_misc(struct rd_out *o, const struct pd_reader *r, int f, const uint8_t *p,
			size_t size, struct pc_error *err);

#endif
