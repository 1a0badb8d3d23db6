// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --hierarchy (see report_hierarchy.h for the layout).  The
 * report's rows, put in perf's collapse order, hold each level's rows as
 * runs: the rows of one parent equal in the level's key come together.  A
 * level's row is a copy of its run's first row with the run's sums, so
 * hist_order() sorts siblings as perf does (its output comparison runs
 * over every key, and a copy has the keys of the row it was made from).
 */
#include "reader/report_hierarchy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INDENT 3	/* perf's spaces per level */
#define MAX_DOTS 207	/* the most dots perf has for a line of titles */

/* A row of a level: the sums of rows[lo..hi) of the collapse order */
struct rh_node {
	struct entry sum;	/* first: a copy of rows[lo] (its pointers not owned) */
	size_t lo, hi;
	uint64_t member_self[HIST_MAX_MEMBERS], member_samples[HIST_MAX_MEMBERS];
};

struct rh_walk {
	struct rd_out *o;
	const struct rh_view *hv;
	const struct rh_plan *plan;
};

static int value_cols(const struct rh_view *hv)
{
	return 1 + hv->latency_col + hv->show_nr + hv->show_period;
}

static int events(const struct rh_view *hv)
{
	return 1 + (hv->group ? (int)hv->group->nr : 0);
}

/* perf's overhead width: the value columns and the two spaces between them */
static int values_width(const struct rh_view *hv)
{
	int n = events(hv);

	return 8 * n + (hv->latency_col ? 2 + 8 : 0) + (hv->show_nr ? 2 + 12 * n : 0) +
	       (hv->show_period ? 2 + 12 * n : 0);
}

static void repeat(struct rd_out *o, char c, int n)
{
	for (int i = 0; i < n; i++)
		rd_out_char(o, c);
}

static void titles(const struct rh_walk *w)
{
	const struct rh_view *hv = w->hv;
	const char *sep = hv->sep;
	int levels = hv->keys->nr, keys_width = 0, widest = 0;

	rd_out_str(w->o, "# ");
	if (!sep)
		repeat(w->o, ' ', (levels - 1) * INDENT);
	if (hv->latency_col && hv->latency_first)
		rd_out_printf(w->o, "%*s%s", 8, "Latency", sep ? sep : "  ");
	rd_out_printf(w->o, "%*s%s", 8 * events(hv), "Overhead", sep ? sep : "  ");
	if (hv->latency_col && !hv->latency_first)
		rd_out_printf(w->o, "%*s%s", 8, "Latency", sep ? sep : "  ");
	if (hv->show_nr)
		rd_out_printf(w->o, "%*s%s", 12 * events(hv), "Samples", sep ? sep : "  ");
	if (hv->show_period)
		rd_out_printf(w->o, "%*s%s", 12 * events(hv), "Period", sep ? sep : "  ");
	for (int k = 0; k < levels; k++) {
		/* each title without the spaces of its column (perf's "Pid:Command") */
		const char *t = sk_title(hv->keys->keys[k]);
		size_t len;

		while (*t == ' ')
			t++;
		for (len = strlen(t); len && t[len - 1] == ' '; len--)
			;
		if (k) {
			rd_out_str(w->o, " / ");
			keys_width += 3;
		}
		rd_out_mem(w->o, t, len);
		keys_width += (int)len;
	}
	rd_out_str(w->o, "\n# ");
	if (!sep)
		repeat(w->o, '.', (levels - 1) * INDENT);
	repeat(w->o, '.', 8 * events(hv));
	if (hv->latency_col) {
		rd_out_str(w->o, sep ? sep : "..");
		repeat(w->o, '.', 8);
	}
	for (int c = 1 + hv->latency_col; c < value_cols(hv); c++) {
		rd_out_str(w->o, sep ? sep : "..");
		repeat(w->o, '.', 12 * events(hv));
	}
	/* as many dots as the title of the keys, or the widest level */
	for (int k = 0; k < levels; k++)
		if (k * INDENT + hv->width[k] > widest)
			widest = k * INDENT + hv->width[k];
	if (keys_width > widest)
		widest = keys_width;
	/* perf takes them from its string of 207 dots */
	rd_out_str(w->o, sep ? sep : "  ");
	repeat(w->o, '.', widest < MAX_DOTS ? widest : MAX_DOTS);
	rd_out_str(w->o, "\n#\n");
}

