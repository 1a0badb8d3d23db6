// SPDX-License-Identifier: GPL-2.0
/* How the reader words a defect of the file, and the bounds check under every read. */
#include <errno.h>
#include <stdio.h>

#include "perfdata/reader_int.h"

int pd_bad(const struct pd_reader *r, struct pc_error *err, uint64_t off,
	   const char *fmt, ...)
{
	char what[384];
	va_list ap;
	uint64_t local;
	const char *path = pd_dir_where(r, off, &local);

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return pc_error_set(err, EINVAL, "%s: offset 0x%llx: %s", path,
			    (unsigned long long)local, what);
}

/* true when [off, off+len) lies inside the file */
bool pd_in_file(const struct pd_reader *r, uint64_t off, uint64_t len)
{
	return off <= r->size && len <= r->size - off;
}

