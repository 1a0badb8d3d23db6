/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The children of the call-graph trees' nodes by frame, for the descent
 * that adds a chain: one probe of a table keyed by (parent, frame) where a
 * walk of the parent's sibling list took six steps on a million-sample
 * file, each a cache miss.
 *
 * Each child also carries the stamp of its last use.  The order of a
 * node's children is most recently used first (a tie-breaker of the
 * printed order), and a list kept in that order had to be walked to move
 * a child to its front; the stamps say that order without moving
 * anything, and the tree puts its lists in it when they are read
 * (callgraph.c).
 */
#ifndef PERFCHECK_READER_CG_CHILDREN_H
#define PERFCHECK_READER_CG_CHILDREN_H

#include <stdint.h>

/* node indices + 1, as the trees' links; child 0: an empty slot */
struct cg_child_slot {
	uint32_t parent, frame, child;
	uint32_t used;		/* the clock when last found or added */
};

struct cg_children {
	struct cg_child_slot *slots;
	uint32_t nr, mask;	/* children; slots - 1 */
	uint32_t clock;		/* the last stamp given */
};

/*
 * A stamp limit below 2^32 by more than any chain's frames: past it the
 * tree orders its lists by the stamps and calls cg_children_restamp.
 */
#define CG_CHILDREN_CLOCK_LIMIT (UINT32_MAX - (1u << 20))

/* The child of parent with frame, stamped as used now; 0 when there is none. */
static inline uint32_t cg_children_find(struct cg_children *c, uint32_t parent, uint32_t frame)
{
	uint64_t h = (((uint64_t)parent << 32) | frame) * 0x9E3779B97F4A7C15ULL;
	struct cg_child_slot *s;

	if (!c->slots)
		return 0;
	for (uint32_t i = (uint32_t)(h >> 32) & c->mask;; i = (i + 1) & c->mask) {
		s = &c->slots[i];
		if (!s->child)
			return 0;
		if (s->parent == parent && s->frame == frame) {
			s->used = ++c->clock;
			return s->child;
		}
	}
}

/* Adds child of parent with frame (not there yet), stamped as used now; 0 or -ENOMEM. */
int cg_children_add(struct cg_children *c, uint32_t parent, uint32_t frame, uint32_t child);
/*
 * The stamp of every child: used[child - 1] for child indices below
 * nr_nodes + 1 (others are left as they are).
 */
void cg_children_stamps(const struct cg_children *c, uint32_t *used, uint32_t nr_nodes);
/* Every stamp back to 0 and the clock too: once the tree's lists hold the order. */
void cg_children_restamp(struct cg_children *c);
void cg_children_free(struct cg_children *c);

#endif
