// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "reader/ring.h"

int rd_ring_grow(struct rd_ring *q)
{
	size_t cap = q->cap ? q->cap * 2 : (q->min_cap ? q->min_cap : 16);
	unsigned char *v;
	size_t first;

	if (cap & (cap - 1) || cap > ((size_t)-1) / 2 / q->esize)
		return -ENOMEM;
	v = malloc(cap * q->esize);
	if (!v)
		return -ENOMEM;
	/* the elements in order: from head to the end of storage, then the wrap */
	first = q->cap - q->head < q->nr ? q->cap - q->head : q->nr;
	if (q->nr) {
		memcpy(v, q->v + q->head * q->esize, first * q->esize);
		memcpy(v + first * q->esize, q->v, (q->nr - first) * q->esize);
	}
	free(q->v);
	q->v = v;
	q->cap = cap;
	q->head = 0;
	return 0;
}

void rd_ring_free(struct rd_ring *q)
{
	free(q->v);
	q->v = NULL;
	q->head = q->nr = q->cap = 0;
}
