/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shape of perf's symbol tree.  perf keeps a DSO's symbols in a
 * red-black tree keyed by start address (equal starts go right) and finds
 * an address by walking down from the root, taking the first symbol that
 * holds it.  Where symbols overlap (perf adds PLT entries after it has
 * stretched a zero-sized symbol over them; a JIT's map may repeat an
 * address) the answer depends on the tree's shape, so the shape is rebuilt
 * here: the classic red-black insertion and deletion (the kernel's rbtree)
 * give the same shape for the same operations.
 */
#ifndef PERFCHECK_SYMBOLS_RBSHAPE_H
#define PERFCHECK_SYMBOLS_RBSHAPE_H

#include <stdbool.h>
#include <stdint.h>

struct pc_rbnode {
	int32_t left, right, parent;	/* node indices, -1: none */
	bool red;
};

struct pc_rbtree {
	struct pc_rbnode *n;		/* caller's array, one per possible node */
	int32_t root;			/* -1: empty */
};

/* Links node i below its parent (i's key is start[i]: equal keys go right), then balances. */
void pc_rb_insert(struct pc_rbtree *t, const uint64_t *start, int32_t i);
/* Unlinks node i and balances, as the kernel's rb_erase. */
void pc_rb_erase(struct pc_rbtree *t, int32_t i);

#endif
