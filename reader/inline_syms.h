/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The symbols of inlined functions in report's callchains, as perf 6.1
 * makes them: each function the line table places at a user address
 * (innermost first, the out-of-line function last) becomes an entry of its
 * own; one whose DWARF name is not the ELF symbol's is a new symbol shown
 * "NAME (inlined)" (with the real symbol's range), the others are the real
 * symbol.  Symbols are kept for the report's lifetime (rows point to them).
 */
#ifndef PERFCHECK_READER_INLINE_SYMS_H
#define PERFCHECK_READER_INLINE_SYMS_H

#include "symbols/symbols.h"

struct rd_isym;

/*
 * The entries one address expands to, kept by (symbol, offset): a hot
 * frame is found again without its object's path made and its line table
 * asked.  nr 0: the address expands to nothing.
 */
#define RD_IEXP_MAX 8
#define RD_IEXP_BITS 12

struct rd_iexp {
	const struct pc_symbol *base;	/* NULL: an empty slot */
	uint64_t off;
	uint32_t nr;
	const struct pc_symbol *syms[RD_IEXP_MAX];	/* innermost first */
};

struct rd_isyms {
	struct rd_isym **buckets;
	size_t nr_buckets, nr;
	struct rd_iexp *exp;	/* 1 << RD_IEXP_BITS, made on first use */
};

/* base itself when func is its name; NULL on ENOMEM */
const struct pc_symbol *rd_isym_get(struct rd_isyms *t, const struct pc_symbol *base,
				    const char *func);
void rd_isyms_free(struct rd_isyms *t);
/* The function an inlined entry's symbol is inlined in (s itself when not inlined) */
const struct pc_symbol *rd_isym_base(const struct pc_symbol *s);

/* The expansion kept for base+off, NULL when none is. */
const struct rd_iexp *rd_iexp_find(const struct rd_isyms *t, const struct pc_symbol *base,
				   uint64_t off);
/* Keeps the expansion of base+off (nr above RD_IEXP_MAX: not kept); 0 or -ENOMEM. */
int rd_iexp_keep(struct rd_isyms *t, const struct pc_symbol *base, uint64_t off,
		 const struct pc_symbol *const *syms, uint32_t nr);

#endif
