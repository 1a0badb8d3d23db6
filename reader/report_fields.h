/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report's -F/--fields: the columns shown, in their order, apart from
 * the sort keys.  perf's rules: with -F, nothing is added by default (no
 * overhead prefix, no -n or --show-total-period columns); the sort list is
 * -s's (when given, without an implicit overhead) followed by each field of
 * -F it lacks, else -F itself; the columns are -F's followed by each sort
 * key -F lacks.  A value column (overhead, overhead_children, sample,
 * period, and perf 6.15+'s latency and latency_children) sorts where the sort list names it; one it does not name does
 * not sort at all.  An event group shows its members' values after the
 * leader's in each value column, the column as many times as wide.
 */
#ifndef PERFCHECK_READER_REPORT_FIELDS_H
#define PERFCHECK_READER_REPORT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "reader/hist.h"
#include "reader/out.h"
#include "reader/sortkeys.h"

enum rf_kind { RF_KEY, RF_OVERHEAD, RF_CHILDREN, RF_SAMPLES, RF_PERIOD, RF_LATENCY,
	       RF_LAT_CHILDREN };

struct rf_col {
	enum rf_kind kind;
	enum sk_key key;	/* RF_KEY's */
};

#define RF_MAX (SK_MAX_KEYS + 4)

struct rf_list {
	struct rf_col col[RF_MAX];
	int nr;
};

/* "overhead,sym" into l; -1 with the unknown (or repeated) name in bad. */
int rf_parse(struct rf_list *l, const char *spec, char *bad, size_t bad_size);
/*
 * The sort list and the columns of -F fields with -s sort (NULL when -s was
 * not given), as perf merges them; -1 when the keys are more than a sort
 * list holds (SK_MAX_KEYS).
 */
int rf_merge(const struct rf_list *fields, const struct rf_list *sort, struct rf_list *sort_out,
	     struct rf_list *cols_out);
/* The sort list as the row keys and their order (overhead_at -1: not sorted by it). */
void rf_sort_keys(const struct rf_list *sort, struct sk_list *keys);

/* What a row shows, for the columns' text */
struct rf_view {
	const struct sk_list *keys;	/* the row keys, rf_sort_keys' */
	const int *width;		/* per key: its column's width */
	uint32_t elided;		/* bit i: keys[i]'s column left out (a filter's one value) */
	const char *sep;		/* -t, else NULL */
	double total;			/* of the percentages */
	double lat_total;		/* of the latency percentages (reader/latency.h) */
	bool children;			/* the rows have Children shares (else N/A) */
	const struct hist_group *group;	/* an event group's members after the leader, or NULL */
};

/* The two title lines (the separator's one line with -t) */
void rf_titles(struct rd_out *o, const struct rf_list *cols, const struct rf_view *v);
/* A row's columns, without its newline */
void rf_row(struct rd_out *o, const struct rf_list *cols, const struct rf_view *v,
	    const struct entry *e);

#endif
