/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script -D: every record as perf script -D shows it (header records as
 * read, the others in time order), with offset, size, raw bytes, type and
 * fields; each sample also with its thread, object and script line.
 */
#ifndef PERFCHECK_READER_DUMP_H
#define PERFCHECK_READER_DUMP_H

#include <stdbool.h>

#include "reader/out.h"
#include "reader/print.h"
#include "reader/session.h"

/* pr: prints each sample's script line (NULL: none) */
int rd_dump(struct rd_session *s, struct rd_out *o, bool header, struct rd_printer *pr,
	    struct pc_error *err);
/* The attrs and header features, as comment lines. */
int rd_dump_header(struct rd_session *s, struct rd_out *o, struct pc_error *err);

#endif
