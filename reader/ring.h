/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A growing ring of fixed-size elements, oldest first: push at the tail,
 * take from the head, index from the head.  Capacity is a power of two and
 * doubles when full (the elements are copied in order into the new
 * storage), so a pointer into the ring is valid only until the next push.
 * Used by the time-order stage (its sorted runs).
 */
#ifndef PERFCHECK_READER_RING_H
#define PERFCHECK_READER_RING_H

#include <stddef.h>
#include <string.h>

struct rd_ring {
	unsigned char *v;
	size_t esize;		/* bytes per element */
	size_t head, nr, cap;	/* cap is 0 or a power of two */
	size_t min_cap;		/* first allocation */
};

static inline void rd_ring_init(struct rd_ring *q, size_t esize, size_t min_cap)
{
	memset(q, 0, sizeof(*q));
	q->esize = esize;
	q->min_cap = min_cap;
}

/* The i-th element from the head (i < nr). */
static inline void *rd_ring_at(const struct rd_ring *q, size_t i)
{
	return q->v + ((q->head + i) & (q->cap - 1)) * q->esize;
}

static inline void *rd_ring_head(const struct rd_ring *q)
{
	return q->nr ? rd_ring_at(q, 0) : NULL;
}

static inline void *rd_ring_tail(const struct rd_ring *q)
{
	return q->nr ? rd_ring_at(q, q->nr - 1) : NULL;
}

int rd_ring_grow(struct rd_ring *q);

/* Appends a copy of e; -ENOMEM when the ring cannot grow. */
static inline int rd_ring_push(struct rd_ring *q, const void *e)
{
	if (q->nr == q->cap && rd_ring_grow(q))
		return -12;	/* ENOMEM */
	memcpy(rd_ring_at(q, q->nr), e, q->esize);
	q->nr++;
	return 0;
}

/* Removes the head, copying it to out when out is not NULL (nr > 0). */
static inline void rd_ring_pop(struct rd_ring *q, void *out)
{
	if (out)
		memcpy(out, rd_ring_at(q, 0), q->esize);
	q->head = (q->head + 1) & (q->cap - 1);
	q->nr--;
}

void rd_ring_free(struct rd_ring *q);

#endif
