/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Library messages (warnings, progress, debug) go through one settable
 * print function, as libbpf_set_print: a program or a test decides where
 * they go and which levels it keeps.  Errors go through pc_error instead.
 *
 * The default printer writes to stderr the levels up to pc_verbose, the
 * command line's -v count (-1 with -q: not even warnings).  Only command
 * line code sets pc_verbose; library code calls pc_log and its shorthands.
 */
#ifndef PERFCHECK_UTIL_LOG_H
#define PERFCHECK_UTIL_LOG_H

#include <stdarg.h>

enum pc_log_level {
	PC_LOG_WARN = 0,
	PC_LOG_INFO = 1,	/* -v */
	PC_LOG_DEBUG = 2,	/* -vv */
};

typedef void (*pc_print_fn)(enum pc_log_level level, const char *fmt, va_list ap);

/* Sets the printer (NULL: messages are dropped); returns the previous one. */
pc_print_fn pc_set_print(pc_print_fn fn);
/* The default printer: stderr, levels up to pc_verbose. */
void pc_print_stderr(enum pc_log_level level, const char *fmt, va_list ap);

extern int pc_verbose;	/* number of -v given; -1 with -q (the default printer's gate) */

void pc_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define pc_warn(...)	pc_log(PC_LOG_WARN, "Warning: " __VA_ARGS__)
#define pc_info(...)	pc_log(PC_LOG_INFO, __VA_ARGS__)
#define pc_debug(...)	pc_log(PC_LOG_DEBUG, __VA_ARGS__)

#endif
