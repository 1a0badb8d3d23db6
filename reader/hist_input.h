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
 *
 * A row found through another map than the one it was last found through
 * (another process's) has its symbol looked up again in that map at the
 * symbol's start: an inlined entry's row becomes its outer function's, in
 * place.  The caller does that (found); the tree's order then is no longer
 * the one its rows' keys give, so it is walked (hist_input_walk), not
 * replayed.
 */
#ifndef PERFCHECK_READER_HIST_INPUT_H
#define PERFCHECK_READER_HIST_INPUT_H

#include "reader/hist.h"
#include "reader/rb_index.h"

struct hist_input {
	struct rb_index tree;
	struct entry **row;		/* by node - 1 */
	bool searched;			/* every reference searches the tree */
	bool renamed;			/* a row was renamed in place: walk, do not replay */
	bool stale;			/* rows re-keyed after the samples: replay, do not walk */
	bool any_unresolved;
	uint64_t lo, hi;		/* the unresolved rows' addresses */
	struct entry **twins;		/* made by make_twin (the caller frees them) */
	size_t nr_twins, twins_cap;
	/*
	 * The rows searches found, by the key searched for: a search is a
	 * function of the tree and the key, so while no row is inserted or
	 * renamed (gen unchanged) the same key ends at the same row.  Made
	 * once the tree is searched; direct mapped.
	 */
	struct hist_search *found;
	uint64_t gen;
};

/* What a reference does to the rows (report.c's), ctx its frame */
struct hist_ref_ops {
	/* a twin of e: its key and what the keys compare, no period; NULL on ENOMEM */
	struct entry *(*make_twin)(void *ctx, const struct entry *e);
	/*
	 * row, found: the row that takes its place in the tree (row, or a
	 * renamed copy that takes row's period; row is then retired, its
	 * owner keeps it); NULL on ENOMEM
	 */
	struct entry *(*found)(void *ctx, struct entry *row);
	void *ctx;
};

/*
 * The row a reference to e's key charges, as perf's search finds it: e,
 * a twin of e, or a renamed row.  seen: e as this reference sees it, what
 * the search compares (the reference's object, where e's key leaves the
 * object out), NULL for e itself.  is_new: e was just made (its first
 * reference), then inserted where the search ends.  NULL on ENOMEM.
 */
struct entry *hist_input_ref(struct hist_input *in, struct entry *e, const struct entry *seen,
			     bool is_new,
			     const struct sk_list *keys, const struct hist_ref_ops *ops);
/* The tree's rows in order (n: in->tree.nr of them); 0 or -ENOMEM. */
int hist_input_walk(const struct hist_input *in, struct entry **out);
void hist_input_free(struct hist_input *in);

#endif
