/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The input stage's decompression step: PERF_RECORD_COMPRESSED and
 * COMPRESSED2 payloads (perf record -z) expanded into the records they
 * hold, each handed to rd_input_record() as if it came from the file.
 */
#ifndef PERFCHECK_READER_EXPAND_H
#define PERFCHECK_READER_EXPAND_H

#include "perfdata/decompress.h"
#include "reader/input.h"

struct rd_expand_zstd {
	struct pd_decomp d;
	bool started;
	const char *file;	/* the stream's (pd_reader_where's answer) */
};

/* The rd_expand function (ctx: a zeroed struct rd_expand_zstd). */
int rd_expand_zstd(void *ctx, struct rd_input *in, const struct pd_record *rec,
		   struct pc_error *err);
/* End of input: a stream that ends inside a record is an error. */
int rd_expand_zstd_finish(struct rd_expand_zstd *x, struct pc_error *err);
void rd_expand_zstd_free(struct rd_expand_zstd *x);

#endif
