/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source lines and inline frames of an address through libdw: what perf
 * shows as `-F +srcline` (`  file.c:123`) and as `(inlined)` callchain
 * entries.  One Dwfl per ELF file, opened on first use and kept; the
 * DWARF may come from the file or its separate debug file (by build id
 * under debug_dir/.build-id/, or .gnu_debuglink).
 */
#ifndef PERFCHECK_SYMBOLS_SRCLINE_H
#define PERFCHECK_SYMBOLS_SRCLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One frame at an address: the function and the source position in it. */
struct pc_src_frame {
	const char *func;	/* DWARF name, NULL when unknown */
	const char *file;	/* as libdw names it (perf prints the basename) */
	const char *comp_dir;	/* the unit's DW_AT_comp_dir, NULL when none */
	uint32_t line;		/* 0 when unknown */
};

struct pc_srcline_cache;

/* debug_dir NULL: /usr/lib/debug.  NULL on ENOMEM. */
struct pc_srcline_cache *pc_srcline_new(const char *debug_dir);
void pc_srcline_free(struct pc_srcline_cache *c);
/* How inlined functions' C++ names are shown: enum pc_demangle */
void pc_srcline_set_demangle(struct pc_srcline_cache *c, uint8_t how);
/*
 * Line files as libdw gives them (perf 7.2 reads lines with libdw), not as
 * binutils' addr2line names DWARF 5 file 0 rows (perf 6.1, the default).
 * Set before the first lookup.
 */
void pc_srcline_set_libdw_files(struct pc_srcline_cache *c, bool libdw);

/*
 * The frames at vaddr (an ELF virtual address of path, as symbols use),
 * innermost first: out[0] is the innermost inlined function with the line
 * of vaddr; each next one is the function it was inlined into, at the line
 * of the call; the last is the real (out-of-line) function.  *nr == 1 when
 * nothing is inlined there, 0 when path has no DWARF for vaddr.  Returns 0
 * or -errno (-ENOENT: the file does not open as ELF).  Strings live as long
 * as the cache.
 */
int pc_srcline_frames(struct pc_srcline_cache *c, const char *path, uint64_t vaddr,
		      struct pc_src_frame *out, uint32_t max, uint32_t *nr);

/*
 * Whether a compile unit of path's DWARF covers vaddr: 1, 0 when none
 * does, -ENODATA when path has no DWARF at all, -ENOENT when no ELF.
 */
int pc_srcline_covered(struct pc_srcline_cache *c, const char *path, uint64_t vaddr);

/*
 * Whether addr2line names a function at vaddr from path's symbol table
 * (the closest function symbol at or below it in its section, a2lsym.h):
 * 1 or 0; -ENOENT when no ELF.  Where it names none either, perf 6.1
 * shows the "object[address]" srcline.  *file (when not NULL): the source
 * file addr2line gives with the name (a file symbol's, see a2lsym.h), or NULL.
 */
int pc_srcline_named(struct pc_srcline_cache *c, const char *path, uint64_t vaddr,
		     const char **file);

/*
 * The function binutils' addr2line names at vaddr from path's symbol table
 * (a2lsym.h), demangled as the frames are; NULL when it names none.
 */
const char *pc_srcline_a2l_func(struct pc_srcline_cache *c, const char *path, uint64_t vaddr);

/*
 * Whether perf 7.2 runs addr2line on path at all: only on an object with
 * DWARF (its own or a debug file's); elsewhere a lookup libdw does not
 * answer has no answer.
 */
bool pc_srcline_a2l_runs(struct pc_srcline_cache *c, const char *path);

/*
 * Whether perf 7.2 takes the frames and line at vaddr from addr2line: it
 * asks libdw first, and addr2line where libdw does not answer and path
 * has DWARF.  perf reports the object to libdwfl offline but looks the
 * module up at vaddr itself, unbiased: an ET_DYN object sits past
 * libdwfl's 64 KiB red zone, so its first 64 KiB (ld.so's open_verify)
 * miss, and so does an address without a line in the DWARF.
 */
bool pc_srcline_a2l_answers(struct pc_srcline_cache *c, const char *path, uint64_t vaddr);

/* The base name of a source file, as perf prints srclines by default. */
const char *pc_srcline_basename(const char *file);
/* The file as a srcline shows it: whole (--full-source-path) or its base name. */
const char *pc_srcline_shown(const char *file, bool full);
/*
 * A frame's file as a srcline shows it: its base name, or with full its
 * whole path, as libdw composes it (perf 7.2), or with binutils as
 * addr2line does (perf 6.1): a relative name under the unit's directory,
 * "./elf/rtld.c" of comp_dir "./elf" as "./elf/./elf/rtld.c".  buf holds
 * a composed path; the frame's own string is returned where none is made.
 */
const char *pc_srcline_frame_file(const struct pc_src_frame *fr, bool full, bool binutils,
				  char *buf, size_t size);

#endif