/* One value column: "  " and the value right-aligned, or with -t perf's least text */
static void value(const struct rh_walk *w, bool first, int width, const char *text)
{
	const char *sep = w->hv->sep;

	if (!sep || !first)
		rd_out_str(w->o, sep ? sep : "  ");
	rd_out_pad(w->o, text, sep ? -width : width);
}

enum rh_col { RH_OVERHEAD, RH_SAMPLES, RH_PERIOD };

/*
 * A value column's text: the leader's value, then a group's members'
 * (perf's "%7.2f%%" then " %6.2f%%" of their own totals, counts in 12; with
 * -t its least " %.2f%%" and " %llu" for each)
 */
static void col_text(const struct rh_view *hv, const struct rh_node *nd, enum rh_col c,
		     char *buf, size_t size)
{
	const struct hist_group *g = hv->group;
	size_t len = 0;

	for (uint32_t j = 0; j <= (g ? g->nr : 0) && len < size; j++) {
		uint64_t self = j ? nd->member_self[j - 1] : nd->sum.self;
		uint64_t samples = j ? nd->member_samples[j - 1] : nd->sum.nr_samples;
		double total = j ? (double)g->total[j - 1] : hv->total;

		if (c != RH_OVERHEAD)
			len += (size_t)snprintf(buf + len, size - len, hv->sep ? " %llu" : "%12llu",
						(unsigned long long)(c == RH_SAMPLES ? samples : self));
		else
			len += (size_t)snprintf(buf + len, size - len,
						hv->sep ? " %.2f%%" : j ? " %6.2f%%" : "%7.2f%%",
						100.0 * (double)self / (total ? total : 1.0));
	}
}

/* the Latency column's text: perf's "%7.2f%%", with -t " %.2f%%" */
static void latency_text(const struct rh_view *hv, const struct rh_node *nd, char *buf,
			 size_t size)
{
	snprintf(buf, size, hv->sep ? " %.2f%%" : "%7.2f%%",
		 100.0 * (double)nd->sum.lat.self / (hv->lat_total ? hv->lat_total : 1.0));
}

static void row(const struct rh_walk *w, const struct rh_node *nd, int depth)
{
	const struct rh_view *hv = w->hv;
	const struct entry *e = &nd->sum;
	enum sk_key k = hv->keys->keys[depth];
	char text[1024], padded[1100], num[512];
	const char *shown = padded;
	int width = hv->width[depth];

	repeat(w->o, ' ', depth * INDENT);
	if (hv->latency_col && hv->latency_first) {
		latency_text(hv, nd, num, sizeof(num));
		value(w, true, 8, num);
	}
	col_text(hv, nd, RH_OVERHEAD, num, sizeof(num));
	value(w, !(hv->latency_col && hv->latency_first), 8 * events(hv), num);
	if (hv->latency_col && !hv->latency_first) {
		latency_text(hv, nd, num, sizeof(num));
		value(w, false, 8, num);
	}
	if (hv->show_nr) {
		col_text(hv, nd, RH_SAMPLES, num, sizeof(num));
		value(w, false, 12 * events(hv), num);
	}
	if (hv->show_period) {
		col_text(hv, nd, RH_PERIOD, num, sizeof(num));
		value(w, false, 12 * events(hv), num);
	}
	if (!hv->sep)
		repeat(w->o, ' ', (hv->keys->nr - 1) * INDENT);
	sk_cell(e->key, e->key_len, depth, k, e->at.level, e->thread_comm, width, hv->sep, text,
		sizeof(text));
	/* the text as its column pads it, without the leading spaces (perf's) */
	snprintf(padded, sizeof(padded), "%-*s", sk_pad_last(k) ? width : 0, text);
	while (*shown == ' ')
		shown++;
	rd_out_str(w->o, hv->sep ? hv->sep : "  ");
	rd_out_str(w->o, shown);
	rd_out_char(w->o, '\n');
}

