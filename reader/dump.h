/* SPDX-License-Identifier: GPL-2.0 */
/* script -D: every record in file order with its offset, size, type and fields. */
#ifndef PERFCHECK_READER_DUMP_H
#define PERFCHECK_READER_DUMP_H

#include <stdbool.h>

#include "reader/out.h"
#include "reader/session.h"

int rd_dump(struct rd_session *s, struct rd_out *o, bool header, struct pc_error *err);
/* The attrs and header features, as comment lines. */
int rd_dump_header(struct rd_session *s, struct rd_out *o, struct pc_error *err);

#endif
