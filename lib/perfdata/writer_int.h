/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFCHECK_PERFDATA_WRITER_INT_H
#define PERFCHECK_PERFDATA_WRITER_INT_H

#include "perfdata/perfdata.h"

/* Builds EVENT_DESC from the writer's events (unless set already). */
int pd_writer_event_desc(struct pd_writer *w);

/* writer_zstd.c: the data as PERF_RECORD_COMPRESSED records (-z). */
struct pd_zstd;
int pd_zstd_new(struct pd_zstd **z, int level, size_t unit);
void pd_zstd_free(struct pd_zstd *z);
/* Whole records in; COMPRESSED records out (valid until the next call). */
int pd_zstd_compress(struct pd_zstd *z, const void *records, size_t len,
		     const uint8_t **out, size_t *out_len);
void pd_zstd_totals(const struct pd_zstd *z, uint64_t *in, uint64_t *out);

/* writer_pipe.c: the pipe format's header, ATTR and FEATURE records. */
int pd_writer_pipe_begin(struct pd_writer *w, struct pc_error *err);
int pd_writer_pipe_finish(struct pd_writer *w, struct pc_error *err);
/* writer.c: appends raw bytes to the output (pipe: in order; file: at the data end). */
int pd_writer_emit_raw(struct pd_writer *w, const void *buf, size_t len, struct pc_error *err);

#endif
