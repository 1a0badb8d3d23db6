/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event_attr helpers shared by the probes, the recorder and the
 * reader: bit names, and the two text layouts perf uses for an attr:
 *
 *   perf record -vv    "perf_event_attr:" then one "  name  value" line per
 *                      non-zero field (pc_attr_fprintf)
 *   perf evlist -v     "name: value, name: value" on one line
 *                      (pc_attr_snprintf_line)
 *
 * Every function takes the attr as bytes plus the size that is meaningful,
 * so an attr read from a file of any ABI version can be printed: fields
 * beyond size read as zero.
 */
#ifndef PERFCHECK_ATTR_ATTR_H
#define PERFCHECK_ATTR_ATTR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Names of the bits of each bitmask field, as perf prints them ("IP|TID"). */
int pc_attr_sample_type_str(char *buf, size_t size, uint64_t value);
int pc_attr_read_format_str(char *buf, size_t size, uint64_t value);
int pc_attr_branch_type_str(char *buf, size_t size, uint64_t value);
/* Name of bit `bit` of the flags word (offset 40), NULL if unused. */
const char *pc_attr_flag_name(int bit);

/*
 * Calls fn once per field perf would print (non-zero ones, in perf's
 * order), with perf's name for it and its value formatted as perf does.
 * Stops and returns fn's value when it is non-zero.
 */
typedef int (*pc_attr_field_fn)(const char *name, const char *value, void *priv);
int pc_attr_for_each_field(const void *attr, size_t size, pc_attr_field_fn fn, void *priv);

/* The -vv block, fields only ("  %-32s %s\n" lines). */
int pc_attr_fprintf(FILE *fp, const void *attr, size_t size);
/* The whole -vv block with its dashed rules and "perf_event_attr:" title. */
int pc_attr_fprintf_block(FILE *fp, const void *attr, size_t size);
/* The evlist -v layout on one line; truncated with "..." if it does not fit. */
int pc_attr_snprintf_line(char *buf, size_t len, const void *attr, size_t size);

#endif
