/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time-order stage.  Timed records are queued by (time, arrival) and
 * released as perf releases them: at each FINISHED_ROUND, up to the newest
 * time of the round before; at the end, all.  Untimed records go straight
 * through.  The queue is bounded (max_pending): beyond it the oldest goes.
 * pass_through: nothing is queued.
 */
#ifndef PERFCHECK_READER_ORDER_H
#define PERFCHECK_READER_ORDER_H

#include "reader/ring.h"
#include "reader/stage.h"

#define RD_ORDER_RUNS 16
#define RD_ORDER_MAX (1u << 18)	/* about 12 MB of entries */

/* A queued record: what an unparsed item carries (see rd_order_deliver). */
struct rd_qent {
	uint64_t time;
	uint64_t seq;
	const void *data;
	uint64_t offset;
	const struct pd_evsel *evsel;
	uint16_t type;
	bool owned;
};

struct rd_order {
	/* records mostly come in sorted runs (one cpu's ring after another) */
	struct rd_ring runs[RD_ORDER_RUNS];
	size_t runs_used;	/* runs[0..runs_used) have been used */
	size_t last_run;	/* the run of the last record queued */
	struct rd_qent *heap;	/* what fits no run */
	size_t heap_nr, heap_cap;
	size_t pending;		/* in runs and heap together */
	size_t max_pending;
	uint64_t round_flush;	/* flush up to here at the next FINISHED_ROUND */
	uint64_t max_time;
	uint64_t last_out;
	uint64_t unordered;	/* released before a record already out */
	/*
	 * perf's ordered_events off (script --show-round-events): every record
	 * out as it comes, FINISHED_ROUND among them
	 */
	bool pass_through;
	struct rd_sink out;
};

void rd_order_init(struct rd_order *o, struct rd_sink out);
/*
 * The stage's deliver function (ctx: the rd_order).  Items come unparsed,
 * from the input stage (p NULL, nothing merged or unwound): a queued one
 * keeps its record, time, event and arrival order only.
 */
int rd_order_deliver(void *ctx, struct rd_item *it, struct pc_error *err);
/* Releases every record with a time <= limit, in order. */
int rd_order_flush(struct rd_order *o, uint64_t limit, struct pc_error *err);
void rd_order_free(struct rd_order *o);

#endif
