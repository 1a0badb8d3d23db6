// SPDX-License-Identifier: GPL-2.0
/*
 * perf report -F/--fields (see report_fields.h for the rules): the sort
 * list and the columns, and their titles and text in perf's --stdio
 * layout: "# " under which each row begins with two spaces, columns apart
 * by two spaces, values right-aligned in their width (8 for a percentage,
 * 12 for a count), keys left-aligned in theirs; with -t, the separator
 * between columns, each value in perf's least format (" %.2f%%",
 * " %llu") left-aligned in its width, the last column unpadded.
 */
#include "reader/report_fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum rf_kind kind;
	const char *title;
	int width;
} values[] = {
	{ "overhead", RF_OVERHEAD, "Overhead", 8 },
	{ "overhead_children", RF_CHILDREN, "Children", 8 },
	{ "sample", RF_SAMPLES, "Samples", 12 },
	{ "period", RF_PERIOD, "Period", 12 },
	/* perf's Latency of Children is a column narrower */
	{ "latency", RF_LATENCY, "Latency", 8 },
	{ "latency_children", RF_LAT_CHILDREN, "Latency", 7 },
};

#define NR_VALUES (sizeof(values) / sizeof(values[0]))

static bool col_equal(const struct rf_col *a, const struct rf_col *b)
{
	return a->kind == b->kind && (a->kind != RF_KEY || a->key == b->key);
}

static bool has_col(const struct rf_list *l, const struct rf_col *c)
{
	for (int i = 0; i < l->nr; i++)
		if (col_equal(&l->col[i], c))
			return true;
	return false;
}

static int add_col(struct rf_list *l, const struct rf_col *c)
{
	int keys = 0;

	for (int i = 0; i < l->nr; i++)
		keys += l->col[i].kind == RF_KEY;
	if (l->nr == RF_MAX || (c->kind == RF_KEY && keys == SK_MAX_KEYS))
		return -1;
	l->col[l->nr++] = *c;
	return 0;
}

int rf_parse(struct rf_list *l, const char *spec, char *bad, size_t bad_size)
{
	char *copy = strdup(spec), *save = NULL, *tok;
	int ret = 0;

	memset(l, 0, sizeof(*l));
	if (!copy) {
		snprintf(bad, bad_size, "(out of memory)");
		return -1;
	}
	for (tok = strtok_r(copy, ", ", &save); tok && !ret; tok = strtok_r(NULL, ", ", &save)) {
		struct rf_col c = { .kind = RF_KEY };
		struct sk_list one;
		size_t v;

		for (v = 0; v < NR_VALUES && strcmp(tok, values[v].name); v++)
			;
		if (v < NR_VALUES) {
			c.kind = values[v].kind;
		} else if (!sk_parse(&one, tok, bad, bad_size) && one.nr == 1) {
			c.key = one.keys[0];
		} else {
			snprintf(bad, bad_size, "%s", tok);
			ret = -1;
			break;
		}
		if (has_col(l, &c) || add_col(l, &c)) {
			snprintf(bad, bad_size, "%s", tok);
			ret = -1;
		}
	}
	free(copy);
	return ret;
}

int rf_merge(const struct rf_list *fields, const struct rf_list *sort, struct rf_list *sort_out,
	     struct rf_list *cols_out)
{
	*sort_out = sort ? *sort : *fields;
	*cols_out = *fields;
	for (int i = 0; i < fields->nr; i++)
		if (!has_col(sort_out, &fields->col[i]) && add_col(sort_out, &fields->col[i]))
			return -1;
	for (int i = 0; i < sort_out->nr; i++)
		if (!has_col(cols_out, &sort_out->col[i]) && add_col(cols_out, &sort_out->col[i]))
			return -1;
	return 0;
}

void rf_sort_keys(const struct rf_list *sort, struct sk_list *keys)
{
	static const enum sk_value value_of[] = {
		[RF_OVERHEAD] = SK_V_OVERHEAD, [RF_CHILDREN] = SK_V_CHILDREN,
		[RF_SAMPLES] = SK_V_SAMPLES, [RF_PERIOD] = SK_V_PERIOD,
		[RF_LATENCY] = SK_V_LATENCY, [RF_LAT_CHILDREN] = SK_V_LAT_CHILDREN,
	};
	char bad[64];

	memset(keys, 0, sizeof(*keys));
	keys->overhead_at = -1;
	for (int i = 0; i < sort->nr; i++) {
		const struct rf_col *c = &sort->col[i];
		struct sk_order *o = &keys->order[keys->nr_order++];
		struct sk_list one;

		if (c->kind != RF_KEY) {
			o->value = value_of[c->kind];
			continue;
		}
		o->value = SK_V_KEY;
		o->key = (int8_t)keys->nr;
		keys->keys[keys->nr++] = c->key;
		/* the flags a key sets (past_symbol, branch_keys), as sk_parse sets them */
		if (!sk_parse(&one, sk_name(c->key), bad, sizeof(bad))) {
			keys->past_symbol |= one.past_symbol;
			keys->branch_keys |= one.branch_keys;
		}
	}
}

static int value_index(enum rf_kind kind)
{
	for (size_t v = 0; v < NR_VALUES; v++)
		if (values[v].kind == kind)
			return (int)v;
	return 0;
}

/* The column's key index in the row keys, -1 for a value column */
static int key_index(const struct rf_view *v, const struct rf_col *c)
{
	if (c->kind != RF_KEY)
		return -1;
	for (int k = 0; k < v->keys->nr; k++)
		if (v->keys->keys[k] == c->key)
			return k;
	return -1;
}

static bool shown(const struct rf_view *v, const struct rf_col *c)
{
	int k = key_index(v, c);

	return c->kind != RF_KEY || (k >= 0 && !(v->elided & (1u << k)));
}

