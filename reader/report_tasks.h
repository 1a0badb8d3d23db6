/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report --tasks: the recording's threads as a tree of parents (each
 * FORK's) and children, "  PID TID PPID |<depth>COMM" under perf's title;
 * --mmaps: each with its maps.
 */
#ifndef PERFCHECK_READER_REPORT_TASKS_H
#define PERFCHECK_READER_REPORT_TASKS_H

#include <stdbool.h>

#include "reader/out.h"
#include "reader/session.h"

/*
 * After the session was processed; layout_7_2: perf 7.2's order; maps: each
 * thread's maps under it (--mmaps); -ENOMEM
 */
int rp_tasks_print(struct rd_session *s, struct rd_out *o, bool layout_7_2, bool maps);

#endif
