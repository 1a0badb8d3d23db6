/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf script -F brstack, brstacksym, brstackoff: a sample's branch stack
 * (PERF_SAMPLE_BRANCH_STACK), one "from/to/flags" entry after another, in
 * perf 6.1's layout.
 */
#ifndef PERFCHECK_READER_BRSTACK_H
#define PERFCHECK_READER_BRSTACK_H

#include <stdbool.h>

#include "reader/out.h"
#include "reader/session.h"

/*
 * Only the first of brstack, brstacksym, brstackoff in f is printed, as
 * perf does; layout_7_2: the flags as perf 7.2 prints them.
 */
void rd_brstack_print(struct rd_out *o, struct rd_session *s, const struct rd_event *ev,
		      unsigned int f, bool layout_7_2);

#endif
