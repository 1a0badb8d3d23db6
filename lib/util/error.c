// SPDX-License-Identifier: GPL-2.0
#include "util/error.h"

#include <stdio.h>
#include <string.h>

int pc_error_vset(struct pc_error *err, int code, const char *fmt, va_list ap)
{
	if (code < 0)
		code = -code;
	if (err) {
		err->code = code;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return -code;
}

int pc_error_set(struct pc_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = pc_error_vset(err, code, fmt, ap);
	va_end(ap);
	return ret;
}

int pc_error_prefix(struct pc_error *err, const char *fmt, ...)
{
	char prefix[256], old[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return 0;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%.200s: %.300s", prefix, old);
	return -err->code;
}

void pc_error_clear(struct pc_error *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}
