/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between the reader's files; not part of the library's interface. */
#ifndef PERFCHECK_PERFDATA_READER_INT_H
#define PERFCHECK_PERFDATA_READER_INT_H

#include <stdarg.h>
#include "perfdata/perfdata.h"

#define PD_MAX_EVSELS	4096	/* attrs one file may bring */

/* "PATH: offset 0xOFF: what" as an EINVAL error */
int pd_bad(const struct pd_reader *r, struct pc_error *err, uint64_t off,
	   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool pd_in_file(const struct pd_reader *r, uint64_t off, uint64_t len);
int pd_load_attr(struct pd_reader *r, struct pd_evsel *evsel, const uint8_t *p,
		 uint64_t avail, uint64_t off, struct pc_error *err);
int pd_build_id_map(struct pd_reader *r, struct pc_error *err);
int pd_read_event_desc(struct pd_reader *r, struct pc_error *err);
int pd_pipe_record(struct pd_reader *r, const struct pd_record *rec, struct pc_error *err);
int pd_event_update(struct pd_reader *r, const struct pd_record *rec, struct pc_error *err);
int pd_pipe_tracing_data(struct pd_reader *r, const struct pd_record *rec, uint64_t *pos,
			 struct pc_error *err);

/* dir.c: the data.N files of a perf.data directory, after the data section */
#define PD_DIR_SHIFT		48	/* an offset's file: (N's place + 1) << this */
#define PD_DIR_MAX_FILES	4096
int pd_dir_open(struct pd_reader *r, const char *dir, struct pc_error *err);
void pd_dir_free(struct pd_dir *d);
/* The records' range of the file offset off lies in: the byte at offset start is *base */
bool pd_dir_range(const struct pd_reader *r, uint64_t off, const uint8_t **base,
		  uint64_t *start, uint64_t *end);
/* off moved to the start of the next file's records; false after the last */
bool pd_dir_next_range(const struct pd_reader *r, uint64_t *off);
/* The path of the file off lies in, and the offset in it */
const char *pd_dir_where(const struct pd_reader *r, uint64_t off, uint64_t *local);

/* stream.c */
int pd_stream_new(struct pd_reader *r, int fd, bool own_fd, struct pc_error *err);
void pd_stream_free(struct pd_stream *st);
size_t pd_stream_need(struct pd_stream *st, size_t n, int *error);
int pd_stream_next(struct pd_reader *r, uint64_t *pos, struct pd_record *rec,
		   struct pc_error *err);
/* A feature section's bytes (mapped, or a pipe's copy), NULL when absent. */
const uint8_t *pd_feature_bytes(const struct pd_reader *r, int feat);

#endif
