/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A red-black tree of indices with the classic insertion (the kernel's
 * rbtree): the same insertions give the same shape, so perf's trees of
 * rows can be replayed node for node.  Nodes are 1-based indices into the
 * caller's array; 0 is none.
 */
#ifndef PERFCHECK_READER_RB_INDEX_H
#define PERFCHECK_READER_RB_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rb_index {
	uint32_t *left, *right, *parent;	/* by node - 1 */
	uint8_t *red;
	uint32_t root, nr, cap;
};

/*
 * An array by node (size bytes each) from old to cap elements, the new ones
 * zeroed: the trees' own, and what a caller keeps beside them; 0 or -ENOMEM.
 */
int rb_index_grow_array(void **p, size_t size, uint32_t old, uint32_t cap);
/* Room for n nodes in all; 0 or -ENOMEM (-E2BIG past UINT32_MAX - 1). */
int rb_index_reserve(struct rb_index *t, uint64_t n);
/*
 * Adds node nr + 1 (room reserved) as parent's left or right child (the
 * root when parent is 0) and rebalances; returns the node.
 */
uint32_t rb_index_link(struct rb_index *t, uint32_t parent, bool left);
/*
 * A forest in one set of arrays, each tree with its root kept by the
 * caller: adds node (room reserved, in no tree) as parent's left or right
 * child (the root when parent is 0) of the tree rooted at *root.
 */
void rb_index_link_in(struct rb_index *t, uint32_t *root, uint32_t node, uint32_t parent,
		      bool left);
static inline uint32_t rb_index_left(const struct rb_index *t, uint32_t node)
{
	return t->left[node - 1];
}
static inline uint32_t rb_index_right(const struct rb_index *t, uint32_t node)
{
	return t->right[node - 1];
}
static inline uint32_t rb_index_parent(const struct rb_index *t, uint32_t node)
{
	return t->parent[node - 1];
}
/* The in-order walk: writes the nodes to out[0..nr); 0 or -ENOMEM. */
int rb_index_walk(const struct rb_index *t, uint32_t *out);
void rb_index_free(struct rb_index *t);

#endif
