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

/*
 * writer_pipe.c: the pipe format's records, appended to out (the caller
 * writes out->data[0..len) and frees it; perfdata/codec.h).  The prologue is the pipe header,
 * the ATTR and FEATURE records and TRACING_DATA (EVENT_DESC must be set
 * before); the epilogue the BUILD_ID records.
 */
struct pd_buf;
int pd_pipe_prologue(const struct pd_writer *w, struct pd_buf *out, struct pc_error *err);
int pd_pipe_epilogue(const struct pd_writer *w, struct pd_buf *out, struct pc_error *err);

#endif
