/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What binutils' addr2line, which perf 6.1 runs for srclines, answers at a
 * user address libdw has no line for.  With no symbol at or below it either
 * it answers "??:0", a failure to perf ("object[address]" in script,
 * "symbol+offset" or "object[address]" in report).  Else it names the
 * function with line 0 and the source file of a file symbol (a static
 * function of a program built without -g: "prog.c:0"), or "??" ("??:0").
 * perf asks of its symbol source: the build-id cache's copy where there is
 * one (perf loads symbols from it first), else the object.
 */
#ifndef PERFCHECK_READER_A2L_ANSWER_H
#define PERFCHECK_READER_A2L_ANSWER_H

#include "reader/machine.h"
#include "reader/session.h"
#include "symbols/srcline.h"

/*
 * path: the object as this session reads it (root applied).  1 when
 * addr2line names a function there (*file: the source file it gives, NULL
 * for "??"), 0 when it names nothing, -1 when the question does not apply
 * (the object cannot be read, its DWARF is broken).
 */
int rd_a2l_no_line(struct pc_srcline_cache *src, const struct rd_session *s,
		   const struct rd_resolved *r, const char *path, const char **file);

/* The address perf hands addr2line: the ELF address in an executable, else the file offset */
uint64_t rd_a2l_addr(const struct rd_resolved *r);

/*
 * *slot, made on first use: the source lines of this session's objects as
 * the perf read against finds them, lines by addr2line (perf 6.1, libdw_files
 * false) or by libdw (perf 7.2), names demangled as the session asks.  NULL
 * when out of memory.
 */
struct pc_srcline_cache *rd_srcline_cache(struct pc_srcline_cache **slot,
					  const struct rd_session *s, const char *debug_dir,
					  bool libdw_files);

#endif
