/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A row of perfcheck report (one per distinct sort key within an event)
 * and the order perf gives the rows.
 */
#ifndef PERFCHECK_READER_HIST_H
#define PERFCHECK_READER_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/sortkeys.h"

/* Where a row points: its frame, or in branch mode a branch's end. */
struct row_at {
	char level;		/* 'k', '.' (branch ends: 'H' when in no map) */
	const struct pc_symbol *sym;
	const char *dso;	/* short name, NULL when no map */
	size_t dso_len;
	uint64_t ip;		/* perf's he->ip: the shown address of an unresolved frame;
				 * a branch end's own address */
	uint64_t sym_start, sym_end;	/* a branch end's symbol as perf compares it */
	uint64_t map;		/* the user map it was last found through (pc_map.id), else 0 */
};

/* A row of perf report's branch mode: a branch's source (its target is the entry's at) */
struct row_branch {
	struct row_at from;
	uint16_t cycles;
};

/* What hides a row (perf's filter types): its thread, its object, its symbol */
#define ENTRY_HIDDEN_THREAD 1u	/* --comms, --pid, --tid */
#define ENTRY_HIDDEN_DSO 2u	/* --dsos */
#define ENTRY_HIDDEN_SYM 4u	/* --symbols */
#define ENTRY_HIDDEN_PARALLELISM 8u	/* --parallelism (reader/latency.h) */
#define ENTRY_HIDDEN_SYMBOL_FILTER 64u	/* --symbol-filter: set as the rows are printed */
#define ENTRY_HIDDEN_PARENT 128u	/* -x: the sample's chain has no parent (-p) */
#define ENTRY_HIDDEN (ENTRY_HIDDEN_THREAD | ENTRY_HIDDEN_DSO | ENTRY_HIDDEN_SYM | \
		      ENTRY_HIDDEN_PARALLELISM | ENTRY_HIDDEN_SYMBOL_FILTER | ENTRY_HIDDEN_PARENT)
/* not a filter: a twin (hist_input.h) perf's collapse added into an earlier row */
#define ENTRY_MERGED 16u
/* not a row: a key whose row perf renamed (hist_input.h), kept to find the key by */
#define ENTRY_RETIRED 32u
_Static_assert(!(ENTRY_HIDDEN & (ENTRY_MERGED | ENTRY_RETIRED)), "one bit, one meaning");

struct entry {
	char *key;		/* sortkeys.c: the order part and the text of each key */
	size_t key_len;
	uint64_t self, children, nr_samples;
	struct entry_latency {
		uint64_t self, children;	/* their latency (reader/latency.h) */
		uint32_t parallelism;		/* its samples' (-s parallelism) */
	} lat;
	uint64_t stamp;		/* last sample that charged children */
	struct entry_graph {
		uint32_t tree;		/* callgraph root (index + 1), 0 when none */
		uint32_t max_depth;	/* longest chain appended to the tree */
		uint32_t last;		/* the tree's node the previous chain ended at */
	} graph;
	/* what the keys compare, from the entry's first sample */
	char *comm;
	const char *thread_comm;	/* its thread's command, as it is at the end */
	uint32_t tid;
	int32_t cpu;
	uint64_t cgroup;	/* its samples' cgroup id */
	uint64_t time;		/* its samples' time, down to the quantum (-s time) */
	uint64_t seq;		/* creation order */
	struct row_at at;	/* of the frame (the branch target) that made the row */
	struct row_branch *branch;	/* branch mode (owned), else NULL */
	/*
	 * hidden by report's --comms, --pid, --tid, --dsos or --symbols, by
	 * its samples' thread and their own object and symbol (the rows of a
	 * sample's callchain too); the period still counts in the total of
	 * absolute percentages.  perf 6.1: the row's first sample decides;
	 * perf 7.2: filtered samples make rows of their own.
	 */
	uint8_t filtered;	/* ENTRY_HIDDEN_* bits: the filters that hide it (0: shown) */
	bool comm_placeholder;	/* made while its thread had only the ":TID" placeholder */
	struct entry *next;
};

/* An event group's members, shown as columns after the leader's values */
#define HIST_MAX_MEMBERS 8

struct hist_group {
	uint32_t nr;
	uint64_t total[HIST_MAX_MEMBERS];	/* each member's period, of its percentages */
	/* member j's row of the leader's row (NULL: none) */
	const struct entry *(*row)(const void *ctx, uint32_t j, const struct entry *leader);
	const void *ctx;
};

struct hist_order {
	const struct sk_list *keys;
	bool children;		/* Children first */
	bool cumulate;		/* the rows have Children shares (keys->order may sort by them) */
	bool graphs;		/* call graphs shown: perf's caller-above-callee rule applies */
	bool caller;		/* caller order */
	/*
	 * perf 6.15+ on a file with switch records: Children's and Self's
	 * latency sort right after them, unseen (perf's hidden latency keys)
	 */
	bool latency;
	bool latency_first;	/* report --latency: each latency before its share */
	uint32_t elided;	/* bit i: keys[i]'s column left out, and out of the order (perf's) */
	/*
	 * a group's rows: after the leader's Self (samples), the members'
	 * Self (samples) in order (perf's group sort)
	 */
	int (*members_cmp)(const struct entry *a, const struct entry *b, bool samples,
			   const void *ctx);
	const void *members_ctx;
	/*
	 * v is in the order perf inserts it into its one collapse tree (a
	 * hierarchy level's rows), not to be put in sample order first
	 */
	bool as_given;
	/*
	 * v is the walk of perf's input tree (hist_input_walk, where rows were
	 * renamed in place): only its collapse and output trees are replayed
	 */
	bool input_walked;
	/*
	 * adds row from into row into (its twin, hist_input.h), as perf's
	 * collapse merges the rows it finds equal; NULL: rows never merge
	 */
	int (*merge)(struct entry *into, struct entry *from, void *ctx);
	void *merge_ctx;
};

/*
 * Sorts v[0..n) into the order of perf's collapse tree (key by key, so rows
 * equal in their first keys come together); -ENOMEM.
 */
int hist_collapse_order(struct entry **v, size_t n, const struct sk_list *keys);
/* a and b are one row of perf's hierarchy at key keys[i] (its collapse comparison) */
bool hist_same_key(const struct entry *a, const struct entry *b, const struct sk_list *keys, int i);
/*
 * Sorts v[0..*n) into perf's output order, twins its collapse finds equal
 * merged (o->merge; *n then the rows left); -ENOMEM.
 */
int hist_order(struct entry **v, size_t *n, const struct hist_order *o);
/*
 * perf's input and collapse trees replayed on v[0..n) (every row, twins
 * too), o->merge called for each twin the collapse finds equal to a row
 * before it; nothing without a collapse tree.  0 or -ENOMEM.
 */
int hist_merge_twins(struct entry **v, size_t n, const struct hist_order *o);
/*
 * perf's comparison of its input tree (hist_entry__cmp; its collapse tree
 * differs in srcline, by text there): above 0 when a comes before b, 0 for
 * one key
 */
/* perf makes a collapse tree of the rows (a key collapses) */
bool hist_keys_collapse(const struct sk_list *keys);
/* The function's name of symbol s: an inlined entry's without its " (inlined)" (its length) */
size_t hist_func_len(const struct pc_symbol *s);
int hist_cmp(const struct entry *a, const struct entry *b, const struct sk_list *keys);

#endif