/* perf's group order after the leader's period (samples): the members' in turn */
static int members_cmp(const struct entry *a, const struct entry *b, bool samples,
		       const void *ctx)
{
	/* a and b are the sums of nodes (their first member) */
	const struct rh_node *na = (const void *)a, *nb = (const void *)b;
	const struct hist_group *g = ctx;

	for (uint32_t j = 0; j < g->nr; j++) {
		uint64_t va = samples ? na->member_samples[j] : na->member_self[j];
		uint64_t vb = samples ? nb->member_samples[j] : nb->member_self[j];

		if (va != vb)
			return va > vb ? 1 : -1;
	}
	return 0;
}

/* Adds row r's own and its members' values to node nd */
static void add_row(const struct rh_view *hv, struct rh_node *nd, const struct entry *r)
{
	const struct hist_group *g = hv->group;

	for (uint32_t j = 0; g && j < g->nr; j++) {
		const struct entry *m = g->row(g->ctx, j, r);

		nd->member_self[j] += m ? m->self : 0;
		nd->member_samples[j] += m ? m->nr_samples : 0;
	}
}

/*
 * What is refused: -F as perf refuses it; perf 7.2's rows of filtered
 * samples and relative percentages of filtered rows (perf 6.1's marks of
 * absolute ones are followed); value columns among the sort keys (perf
 * makes them levels); branch mode; pipes (perf 6.1 finds no samples
 * in them, perf 7.2 adds a Children column of N/A); perf 7.2's Children
 * in the hierarchy of callchains (its graphs of bare addresses without
 * Children are printed: cg_params.bare_addresses).
 */
const char *rh_refusal(const struct rh_ask *a)
{
	if (a->fields)
		return "--hierarchy and --fields options cannot be used together (as perf)";
	if (a->filters && (!a->compat_6_1 || a->relative))
		return "--hierarchy with --comms, --dsos, --symbols, --pid or --tid is only "
		       "supported in perf 6.1's layout (--compat 6.1), of absolute percentages";
	if (a->symbol_filter)
		return "--hierarchy with --symbol-filter is not supported (perf hides each "
		       "level's rows by the symbol of their first sample)";
	if (a->value_keys)
		return "--hierarchy with overhead, sample or period among the sort keys is "
		       "not supported (perf makes them levels); -n and --show-total-period are";
	if (a->branch)
		return "--hierarchy of branch mode's rows is not supported (--no-branch-stack "
		       "shows the samples')";
	if (a->pipe)
		return "--hierarchy of a pipe is not supported (perf 6.1 finds no samples in it, "
		       "perf 7.2 adds a Children column)";
	if (a->chains_shown && !a->compat_6_1)
		return "--hierarchy of callchains with Children in perf 7.2's layout is not "
		       "supported (its Children column): use --compat 6.1, or --no-children";
	return NULL;
}

static double percent(const struct rh_view *hv, const struct entry *e)
{
	return 100.0 * (double)e->self / hv->total;
}

/* The filter types (ENTRY_HIDDEN_*) a level of key k is perf's level for */
static uint8_t filters_of(enum sk_key k)
{
	switch (k) {
	case SK_COMM:
	case SK_PID:
	case SK_TID:
		return ENTRY_HIDDEN_THREAD;
	case SK_DSO:
		return ENTRY_HIDDEN_DSO;
	case SK_SYM:
		return ENTRY_HIDDEN_SYM;
	default:
		return 0;
	}
}

/* The node of level l that row i starts, in plan p's table of filter bits */
static uint8_t *hidden_at(const struct rh_plan *p, size_t i, int l)
{
	return &p->hidden[i * (size_t)p->levels + (size_t)l];
}

