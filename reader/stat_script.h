/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counts of a perf stat record file as perf script prints them: at
 * each STAT_ROUND, a line per event, thread and cpu (perf 6.1's layout;
 * perf 7.2's script prints nothing for such files).  What perf 6.1 does
 * to the readings first is done too: outside the global aggregation
 * (-A, --per-*), a reading becomes its delta to the previous round's and
 * is scaled by ena/run when STAT_CONFIG says counts scale.
 */
#ifndef PERFCHECK_READER_STAT_SCRIPT_H
#define PERFCHECK_READER_STAT_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/out.h"
#include "reader/stat_counts.h"
#include "util/error.h"

struct rd_stat_script {
	struct rd_stat_counts counts;
	bool header_done;
	struct rd_out *o;		/* where the round being read prints */
};

void rd_stat_script_init(struct rd_stat_script *st);
/* True for the record types this reads. */
bool rd_stat_script_wants(uint32_t type);
/* One record of a wanted type; a round's lines go to o. */
int rd_stat_script_record(struct rd_stat_script *st, const struct pd_reader *r,
			  const struct pd_record *rec, struct rd_out *o, struct pc_error *err);
void rd_stat_script_free(struct rd_stat_script *st);

#endif
