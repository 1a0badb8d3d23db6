// SPDX-License-Identifier: GPL-2.0
/*
 * Each copy is preceded by 8 bytes saying where it came from: a chunk
 * (found again by aligning the address down) or, when too many chunks are
 * held by copies still alive, malloc.  A chunk fits the largest record
 * (header.size is a u16).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "reader/copies.h"

#define CHUNK		(128u * 1024)
#define CHUNKS_MAX	512	/* 64 MiB in chunks; beyond, copies come from malloc */
#define CHUNKS_KEPT	8	/* empty chunks kept for reuse */

enum { FROM_CHUNK = 1, FROM_MALLOC = 2 };

struct chunk {
	size_t used;		/* bytes cut, this header included */
	size_t live;		/* copies not returned */
	struct chunk *next;	/* in the list of empty chunks */
};

static struct chunk *cur, *empty;
static size_t nr_chunks, nr_empty;

#if defined(__SANITIZE_ADDRESS__)
static const bool use_chunks = false;	/* under ASan every copy is its own block */
#else
static const bool use_chunks = true;
#endif

static size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static void chunk_put(struct chunk *c)
{
	if (nr_empty < CHUNKS_KEPT) {
		c->next = empty;
		empty = c;
		nr_empty++;
		return;
	}
	free(c);
	nr_chunks--;
}

static struct chunk *chunk_get(void)
{
	struct chunk *c = empty;

	if (c) {
		empty = c->next;
		nr_empty--;
	} else {
		if (nr_chunks >= CHUNKS_MAX)
			return NULL;
		c = aligned_alloc(CHUNK, CHUNK);
		if (!c)
			return NULL;
		nr_chunks++;
	}
	c->used = round8(sizeof(*c));
	c->live = 0;
	return c;
}

static void *from_malloc(size_t size)
{
	uint64_t *p = malloc(8 + size);

	if (!p)
		return NULL;
	p[0] = FROM_MALLOC;
	return p + 1;
}

void *rd_copy_alloc(size_t size)
{
	size_t need = 8 + round8(size);
	uint64_t *p;

	if (!use_chunks || need > CHUNK - round8(sizeof(struct chunk)))
		return from_malloc(size);
	if (!cur || cur->used + need > CHUNK) {
		struct chunk *c = chunk_get();

		if (!c)
			return from_malloc(size);
		if (cur && !cur->live)
			chunk_put(cur);
		cur = c;
	}
	p = (uint64_t *)((char *)cur + cur->used);
	cur->used += need;
	cur->live++;
	p[0] = FROM_CHUNK;
	return p + 1;
}

void rd_copy_free(void *ptr)
{
	uint64_t *p;
	struct chunk *c;

	if (!ptr)
		return;
	p = (uint64_t *)ptr - 1;
	if (p[0] == FROM_MALLOC) {
		free(p);
		return;
	}
	c = (struct chunk *)((uintptr_t)p & ~(uintptr_t)(CHUNK - 1));
	if (--c->live || c == cur)
		return;
	chunk_put(c);
}
