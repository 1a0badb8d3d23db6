/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report's call graphs: each report entry owns a tree of the chains
 * of its samples (a trie of frames; a run of frames without a branch or an
 * end is what perf shows as one node), printed in perf's --stdio layouts:
 * graph (percent of the event's total), fractal (percent of the parent),
 * flat and folded.  Frames are matched by function (perf's default key):
 * the same symbol, else the same object and address.
 */
#ifndef PERFCHECK_READER_CALLGRAPH_H
#define PERFCHECK_READER_CALLGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/cg_children.h"
#include "reader/cg_siblings.h"
#include "reader/out.h"

enum cg_mode { CG_NONE, CG_GRAPH, CG_FRACTAL, CG_FLAT, CG_FOLDED };
enum cg_order { CG_CALLER, CG_CALLEE };
/* what a branch shows: its share (of the event, or of the parent in fractal), period or samples */
enum cg_value { CG_PERCENT, CG_PERIOD, CG_COUNT };

struct cg_params {
	enum cg_mode mode;
	enum cg_order order;
	enum cg_value value;
	double min_percent;	/* chains below this share are not shown */
	bool mode_set, order_set;	/* given by -g (else perf's defaults) */
	bool by_address;	/* -g ...,address: frames matched by address, shown with their line */
	/*
	 * perf 6.1 names the rest of a fractal level "[...]", with " (inlined)"
	 * after it in its Self-only report (a flag it never sets, read as set).
	 */
	bool rest_inlined;
	/* -s starting with "sym": a single-branch graph leaves out its first frame */
	bool skip_first;
	/*
	 * counts of distinct chains, not samples: perf's --hierarchy merges each
	 * row's chains into its leaf one by one, a count of 1 each
	 */
	bool chains_once;
	/*
	 * perf 7.2's --hierarchy names no frame: each node shows, in hex, the
	 * address of the first chain that made it (frames still match as above)
	 */
	bool bare_addresses;
};

/* -g/--call-graph "graph,0.5,caller,function,percent" and its prefixes; 0 or -1. */
int cg_parse(struct cg_params *p, const char *spec);

/* One frame as the call graph names it; identity is (sym, dso, ip). */
struct cg_frame_key {
	const void *sym;	/* the symbol (struct pc_symbol), NULL when unresolved */
	const void *dso;	/* the object (compared for unresolved frames) */
	uint64_t dso_rank;	/* its place among objects: orders equal shares */
	uint64_t ip;
	bool by_address;	/* the ip tells frames of one symbol apart */
	/*
	 * an inlined entry: perf 7.2 matches those by name alone, so one
	 * function inlined into several is one frame
	 */
	bool by_name;
	const char *name;	/* shown: symbol name, else the address */
	size_t name_len;
};

struct cg_frame {
	const void *sym, *dso;
	const void *obj;	/* the object, resolved or not (a bare copy's key) */
	uint64_t ip;
	uint64_t addr;		/* the first address seen: orders equal shares */
	uint64_t dso_rank;	/* the object's, also for resolved frames */
	bool by_name;		/* identity is the name (cg_frame_key) */
	char *name;
	uint32_t next;		/* hash chain (index + 1) */
};

/* What cg_forest_finish sums of each node's subtree, for printing */
struct cg_sums {
	uint64_t children_hit;	/* the hit of the nodes below */
	uint64_t children_count;	/* the same in samples */
	uint64_t ends_below;	/* nodes below with a hit: chains that end below */
	uint32_t nr_children;
};

/* A node's links while the trees grow: what a descent reads, four to a cache line. */
struct cg_link {
	uint32_t frame, parent, child, sibling;
};

/*
 * The frames and nodes of every entry's tree; indices, never pointers.
 * A node is its links, its hit, count and first address, apart; the sums
 * of its subtree are made by cg_forest_finish, for printing.
 */
/*
 * A chain added before, by its frames: a repeated chain (the common case:
 * a loop sampled again and again) finds its last node with one compare of
 * contiguous memory instead of a descent whose every step is a cache miss.
 * Direct mapped; longer chains are not kept.
 */
#define CG_CHAIN_FRAMES 58
#define CG_CHAIN_SLOTS_BITS 14

struct cg_chain_slot {
	uint64_t hash;
	uint32_t root, nr, node;	/* node 0: an empty slot */
	/*
	 * where perf searches the tree (cg_siblings.h) the descent is a
	 * function of the tree as it was (gen, its root's) and, where it
	 * searched, of the chain's addresses too (kept in chain_ips)
	 */
	uint32_t gen;
	bool by_ips;
	uint32_t frames[CG_CHAIN_FRAMES];
};

struct cg_forest {
	struct cg_frame *frames;
	uint32_t nr_frames, cap_frames;
	uint32_t *frame_hash;	/* index + 1 */
	uint32_t nr_frame_hash;
	struct cg_link *links;
	uint64_t *hits;
	uint64_t *ips;		/* each node's first address */
	uint32_t *counts;	/* samples beside hits' period */
	/*
	 * The last add that ended at each node (a clock of adds).  A node was
	 * last used by the latest add ending in its subtree: the order of equal
	 * branches (most recently used first) is derived from these at finish.
	 */
	uint64_t *ends;
	uint64_t clock;
	uint32_t nr_nodes, cap_nodes;
	struct cg_children children;	/* a node's child by frame */
	struct cg_siblings sib;		/* perf's search where frames of two kinds meet */
	struct cg_chain_slot *chains;	/* 1 << CG_CHAIN_SLOTS_BITS, made on first use */
	uint64_t *chain_ips;		/* CG_CHAIN_FRAMES a slot, made with chains */
	uint32_t *tree_gen;		/* a root's: bumped when its tree changes */
	struct cg_sums *sums;	/* after cg_forest_finish */
};

/* More period for the chains that end at node (index + 1), before cg_forest_finish. */
static inline void cg_hit(struct cg_forest *f, uint32_t node, uint64_t period)
{
	f->hits[node - 1] += period;
	f->counts[node - 1]++;
	f->ends[node - 1] = ++f->clock;
}

/* Whether perf searches part of root's tree: where a chain goes depends on the tree's state. */
static inline bool cg_tree_searched(const struct cg_forest *f, uint32_t root)
{
	return cg_siblings_tree_searched(&f->sib, root);
}

void cg_forest_free(struct cg_forest *f);
/* The frame index of a key, added when new; -ENOMEM. */
int64_t cg_frame(struct cg_forest *f, const struct cg_frame_key *k);
/* A new empty tree: its root's index + 1 (0 on ENOMEM). */
uint32_t cg_tree_new(struct cg_forest *f);
/*
 * Appends one chain of frame indices (in the tree's order) with its period;
 * *last is set to the node the chain ends at (for cg_hit of the same chain).
 * ips: each frame's address (kept by the nodes it makes), or NULL for the
 * address each frame was first made with.
 */
int cg_tree_add(struct cg_forest *f, uint32_t root, const uint32_t *frames, const uint64_t *ips,
		size_t nr, uint64_t period, uint32_t *last);
/*
 * Adds every chain of tree src to tree dst (roots as index + 1), as perf
 * merges the rows its collapse finds equal; src is left unreferenced.
 * bare: each frame comes as its address alone, in its object (perf 6.5 and
 * later copy a frame's map but not its symbol when merging chains, so the
 * merged frames are shown and matched as unresolved addresses).
 * Before cg_forest_finish; 0 or -ENOMEM.
 */
int cg_tree_merge(struct cg_forest *f, uint32_t dst, uint32_t src, bool bare);
/*
 * Makes the nodes, with each one's children and children_hit; once, after
 * the last cg_tree_add.  0 or -ENOMEM.
 */
int cg_forest_finish(struct cg_forest *f);

/*
 * Prints the tree of one entry.  total: the event's total period; parent:
 * the entry's own period (its Children value when children are shown).
 */
void cg_print(struct rd_out *o, const struct cg_forest *f, uint32_t root,
	      const struct cg_params *p, uint64_t total, uint64_t parent);

#endif
