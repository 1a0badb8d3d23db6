/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint samples: the file's TRACING_DATA (the HEADER_TRACING_DATA
 * feature section, or in pipe mode the bytes after a
 * PERF_RECORD_HEADER_TRACING_DATA record) parsed into a libtraceevent
 * handle, and a sample's PERF_SAMPLE_RAW bytes formatted as perf script
 * prints its `trace` field.
 *
 * TRACING_DATA layout (every length checked against the section):
 *	"\x17\x08\x44" "tracing"		10 bytes of magic
 *	version "0.6\0"				NUL-terminated
 *	u8 big-endian flag, u8 sizeof(long), u32 page size
 *	"header_page\0" u64 size, tracefs events/header_page
 *	"header_event\0" u64 size, events/header_event
 *	u32 count, each u64 size + an ftrace format file
 *	u32 count of systems, each "SYS\0" u32 count, each u64 size + format
 *	u32 size + /proc/kallsyms text (perf skips it: so do we)
 *	u32 size + printk formats ("0xADDR : \"fmt\"" lines)
 *	version >= 0.6: u64 size + saved_cmdlines ("PID COMM" lines)
 * Numbers are in the file's byte order (the big-endian flag).
 *
 * In pipe mode the section follows a PERF_RECORD_HEADER_TRACING_DATA (66)
 * record of header.size 16 (header, u32 size, u32 padding): `size` bytes
 * of TRACING_DATA come after the record, outside header.size, then zeros
 * up to the next multiple of 8 (perf 6.1, checked on a pipe recording).
 *
 *	struct tr_events t;
 *	tr_open(&t, data, size, path, section_offset, err);
 *	for each sample of a tracepoint evsel (attr.type PERF_TYPE_TRACEPOINT):
 *		tr_format(&t, attr.config, s.raw, s.raw_size, s.cpu, rec.offset, &text, err);
 *	tr_close(&t);
 */
#ifndef PERFCHECK_TRACE_TRACE_H
#define PERFCHECK_TRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

struct tep_handle;
struct trace_seq;

struct tr_events {
	struct tep_handle *tep;
	char *path;
	char version[16];		/* "0.6" */
	bool file_bigendian;
	uint8_t long_size;
	uint32_t page_size;
	uint32_t nr_formats;		/* event and ftrace formats in the section */
	uint32_t nr_failed;		/* of them, those libtraceevent did not parse whole */
	char failed[256];		/* "sys:name, ..." of those (cut when long) */
	struct trace_seq *seq;		/* the text tr_format() returns */
	uint8_t *raw;			/* zero-padded copy of the sample's raw data */
	uint32_t raw_used;		/* bytes of raw not zero since the last format */
};

#define TR_MAGIC_LEN	10		/* "\x17\x08\x44tracing" */
#define TR_RAW_MAX	65536		/* a sample record is at most 64 KiB */
#define TR_RAW_PAD	65536		/* zeros after the raw copy: a u16 length read
					   from a field cannot reach past them */

/*
 * Parses a TRACING_DATA section found at `offset` in `path`.  Errors
 * ("PATH: offset 0xOFF: TRACING_DATA: what") for a bad magic, a cut
 * section, a length past its end, an impossible long size or page size.
 * A format text that libtraceevent cannot parse is not an error (perf
 * carries on too): it is counted in nr_failed and named in failed.
 */
int tr_open(struct tr_events *t, const void *data, size_t size, const char *path,
	    uint64_t offset, struct pc_error *err);
void tr_close(struct tr_events *t);

/*
 * The `trace` field of one sample of tracepoint `id` (attr.config): *text
 * is NUL-terminated, valid until the next call on t; returns its length.
 * -ENOENT when the section has no format of that id; -EINVAL when the raw
 * data is shorter than the format's fields or a dynamic field points out
 * of it ("PATH: offset 0xREC: ..." with the sample's record offset).
 */
int tr_format(struct tr_events *t, uint64_t id, const void *raw, uint32_t raw_size, int cpu,
	      uint64_t rec_offset, const char **text, struct pc_error *err);

/* "sys:name" of tracepoint id, as perf names the event; NULL when unknown. */
const char *tr_event_name(struct tr_events *t, uint64_t id, char *buf, size_t size);

/*
 * Kernel addresses printed by a format (%pS, function fields): perf resolves
 * them with its own kernel map; a reader that has one passes it here.
 * fn returns the symbol name of *addr (and may lower *addr to the symbol's
 * start), or NULL.
 */
typedef char *(tr_resolve_fn)(void *ctx, unsigned long long *addr, char **mod);
int tr_set_resolver(struct tr_events *t, tr_resolve_fn *fn, void *ctx);

#endif
