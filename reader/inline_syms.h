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

struct rd_isyms {
	struct rd_isym **buckets;
	size_t nr_buckets, nr;
};

/* base itself when func is its name; NULL on ENOMEM */
const struct pc_symbol *rd_isym_get(struct rd_isyms *t, const struct pc_symbol *base,
				    const char *func);
void rd_isyms_free(struct rd_isyms *t);

#endif
