// SPDX-License-Identifier: GPL-2.0
#include "reader/cg_siblings.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cg_siblings_reserve(struct cg_siblings *s, uint32_t n)
{
	uint32_t cap = s->cap ? s->cap : 4096;

	if (n > s->cap) {
		while (cap < n)
			cap = cap > UINT32_MAX / 2 ? UINT32_MAX - 1 : 2 * cap;
		if (rb_index_grow_array((void **)&s->root, sizeof(*s->root), s->cap, cap) ||
		    rb_index_grow_array((void **)&s->kinds, sizeof(*s->kinds), s->cap, cap))
			return -ENOMEM;
		s->cap = cap;
	}
	/* the trees' links only once a tree is built */
	return s->any_built ? rb_index_reserve(&s->rb, s->cap) : 0;
}

/* The walk of perf's search; a match ends it unless placing (then it goes right). */
static uint32_t walk(const struct cg_siblings *s, uint32_t parent, uint32_t frame, uint64_t ip,
		     cg_match_fn match, const void *ctx, uint32_t *at, bool *left, bool placing)
{
	uint32_t cur = s->root[parent - 1];

	*at = 0;
	*left = false;
	while (cur) {
		int r = match(ctx, cur, frame, ip);

		if (!r && !placing)
			return cur;
		*at = cur;
		*left = r < 0;
		cur = *left ? rb_index_left(&s->rb, cur) : rb_index_right(&s->rb, cur);
	}
	return 0;
}

uint32_t cg_siblings_find(const struct cg_siblings *s, uint32_t parent, uint32_t frame,
			  uint64_t ip, cg_match_fn match, const void *ctx, uint32_t *at, bool *left)
{
	return walk(s, parent, frame, ip, match, ctx, at, left, false);
}

void cg_siblings_link(struct cg_siblings *s, uint32_t parent, uint32_t child, uint32_t at,
		      bool left)
{
	rb_index_link_in(&s->rb, &s->root[parent - 1], child, at, left);
}

uint32_t cg_siblings_in_order(const struct cg_siblings *s, uint32_t parent, uint32_t *out,
			      uint32_t max)
{
	uint32_t n = 0, cur = s->root[parent - 1], up;

	/* rb_index keeps each node's parent: no stack needed */
	if (!cur)
		return 0;
	while (rb_index_left(&s->rb, cur))
		cur = rb_index_left(&s->rb, cur);
	while (cur && n < max) {
		out[n++] = cur;
		if (rb_index_right(&s->rb, cur)) {
			cur = rb_index_right(&s->rb, cur);
			while (rb_index_left(&s->rb, cur))
				cur = rb_index_left(&s->rb, cur);
			continue;
		}
		for (up = rb_index_parent(&s->rb, cur); up && rb_index_right(&s->rb, up) == cur;
		     up = rb_index_parent(&s->rb, up))
			cur = up;
		cur = up;
	}
	return n;
}

int cg_siblings_build(struct cg_siblings *s, uint32_t parent, const struct cg_sibling *children,
		      uint32_t nr, cg_match_fn match, const void *ctx)
{
	if (!s->any_built) {
		s->any_built = true;
		if (rb_index_reserve(&s->rb, s->cap))
			return -ENOMEM;
	}
	/* of one kind so far: no child matches another, each walk ends at a leaf */
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t at;
		bool left;

		walk(s, parent, children[i].frame, children[i].ip, match, ctx, &at, &left, true);
		cg_siblings_link(s, parent, children[i].node, at, left);
	}
	return 0;
}

void cg_siblings_free(struct cg_siblings *s)
{
	rb_index_free(&s->rb);
	free(s->root);
	free(s->kinds);
	memset(s, 0, sizeof(*s));
}
