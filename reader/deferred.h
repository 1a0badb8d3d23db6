/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The deferred-callchain stage, between time ordering and the machine.
 * A sample whose chain ends in PERF_CONTEXT_USER_DEFERRED + cookie is held
 * (and everything after it, to keep time order) until its thread's next
 * CALLCHAIN_DEFERRED record: the same cookie merges, another releases it
 * unmerged.  Held samples are capped per thread and in all.  With merge
 * off, everything passes through.
 */
#ifndef PERFCHECK_READER_DEFERRED_H
#define PERFCHECK_READER_DEFERRED_H

#include "reader/ring.h"
#include "reader/stage.h"

#define RD_WAIT_PER_THREAD	4096
#define RD_RING_MAX		(1u << 16)

struct rd_defer_stats {
	uint64_t deferred_records, merged, merged_late, unmerged, forced;
};

struct rd_defer_thread;

struct rd_defer {
	bool merge;		/* hold deferred samples and merge */
	bool merge_late;	/* also merge samples taken after their record */
	size_t max_held;	/* items in the ring before the oldest is forced out */
	uint32_t max_per_thread;
	struct rd_ring ring;	/* held items in release order */
	uint64_t head_seq;	/* ring sequence number of the head */
	struct rd_defer_thread **threads;	/* by tid */
	size_t nr_buckets;
	struct rd_defer_stats stats;
	struct rd_sink out;
};

void rd_defer_init(struct rd_defer *d, bool merge, bool merge_late, struct rd_sink out);
int rd_defer_deliver(void *ctx, struct rd_item *it, struct pc_error *err);
/* End of input: whatever still waits goes out unmerged. */
int rd_defer_finish(struct rd_defer *d, struct pc_error *err);
void rd_defer_free(struct rd_defer *d);

#endif
