// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot ring (-M SIZE): a byte ring of whole records.  A record is
 * never split across the end of the buffer: when it does not fit there,
 * the data so far ends at wrap_end and writing restarts at 0, dropping
 * the oldest whole records until there is room.  So the content is at
 * most two spans, [head, wrap_end) then [0, tail), each of whole records,
 * and a dump is two writes.
 */
#include <stdlib.h>
#include <string.h>

#include <stdbool.h>

#include "recorder/snapshot.h"
#include "uapi/perf_compat.h"

struct rec_snapshot {
	uint8_t *buf;
	size_t size;
	size_t head, tail, wrap_end;
	bool wrapped;
	uint64_t nr;			/* records held */
	uint64_t dropped;		/* overwritten before any dump */
};

struct rec_snapshot *rec_snapshot_new(size_t size)
{
	struct rec_snapshot *s;

	if (size < REC_SNAPSHOT_MIN)
		size = REC_SNAPSHOT_MIN;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->buf = malloc(size);
	if (!s->buf) {
		free(s);
		return NULL;
	}
	s->size = size;
	return s;
}

void rec_snapshot_free(struct rec_snapshot *s)
{
	if (!s)
		return;
	free(s->buf);
	free(s);
}

static void drop_oldest(struct rec_snapshot *s)
{
	const struct perf_event_header *h = (const void *)(s->buf + s->head);

	s->head += h->size;
	s->nr--;
	s->dropped++;
	if (s->wrapped && s->head >= s->wrap_end) {
		/* the old span is gone: what is left is [0, tail) */
		s->head = 0;
		s->wrapped = false;
	} else if (!s->wrapped && s->head == s->tail) {
		s->head = s->tail = 0;
	}
}

void rec_snapshot_put(struct rec_snapshot *s, const void *rec, size_t len)
{
	if (len > s->size || !len)
		return;		/* cannot happen: size >= any u16 record */
	for (;;) {
		if (!s->wrapped) {
			if (s->tail + len <= s->size)
				break;
			if (s->head == s->tail) {
				s->head = s->tail = 0;
				continue;
			}
			s->wrap_end = s->tail;
			s->tail = 0;
			s->wrapped = true;
		}
		/* wrapped: the free space is [tail, head) */
		if (s->head - s->tail >= len)
			break;
		drop_oldest(s);
	}
	memcpy(s->buf + s->tail, rec, len);
	s->tail += len;
	s->nr++;
}

int rec_snapshot_dump(struct rec_snapshot *s, rec_sink_fn sink, void *ctx)
{
	int ret = 0;

	if (s->wrapped) {
		ret = sink(ctx, s->buf + s->head, s->wrap_end - s->head);
		if (!ret && s->tail)
			ret = sink(ctx, s->buf, s->tail);
	} else if (s->tail > s->head) {
		ret = sink(ctx, s->buf + s->head, s->tail - s->head);
	}
	s->head = s->tail = s->wrap_end = 0;
	s->wrapped = false;
	s->nr = 0;
	return ret;
}

uint64_t rec_snapshot_records(const struct rec_snapshot *s)
{
	return s->nr;
}

uint64_t rec_snapshot_dropped(const struct rec_snapshot *s)
{
	return s->dropped;
}
