/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The children of the call-graph trees' nodes by frame, for the descent
 * that adds a chain: one probe of a table keyed by (parent, frame) where a
 * walk of the parent's sibling list took six steps on a million-sample
 * file, each a cache miss.
 */
#ifndef PERFCHECK_READER_CG_CHILDREN_H
#define PERFCHECK_READER_CG_CHILDREN_H

#include <stdint.h>

/* node indices + 1, as the trees' links; child 0: an empty slot */
struct cg_child_slot {
	uint32_t parent, frame, child;
};

struct cg_children {
	struct cg_child_slot *slots;
	uint32_t nr, mask;	/* children; slots - 1 */
};

/* The child of parent with frame; 0 when there is none. */
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
		if (s->parent == parent && s->frame == frame)
			return s->child;
	}
}

/* Adds child of parent with frame (not there yet); 0 or -ENOMEM. */
int cg_children_add(struct cg_children *c, uint32_t parent, uint32_t frame, uint32_t child);
void cg_children_free(struct cg_children *c);

#endif
