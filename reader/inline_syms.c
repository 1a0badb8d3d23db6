// SPDX-License-Identifier: GPL-2.0
/* Interned symbols of inlined functions (perf 6.1's "NAME (inlined)" entries). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/inline_syms.h"

struct rd_isym {
	struct pc_symbol sym;		/* name: "func (inlined)" */
	const struct pc_symbol *base;
	char *func;
	struct rd_isym *next;
};

static size_t hash(const struct pc_symbol *base, const char *func)
{
	size_t h = (size_t)(uintptr_t)base * 0x9E3779B97F4A7C15ULL;

	while (*func)
		h = (h ^ (unsigned char)*func++) * 1099511628211ULL;
	return h;
}

static int grow(struct rd_isyms *t)
{
	size_t n = t->nr_buckets ? t->nr_buckets * 4 : 256;
	struct rd_isym **b = calloc(n, sizeof(*b));

	if (!b)
		return -1;
	for (size_t i = 0; i < t->nr_buckets; i++) {
		struct rd_isym *e = t->buckets[i], *next;

		for (; e; e = next) {
			size_t h = hash(e->base, e->func) & (n - 1);

			next = e->next;
			e->next = b[h];
			b[h] = e;
		}
	}
	free(t->buckets);
	t->buckets = b;
	t->nr_buckets = n;
	return 0;
}

const struct pc_symbol *rd_isym_get(struct rd_isyms *t, const struct pc_symbol *base,
				    const char *func)
{
	struct rd_isym *e;
	size_t h, len;
	char *name;

	if (!func)
		func = "??";
	if (strlen(func) == base->name_len && !memcmp(func, base->name, base->name_len))
		return base;
	if (t->nr >= t->nr_buckets && grow(t))
		return NULL;
	h = hash(base, func) & (t->nr_buckets - 1);
	for (e = t->buckets[h]; e; e = e->next)
		if (e->base == base && !strcmp(e->func, func))
			return &e->sym;
	e = calloc(1, sizeof(*e));
	len = strlen(func) + sizeof(" (inlined)");
	name = malloc(len);
	if (!e || !name || !(e->func = strdup(func))) {
		free(e);
		free(name);
		return NULL;
	}
	snprintf(name, len, "%s (inlined)", func);
	e->sym = *base;
	e->sym.name = name;
	e->sym.name_len = (uint32_t)strlen(name);
	e->sym.module = NULL;
	e->sym.inlined = true;
	e->base = base;
	e->next = t->buckets[h];
	t->buckets[h] = e;
	t->nr++;
	return &e->sym;
}

const struct pc_symbol *rd_isym_base(const struct pc_symbol *s)
{
	/* an inlined entry's symbol is the first member of its rd_isym */
	return s->inlined ? ((const struct rd_isym *)(const void *)s)->base : s;
}

void rd_isyms_free(struct rd_isyms *t)
{
	for (size_t i = 0; i < t->nr_buckets; i++) {
		struct rd_isym *e = t->buckets[i], *next;

		for (; e; e = next) {
			next = e->next;
			free((char *)e->sym.name);
			free(e->func);
			free(e);
		}
	}
	free(t->buckets);
	free(t->exp);
	memset(t, 0, sizeof(*t));
}

static size_t iexp_slot(const struct pc_symbol *base, uint64_t off)
{
	uint64_t h = ((uint64_t)(uintptr_t)base ^ off * 0x9E3779B97F4A7C15ULL) *
		     0x9E3779B97F4A7C15ULL;

	return (size_t)(h >> (64 - RD_IEXP_BITS));
}

const struct rd_iexp *rd_iexp_find(const struct rd_isyms *t, const struct pc_symbol *base,
				   uint64_t off)
{
	const struct rd_iexp *e = t->exp ? &t->exp[iexp_slot(base, off)] : NULL;

	return e && e->base == base && e->off == off ? e : NULL;
}

int rd_iexp_keep(struct rd_isyms *t, const struct pc_symbol *base, uint64_t off,
		 const struct pc_symbol *const *syms, uint32_t nr)
{
	struct rd_iexp *e;

	if (nr > RD_IEXP_MAX)
		return 0;
	if (!t->exp)
		t->exp = calloc((size_t)1 << RD_IEXP_BITS, sizeof(*t->exp));
	if (!t->exp)
		return -ENOMEM;
	e = &t->exp[iexp_slot(base, off)];
	e->base = base;
	e->off = off;
	e->nr = nr;
	memcpy(e->syms, syms, nr * sizeof(*syms));
	return 0;
}
