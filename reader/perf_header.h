/* SPDX-License-Identifier: GPL-2.0 */
/* The file's header as perf report/script --header print it ("# captured on ..."). */
#ifndef PERFCHECK_READER_PERF_HEADER_H
#define PERFCHECK_READER_PERF_HEADER_H

#include "reader/out.h"
#include "reader/session.h"

int rd_perf_header(struct rd_session *s, struct rd_out *o, struct pc_error *err);

#endif
