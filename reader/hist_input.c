// SPDX-License-Identifier: GPL-2.0
/* perf's input tree, searched as hists__findnew_entry searches it (hist_input.h) */
#include "reader/hist_input.h"

#include <errno.h>
#include <stdlib.h>

/*
 * Whether row e can make the comparison non-transitive: an inlined entry's
 * (compared by name where others compare by address), an unresolved row
 * where a symbol key compares it by address before its object (no object
 * key ahead), or one whose address lies 2^63 or more from another
 * unresolved row's (the wrapped difference changes sign).
 */
static bool breaks_order(struct hist_input *in, const struct entry *e, const struct sk_list *keys)
{
	bool dso_first = false, sym_key = false;

	for (int i = 0; i < keys->nr && !sym_key; i++) {
		if (keys->keys[i] == SK_DSO)
			dso_first = true;
		sym_key = keys->keys[i] == SK_SYM || keys->keys[i] == SK_SYMOFF;
	}
	if (!sym_key)
		return false;
	if (e->at.sym)
		return e->at.sym->inlined;
	if (!dso_first)
		return true;
	if (!in->any_unresolved) {
		in->any_unresolved = true;
		in->lo = in->hi = e->at.ip;
	}
	if (e->at.ip < in->lo)
		in->lo = e->at.ip;
	if (e->at.ip > in->hi)
		in->hi = e->at.ip;
	return in->hi - in->lo >= (UINT64_C(1) << 63);
}

/* a search's answer: key (and the object a reference compares) found row at gen */
struct hist_search {
	const struct entry *key;
	const char *dso;
	size_t dso_len;
	uint64_t gen;
	uint32_t node;
};

#define HIST_SEARCH_BITS 14

static struct hist_search *search_slot(struct hist_input *in, const struct entry *key,
				       const struct entry *cmp)
{
	uint64_t h = ((uintptr_t)key ^ (uintptr_t)cmp->at.dso << 17) * 0x9E3779B97F4A7C15ULL;

	if (!in->found)
		in->found = calloc((size_t)1 << HIST_SEARCH_BITS, sizeof(*in->found));
	return in->found ? &in->found[h >> (64 - HIST_SEARCH_BITS)] : NULL;
}

static int insert(struct hist_input *in, struct entry *e, uint32_t parent, bool left)
{
	in->gen++;
	if (in->tree.nr == in->tree.cap) {
		struct entry **row;
		int ret = rb_index_reserve(&in->tree, (uint64_t)in->tree.nr + 1);

		if (ret)
			return ret;
		row = realloc(in->row, in->tree.cap * sizeof(*row));
		if (!row)
			return -ENOMEM;
		in->row = row;
	}
	in->row[rb_index_link(&in->tree, parent, left) - 1] = e;
	return 0;
}

static int add_twin(struct hist_input *in, struct entry *twin)
{
	if (in->nr_twins == in->twins_cap) {
		size_t cap = in->twins_cap ? 2 * in->twins_cap : 16;
		struct entry **v = realloc(in->twins, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		in->twins = v;
		in->twins_cap = cap;
	}
	in->twins[in->nr_twins++] = twin;
	return 0;
}

/*
 * The search found row: what ops->found keeps in its place (a renamed
 * copy changes the tree: no answer given before holds)
 */
static struct entry *found(struct hist_input *in, uint32_t node, const struct hist_ref_ops *ops)
{
	struct entry *row = in->row[node - 1], *kept = ops->found(ops->ctx, row);

	if (kept && kept != row) {
		if (add_twin(in, kept))
			return NULL;
		in->row[node - 1] = kept;
		in->renamed = true;
		in->gen++;
	}
	return kept;
}

struct entry *hist_input_ref(struct hist_input *in, struct entry *e, const struct entry *seen,
			     bool is_new, const struct sk_list *keys, const struct hist_ref_ops *ops)
{
	const struct entry *cmp = seen ? seen : e;
	struct hist_search *slot = NULL;
	uint32_t parent = 0, cur;
	bool left = false;
	struct entry *twin;

	if (!is_new && !in->searched)
		return e;
	if (!is_new) {
		slot = search_slot(in, e, cmp);
		if (slot && slot->key == e && slot->gen == in->gen && slot->dso == cmp->at.dso &&
		    slot->dso_len == cmp->at.dso_len)
			return found(in, slot->node, ops);
	}
	for (cur = in->tree.root; cur;) {
		int c = hist_cmp(in->row[cur - 1], cmp, keys);

		if (!c) {
			struct entry *kept;

			if (slot)
				*slot = (struct hist_search){ e, cmp->at.dso, cmp->at.dso_len,
							      in->gen, cur };
			kept = found(in, cur, ops);

			/*
			 * a new key found equal to another row's (inlined entries
			 * of one name in functions side by side): perf charges that
			 * row, so every later reference of the key searches too
			 */
			if (is_new)
				in->searched = true;
			return kept;
		}
		parent = cur;
		left = c < 0;
		cur = left ? rb_index_left(&in->tree, cur) : rb_index_right(&in->tree, cur);
	}
	if (is_new) {
		if (insert(in, e, parent, left))
			return NULL;
		if (!in->searched && breaks_order(in, e, keys))
			in->searched = true;
		return e;
	}
	/* a key the tree holds, missed: perf makes its row again here */
	twin = ops->make_twin(ops->ctx, e);
	if (!twin)
		return NULL;
	if (add_twin(in, twin))
		return NULL;
	return insert(in, twin, parent, left) ? NULL : twin;
}

int hist_input_walk(const struct hist_input *in, struct entry **out)
{
	uint32_t *order = malloc((in->tree.nr ? in->tree.nr : 1) * sizeof(*order));

	if (!order || rb_index_walk(&in->tree, order)) {
		free(order);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < in->tree.nr; i++)
		out[i] = in->row[order[i] - 1];
	free(order);
	return 0;
}

void hist_input_free(struct hist_input *in)
{
	rb_index_free(&in->tree);
	free(in->row);
	free(in->twins);
	free(in->found);
	in->found = NULL;
	in->row = NULL;
	in->twins = NULL;
	in->nr_twins = in->twins_cap = 0;
}
