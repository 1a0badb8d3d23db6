/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors carry their context up to the command that prints them: library
 * code fills a struct pc_error and returns -errno, it never prints or exits.
 */
#ifndef PERFCHECK_UTIL_ERROR_H
#define PERFCHECK_UTIL_ERROR_H

#include <stdarg.h>

struct pc_error {
	int code;		/* positive errno, 0 when no error */
	char msg[512];
};

/* Sets the error and returns -code, so that `return pc_error_set(...)` works. */
int pc_error_set(struct pc_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pc_error_vset(struct pc_error *err, int code, const char *fmt, va_list ap);
/* Prepends "prefix: " to an existing message (context added on the way up). */
int pc_error_prefix(struct pc_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pc_error_clear(struct pc_error *err);

#endif
