/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PERF_RECORD_COMPRESSED (81) and COMPRESSED2 (83): perf record -z writes
 * the ring's records through one zstd stream for the whole file (the stream
 * is flushed, not ended, after each ring push, and one push may be split
 * over several COMPRESSED records), so a record of the decompressed stream
 * can begin in one COMPRESSED record and end in the next.  The decoder is
 * streaming: one ZSTD_DStream per file, a fixed window of decompressed
 * bytes, and whole records handed out as they complete, so its memory does
 * not depend on the file's size.
 *
 *	struct pd_decomp d;
 *	pd_decomp_init(&d, path, &comp_header_or_NULL, err);
 *	for each input record rec of type COMPRESSED or COMPRESSED2:
 *		pd_decomp_feed_record(&d, &rec, err);
 *		while ((ret = pd_decomp_next(&d, &inner, err)) == 1)
 *			deliver(&inner);	// inner.offset: rec.offset, as perf -D shows it
 *	pd_decomp_finish(&d, err);		// end of data: no record left half-done
 *	pd_decomp_fini(&d);
 *
 * The fed payload must stay valid until pd_decomp_next() returns 0; a record
 * returned by pd_decomp_next() is valid until the next call on d.  Errors
 * read "FILE: offset 0xOFF: what", OFF being the COMPRESSED record's offset.
 */
#ifndef PERFCHECK_PERFDATA_DECOMPRESS_H
#define PERFCHECK_PERFDATA_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "util/error.h"

/* HEADER_COMPRESSED (feature bit 27): five u32 */
enum pd_comp_type {
	PD_COMP_NONE	= 0,
	PD_COMP_ZSTD	= 1,
};

struct pd_comp_header {
	uint32_t version;
	uint32_t type;		/* enum pd_comp_type */
	uint32_t level;
	uint32_t ratio;
	uint32_t mmap_len;	/* perf's decompression buffer size per COMPRESSED record */
};

#define PD_COMP_HEADER_SIZE 20

/*
 * Parses the section (data, size) found at file offset `offset` of `path`.
 * A section shorter than 20 bytes is an error; bytes past them are ignored,
 * as perf does.
 */
int pd_comp_header_parse(const void *data, size_t size, const char *path, uint64_t offset,
			 struct pd_comp_header *h, struct pc_error *err);
/* "Zstd" for PD_COMP_ZSTD (as perf report --header prints it), else NULL */
const char *pd_comp_type_name(uint32_t type);

/*
 * The compressed payload of a COMPRESSED or COMPRESSED2 record: for 81 the
 * bytes after the 8-byte header; for 83 data_size bytes after the header and
 * the u64 data_size, which must fit in header.size with fewer than 8 bytes
 * of padding.  -EINVAL with err set otherwise.
 */
int pd_decomp_payload(const struct pd_record *rec, const char *path, const void **payload,
		      size_t *len, struct pc_error *err);

struct pd_decomp_stats {
	uint64_t nr_compressed;		/* payloads fed */
	uint64_t bytes_in;		/* compressed bytes fed */
	uint64_t bytes_out;		/* decompressed bytes */
	uint64_t nr_records;		/* whole records handed out */
	uint64_t nr_straddling;		/* records that began in an earlier payload */
	uint64_t max_out_per_payload;	/* most bytes one payload decompressed to */
};

struct pd_decomp {
	char *path;
	void *zds;			/* ZSTD_DStream */
	uint8_t *win;			/* decompressed bytes, [head, tail) not yet handed out */
	size_t win_cap, head, tail;
	uint64_t *aligned;		/* copy of a record that sits misaligned in win */
	const uint8_t *in;		/* the payload being decoded (caller's memory) */
	size_t in_len, in_pos;
	bool out_pending;		/* zstd filled the window: it may hold more output */
	bool frame_open;		/* the current zstd frame has not ended */
	bool drained;			/* next() returned 0: ready for the next payload */
	uint64_t cur_offset;		/* file offset of the COMPRESSED record being decoded */
	uint64_t cur_out;		/* bytes decompressed from that record */
	uint64_t head_pos;		/* stream position of win[head] */
	uint64_t head_fed;		/* nr_compressed when the record at head began */
	struct pd_decomp_stats stats;
};

/*
 * h may be NULL (a pipe file, or a file without the feature); when given,
 * its type must be PD_COMP_ZSTD.
 */
int pd_decomp_init(struct pd_decomp *d, const char *path, const struct pd_comp_header *h,
		   struct pc_error *err);
/* Hands over the next compressed payload; the previous one must be drained. */
int pd_decomp_feed(struct pd_decomp *d, const void *payload, size_t len, uint64_t file_offset,
		   struct pc_error *err);
/* pd_decomp_payload() + pd_decomp_feed() with rec->offset. */
int pd_decomp_feed_record(struct pd_decomp *d, const struct pd_record *rec, struct pc_error *err);
/*
 * 1 and the next whole record (offset: the COMPRESSED record in which it
 * completed, data 8-byte aligned), 0 when the payload fed is used up (feed
 * the next one), -errno with err set on a zstd error or a malformed record
 * header in the stream (size < 8, or a COMPRESSED record inside one).
 */
int pd_decomp_next(struct pd_decomp *d, struct pd_record *rec, struct pc_error *err);
/* At the end of the data: an error when the stream ends inside a record. */
int pd_decomp_finish(struct pd_decomp *d, struct pc_error *err);
/*
 * Once drained at the end of the data: the bytes of a record the stream began
 * and never finished (0 when it ended on a record boundary).  perf 6.1's
 * writer leaves what zstd still buffers after its last push unwritten (each
 * push flushes the stream, none ends it), and its reader drops such a tail
 * without a word: a reader that reads perf's files as perf does asks this
 * before pd_decomp_finish.
 */
size_t pd_decomp_unfinished(const struct pd_decomp *d);
void pd_decomp_fini(struct pd_decomp *d);

#endif
