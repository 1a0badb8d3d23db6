// SPDX-License-Identifier: GPL-2.0
/*
 * -z: the data section as one zstd stream (one frame, never ended), cut
 * into PERF_RECORD_COMPRESSED records.  Each unit of at most unit bytes of
 * whole records is compressed and flushed (ZSTD_e_flush), so what a record
 * decompresses to fits the reader's buffer of HEADER_COMPRESSED's
 * mmap_len; a unit whose output passes one record's 64 KiB continues in
 * the next record, and the record cut there is carried over by readers
 * (perf since 5.3: the remainder of the previous decompressed buffer).
 *
 * Why PERF_RECORD_COMPRESSED (81) and not COMPRESSED2 (83): perf 6.1 knows
 * record types up to 82 and fails on 83 ("failed to process type: 83"),
 * while perf 6.15 and later (7.2 included) still read 81 exactly as
 * before; 81 is the one type both read without a warning.  Its payload is
 * header.size - 8 bytes and is not padded (padding would enter the zstd
 * stream), so records after it may be unaligned, as in perf's own files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "perfdata/perfdata.h"
#include "perfdata/writer_int.h"

#define REC_MAX		0xffffU		/* header.size is a u16 */
#define PAYLOAD_MAX	(REC_MAX - sizeof(struct perf_event_header))

struct pd_zstd {
	ZSTD_CCtx *cctx;
	size_t unit;			/* bytes of input per flush */
	uint8_t *out;			/* COMPRESSED records built here */
	size_t out_len, out_cap;
	uint64_t bytes_in, bytes_out;
};

int pd_zstd_new(struct pd_zstd **zp, int level, size_t unit)
{
	struct pd_zstd *z = calloc(1, sizeof(*z));

	if (!z)
		return -ENOMEM;
	z->cctx = ZSTD_createCCtx();
	if (!z->cctx) {
		free(z);
		return -ENOMEM;
	}
	if (ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_compressionLevel, level))) {
		pd_zstd_free(z);
		return -EINVAL;
	}
	z->unit = unit < 4096 ? 4096 : unit;
	*zp = z;
	return 0;
}

void pd_zstd_free(struct pd_zstd *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->cctx);
	free(z->out);
	free(z);
}

static int reserve(struct pd_zstd *z, size_t more)
{
	if (z->out_len + more > z->out_cap) {
		size_t cap = z->out_cap ? z->out_cap : 256 * 1024;
		uint8_t *p;

		while (cap < z->out_len + more)
			cap *= 2;
		p = realloc(z->out, cap);
		if (!p)
			return -ENOMEM;
		z->out = p;
		z->out_cap = cap;
	}
	return 0;
}

/* Compresses one unit into as many COMPRESSED records as its output needs. */
static int compress_unit(struct pd_zstd *z, const uint8_t *in, size_t len)
{
	ZSTD_inBuffer ib = { in, len, 0 };
	size_t left;

	do {
		struct perf_event_header h = { PC_RECORD_COMPRESSED, 0, 0 };
		ZSTD_outBuffer ob;

		if (reserve(z, REC_MAX))
			return -ENOMEM;
		ob = (ZSTD_outBuffer){ z->out + z->out_len + sizeof(h), PAYLOAD_MAX, 0 };
		left = ZSTD_compressStream2(z->cctx, &ob, &ib, ZSTD_e_flush);
		if (ZSTD_isError(left))
			return -EIO;
		if (!ob.pos)
			continue;
		h.size = (uint16_t)(sizeof(h) + ob.pos);
		memcpy(z->out + z->out_len, &h, sizeof(h));
		z->out_len += h.size;
		z->bytes_out += h.size;
	} while (left);
	z->bytes_in += len;
	return 0;
}

/* Bytes of whole records from buf that make one unit (at least one record). */
static size_t unit_len(const struct pd_zstd *z, const uint8_t *buf, size_t len)
{
	size_t off = 0;

	while (off < len) {
		struct perf_event_header h;

		memcpy(&h, buf + off, sizeof(h));
		if (off && off + h.size > z->unit)
			break;
		off += h.size;
	}
	return off;
}

int pd_zstd_compress(struct pd_zstd *z, const void *records, size_t len,
		     const uint8_t **out, size_t *out_len)
{
	const uint8_t *p = records;

	z->out_len = 0;
	while (len) {
		size_t n = unit_len(z, p, len);
		int ret = compress_unit(z, p, n);

		if (ret)
			return ret;
		p += n;
		len -= n;
	}
	*out = z->out;
	*out_len = z->out_len;
	return 0;
}

void pd_zstd_totals(const struct pd_zstd *z, uint64_t *in, uint64_t *out)
{
	*in = z->bytes_in;
	*out = z->bytes_out;
}
