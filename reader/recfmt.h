/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A non-sample record as perf prints it after "PERF_RECORD_": in script's
 * --show-*-events lines and in -D.  Every field read is checked against the
 * record's size: a record too short for what its type holds is an error
 * "FILE: offset 0xOFF: what is wrong".
 */
#ifndef PERFCHECK_READER_RECFMT_H
#define PERFCHECK_READER_RECFMT_H

#include <stdbool.h>

#include "perfdata/perfdata.h"
#include "reader/out.h"
#include "util/error.h"

/*
 * "PERF_RECORD_NAME" and the type's fields, up to and with the newline.
 * trailer: bytes of the record's sample_id (not part of its body).
 */
int rd_recfmt(struct rd_out *o, const char *path, const struct pd_record *rec, size_t trailer,
	      struct pc_error *err);

/* A kernel address's symbol and the offset into it (*off); NULL when none holds it. */
typedef const char *(*rd_ksym_fn)(void *ctx, uint64_t addr, uint64_t *off);

/* rd_recfmt with the kernel addresses of a record (TEXT_POKE's) named by ksym, as perf */
int rd_recfmt_ksym(struct rd_out *o, const char *path, const struct pd_record *rec,
		   size_t trailer, rd_ksym_fn ksym, void *ctx, struct pc_error *err);

/* The same without "PERF_RECORD_NAME" (for -D, which prints it itself). */
int rd_recfmt_fields(struct rd_out *o, const char *path, const struct pd_record *rec,
		     size_t trailer, struct pc_error *err);
int rd_recfmt_fields_ksym(struct rd_out *o, const char *path, const struct pd_record *rec,
			  size_t trailer, rd_ksym_fn ksym, void *ctx, struct pc_error *err);

/*
 * The pid and tid perf's script takes the thread of a record from (COMM,
 * MMAP, MMAP2, FORK, EXIT: the record's own; others: none, false).
 */
bool rd_record_task(const struct pd_record *rec, int32_t *pid, int32_t *tid);

#endif
