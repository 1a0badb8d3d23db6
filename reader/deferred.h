/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The deferred-callchain stage between time ordering and the consumer.
 * A sample whose chain ends in PERF_CONTEXT_USER_DEFERRED + cookie is held
 * (and everything after it, to keep time order) until its thread's next
 * CALLCHAIN_DEFERRED record: the same cookie merges, another releases it
 * unmerged.  Held samples are capped per thread and in all.
 */
#ifndef PERFCHECK_READER_DEFERRED_H
#define PERFCHECK_READER_DEFERRED_H

#include "reader/session.h"

#define RD_WAIT_PER_THREAD	4096
#define RD_RING_MAX		(1u << 16)

int rd_deferred_arrive(struct rd_session *s, struct rd_item *it, struct pc_error *err);
/* End of input: whatever still waits goes out unmerged. */
int rd_deferred_finish(struct rd_session *s, struct pc_error *err);
void rd_deferred_free(struct rd_session *s);

#endif
