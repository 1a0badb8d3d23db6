/* SPDX-License-Identifier: GPL-2.0 */
/* The file's header as perf report/script --header print it ("# captured on ..."). */
#ifndef PERFCHECK_READER_PERF_HEADER_H
#define PERFCHECK_READER_PERF_HEADER_H

#include "reader/out.h"
#include "reader/session.h"

/* full: perf's -I, the topology features' own lines instead of "info available" */
int rd_perf_header(struct rd_session *s, struct rd_out *o, bool full, struct pc_error *err);
/* One feature as perf prints it (nothing when the input has none). */
int rd_perf_header_feature(struct rd_out *o, const struct pd_reader *r, int f, bool full,
			   struct pc_error *err);
/*
 * A pipe's features print as their records are read, as perf's do (after
 * rd_perf_header's block, before the output that follows processing).
 * Nothing for a file.  ph is the caller's, for as long as s processes.
 */
struct rd_pipe_header {
	struct rd_out *o;
	const struct pd_reader *r;
	bool full;
};

void rd_perf_header_pipe(struct rd_session *s, struct rd_out *o, bool full,
			 struct rd_pipe_header *ph);

#endif
