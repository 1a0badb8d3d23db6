// SPDX-License-Identifier: GPL-2.0
/* A red-black tree of indices: rotations and the insertion's rebalancing. */
#include "reader/rb_index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define L(i) t->left[(i) - 1]
#define R(i) t->right[(i) - 1]
#define P(i) t->parent[(i) - 1]
#define RED(i) ((i) && t->red[(i) - 1])

int rb_index_grow_array(void **p, size_t size, uint32_t old, uint32_t cap)
{
	void *n = realloc(*p, (size_t)cap * size);

	if (!n)
		return -ENOMEM;
	memset((char *)n + (size_t)old * size, 0, (size_t)(cap - old) * size);
	*p = n;
	return 0;
}

int rb_index_reserve(struct rb_index *t, uint64_t n)
{
	uint64_t cap = t->cap ? t->cap : 64;

	if (n <= t->cap)
		return 0;
	if (n > UINT32_MAX - 1)
		return -E2BIG;
	while (cap < n)
		cap *= 2;
	if (cap > UINT32_MAX - 1)
		cap = UINT32_MAX - 1;
	if (rb_index_grow_array((void **)&t->left, sizeof(uint32_t), t->cap, (uint32_t)cap) ||
	    rb_index_grow_array((void **)&t->right, sizeof(uint32_t), t->cap, (uint32_t)cap) ||
	    rb_index_grow_array((void **)&t->parent, sizeof(uint32_t), t->cap, (uint32_t)cap) ||
	    rb_index_grow_array((void **)&t->red, 1, t->cap, (uint32_t)cap))
		return -ENOMEM;
	t->cap = (uint32_t)cap;
	return 0;
}

static void rotate_left(struct rb_index *t, uint32_t *root, uint32_t x)
{
	uint32_t y = R(x);

	R(x) = L(y);
	if (L(y))
		P(L(y)) = x;
	P(y) = P(x);
	if (!P(x))
		*root = y;
	else if (x == L(P(x)))
		L(P(x)) = y;
	else
		R(P(x)) = y;
	L(y) = x;
	P(x) = y;
}

static void rotate_right(struct rb_index *t, uint32_t *root, uint32_t x)
{
	uint32_t y = L(x);

	L(x) = R(y);
	if (R(y))
		P(R(y)) = x;
	P(y) = P(x);
	if (!P(x))
		*root = y;
	else if (x == R(P(x)))
		R(P(x)) = y;
	else
		L(P(x)) = y;
	R(y) = x;
	P(x) = y;
}

static void insert_fixup(struct rb_index *t, uint32_t *root, uint32_t z)
{
	while (RED(P(z))) {
		uint32_t p = P(z), g = P(p), u;

		if (p == L(g)) {
			u = R(g);
			if (RED(u)) {
				t->red[p - 1] = 0;
				t->red[u - 1] = 0;
				t->red[g - 1] = 1;
				z = g;
				continue;
			}
			if (z == R(p)) {
				z = p;
				rotate_left(t, root, z);
				p = P(z);
			}
			t->red[p - 1] = 0;
			t->red[g - 1] = 1;
			rotate_right(t, root, g);
		} else {
			u = L(g);
			if (RED(u)) {
				t->red[p - 1] = 0;
				t->red[u - 1] = 0;
				t->red[g - 1] = 1;
				z = g;
				continue;
			}
			if (z == L(p)) {
				z = p;
				rotate_right(t, root, z);
				p = P(z);
			}
			t->red[p - 1] = 0;
			t->red[g - 1] = 1;
			rotate_left(t, root, g);
		}
	}
	t->red[*root - 1] = 0;
}

void rb_index_link_in(struct rb_index *t, uint32_t *root, uint32_t node, uint32_t parent,
		      bool left)
{
	L(node) = R(node) = 0;
	P(node) = parent;
	t->red[node - 1] = 1;
	if (!parent)
		*root = node;
	else if (left)
		L(parent) = node;
	else
		R(parent) = node;
	insert_fixup(t, root, node);
}

uint32_t rb_index_link(struct rb_index *t, uint32_t parent, bool left)
{
	uint32_t i = ++t->nr;

	rb_index_link_in(t, &t->root, i, parent, left);
	return i;
}

int rb_index_walk(const struct rb_index *t, uint32_t *out)
{
	uint32_t *stack = malloc((t->nr ? t->nr : 1) * sizeof(*stack));
	uint32_t cur = t->root, sp = 0, k = 0;

	if (!stack)
		return -ENOMEM;
	while (cur || sp) {
		while (cur) {
			stack[sp++] = cur;
			cur = L(cur);
		}
		cur = stack[--sp];
		out[k++] = cur;
		cur = R(cur);
	}
	free(stack);
	return 0;
}

void rb_index_free(struct rb_index *t)
{
	free(t->left);
	free(t->right);
	free(t->parent);
	free(t->red);
	memset(t, 0, sizeof(*t));
}
