// SPDX-License-Identifier: GPL-2.0
/*
 * A sorted symbol table.  Aliases at one address collapse to one symbol
 * chosen the way perf chooses (sized over unsized, non-weak over weak,
 * global over local, fewer leading underscores, longer name), so that the
 * names we print match the ones perf prints.
 */
#include "symbols/symbols.h"
#include "symbols/rbshape.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* While building, name and module hold (offset + 1) into t->names. */
static uintptr_t symtab__intern(struct pc_symtab *t, const char *s)
{
	size_t len = strlen(s) + 1;

	if (t->names_len + len > t->names_cap) {
		size_t cap = t->names_cap ? t->names_cap * 2 : 65536;
		char *n;

		while (cap < t->names_len + len)
			cap *= 2;
		n = realloc(t->names, cap);
		if (!n)
			return 0;
		t->names = n;
		t->names_cap = cap;
	}
	memcpy(t->names + t->names_len, s, len);
	t->names_len += len;
	return t->names_len - len + 1;
}

int pc_symtab_add(struct pc_symtab *t, uint64_t start, uint64_t size,
		  const char *name, enum pc_sym_bind bind, const char *module)
{
	uintptr_t n, m = 0;

	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct pc_symbol *s = realloc(t->syms, cap * sizeof(*s));
		uint8_t *b;

		if (!s)
			return -ENOMEM;
		t->syms = s;
		b = realloc(t->bind, cap);
		if (!b)
			return -ENOMEM;
		t->bind = b;
		t->cap = cap;
	}
	if (name[0] == '_' && name[1] == 'Z' && t->demangle != PC_DEMANGLE_NONE) {
		char buf[1024];

		n = symtab__intern(t, pc_demangle(name, t->demangle == PC_DEMANGLE_WHOLE, buf,
						  sizeof(buf)));
	} else {
		n = symtab__intern(t, name);
	}
	if (!n)
		return -ENOMEM;
	if (module) {
		/* kallsyms lists a module's symbols together: one name for them all */
		uintptr_t last = t->nr ? (uintptr_t)t->syms[t->nr - 1].module : 0;

		m = last && !strcmp(t->names + last - 1, module) ? last : symtab__intern(t, module);
		if (!m)
			return -ENOMEM;
	}
	t->syms[t->nr] = (struct pc_symbol){ start, start + size,
					     (const char *)n, (const char *)m, 0 };
	t->bind[t->nr] = bind;
	t->nr++;
	return 0;
}

static const char *symtab__str(const struct pc_symtab *t, const char *p)
{
	uintptr_t off = (uintptr_t)p;

	return off ? t->names + off - 1 : NULL;
}

/* The bind of symbol i as added, without its IFUNC flag. */
static uint8_t bind_of(const struct pc_symtab *t, size_t i)
{
	return t->bind[i] & (uint8_t)~PC_SYM_IFUNC;
}

struct sort_ent {
	struct pc_symbol sym;
	uint8_t bind;
	size_t seq;
};