/*
 * perf's filters of a hierarchy, node by node as it makes them (rows in
 * collapse order, each down its levels): a node is a copy of its first
 * row, with its marks; one of a filter's own level that filter leaves
 * shown clears the filter's mark of every node above it; one of another
 * level is marked on the first level, and below also takes its parent's
 * mark as it is then.
 */
static void mark_hidden(struct rh_plan *p, const struct rh_view *hv)
{
	size_t start[SK_MAX_KEYS] = { 0 };

	for (size_t i = 0; i < p->n; i++) {
		bool parent_new = false;

		for (int l = 0; l < p->levels; l++) {
			uint8_t own = filters_of(hv->keys->keys[l]);
			/* perf's copy of the row keeps the row's marks */
			uint8_t mark = p->rows[i]->filtered & hv->filters;

			if (i && !parent_new && hist_same_key(p->rows[start[l]], p->rows[i],
							      hv->keys, l))
				continue;
			parent_new = true;
			start[l] = i;
			for (uint8_t type = 1; type <= ENTRY_HIDDEN_SYM; type <<= 1) {
				if (!(hv->filters & type))
					continue;
				if (own & type) {
					for (int a = 0; a < l && !(p->rows[i]->filtered & type); a++)
						*hidden_at(p, start[a], a) &= (uint8_t)~type;
				} else {
					mark |= l ? *hidden_at(p, start[l - 1], l - 1) & type : type;
				}
			}
			*hidden_at(p, i, l) = mark;
		}
	}
}

int rh_plan(struct rh_plan *p, struct entry **v, size_t n, const struct rh_view *hv)
{
	int ret;

	memset(p, 0, sizeof(*p));
	p->rows = v;
	p->n = n;
	p->levels = hv->keys->nr;
	p->keys = hv->keys;
	if (!n || !p->levels)
		return 0;
	p->hidden = calloc(n * (size_t)p->levels, 1);
	if (!p->hidden)
		return -ENOMEM;
	ret = hist_collapse_order(v, n, hv->keys);
	if (!ret && hv->filters)
		mark_hidden(p, hv);
	return ret;
}

size_t rh_shown_rows(const struct rh_plan *p, struct entry **out)
{
	size_t nr = 0;
	size_t start[SK_MAX_KEYS] = { 0 };

	for (size_t i = 0; i < p->n; i++) {
		bool parent_new = false, shown = false;

		for (int l = 0; l < p->levels; l++) {
			if (i && !parent_new && hist_same_key(p->rows[start[l]], p->rows[i],
							      p->keys, l))
				continue;
			parent_new = true;
			start[l] = i;
			shown |= !*hidden_at(p, i, l);
		}
		if (shown)
			out[nr++] = p->rows[i];
	}
	return nr;
}

void rh_plan_free(struct rh_plan *p)
{
	free(p->hidden);
	p->hidden = NULL;
}

/* One level's rows of one parent: made, summed and sorted */
struct rh_level {
	struct rh_node *nodes;
	struct entry **order;	/* the nodes' sums, in perf's order */
	size_t nr;
};

static void level_free(struct rh_level *lv)
{
	free(lv->nodes);
	free(lv->order);
}

/*
 * The rows of one parent, rows[lo..hi) of the collapse order, at level
 * depth: merged into runs of one key and sorted
 */
static int level_make(const struct rh_walk *w, size_t lo, size_t hi, int depth,
		      struct rh_level *lv)
{
	const struct rh_view *hv = w->hv;
	/* perf fills a level's tree in its parent's order, the runs' order */
	struct hist_order ho = { .keys = hv->keys, .as_given = true, .elided = hv->elided,
				 .members_cmp = hv->group ? members_cmp : NULL,
				 .members_ctx = hv->group, .latency = hv->latency,
				 .latency_first = hv->latency_first };
	struct entry *const *rows = w->plan->rows;