/* A value column holds the leader's and each group member's value, each in the value's width */
static int col_width(const struct rf_view *v, const struct rf_col *c)
{
	int k = key_index(v, c), parts = 1 + (v->group ? (int)v->group->nr : 0);

	return c->kind == RF_KEY ? (k >= 0 ? v->width[k] : 0) :
				   parts * values[value_index(c->kind)].width;
}

static const char *col_title(const struct rf_col *c)
{
	return c->kind == RF_KEY ? sk_title(c->key) : values[value_index(c->kind)].title;
}

static int last_shown(const struct rf_list *cols, const struct rf_view *v)
{
	int last = -1;

	for (int i = 0; i < cols->nr; i++)
		if (shown(v, &cols->col[i]))
			last = i;
	return last;
}

void rf_titles(struct rd_out *o, const struct rf_list *cols, const struct rf_view *v)
{
	bool first = true;

	rd_out_str(o, "# ");
	for (int i = 0; i < cols->nr; i++) {
		const struct rf_col *c = &cols->col[i];

		if (!shown(v, c))
			continue;
		if (!first)
			rd_out_str(o, v->sep ? v->sep : "  ");
		first = false;
		rd_out_pad(o, col_title(c), c->kind == RF_KEY ? -col_width(v, c) : col_width(v, c));
	}
	if (v->sep) {
		rd_out_char(o, '\n');
		return;
	}
	rd_out_str(o, "\n# ");
	first = true;
	for (int i = 0; i < cols->nr; i++) {
		const struct rf_col *c = &cols->col[i];

		if (!shown(v, c))
			continue;
		if (!first)
			rd_out_str(o, "  ");
		first = false;
		for (int j = 0; j < col_width(v, c); j++)
			rd_out_char(o, '.');
	}
	rd_out_str(o, "\n#\n");
}

/*
 * A value column's text: the leader's value then each member's (of the
 * member's own total), perf's "%.2f%%" or "%llu" each in the value's width,
 * or with -t at the least width after a space
 */
static void value_text(const struct rf_view *v, const struct rf_col *c, const struct entry *e,
		       char *buf, size_t size)
{
	uint32_t nr = v->group ? v->group->nr : 0;
	int w = values[value_index(c->kind)].width;
	size_t len = 0;

	buf[0] = '\0';
	if (c->kind == RF_KEY)
		return;
	/* no Children without callchains: N/A in the leader's place, right-aligned, with -t too */
	if (c->kind == RF_CHILDREN && !v->children) {
		snprintf(buf, size, "%*s", v->sep || nr ? 8 : 0, "N/A");
		return;
	}
	/* and Children's latency: perf's N/A after a space, left-aligned in the column */
	if (c->kind == RF_LAT_CHILDREN && !v->children) {
		snprintf(buf, size, "%-*s", w, " N/A");
		return;
	}
	for (uint32_t j = 0; j <= nr && len < size; j++) {
		const struct entry *me = j ? v->group->row(v->group->ctx, j - 1, e) : e;
		double total = j ? (v->group->total[j - 1] ? (double)v->group->total[j - 1] : 1.0) :
				   v->total;
		int pw = v->sep ? 0 : nr ? w : 0;

		if (c->kind == RF_LATENCY || c->kind == RF_LAT_CHILDREN) {
			/* a group's members have no latency of their own here: the leader's */
			uint64_t x = j ? 0 : c->kind == RF_LATENCY ? e->lat.self : e->lat.children;

			len += (size_t)snprintf(buf + len, size - len, "%s%*.2f%%", v->sep ? " " : "",
						pw ? pw - 1 : 0,
						100.0 * (double)x / (v->lat_total ? v->lat_total : 1.0));
		} else if (c->kind == RF_OVERHEAD || c->kind == RF_CHILDREN) {
			uint64_t x = !me ? 0 : c->kind == RF_OVERHEAD ? me->self : me->children;

			len += (size_t)snprintf(buf + len, size - len, "%s%*.2f%%", v->sep ? " " : "",
						pw ? pw - 1 : 0, 100.0 * (double)x / total);
		} else {
			uint64_t x = !me ? 0 : c->kind == RF_SAMPLES ? me->nr_samples : me->self;

			len += (size_t)snprintf(buf + len, size - len, "%s%*llu", v->sep ? " " : "", pw,
						(unsigned long long)x);
		}
	}
}

void rf_row(struct rd_out *o, const struct rf_list *cols, const struct rf_view *v,
	    const struct entry *e)
{
	int last = last_shown(cols, v);
	bool first = true;
	char text[1024];

	if (!v->sep)
		rd_out_str(o, "  ");
	for (int i = 0; i < cols->nr; i++) {
		const struct rf_col *c = &cols->col[i];
		int k = key_index(v, c), width = col_width(v, c);

		if (!shown(v, c))
			continue;
		if (!first)
			rd_out_str(o, v->sep ? v->sep : "  ");
		first = false;
		if (c->kind != RF_KEY) {
			value_text(v, c, e, text, sizeof(text));
			/*
			 * -t: left-aligned in the column, the last unpadded; a group's
			 * N/A fills the leader's place and leaves the members' blank
			 */
			rd_out_pad(o, text, v->sep ? (i == last ? 0 : -width) :
				   c->kind == RF_CHILDREN && !v->children && v->group ? -width :
											 width);
			continue;
		}
		sk_cell(e->key, e->key_len, k, c->key, e->at.level, e->thread_comm, width, v->sep,
			text, sizeof(text));
		rd_out_pad(o, text, i == last && !sk_pad_last(c->key) ? 0 : -width);
	}
}
