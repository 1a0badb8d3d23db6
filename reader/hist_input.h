/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf's input tree of one event's rows (hists->entries_in), kept as the
 * samples come.  perf finds the row of each sample and callchain frame by
 * searching that tree with hist_entry__cmp, and its comparison is not
 * transitive where unresolved addresses meet (a wrapped 64-bit difference;
 * with -s sym, before and regardless of their object) or an inlined entry
 * meets another symbol (by name, where others go by address): a search can then
 * miss the row of a key the tree holds and make a second one, its twin,
 * which gets that reference's period and every later one the search
 * ends at.  Twins meet again in perf's collapse tree (merged where its
 * search finds them) or, without one (-s sym), stay rows of their own.
 *
 * While the rows' comparison is transitive a search always finds its row,
 * so the tree is searched only from the first row that can break it.
 */
#ifndef PERFCHECK_READER_HIST_INPUT_H
#define PERFCHECK_READER_HIST_INPUT_H

#include "reader/hist.h"
#include "reader/rb_index.h"

struct hist_input {
	struct rb_index tree;
	struct entry **row;		/* by node - 1 */
	bool searched;			/* every reference searches the tree */
	bool any_unresolved;
	uint64_t lo, hi;		/* the unresolved rows' addresses */
	struct entry **twins;		/* made by make_twin (the caller frees them) */
	size_t nr_twins, twins_cap;
};

/* Makes a twin of e: its key and what the keys compare, no period; NULL on ENOMEM. */
typedef struct entry *(*hist_twin_fn)(void *ctx, const struct entry *e);

/*
 * The row a reference to e's key charges, as perf's search finds it: e,
 * or a twin of e.  is_new: e was just made (its first reference), then
 * inserted where the search ends.  NULL on ENOMEM.
 */
struct entry *hist_input_ref(struct hist_input *in, struct entry *e, bool is_new,
			     const struct sk_list *keys, hist_twin_fn make_twin, void *ctx);
void hist_input_free(struct hist_input *in);

#endif
