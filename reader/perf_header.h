/* SPDX-License-Identifier: GPL-2.0 */
/* The file's header as perf report/script --header print it ("# captured on ..."). */
#ifndef PERFCHECK_READER_PERF_HEADER_H
#define PERFCHECK_READER_PERF_HEADER_H

#include "reader/out.h"
#include "reader/session.h"

/*
 * How the header prints: RD_HDR_FULL is perf's -I (the topology features'
 * own lines instead of "info available"); RD_HDR_7_2 perf 7.2's layout
 * (type and config named in each event line, empty BPF features said, the
 * features it knows past PMU_CAPS), else perf 6.1's.
 */
enum { RD_HDR_FULL = 1, RD_HDR_7_2 = 2 };

int rd_perf_header(struct rd_session *s, struct rd_out *o, unsigned int how,
		   struct pc_error *err);
/* One feature as perf prints it (nothing when the input has none). */
int rd_perf_header_feature(struct rd_out *o, const struct pd_reader *r, int f, unsigned int how,
			   struct pc_error *err);
/*
 * A pipe's features print as their records are read, as perf's do (after
 * rd_perf_header's block, before the output that follows processing).
 * Nothing for a file.  ph is the caller's, for as long as s processes.
 */
struct rd_pipe_header {
	struct rd_out *o;
	const struct pd_reader *r;
	unsigned int how;
};

void rd_perf_header_pipe(struct rd_session *s, struct rd_out *o, unsigned int how,
			 struct rd_pipe_header *ph);

#endif
