/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report --hierarchy --stdio: one level per sort key, each level's
 * rows the sums of the rows below them, sorted within their parent and
 * indented by their depth.  perf's rules, as its 6.1 prints them:
 *
 *  - a level's rows are the report's rows (all keys) merged by that key
 *    within their parent, in perf's collapse order; each takes the keys
 *    of the first row merged into it, and is sorted among its siblings as
 *    a report row is (overhead, then the keys);
 *  - a row is "  " before each value column (overhead, then -n's samples,
 *    then --show-total-period's period) after 3 spaces per depth, then 3
 *    spaces per level below the first, then "  " and its key's text as
 *    the flat layout pads it, its leading spaces dropped;
 *  - the titles: 3 spaces per level below the first, each value column's
 *    title and "  ", then the keys' titles joined by " / "; under them dots
 *    for the indent and the value columns, and for the keys as many as the
 *    longer of their titles and the widest level (3 per depth and its
 *    column's width);
 *  - --percent-limit hides the rows below it, and under a row whose rows
 *    below are all hidden says "no entry >= P%";
 *  - --comms, --pid, --tid, --dsos, --symbols hide rows of their own level
 *    (and those below), and rows above only when nothing of theirs is
 *    shown, with their sums whole (perf 6.1's marks, node by node);
 *  - the last level's rows have the call graphs, as the flat layout's;
 *  - an event group's members: each value column has their values after
 *    the leader's (a percentage of their own total), each level's rows
 *    sorted by the leader's period and then the members' in order.
 */
#ifndef PERFCHECK_READER_REPORT_HIERARCHY_H
#define PERFCHECK_READER_REPORT_HIERARCHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/callgraph.h"
#include "reader/hist.h"
#include "reader/out.h"
#include "reader/sortkeys.h"

struct rh_view {
	const struct sk_list *keys;	/* one level each, in order */
	const int *width;		/* per key: its column's width (the flat layout's) */
	const char *sep;		/* -t, else NULL */
	bool show_nr, show_period;	/* -n, --show-total-period */
	bool quiet;			/* -q: no titles */
	double total;			/* of the percentages */
	double percent_limit;		/* --percent-limit, 0 when none */
	/* call graphs under the last level's rows (forest NULL: none) */
	const struct cg_forest *forest;
	const struct cg_params *cg;
	uint64_t graph_total;		/* the period the graphs' shares are of */
	const struct hist_group *group;	/* NULL: one event */
	uint8_t filters;		/* ENTRY_HIDDEN_* of the filters given */
	uint32_t elided;		/* bit i: keys[i] is out of the order (a filter's one value) */
	/* perf 6.15+'s latency (reader/latency.h): a row's order, its column */
	bool latency;			/* its hidden key sorts each level's rows */
	bool latency_col;		/* a Latency column beside Overhead */
	bool latency_first;		/* --latency: the column and its key first */
	double lat_total;		/* of the Latency percentages */
};

/* What --hierarchy is asked with: rh_refusal()'s question */
struct rh_ask {
	bool fields;		/* -F */
	bool filters;		/* --comms, --pid, --tid, --dsos, --symbols */
	bool symbol_filter;	/* --symbol-filter */
	bool value_keys;	/* no key, or overhead after one, sample or period in -s */
	bool compat_6_1;	/* perf 6.1's layout */
	bool relative;		/* --percentage relative */
	/* the file's, once open (false before) */
	bool branch;		/* branch mode */
	bool pipe;
	bool chains_shown;	/* callchains, and Children asked */
};

/* Why --hierarchy is not printed as perf does for a (NULL: it is) */
const char *rh_refusal(const struct rh_ask *a);

/*
 * The report's rows of one event (each with its own samples' period) in
 * perf's hierarchy: their collapse order, and which of the levels' rows
 * perf's filters hide
 */
struct rh_plan {
	struct entry **rows;	/* the caller's array, reordered (not owned) */
	size_t n;
	int levels;
	const struct sk_list *keys;
	uint8_t *hidden;	/* [row * levels + level]: ENTRY_HIDDEN_* of the row of that
				 * level the row starts (owned) */
};

/* Reorders v[0..n) and marks the hidden rows; -ENOMEM, -E2BIG */
int rh_plan(struct rh_plan *p, struct entry **v, size_t n, const struct rh_view *hv);
/*
 * Into out (room for p->n): the rows whose keys the levels' shown rows
 * take (perf sizes the columns by them); their number
 */
size_t rh_shown_rows(const struct rh_plan *p, struct entry **out);
/* The titles and the levels' rows; -ENOMEM */
int rh_print(struct rd_out *o, const struct rh_plan *p, const struct rh_view *hv);
void rh_plan_free(struct rh_plan *p);

#endif
