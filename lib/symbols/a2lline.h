/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The source file binutils' addr2line (2.40, which perf 6.1 runs) gives a
 * line of a DWARF 5 line table.  DWARF 5 starts each sequence's file
 * register at 1; binutils starts it at file 0 and names file 0 until the
 * program sets the file.  gcc makes file 0 and file 1 the same name, so
 * this is seen only where they differ, as in glibc's units: a row of
 * libc_start_call_main.h (file 1, never set) is libc-start.c (file 0) to
 * addr2line, and dl-cacheinfo.h is dl-get-cpu-features.c.
 */
#ifndef PERFCHECK_SYMBOLS_A2LLINE_H
#define PERFCHECK_SYMBOLS_A2LLINE_H

#include <elfutils/libdw.h>

struct pc_a2llines;

/*
 * The file addr2line names for pc (unit-relative, as dwarf_getscopes takes
 * it) of unit cu where it differs from the line table's own: file 0's
 * name; NULL where they agree, or the table cannot be read.  *cache holds
 * what each unit's table gives and is freed with pc_a2llines_free.
 */
const char *pc_a2lline_file(struct pc_a2llines **cache, Dwarf_Die *cu, Dwarf_Addr pc);
void pc_a2llines_free(struct pc_a2llines *c);

#endif
