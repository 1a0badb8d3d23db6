/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PLT test program of interop_symbol_plt and symbols_plt: an IFUNC of
 * its own (scaled), libc calls through the PLT, and labs's address taken
 * (a .plt.got entry), built here with cc; and where an ELF file's sections
 * lie.
 */
#ifndef PERFCHECK_SELFTESTS_PLT_PROG_H
#define PERFCHECK_SELFTESTS_PLT_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Writes the program's source into dir and builds it as dir/name with
 * cc -O2 -fno-builtin and cflags; its path in path.  False when cc cannot.
 */
bool plt_prog_build(const char *dir, const char *name, const char *cflags, char *path,
		    size_t n);

/* Start and size of section name of the ELF file path; false when it has none. */
bool plt_prog_section(const char *path, const char *name, uint64_t *addr, uint64_t *size);
/* The ELF file's e_machine (EM_AARCH64...), -1 when it is none */
int plt_prog_machine(const char *path);

#endif
