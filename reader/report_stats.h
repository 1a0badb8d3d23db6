/* SPDX-License-Identifier: GPL-2.0 */
/* perfcheck report --stats: the input's records by type, then each event's samples. */
#ifndef PERFCHECK_READER_REPORT_STATS_H
#define PERFCHECK_READER_REPORT_STATS_H

#include <stdbool.h>

#include "reader/out.h"
#include "reader/session.h"
#include "util/error.h"

/*
 * Processes the session (it takes its ops) and prints perf report
 * --stats' text: names right-aligned in 20 columns as perf 7.2 (wide), in
 * 16 as perf 6.1.  0 or -errno (err says why).
 */
int rd_report_stats(struct rd_session *s, struct rd_out *o, bool wide, struct pc_error *err);

#endif
