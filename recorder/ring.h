/* SPDX-License-Identifier: GPL-2.0 */
/* One kernel ring buffer and its drain. */
#ifndef PERFCHECK_RECORDER_RING_H
#define PERFCHECK_RECORDER_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/error.h"

struct rec_ring {
	int fd;				/* the event whose buffer this is */
	int cpu;
	void *base;			/* control page, then data */
	uint8_t *data;
	uint64_t size;			/* data bytes, a power of two */
	uint64_t mask;
	size_t map_len;
	bool overwrite;			/* write_backward, mapped read-only */
};

/*
 * Hands the unread part of a ring to sink as spans of whole records (at
 * most three: before the wrap, the record straddling it copied into
 * bounce, after the wrap), then releases it to the kernel.  Returns bytes
 * consumed, or the sink's negative error.
 */
typedef int (*rec_sink_fn)(void *ctx, const void *buf, size_t len);
ssize_t rec_ring_drain(struct rec_ring *ring, uint8_t *bounce, rec_sink_fn sink,
		       void *ctx, struct pc_error *err);
/* overwrite: mapped read-only, so that the kernel overwrites the oldest
 * records of its write_backward buffer (--overwrite) */
int rec_ring_map(struct rec_ring *ring, int fd, int cpu, unsigned int pages, bool overwrite,
		 struct pc_error *err);
/* Bytes the kernel wrote that are not drained yet (--mmap-flush). */
uint64_t rec_ring_pending(const struct rec_ring *ring);
/*
 * --overwrite: pauses the write_backward ring and hands its whole records,
 * newest first as the kernel left them, to sink one by one.  Returns bytes
 * handed, or the sink's negative error.
 */
ssize_t rec_ring_read_backward(struct rec_ring *ring, uint8_t *bounce, rec_sink_fn sink,
			       void *ctx, struct pc_error *err);
void rec_ring_unmap(struct rec_ring *ring);

#endif
