// SPDX-License-Identifier: GPL-2.0
/*
 * perf report's row order, reproduced step by step, because its output
 * comparator is not a total order: for rows of equal Children of the same
 * thread (with call graphs shown) it puts the deeper tree first, and for
 * other pairs it falls through to Self and the keys; so the order depends
 * on which rows meet.  perf (6.1):
 *
 *  1. keeps the rows in a tree ordered by the keys' "collapse" comparison
 *     (command, object, symbol: by name, a missing object or symbol last,
 *     symbols by start address, unresolved ones by address);
 *  2. walks that tree in order and inserts each row into a red-black tree,
 *     going left where the row sorts before the node, right otherwise
 *     (Children, the depth rule, Self, then command and object by name, a
 *     symbol by name with unresolved ones after resolved and equal among
 *     themselves);
 *  3. prints that tree in order.
 *
 * A red-black tree with the classic insertion (the kernel's rbtree) gives
 * the same shape for the same insertions, so the same order.
 */
#include "reader/hist.h"
#include "reader/rb_index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int strn_cmp(const char *a, size_t al, const char *b, size_t bl)
{
	int c = memcmp(a, b, al < bl ? al : bl);

	return c ? c : (al > bl) - (al < bl);
}

static int sign64(int64_t v)
{
	return (v > 0) - (v < 0);
}

