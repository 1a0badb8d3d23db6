// SPDX-License-Identifier: GPL-2.0
#include "util/log.h"

#include <stdio.h>

int pc_verbose;

void pc_print_stderr(enum pc_log_level level, const char *fmt, va_list ap)
{
	if (pc_verbose < (int)level)
		return;
	vfprintf(stderr, fmt, ap);
}

static pc_print_fn printer = pc_print_stderr;

pc_print_fn pc_set_print(pc_print_fn fn)
{
	pc_print_fn old = printer;

	printer = fn;
	return old;
}

void pc_log(int level, const char *fmt, ...)
{
	va_list ap;

	if (!printer)
		return;
	va_start(ap, fmt);
	printer((enum pc_log_level)level, fmt, ap);
	va_end(ap);
}
