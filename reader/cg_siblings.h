/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf's search among a call-graph node's children.  perf keeps a node's
 * children in a red-black tree ordered by match_chain: two resolved frames
 * by object and symbol start, an inlined one (perf 7.2) by function name,
 * any pair with an unresolved frame by object and address (the existing
 * child's first address).  Where frames of one kind meet that is an order
 * and the exact-match table (cg_children.h) finds what perf's search finds.
 * Where kinds meet it is not transitive: a search can pass by the equal
 * child, and perf then adds another child with the same frame (a twin
 * branch, printed apart).  So from the first child of a second kind a
 * node's children get perf's tree (built from them in the order they came)
 * and are searched as perf searches them.
 */
#ifndef PERFCHECK_READER_CG_SIBLINGS_H
#define PERFCHECK_READER_CG_SIBLINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/rb_index.h"

/* a frame's kind, as match_chain compares it */
enum { CG_KIND_RESOLVED = 1, CG_KIND_INLINED = 2, CG_KIND_ADDRESS = 4, CG_KINDS = 7,
       CG_TREE_SEARCHED = 8 };

/* By node - 1 (nodes are 1-based, as the call graph's); root 0: not built. */
struct cg_siblings {
	struct rb_index rb;	/* each node's place among its siblings */
	uint32_t *root;		/* the root of each node's children's tree */
	uint8_t *kinds;		/* CG_KIND_* of each node's children; CG_TREE_SEARCHED */
	uint32_t cap;
	bool any_built;		/* the trees' links are kept */
};

/*
 * match_chain(child's first entry, frame): < 0 when the child is before the
 * frame (perf goes left), > 0 after, 0 when they match.
 */
typedef int (*cg_match_fn)(const void *ctx, uint32_t child, uint32_t frame, uint64_t ip);

/* Room for nodes 1..n; 0 or -ENOMEM. */
int cg_siblings_reserve(struct cg_siblings *s, uint32_t n);

/* A child as perf's tree holds it: the node, its frame and its first address. */
struct cg_sibling {
	uint32_t node, frame;
	uint64_t ip;
};

/* Whether parent's children have perf's tree (searched as perf does). */
static inline bool cg_siblings_built(const struct cg_siblings *s, uint32_t parent)
{
	return s->root[parent - 1] != 0;
}

/* Whether a child of kind beside parent's children makes them of two kinds or more. */
static inline bool cg_siblings_mixes(const struct cg_siblings *s, uint32_t parent, int kind)
{
	unsigned k = (s->kinds[parent - 1] & CG_KINDS) | (unsigned)kind;

	return k & (k - 1);
}

/*
 * Builds parent's tree from its children[0..nr), in the order they were
 * made (as perf inserted them); 0 or -ENOMEM.
 */
int cg_siblings_build(struct cg_siblings *s, uint32_t parent, const struct cg_sibling *children,
		      uint32_t nr, cg_match_fn match, const void *ctx);

/* A child of this kind made under parent. */
static inline void cg_siblings_note(struct cg_siblings *s, uint32_t parent, int kind)
{
	s->kinds[parent - 1] |= (uint8_t)kind;
}

/* A tree (its root) with a node whose children perf searches: repeated chains are searched too. */
static inline bool cg_siblings_tree_searched(const struct cg_siblings *s, uint32_t root)
{
	return s->kinds[root - 1] & CG_TREE_SEARCHED;
}
static inline void cg_siblings_mark_tree(struct cg_siblings *s, uint32_t root)
{
	s->kinds[root - 1] |= CG_TREE_SEARCHED;
}

/*
 * perf's search of parent's tree for frame (at ip): the child it matches,
 * else 0 with where a new child goes (*at, *left) for cg_siblings_link.
 */
uint32_t cg_siblings_find(const struct cg_siblings *s, uint32_t parent, uint32_t frame,
			  uint64_t ip, cg_match_fn match, const void *ctx, uint32_t *at, bool *left);
/* Puts child (room reserved) into parent's tree where cg_siblings_find said. */
void cg_siblings_link(struct cg_siblings *s, uint32_t parent, uint32_t child, uint32_t at,
		      bool left);

/*
 * parent's children (its tree built) in perf's in-order walk, the order
 * its output takes branches of equal shares in: up to max into out; how
 * many were written
 */
uint32_t cg_siblings_in_order(const struct cg_siblings *s, uint32_t parent, uint32_t *out,
			      uint32_t max);

void cg_siblings_free(struct cg_siblings *s);

#endif