	lv->nr = 0;
	lv->nodes = malloc((hi - lo) * sizeof(*lv->nodes));
	lv->order = malloc((hi - lo) * sizeof(*lv->order));
	if (!lv->nodes || !lv->order)
		return -ENOMEM;
	for (size_t i = lo; i < hi; i++) {
		struct rh_node *nd = &lv->nodes[lv->nr];

		if (lv->nr && hist_same_key(rows[nd[-1].lo], rows[i], hv->keys, depth)) {
			nd--;
			nd->sum.self += rows[i]->self;
			nd->sum.lat.self += rows[i]->lat.self;
			nd->sum.nr_samples += rows[i]->nr_samples;
			nd->hi = i + 1;
			add_row(hv, nd, rows[i]);
			continue;
		}
		memset(nd, 0, sizeof(*nd));
		nd->sum = *rows[i];
		nd->lo = i;
		nd->hi = i + 1;
		add_row(hv, nd, rows[i]);
		lv->nr++;
	}
	for (size_t i = 0; i < lv->nr; i++)
		lv->order[i] = &lv->nodes[i].sum;
	{
		size_t nr = lv->nr;

		return hist_order(lv->order, &nr, &ho);
	}
}

/* sum is the first member of its node */
static const struct rh_node *node_at(const struct rh_level *lv, size_t i)
{
	return (const struct rh_node *)lv->order[i];
}

static bool node_hidden(const struct rh_walk *w, const struct rh_node *nd, int depth)
{
	return *hidden_at(w->plan, nd->lo, depth) != 0;
}

/*
 * perf's test under a row it shows: its first row below that no filter
 * hides, if any, is not under the limit
 */
static bool rows_below(const struct rh_walk *w, const struct rh_level *lv, int depth)
{
	for (size_t i = 0; i < lv->nr; i++)
		if (!node_hidden(w, node_at(lv, i), depth))
			return percent(w->hv, &node_at(lv, i)->sum) >= w->hv->percent_limit;
	return false;
}

/* A level's rows (lv's, at depth), each with the rows below it */
static int level_print(const struct rh_walk *w, const struct rh_level *lv, int depth)
{
	const struct rh_view *hv = w->hv;
	bool leaf = depth == hv->keys->nr - 1;
	int ret = 0;

	for (size_t i = 0; i < lv->nr && !ret; i++) {
		const struct rh_node *nd = node_at(lv, i);
		/* perf walks every row, hidden or not, and prints those shown */
		bool shown = !node_hidden(w, nd, depth) &&
			     percent(hv, &nd->sum) >= hv->percent_limit;
		struct rh_level below = { 0 };

		if (shown)
			row(w, nd, depth);
		if (leaf) {
			/*
			 * a leaf is one report row, its own call graph (rows that
			 * differ only where perf's comparisons see them equal would
			 * share a leaf: the first one's graph is shown, not merged)
			 */
			if (shown && hv->forest)
				cg_print(w->o, hv->forest, w->plan->rows[nd->lo]->graph.tree, hv->cg,
					 hv->graph_total, nd->sum.self);
			continue;
		}
		ret = level_make(w, nd->lo, nd->hi, depth + 1, &below);
		/* none below shown: perf says so, at the depth below */
		if (!ret && shown && !rows_below(w, &below, depth + 1)) {
			if (!hv->sep)
				repeat(w->o, ' ', (hv->keys->nr + depth) * INDENT);
			repeat(w->o, ' ', values_width(hv) + 4);
			rd_out_printf(w->o, "no entry >= %.2f%%\n", hv->percent_limit);
		}
		if (!ret)
			ret = level_print(w, &below, depth + 1);
		level_free(&below);
	}
	return ret;
}

int rh_print(struct rd_out *o, const struct rh_plan *p, const struct rh_view *hv)
{
	struct rh_walk w = { .o = o, .hv = hv, .plan = p };
	struct rh_level top = { 0 };
	int ret;

	if (!hv->quiet)
		titles(&w);
	if (!p->n || !p->levels)
		return 0;
	ret = level_make(&w, 0, p->n, 0, &top);
	if (!ret)
		ret = level_print(&w, &top, 0);
	level_free(&top);
	return ret;
}
