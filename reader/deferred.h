/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The deferred-callchain stage, between time ordering and the machine.
 * A sample whose chain ends in PERF_CONTEXT_USER_DEFERRED + cookie is held
 * until its thread's next CALLCHAIN_DEFERRED record: the same cookie
 * merges, another releases it unmerged; either way it goes out there, at
 * the record's place.  Everything else passes at once, as perf 7.2
 * delivers it: a held sample comes out after the records that followed it,
 * and one whose record never comes (taken in exit_group) comes out at the
 * end, unanswered.  Held samples are capped in all.  With merge off,
 * everything passes through.
 */
#ifndef PERFCHECK_READER_DEFERRED_H
#define PERFCHECK_READER_DEFERRED_H

#include "reader/stage.h"

#define RD_HELD_MAX	(1u << 16)

struct rd_defer_stats {
	uint64_t deferred_records, merged, merged_late, unmerged, forced;
};

struct rd_defer_node;
struct rd_defer_thread;

struct rd_defer {
	bool merge;		/* hold deferred samples and merge */
	bool merge_late;	/* also merge samples taken after their record */
	size_t max_held;	/* held samples before the oldest is forced out */
	size_t nr_held;
	struct rd_defer_node *oldest, *newest;	/* every held sample, in arrival order */
	struct rd_defer_thread **threads;	/* by tid */
	size_t nr_buckets;
	struct rd_defer_stats stats;
	struct rd_sink out;
};

void rd_defer_init(struct rd_defer *d, bool merge, bool merge_late, struct rd_sink out);
int rd_defer_deliver(void *ctx, struct rd_item *it, struct pc_error *err);
/* End of input: whatever still waits goes out unanswered, oldest first. */
int rd_defer_finish(struct rd_defer *d, struct pc_error *err);
void rd_defer_free(struct rd_defer *d);

#endif
