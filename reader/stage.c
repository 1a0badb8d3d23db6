// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "reader/copies.h"
#include "reader/stage.h"

/*
 * Blocks of RD_BLOCK bytes (a parse) come and go by
 * the million: the freed ones are kept for the next (last in, first out:
 * still in cache), up to RD_BLOCKS_KEPT, instead of going back to malloc.
 * One list per process: the reader's stages run in one thread.
 */
#define RD_BLOCK 384
#if defined(__SANITIZE_ADDRESS__)
#define RD_BLOCKS_KEPT 0	/* under ASan every block goes back: its checks see them */
#else
#define RD_BLOCKS_KEPT 65536
#endif

struct rd_free_block {
	struct rd_free_block *next;
};

static struct rd_free_block *free_blocks;
static size_t nr_free_blocks;
static const size_t blocks_kept = RD_BLOCKS_KEPT;

_Static_assert(sizeof(struct rd_parsed) <= RD_BLOCK, "a parse fits a block");

void *rd_block_alloc(size_t size)
{
	struct rd_free_block *b = free_blocks;

	if (size > RD_BLOCK || !b)
		return malloc(size > RD_BLOCK ? size : RD_BLOCK);
	free_blocks = b->next;
	nr_free_blocks--;
	return b;
}

void rd_block_free(void *p, size_t size)
{
	struct rd_free_block *b = p;

	if (!p)
		return;
	if (size > RD_BLOCK || nr_free_blocks >= blocks_kept) {
		free(p);
		return;
	}
	b->next = free_blocks;
	free_blocks = b;
	nr_free_blocks++;
}

void rd_item_release(struct rd_item *it)
{
	if (it->owned)
		rd_copy_free((void *)it->data);
	if (it->merge_owned)
		free((void *)it->merge_ips);
	free(it->unwound);
	it->unwound = NULL;
	it->unwound_nr = 0;
	it->fp_leaf = false;
	rd_block_free(it->p, sizeof(*it->p));
	it->p = NULL;
	it->owned = it->merge_owned = false;
}
