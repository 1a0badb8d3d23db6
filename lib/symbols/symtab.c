// SPDX-License-Identifier: GPL-2.0
/*
 * A sorted symbol table.  Aliases at one address collapse to one symbol
 * chosen the way perf chooses (sized over unsized, non-weak over weak,
 * global over local, fewer leading underscores, longer name), so that the
 * names we print match the ones perf prints.
 */
#include "symbols/symbols.h"

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
	if (name[0] == '_' && name[1] == 'Z') {
		char buf[1024];

		n = symtab__intern(t, pc_demangle(name, buf, sizeof(buf)));
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

void pc_symtab_finish(struct pc_symtab *t)
{
	struct sort_ent *e;
	size_t i, out = 0;

	if (!t->nr)
		goto strings;
	e = malloc(t->nr * sizeof(*e));
	if (!e) {
		t->nr = 0;
		goto strings;
	}
	for (i = 0; i < t->nr; i++)
		e[i] = (struct sort_ent){ t->syms[i], t->bind[i], i };
	qsort(e, t->nr, sizeof(*e), sort_ent__cmp);
	/*
	 * Close open ends first, then drop aliases, in perf's order: an unsized
	 * alias ends where the next one starts (same address, so it stays
	 * empty) and loses to the sized one, which is the last of the group.
	 */
	for (i = 0; i < t->nr; i++) {
		struct pc_symbol *cur = &e[i].sym;

		if (cur->end != cur->start)
			continue;
		if (i + 1 == t->nr)
			cur->end = ((cur->start + 4095) & ~4095ULL) + 4096;
		else if (!cur->module != !e[i + 1].sym.module)	/* kernel text | module */
			cur->end = ((cur->start + 4096 + 4095) & ~4095ULL);
		else
			cur->end = e[i + 1].sym.start;
	}
	for (i = 0; i < t->nr; i++) {
		if (out && e[out - 1].sym.start == e[i].sym.start) {
			if (prefer(t, &e[out - 1], &e[i]))
				e[out - 1] = e[i];
			continue;
		}
		e[out++] = e[i];
	}
	for (i = 0; i < out; i++)
		t->syms[i] = e[i].sym;
	t->nr = out;
	free(e);
strings:
	for (i = 0; i < t->nr; i++) {
		t->syms[i].name = symtab__str(t, t->syms[i].name);
		t->syms[i].module = symtab__str(t, t->syms[i].module);
		t->syms[i].name_len = (uint32_t)strlen(t->syms[i].name);
	}
	free(t->bind);
	t->bind = NULL;
}

const struct pc_symbol *pc_symtab_find(const struct pc_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

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
	memset(t, 0, sizeof(*t));
}
