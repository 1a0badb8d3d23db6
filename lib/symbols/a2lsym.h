/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The function name binutils' addr2line gives an address from the ELF
 * symbol table, which perf 6.1 (built without libbfd, as Debian's is)
 * shows for its inline entries: among the function-like symbols of the
 * address's section that start at or below it, the one starting closest;
 * among aliases at that start, the first in symbol-table order, unless a
 * later one is a better fit by size (the smallest that still covers the
 * address).  addr2line asks the table where the DWARF has no function
 * with a linkage name there (assembly has DIEs of its own: srcline.c), and
 * for the file and name of an address without a line.  perf's own symbol
 * choice (global over local...) differs: the entry is then "(inlined)".
 */
#ifndef PERFCHECK_SYMBOLS_A2LSYM_H
#define PERFCHECK_SYMBOLS_A2LSYM_H

#include <elfutils/libdwfl.h>

struct pc_a2lsyms;

/*
 * The name for addr (a module address, bias applied) and the symbol's
 * start in *start; NULL when no symbol fits.  *cache is built on first use
 * (the module's symbols sorted) and freed with pc_a2lsyms_free.
 */
const char *pc_a2lsym_name(Dwfl_Module *mod, struct pc_a2lsyms **cache, Dwarf_Addr addr,
			   Dwarf_Addr *start);
/*
 * The same, and in *file the name addr2line gives as the source file of an
 * address without a line: that of the file symbol last before the chosen
 * one in the table, for a local symbol (for a global one too where no
 * file symbol follows another symbol), else NULL ("??").  ld.so's _dl_start_user follows an
 * empty file symbol: addr2line says ":?", perf 6.1 shows ":0".
 */
const char *pc_a2lsym_find(Dwfl_Module *mod, struct pc_a2lsyms **cache, Dwarf_Addr addr,
			   Dwarf_Addr *start, const char **file);
void pc_a2lsyms_free(struct pc_a2lsyms *c);

#endif