static int sort_ent__cmp(const void *a, const void *b)
{
	const struct sort_ent *x = a, *y = b;

	if (x->sym.start != y->sym.start)
		return x->sym.start < y->sym.start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * qsort unless e is in order already (kallsyms lists the kernel's text by
 * address): seq makes the order total, so a sorted array is its own sort.
 */
static void sort_by_start(struct sort_ent *e, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (sort_ent__cmp(&e[i - 1], &e[i]) > 0) {
			qsort(e, n, sizeof(*e), sort_ent__cmp);
			return;
		}
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* True when b should replace a as the one symbol at their address. */
static bool prefer(const struct pc_symtab *t, const struct sort_ent *a,
		   const struct sort_ent *b)
{
	bool asz = a->sym.end > a->sym.start, bsz = b->sym.end > b->sym.start;
	const char *an = symtab__str(t, a->sym.name), *bn = symtab__str(t, b->sym.name);
	size_t au, bu, al, bl;

	if (asz != bsz)
		return bsz;
	if ((a->bind == PC_BIND_WEAK) != (b->bind == PC_BIND_WEAK))
		return a->bind == PC_BIND_WEAK;
	if ((a->bind == PC_BIND_GLOBAL) != (b->bind == PC_BIND_GLOBAL))
		return b->bind == PC_BIND_GLOBAL;
	au = underscores(an);
	bu = underscores(bn);
	if (au != bu)
		return bu < au;
	al = strlen(an);
	bl = strlen(bn);
	return bl > al;
}

/* Does a search need perf's tree: two symbols overlap, or one is empty (perf finds its start)? */
static bool overlapping(const struct sort_ent *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (e[i].sym.end == e[i].sym.start)
			return true;
		if (i + 1 < n && e[i].sym.end > e[i + 1].sym.start)
			return true;
	}
	return false;
}

/*
 * perf's tree for the kept symbols e[0..n) (sorted): every symbol that is
 * not late inserted in the order added, the dropped aliases (gone[],
 * positions in the order added, in the order dropped) erased, then the
 * late ones inserted.  The links become t->kids over the sorted order.
 */
static void build_tree(struct pc_symtab *t, const struct sort_ent *e, size_t n,
		       const struct sort_ent *all, size_t nr_all, const size_t *gone,
		       size_t nr_gone)
{
	struct pc_rbtree tree = { calloc(nr_all ? nr_all : 1, sizeof(*tree.n)), -1 };
	uint64_t *start = malloc((nr_all ? nr_all : 1) * sizeof(*start));
	int32_t *pos = malloc((nr_all ? nr_all : 1) * sizeof(*pos));

	t->kids = calloc(2 * (n ? n : 1), sizeof(*t->kids));
	if (!tree.n || !start || !pos || !t->kids) {
		free(t->kids);
		t->kids = NULL;	/* sorted search: right wherever nothing overlaps */
		goto out;
	}
	for (size_t i = 0; i < nr_all; i++) {
		start[i] = all[i].sym.start;
		pos[i] = -1;
	}
	for (size_t i = 0; i < nr_all; i++)
		if (all[i].bind != PC_BIND_PLT)
			pc_rb_insert(&tree, start, (int32_t)i);
	for (size_t i = 0; i < nr_gone; i++)
		pc_rb_erase(&tree, (int32_t)gone[i]);
	for (size_t i = 0; i < nr_all; i++) {
		if (t->retracted && i == t->retract_at)
			pc_rb_erase(&tree, (int32_t)(t->retracted - 1));
		if (all[i].bind == PC_BIND_PLT)
			pc_rb_insert(&tree, start, (int32_t)i);
	}
	if (t->retracted && t->retract_at == nr_all)
		pc_rb_erase(&tree, (int32_t)(t->retracted - 1));
	for (size_t i = 0; i < n; i++)
		pos[e[i].seq] = (int32_t)i;
	for (size_t i = 0; i < n; i++) {
		const struct pc_rbnode *nd = &tree.n[e[i].seq];

		t->kids[2 * i] = nd->left >= 0 ? (uint32_t)pos[nd->left] + 1 : 0;
		t->kids[2 * i + 1] = nd->right >= 0 ? (uint32_t)pos[nd->right] + 1 : 0;
	}
	t->root = tree.root >= 0 ? (uint32_t)pos[tree.root] + 1 : 0;
out:
	free(tree.n);
	free(start);
	free(pos);
}

static void finish(struct pc_symtab *t, bool raw)
{
	struct sort_ent *e, *all = NULL;
	size_t i, out = 0, nr_all = t->nr, *gone = NULL, nr_gone = 0;

	if (!t->nr)
		goto strings;
	e = malloc(t->nr * sizeof(*e));
	gone = malloc(t->nr * sizeof(*gone));
	if (!e || !gone) {
		free(e);
		t->nr = 0;
		goto strings;
	}
	for (i = 0; i < t->nr; i++)
		e[i] = (struct sort_ent){ t->syms[i], raw ? PC_BIND_PLT : bind_of(t, i), i };
	sort_by_start(e, t->nr);
	/*
	 * Close open ends first, then drop aliases, in perf's order: an unsized
	 * alias ends where the next one starts (same address, so it stays
	 * empty) and loses to the sized one, which is the last of the group.
	 * Late (PLT) symbols take no part: perf adds them afterwards.
	 */
	for (i = 0; i < t->nr; i++) {
		struct pc_symbol *cur = &e[i].sym;
		size_t next = i + 1;

		if (cur->end != cur->start || e[i].bind == PC_BIND_PLT)
			continue;
		while (next < t->nr && e[next].bind == PC_BIND_PLT)
			next++;
		if (next == t->nr)
			cur->end = ((cur->start + 4095) & ~4095ULL) + 4096;
		else if (!cur->module != !e[next].sym.module)	/* kernel text | module */
			cur->end = ((cur->start + 4096 + 4095) & ~4095ULL);
		else
			cur->end = e[next].sym.start;
	}
	for (i = 0; i < t->nr; i++) {
		size_t last = out;

		/* the last kept symbol that is not late: aliases are its to decide */
		while (last && e[last - 1].bind == PC_BIND_PLT)
			last--;
		if (t->retracted && e[i].seq == t->retracted - 1)
			continue;	/* gone again: build_tree erases it in its turn */
		if (e[i].bind != PC_BIND_PLT && last &&
		    e[last - 1].sym.start == e[i].sym.start) {
			if (prefer(t, &e[last - 1], &e[i])) {
				gone[nr_gone++] = e[last - 1].seq;
				e[last - 1] = e[i];
			} else {
				gone[nr_gone++] = e[i].seq;
			}
			continue;
		}
		e[out++] = e[i];
	}
	/* the aliases kept may have moved behind late ones: back in (start, order added) */
	sort_by_start(e, out);
	if (overlapping(e, out)) {
		/* perf's tree, grown from every symbol in the order added (seq) */
		all = malloc(nr_all * sizeof(*all));
		if (!all)
			out = 0;	/* no memory: an empty table, as above */
		for (i = 0; all && i < nr_all; i++)
			all[i] = (struct sort_ent){ t->syms[i], raw ? PC_BIND_PLT : bind_of(t, i), i };
		if (all)
			build_tree(t, e, out, all, nr_all, gone, nr_gone);
	}
	for (i = 0; i < out; i++)
		t->syms[i] = e[i].sym;
	t->nr = out;
	free(e);
strings:
	free(all);
	free(gone);
	for (i = 0; i < t->nr; i++) {
		t->syms[i].name = symtab__str(t, t->syms[i].name);
		t->syms[i].module = symtab__str(t, t->syms[i].module);
		t->syms[i].name_len = (uint32_t)strlen(t->syms[i].name);
	}
	free(t->bind);
	t->bind = NULL;
}

void pc_symtab_retract(struct pc_symtab *t, size_t i)
{
	if (i < t->nr && bind_of(t, i) == PC_BIND_PLT) {
		t->retracted = i + 1;
		t->retract_at = t->nr;
	}
}

/*
 * The symbol holding limit as finish would close the ends: the last one
 * added (not late) of those with the highest start below limit; nr if
 * none.  Its unsized aliases added before it stay empty.
 */
static size_t below(const struct pc_symtab *t, uint64_t limit, uint64_t *next)
{
	size_t top = t->nr;

	*next = 0;
	for (size_t i = 0; i < t->nr; i++) {
		uint64_t at = t->syms[i].start;

		if (bind_of(t, i) == PC_BIND_PLT)
			continue;
		if (at < limit && (top == t->nr || at >= t->syms[top].start))
			top = i;
	}
	for (size_t i = 0; top < t->nr && i < t->nr; i++)
		if (bind_of(t, i) != PC_BIND_PLT && t->syms[i].start > t->syms[top].start &&
		    (!*next || t->syms[i].start < *next))
			*next = t->syms[i].start;
	return top;
}

void pc_symtab_clip_at(struct pc_symtab *t, uint64_t limit)
{
	uint64_t next;
	size_t top = below(t, limit, &next);

	if (top == t->nr)
		return;
	/* each alias that would hold limit: the one perf keeps is among them */
	for (size_t i = 0; i < t->nr; i++) {
		struct pc_symbol *s = &t->syms[i];
		uint64_t end = s->end;

		if (bind_of(t, i) == PC_BIND_PLT || s->start != t->syms[top].start)
			continue;
		if (end == s->start && i == top)
			end = next ? next : ((s->start + 4095) & ~4095ULL) + 4096;
		if (end > limit)
			s->end = limit;
	}
}

/* The last symbol added that is not late and starts at addr; nr if none. */
static size_t last_at(const struct pc_symtab *t, uint64_t addr)
{
	size_t last = t->nr;

	for (size_t i = 0; i < t->nr; i++)
		if (t->syms[i].start == addr && bind_of(t, i) != PC_BIND_PLT)
			last = i;
	return last;
}

/*
 * perf drops aliases pairwise in the order added, the kept one against the
 * next; the winner of a pair is marked an IFUNC's alias when the loser was
 * an IFUNC (the mark is the winner's own: a later win over a marked one
 * does not carry it).
 */
const char *pc_symtab_ifunc_at(const struct pc_symtab *t, uint64_t addr)
{
	size_t last = last_at(t, addr);
	struct sort_ent win = { 0 };
	bool have = false, win_ifunc = false, marked = false;

	for (size_t i = 0; i <= last && i < t->nr; i++) {
		struct sort_ent cur = { t->syms[i], bind_of(t, i), i };
		bool ifunc = t->bind[i] & PC_SYM_IFUNC;

		if (cur.sym.start != addr || cur.bind == PC_BIND_PLT)
			continue;
		/* finish closes the group's last open end past addr: it is sized */
		if (i == last && cur.sym.end == cur.sym.start)
			cur.sym.end = addr + 1;
		if (!have) {
			have = true;
		} else if (!prefer(t, &win, &cur)) {
			marked |= ifunc;
			continue;
		} else {
			marked = win_ifunc;
		}
		win = cur;
		win_ifunc = ifunc;
	}
	return have && (win_ifunc || marked) ? symtab__str(t, win.sym.name) : NULL;
}

void pc_symtab_finish(struct pc_symtab *t)
{
	finish(t, false);
}

void pc_symtab_finish_raw(struct pc_symtab *t)
{
	finish(t, true);
}

/* perf's walk: the first symbol down from the root holding addr (its end: see symbols.h) */
static const struct pc_symbol *tree_find(const struct pc_symtab *t, uint64_t addr)
{
	uint32_t i = t->root;

	while (i) {
		const struct pc_symbol *s = &t->syms[i - 1];

		if (addr < s->start)
			i = t->kids[2 * (i - 1)];
		else if (addr > s->end || (addr == s->end && addr != s->start))
			i = t->kids[2 * (i - 1) + 1];
		else
			return s;
	}
	return NULL;
}

const struct pc_symbol *pc_symtab_find(const struct pc_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	if (t->kids)
		return tree_find(t, addr);
	/* last symbol starting at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (addr < t->syms[lo - 1].end)
		return &t->syms[lo - 1];
	return NULL;
}

void pc_symtab_free(struct pc_symtab *t)
{
	free(t->syms);
	free(t->bind);
	free(t->names);
	free(t->kids);
	memset(t, 0, sizeof(*t));
}