static int field_cmp(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* The function's name of symbol s: an inlined entry's without its " (inlined)" */
size_t hist_func_len(const struct pc_symbol *s)
{
	static const char tail[] = " (inlined)";
	size_t n = sizeof(tail) - 1;

	return s->inlined && s->name_len >= n && !memcmp(s->name + s->name_len - n, tail, n) ?
	       s->name_len - n : s->name_len;
}

/*
 * perf's symbol comparison (above 0 when a comes before b): by start, then
 * end address; where either is an inlined entry, by function name first
 * (strcmp's sign, as perf returns it), and one where the names are equal
 * and the ranges overlap (ends included).  Mixing names and addresses is
 * not transitive: perf 7.2, which gives frame-pointer frames their inlined
 * entries, makes many twins of an outer function's row (hist_input.h).
 */
static int sym_cmp(const struct pc_symbol *a, const struct pc_symbol *b)
{
	if (a == b)
		return 0;
	if (a->inlined || b->inlined) {
		int c = strn_cmp(a->name, hist_func_len(a), b->name, hist_func_len(b));

		if (c)
			return sign64(c);
		if (a->start <= b->end && a->end >= b->start)
			return 0;
	}
	if (a->start != b->start)
		return sign64((int64_t)(b->start - a->start));
	return sign64((int64_t)(b->end - a->end));
}

/* 1 when a's object name sorts first, missing objects last */
static int dso_asc(const struct entry *a, const struct entry *b)
{
	if (!a->at.dso || !b->at.dso)
		return !a->at.dso && !b->at.dso ? 0 : (!a->at.dso ? -1 : 1);
	return -sign64(strn_cmp(a->at.dso, a->at.dso_len, b->at.dso, b->at.dso_len));
}

/*
 * Branch mode's keys, one comparison for both trees (perf has no collapse or
 * sort comparison of their own): objects by name descending, none first;
 * symbols by start (end) address ascending, none last, unresolved ones by
 * address (the wrapped difference); cycles descending.
 */
static int branch_dso(const struct row_at *a, const struct row_at *b)
{
	if (!a->dso || !b->dso)
		return !a->dso && !b->dso ? 0 : (!a->dso ? 1 : -1);
	return sign64(strn_cmp(a->dso, a->dso_len, b->dso, b->dso_len));
}

static int branch_sym(const struct row_at *a, const struct row_at *b)
{
	if (!a->sym && !b->sym)
		return sign64((int64_t)(b->ip - a->ip));
	if (!a->sym || !b->sym)
		return !a->sym ? -1 : 1;
	if (a->sym == b->sym)
		return 0;
	if (a->sym_start != b->sym_start)
		return sign64((int64_t)(b->sym_start - a->sym_start));
	return sign64((int64_t)(b->sym_end - a->sym_end));
}

/* a branch key's comparison, 0 for other keys (rows without branches never meet these) */
static int branch_before(const struct entry *a, const struct entry *b, enum sk_key k)
{
	if (!a->branch || !b->branch)
		return 0;
	switch (k) {
	case SK_DSO_FROM:
		return branch_dso(&a->branch->from, &b->branch->from);
	case SK_DSO_TO:
		return branch_dso(&a->at, &b->at);
	case SK_SYM_FROM:
		return branch_sym(&a->branch->from, &b->branch->from);
	case SK_SYM_TO:
		return branch_sym(&a->at, &b->at);
	case SK_CYCLES:
		return field_cmp(a->branch->cycles, b->branch->cycles);
	default:
		return 0;
	}
}

/* srcline: by its text, ascending */
static int srcline_before(const struct entry *a, const struct entry *b, int col)
{
	char x[512], y[512];

	return -sign64(strcmp(sk_text(a->key, a->key_len, col, '.', "", x, sizeof(x)),
			      sk_text(b->key, b->key_len, col, '.', "", y, sizeof(y))));
}

/*
 * Step 1: positive when a comes before b.  perf's collapse comparisons:
 * comm and srcline by name, pid by tid, cpu by number, objects by name,
 * symbols by object then start (end) address, unresolved last and by
 * address (a wrapped 64-bit difference, as perf computes it).
 */
/* -s parent: a row without a match ("[other]") first, then names in descending order */
static int parent_before(const struct entry *a, const struct entry *b, int col)
{
	char x[512], y[512];
	bool ax, by;

	sk_text(a->key, a->key_len, col, '.', "", x, sizeof(x));
	sk_text(b->key, b->key_len, col, '.', "", y, sizeof(y));
	ax = !strcmp(x, "[other]");
	by = !strcmp(y, "[other]");
	if (ax || by)
		return ax && by ? 0 : ax ? -1 : 1;
	return sign64(strcmp(y, x));
}

/*
 * The comparisons of a key that both of perf's trees make alike: commands
 * by name, pid and tid, cpu, cgroup and time by number, objects by name,
 * source lines by text, branch ends (positive when a comes before b).
 */
static int key_before(const struct entry *a, const struct entry *b, enum sk_key k, int col)
{
	switch (k) {
	case SK_COMM:
		return -sign64(strcmp(a->comm, b->comm));
	case SK_PID:
	case SK_TID:
		return sign64((int64_t)b->tid - (int64_t)a->tid);
	case SK_CPU:
		return sign64((int64_t)b->cpu - (int64_t)a->cpu);
	case SK_CGROUP:
		return sign64((int64_t)(b->cgroup - a->cgroup));
	case SK_TIME:
		return sign64((int64_t)(b->time - a->time));
	case SK_PARALLELISM:
		return sign64((int64_t)b->lat.parallelism - (int64_t)a->lat.parallelism);
	case SK_TRANSACTION:
		/* perf's difference of the words, taken as signed */
		return sign64((int64_t)(sk_key_word(b->key, b->key_len, col) -
					sk_key_word(a->key, a->key_len, col)));
	case SK_DSO:
		return dso_asc(a, b);
	case SK_PARENT:
		return parent_before(a, b, col);
	case SK_SRCLINE:
	case SK_SRCFILE:
		return srcline_before(a, b, col);
	default:
		return branch_before(a, b, k);
	}
}

static int sym_before(const struct entry *a, const struct entry *b, const struct sk_list *keys,
		      int i);

/*
 * Step 1, one key (keys[i]): positive when a comes before b.  perf's
 * collapse comparisons: key_before's, and symbols by object then start
 * (end) address, unresolved last and by address (a wrapped 64-bit
 * difference, as perf computes it).
 */
static int collapse_key(const struct entry *a, const struct entry *b, const struct sk_list *keys,
			int i)
{
	if (keys->keys[i] != SK_SYM && keys->keys[i] != SK_SYMOFF)
		return key_before(a, b, keys->keys[i], i);
	return sym_before(a, b, keys, i);
}

/*
 * perf's input tree compares a srcline row's address (a wrapped 64-bit
 * difference), then its object; the line's text is compared only in its
 * collapse tree, where rows of one line merge (perf 6.1: the text in both)
 */
static int input_key(const struct entry *a, const struct entry *b, const struct sk_list *keys,
		     int i)
{
	if (sk_by_address(keys, keys->keys[i])) {
		uint64_t x = sk_srcline_addr(a->key, a->key_len, i);
		uint64_t y = sk_srcline_addr(b->key, b->key_len, i);

		return x != y ? sign64((int64_t)(y - x)) : dso_asc(a, b);
	}
	return collapse_key(a, b, keys, i);
}

/* symbols by object then start (end) address, unresolved last and by address */
static int sym_before(const struct entry *a, const struct entry *b, const struct sk_list *keys,
		      int i)
{
	int c;

	if (!a->at.sym && !b->at.sym)
		return sign64((int64_t)(b->at.ip - a->at.ip));
	c = dso_asc(a, b);
	if (c)
		return c;
	if (!a->at.sym || !b->at.sym)
		return !a->at.sym ? -1 : 1;
	c = sym_cmp(a->at.sym, b->at.sym);
	if (!c && keys->keys[i] == SK_SYMOFF)
		c = sign64((int64_t)(b->at.ip - a->at.ip));
	return c;
}

typedef int (*key_cmp_fn)(const struct entry *a, const struct entry *b,
			  const struct sk_list *keys, int i);

/* The part of key column p..end the collapse tree compares: a srcline's (srcfile's) text alone */
static const char *col_compared(const char *p, const char *end, enum sk_key k)
{
	bool text_only = k == SK_SRCLINE || k == SK_SRCFILE;
	const char *us = text_only ? memchr(p, '\x1f', (size_t)(end - p)) : NULL;

	return us ? us + 1 : p;
}

/* The key bytes that tell rows apart in the input tree (sk_ident), above 0 when a's sort first */
static int ident_cmp(const struct entry *a, const struct entry *b)
{
	char x[2048], y[2048];
	size_t nx, ny;

	/* keys without a line's text are their own identity: no copies (the hot path) */
	if (!memchr(a->key, '\x04', a->key_len) && !memchr(b->key, '\x04', b->key_len))
		return -sign64(strn_cmp(a->key, a->key_len, b->key, b->key_len));
	nx = sk_ident(a->key, a->key_len, x, sizeof(x));
	ny = sk_ident(b->key, b->key_len, y, sizeof(y));

	if (!nx || !ny)
		return -sign64(strn_cmp(a->key, a->key_len, b->key, b->key_len));
	return -sign64(strn_cmp(x, nx, y, ny));
}

/*
 * The key bytes, column by column (above 0 when a's sort first): in the
 * input tree those that tell rows apart; in the collapse tree a srcline
 * column's address and object are left out, as perf's collapse compares
 * the lines alone
 */
static int key_bytes_cmp(const struct entry *a, const struct entry *b,
			 const struct sk_list *keys, bool collapse)
{
	const char *pa = a->key, *ea = a->key + a->key_len;
	const char *pb = b->key, *eb = b->key + b->key_len;

	if (!collapse)
		return ident_cmp(a, b);
	for (int i = 0; i < keys->nr && pa < ea && pb < eb; i++) {
		const char *ra = memchr(pa, '\x1e', (size_t)(ea - pa));
		const char *rb = memchr(pb, '\x1e', (size_t)(eb - pb));
		const char *ca, *cb;
		int c;

		ra = ra ? ra : ea;
		rb = rb ? rb : eb;
		ca = col_compared(pa, ra, keys->keys[i]);
		cb = col_compared(pb, rb, keys->keys[i]);
		c = strn_cmp(ca, (size_t)(ra - ca), cb, (size_t)(rb - cb));
		if (c)
			return -sign64(c);
		pa = ra < ea ? ra + 1 : ea;
		pb = rb < eb ? rb + 1 : eb;
	}
	return -sign64(strn_cmp(pa, (size_t)(ea - pa), pb, (size_t)(eb - pb)));
}

/*
 * Step 1 with one key's comparison of a tree: positive when a comes before
 * b.  Inlined into each tree's comparison, whose key function is then a
 * direct call: this runs for every frame of every sample.
 */
static inline __attribute__((always_inline)) int tree_cmp(const struct entry *a, const struct entry *b, const struct sk_list *keys,
		    key_cmp_fn key, bool collapse)
{
	int c = 0;

	/*
	 * perf 6.15+ never finds a hidden row equal to a shown one: it
	 * compares their filtered state before any key, so a hidden row
	 * steers the searches of every other key (not a last, unseen key).
	 * The symbol filter marks a row once it is in the collapse tree: the
	 * input tree never sees that mark, a row entering the collapse tree
	 * not its own (keys->filtered_late), the rows there theirs.
	 */
	if (keys->filtered_first) {
		uint8_t seen = ENTRY_HIDDEN & ~keys->filtered_late;

		c = !!(a->filtered & (collapse ? ENTRY_HIDDEN : seen)) - !!(b->filtered & seen);
	}
	for (int i = 0; i < keys->nr && !c; i++)
		c = key(a, b, keys, i);
	/*
	 * what perf keeps apart but the comparisons above do not order; not
	 * two inlined entries they found equal (one name, ranges that meet:
	 * functions side by side), which perf's search takes for one row
	 */
	if (!c && !(a->at.sym && b->at.sym && a->at.sym->inlined && b->at.sym->inlined))
		c = key_bytes_cmp(a, b, keys, collapse);
	return c;
}

int hist_cmp(const struct entry *a, const struct entry *b, const struct sk_list *keys)
{
	return tree_cmp(a, b, keys, input_key, false);
}

/* perf's collapse tree: a srcline row by its line's text */
static int hist_collapse_cmp(const struct entry *a, const struct entry *b,
			     const struct sk_list *keys)
{
	return tree_cmp(a, b, keys, collapse_key, true);
}

bool hist_same_key(const struct entry *a, const struct entry *b, const struct sk_list *keys, int i)
{
	char x[512], y[512];

	if (collapse_key(a, b, keys, i))
		return false;
	if (keys->keys[i] != SK_TRACE)
		return true;
	/* perf compares the tracepoint texts, which the comparisons above leave equal */
	return !strcmp(sk_text(a->key, a->key_len, i, '.', "", x, sizeof(x)),
		       sk_text(b->key, b->key_len, i, '.', "", y, sizeof(y)));
}

/*
 * perf's comparison of a cumulated value (x of a, y of b: Children, or its
 * latency): the larger first, and between rows of one thread with equal
 * values, the caller above the callee (the deeper chain first, the
 * shallower in caller order) when call graphs are shown
 */
static int acc_cmp(uint64_t x, uint64_t y, const struct entry *a, const struct entry *b,
		   const struct hist_order *o)
{
	int c = field_cmp(x, y);

	if (c || !o->graphs || a->tid != b->tid)
		return c;
	{
		int64_t d = (int64_t)b->graph.max_depth - (int64_t)a->graph.max_depth;

		return sign64(o->caller ? -d : d);
	}
}

static int children_cmp(const struct entry *a, const struct entry *b, const struct hist_order *o)
{
	return acc_cmp(a->children, b->children, a, b, o);
}

/* perf's Children, then its latency (its hidden key); --latency: the other way round */
static int cumulated_cmp(const struct entry *a, const struct entry *b, const struct hist_order *o)
{
	int c = o->latency_first ? acc_cmp(a->lat.children, b->lat.children, a, b, o) :
				   children_cmp(a, b, o);

	if (c || !o->latency)
		return c;
	return o->latency_first ? children_cmp(a, b, o) :
				  field_cmp(a->lat.children, b->lat.children);
}

/* One sort key of the output order (key i of keys[]), perf's se_sort */
static int key_cmp(const struct entry *a, const struct entry *b, const struct hist_order *o, int i)
{
	enum sk_key k = o->keys->keys[i];

	if (o->elided & (1u << i))
		return 0;
	/* perf's output sort: symbols by name, unresolved ones after and equal */
	if (k == SK_SYM || k == SK_SYMOFF)
		return !a->at.sym || !b->at.sym ?
		       (!a->at.sym && !b->at.sym ? 0 : (!a->at.sym ? -1 : 1)) :
		       -sign64(strn_cmp(a->at.sym->name, hist_func_len(a->at.sym), b->at.sym->name,
				       hist_func_len(b->at.sym)));
	return key_before(a, b, k, i);
}

/* report -F: the sort list as given, each value column where it is named */
static int ordered_sort(const struct entry *a, const struct entry *b, const struct hist_order *o)
{
	int c = 0;

	for (int i = 0; i < o->keys->nr_order && !c; i++) {
		const struct sk_order *s = &o->keys->order[i];

		switch (s->value) {
		case SK_V_KEY:
			c = key_cmp(a, b, o, s->key);
			break;
		case SK_V_OVERHEAD:
		case SK_V_PERIOD:
			/* a group's: the leader's, then each member's in turn */
			c = field_cmp(a->self, b->self);
			if (!c && o->members_cmp)
				c = o->members_cmp(a, b, false, o->members_ctx);
			break;
		case SK_V_CHILDREN:
			c = o->cumulate ? children_cmp(a, b, o) : 0;
			break;
		case SK_V_LATENCY:
			c = field_cmp(a->lat.self, b->lat.self);
			break;
		case SK_V_LAT_CHILDREN:
			c = o->cumulate ? acc_cmp(a->lat.children, b->lat.children, a, b, o) : 0;
			break;
		case SK_V_SAMPLES:
			c = field_cmp(a->nr_samples, b->nr_samples);
			if (!c && o->members_cmp)
				c = o->members_cmp(a, b, true, o->members_ctx);
			break;
		}
	}
	return c;
}

/* Step 2: positive when the new row a goes left of the node b. */
static int output_sort(const struct entry *a, const struct entry *b, const struct hist_order *o)
{
	int c;

	/* perf 6.15+: a hidden row and a shown one compare by that first here too */
	if (o->keys->filtered_first &&
	    (c = !!(a->filtered & ENTRY_HIDDEN) - !!(b->filtered & ENTRY_HIDDEN)))
		return c;
	if (o->keys->nr_order)
		return ordered_sort(a, b, o);
	if (o->children && (c = cumulated_cmp(a, b, o)))
		return c;
	/*
	 * then the sort keys in their order, the value columns among them where
	 * -s named them: the overhead first unless named later, the samples and
	 * the period where named
	 */
	for (int i = 0; i <= o->keys->nr; i++) {
		if (i == o->keys->overhead_at) {
			if (o->latency_first && (c = field_cmp(a->lat.self, b->lat.self)))
				return c;
			c = field_cmp(a->self, b->self);
			if (c)
				return c;
			if (o->members_cmp && (c = o->members_cmp(a, b, false, o->members_ctx)))
				return c;
			if (o->latency && !o->latency_first &&
			    (c = field_cmp(a->lat.self, b->lat.self)))
				return c;
		}
		if (o->keys->samples && i == o->keys->samples_at) {
			c = field_cmp(a->nr_samples, b->nr_samples);
			if (c)
				return c;
		}
		if (o->keys->period && i == o->keys->period_at) {
			c = field_cmp(a->self, b->self);
			if (c)
				return c;
		}
		if (i == o->keys->nr)
			break;
		c = key_cmp(a, b, o, i);
		if (c)
			return c;
	}
	return 0;
}

/*
 * Inserts in[0..n) in turn into a red-black tree as perf inserts its rows,
 * a row going left of a node where cmp(node, row) is below 0; with merge,
 * a row the search finds equal (cmp 0) is added into that node's row and
 * left out, as perf's collapse does.  Writes the tree's in-order walk to
 * out, *nr_out rows.
 */
typedef int (*node_cmp_fn)(const struct entry *node, const struct entry *row,
			   const struct hist_order *o);

static int rb_walk(struct entry **in, size_t n, node_cmp_fn cmp, bool merge,
		   const struct hist_order *o, struct entry **out, size_t *nr_out)
{
	struct rb_index t = { 0 };
	struct entry **row = malloc(n * sizeof(*row));
	uint32_t *order = malloc(n * sizeof(*order));
	int ret = rb_index_reserve(&t, n);

	if (!row || !order)
		ret = -ENOMEM;
	for (size_t i = 0; i < n && !ret; i++) {
		uint32_t parent = 0, cur = t.root;
		bool left = false;
		int c = 1;

		while (cur) {
			parent = cur;
			c = cmp(row[cur - 1], in[i], o);
			if (!c && merge)
				break;
			left = c < 0;
			cur = left ? rb_index_left(&t, cur) : rb_index_right(&t, cur);
		}
		if (cur) {
			ret = o->merge(row[cur - 1], in[i], o->merge_ctx);
			continue;
		}
		row[rb_index_link(&t, parent, left) - 1] = in[i];
	}
	if (!ret)
		ret = rb_index_walk(&t, order);
	for (uint32_t k = 0; !ret && k < t.nr; k++)
		out[k] = row[order[k] - 1];
	*nr_out = t.nr;
	rb_index_free(&t);
	free(row);
	free(order);
	return ret;
}

/* perf's input tree: hist_entry__cmp of node and row */
static int input_cmp(const struct entry *node, const struct entry *row,
		     const struct hist_order *o)
{
	return hist_cmp(node, row, o->keys);
}

/* perf's collapse tree: hist_entry__collapse of node and row */
static int collapse_cmp(const struct entry *node, const struct entry *row,
			const struct hist_order *o)
{
	return hist_collapse_cmp(node, row, o->keys);
}

/* perf's output tree: a row goes left where it sorts above the node */
static int output_cmp(const struct entry *node, const struct entry *row,
		      const struct hist_order *o)
{
	return output_sort(row, node, o) > 0 ? -1 : 1;
}

static int seq_cmp(const void *x, const void *y)
{
	const struct entry *a = *(struct entry *const *)x, *b = *(struct entry *const *)y;

	return (a->seq > b->seq) - (a->seq < b->seq);
}

/*
 * perf builds its collapse tree only when a key has a collapse comparison
 * of its own (command; srcline and srcfile from perf 6.3 on), and before
 * perf 7 only a key of -s, not of -F; otherwise the output tree is fed
 * from the input tree.  The difference shows when unresolved addresses
 * more than 2^63 apart meet: their wrapped comparison is not transitive,
 * so walking the rows through one more tree can reorder them.
 */
bool hist_keys_collapse(const struct sk_list *keys)
{
	for (int i = 0; i < keys->nr; i++)
		if (!(keys->fields_only & (1u << i)) &&
		    (keys->keys[i] == SK_COMM || sk_by_address(keys, keys->keys[i])))
			return true;
	return false;
}

/*
 * perf's input tree of rows a[0..*nr) (copied from the caller's v), its
 * in-order walk into b: a walk the caller already has is taken as it is,
 * else the rows go in as perf made them (sample order) unless given so
 */
static int input_walk(struct entry **a, struct entry **b, size_t *nr, const struct hist_order *o)
{
	if (o->input_walked) {
		memcpy(b, a, *nr * sizeof(*a));
		return 0;
	}
	if (!o->as_given)
		qsort(a, *nr, sizeof(*a), seq_cmp);
	return rb_walk(a, *nr, input_cmp, false, o, b, nr);
}

int hist_collapse_order(struct entry **v, size_t n, const struct sk_list *keys)
{
	struct hist_order o = { .keys = keys };
	struct entry **a;
	size_t nr = n;
	int ret;

	if (n < 2)
		return 0;
	if (n > UINT32_MAX - 1)
		return -E2BIG;
	a = malloc(n * sizeof(*a));
	if (!a)
		return -ENOMEM;
	memcpy(a, v, n * sizeof(*a));
	ret = input_walk(a, v, &nr, &o);
	free(a);
	return ret;
}

int hist_merge_twins(struct entry **v, size_t n, const struct hist_order *o)
{
	struct entry **a, **b;
	size_t nr = n;
	int ret = -ENOMEM;

	if (n < 2 || !hist_keys_collapse(o->keys))
		return 0;
	if (n > UINT32_MAX - 1)
		return -E2BIG;
	a = malloc(n * sizeof(*a));
	b = malloc(n * sizeof(*b));
	if (!a || !b)
		goto out;
	memcpy(a, v, n * sizeof(*a));
	ret = input_walk(a, b, &nr, o);
	if (!ret)
		ret = rb_walk(b, nr, collapse_cmp, true, o, a, &nr);
out:
	free(a);
	free(b);
	return ret;
}

int hist_order(struct entry **v, size_t *n, const struct hist_order *o)
{
	struct entry **a, **b;
	size_t nr = *n;
	int ret = -ENOMEM;

	if (nr < 2)
		return 0;
	if (nr > UINT32_MAX - 1)
		return -E2BIG;
	a = malloc(nr * sizeof(*a));
	b = malloc(nr * sizeof(*b));
	if (!a || !b)
		goto out;
	memcpy(a, v, nr * sizeof(*a));
	ret = input_walk(a, b, &nr, o);
	/*
	 * then its collapse tree when a key asks for one (where the twins of
	 * a row its input tree missed meet again, merged when found), then
	 * its output tree
	 */
	if (!ret && hist_keys_collapse(o->keys) && !o->as_given)
		ret = rb_walk(b, nr, collapse_cmp, o->merge != NULL, o, a, &nr);
	else if (!ret)
		memcpy(a, b, nr * sizeof(*a));
	if (!ret)
		ret = rb_walk(a, nr, output_cmp, false, o, v, &nr);
	*n = nr;
out:
	free(a);
	free(b);
	return ret;
}
