/* SPDX-License-Identifier: GPL-2.0 */
/* -M: a user-space ring of whole sample records. */
#ifndef PERFCHECK_RECORDER_SNAPSHOT_H
#define PERFCHECK_RECORDER_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "recorder/ring.h"

struct rec_snapshot;

struct rec_snapshot *rec_snapshot_new(size_t size);
void rec_snapshot_free(struct rec_snapshot *s);
/* Stores a whole record, dropping the oldest whole records to make room. */
void rec_snapshot_put(struct rec_snapshot *s, const void *rec, size_t len);
/* Hands the ring's records to sink, oldest first, in at most two spans of
 * whole records, and empties it. */
int rec_snapshot_dump(struct rec_snapshot *s, rec_sink_fn sink, void *ctx);
uint64_t rec_snapshot_records(const struct rec_snapshot *s);
uint64_t rec_snapshot_dropped(const struct rec_snapshot *s);
#define REC_SNAPSHOT_MIN 65536	/* one maximal record: header.size is a u16 */

#endif
