// SPDX-License-Identifier: GPL-2.0
/*
 * Red-black insertion and deletion over an array of nodes (see rbshape.h):
 * the textbook algorithms, in the kernel rbtree's choice of cases (the
 * in-order successor replaces a node with two children).
 */
#include "symbols/rbshape.h"

#define N(i) (t->n[(i)])

static bool is_red(const struct pc_rbtree *t, int32_t i)
{
	return i >= 0 && N(i).red;
}

/* parent's link to old (or the root) now points at new */
static void relink(struct pc_rbtree *t, int32_t parent, int32_t old, int32_t new)
{
	if (parent < 0)
		t->root = new;
	else if (N(parent).left == old)
		N(parent).left = new;
	else
		N(parent).right = new;
	if (new >= 0)
		N(new).parent = parent;
}

static void rotate_left(struct pc_rbtree *t, int32_t x)
{
	int32_t y = N(x).right;

	N(x).right = N(y).left;
	if (N(y).left >= 0)
		N(N(y).left).parent = x;
	relink(t, N(x).parent, x, y);
	N(y).left = x;
	N(x).parent = y;
}

static void rotate_right(struct pc_rbtree *t, int32_t x)
{
	int32_t y = N(x).left;

	N(x).left = N(y).right;
	if (N(y).right >= 0)
		N(N(y).right).parent = x;
	relink(t, N(x).parent, x, y);
	N(y).right = x;
	N(x).parent = y;
}

void pc_rb_insert(struct pc_rbtree *t, const uint64_t *start, int32_t i)
{
	int32_t parent = -1, cur = t->root;
	bool left = false;

	while (cur >= 0) {
		parent = cur;
		left = start[i] < start[cur];
		cur = left ? N(cur).left : N(cur).right;
	}
	N(i) = (struct pc_rbnode){ -1, -1, parent, true };
	if (parent < 0)
		t->root = i;
	else if (left)
		N(parent).left = i;
	else
		N(parent).right = i;
	/* balance: a red node under a red parent moves the conflict up or rotates it away */
	while (is_red(t, N(i).parent)) {
		int32_t p = N(i).parent, g = N(p).parent;

		if (p == N(g).left) {
			int32_t u = N(g).right;

			if (is_red(t, u)) {
				N(p).red = N(u).red = false;
				N(g).red = true;
				i = g;
				continue;
			}
			if (i == N(p).right) {
				rotate_left(t, p);
				i = p;
				p = N(i).parent;
			}
			N(p).red = false;
			N(g).red = true;
			rotate_right(t, g);
		} else {
			int32_t u = N(g).left;

			if (is_red(t, u)) {
				N(p).red = N(u).red = false;
				N(g).red = true;
				i = g;
				continue;
			}
			if (i == N(p).left) {
				rotate_right(t, p);
				i = p;
				p = N(i).parent;
			}
			N(p).red = false;
			N(g).red = true;
			rotate_left(t, g);
		}
	}
	N(t->root).red = false;
}

/* After a black node left from under parent (its place now holds node, maybe none). */
static void erase_fix(struct pc_rbtree *t, int32_t node, int32_t parent)
{
	while (parent >= 0 && !is_red(t, node)) {
		if (node == N(parent).left) {
			int32_t s = N(parent).right;

			if (is_red(t, s)) {
				N(s).red = false;
				N(parent).red = true;
				rotate_left(t, parent);
				s = N(parent).right;
			}
			if (!is_red(t, N(s).left) && !is_red(t, N(s).right)) {
				N(s).red = true;
				node = parent;
				parent = N(node).parent;
				continue;
			}
			if (!is_red(t, N(s).right)) {
				N(N(s).left).red = false;
				N(s).red = true;
				rotate_right(t, s);
				s = N(parent).right;
			}
			N(s).red = N(parent).red;
			N(parent).red = false;
			N(N(s).right).red = false;
			rotate_left(t, parent);
			node = t->root;
			break;
		} else {
			int32_t s = N(parent).left;

			if (is_red(t, s)) {
				N(s).red = false;
				N(parent).red = true;
				rotate_right(t, parent);
				s = N(parent).left;
			}
			if (!is_red(t, N(s).left) && !is_red(t, N(s).right)) {
				N(s).red = true;
				node = parent;
				parent = N(node).parent;
				continue;
			}
			if (!is_red(t, N(s).left)) {
				N(N(s).right).red = false;
				N(s).red = true;
				rotate_left(t, s);
				s = N(parent).left;
			}
			N(s).red = N(parent).red;
			N(parent).red = false;
			N(N(s).left).red = false;
			rotate_right(t, parent);
			node = t->root;
			break;
		}
	}
	if (node >= 0)
		N(node).red = false;
}

void pc_rb_erase(struct pc_rbtree *t, int32_t i)
{
	int32_t child, parent;
	bool black_gone;

	if (N(i).left < 0 || N(i).right < 0) {
		child = N(i).left >= 0 ? N(i).left : N(i).right;
		parent = N(i).parent;
		black_gone = !N(i).red;
		relink(t, parent, i, child);
	} else {
		/* the successor (leftmost of the right subtree) takes i's place and color */
		int32_t s = N(i).right;

		while (N(s).left >= 0)
			s = N(s).left;
		child = N(s).right;
		black_gone = !N(s).red;
		if (N(s).parent == i) {
			parent = s;
		} else {
			parent = N(s).parent;
			N(parent).left = child;
			if (child >= 0)
				N(child).parent = parent;
			N(s).right = N(i).right;
			N(N(i).right).parent = s;
		}
		N(s).left = N(i).left;
		N(N(i).left).parent = s;
		relink(t, N(i).parent, i, s);
		N(s).red = N(i).red;
	}
	N(i) = (struct pc_rbnode){ -1, -1, -1, false };
	if (black_gone)
		erase_fix(t, child, parent);
}
