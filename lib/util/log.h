/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Diagnostics on stderr, gated by the command line's -v count.  Library
 * code may report progress and warnings here; errors go through pc_error.
 */
#ifndef PERFCHECK_UTIL_LOG_H
#define PERFCHECK_UTIL_LOG_H

extern int pc_verbose;	/* number of -v given; -1 with -q */

void pc_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define pc_warn(...)	pc_log(0, "Warning: " __VA_ARGS__)
#define pc_info(...)	pc_log(1, __VA_ARGS__)
#define pc_debug(...)	pc_log(2, __VA_ARGS__)

#endif
