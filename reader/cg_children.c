// SPDX-License-Identifier: GPL-2.0
#include "reader/cg_children.h"

#include <errno.h>
#include <stdlib.h>

/* Linear probing: a probe's next slots share its cache line. */
static void put(struct cg_children *c, const struct cg_child_slot *n)
{
	uint64_t h = (((uint64_t)n->parent << 32) | n->frame) * 0x9E3779B97F4A7C15ULL;
	uint32_t i = (uint32_t)(h >> 32) & c->mask;

	while (c->slots[i].child)
		i = (i + 1) & c->mask;
	c->slots[i] = *n;
}

/* Three quarters full at most: probes stay short. */
static int grow(struct cg_children *c)
{
	uint32_t size = c->slots ? 2 * (c->mask + 1) : 4096;
	struct cg_child_slot *old = c->slots;
	uint32_t old_size = old ? c->mask + 1 : 0;

	if (!size)
		return -ENOMEM;
	c->slots = calloc(size, sizeof(*c->slots));
	if (!c->slots) {
		c->slots = old;
		return -ENOMEM;
	}
	c->mask = size - 1;
	for (uint32_t i = 0; i < old_size; i++)
		if (old[i].child)
			put(c, &old[i]);
	free(old);
	return 0;
}

int cg_children_add(struct cg_children *c, uint32_t parent, uint32_t frame, uint32_t child)
{
	struct cg_child_slot n = { .parent = parent, .frame = frame, .child = child };

	if ((!c->slots || (uint64_t)(c->nr + 1) * 4 > (uint64_t)(c->mask + 1) * 3) && grow(c))
		return -ENOMEM;
	put(c, &n);
	c->nr++;
	return 0;
}

void cg_children_free(struct cg_children *c)
{
	free(c->slots);
	c->slots = NULL;
	c->nr = c->mask = 0;
}
