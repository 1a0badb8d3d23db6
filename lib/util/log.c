// SPDX-License-Identifier: GPL-2.0
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>

int pc_verbose;

void pc_log(int level, const char *fmt, ...)
{
	va_list ap;

	if (pc_verbose < level)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
