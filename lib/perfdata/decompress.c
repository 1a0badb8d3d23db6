// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming zstd decoder for PERF_RECORD_COMPRESSED / COMPRESSED2 payloads
 * (see decompress.h for the shape of the stream and the calling sequence).
 *
 * The window holds decompressed bytes not yet handed out.  A record is
 * handed out in place when it is whole and 8-byte aligned, else from an
 * aligned copy.  When the free space at the end of the window gets small the
 * undelivered tail (less than one record, at most 64 KiB) is moved to the
 * front, so the window never grows.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "perfdata/decompress.h"

#define RECORD_MAX	65536			/* header.size is a u16 */
#define WIN_CAP		(4 * RECORD_MAX)
#define WIN_MIN_FREE	RECORD_MAX		/* compact below this much free space */
#define WINDOW_LOG_MAX	27			/* zstd's default limit: 128 MiB */

static int bad(const char *path, struct pc_error *err, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad(const char *path, struct pc_error *err, uint64_t off, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return pc_error_set(err, EINVAL, "%s: offset 0x%llx: %s", path, (unsigned long long)off,
			    what);
}

int pd_comp_header_parse(const void *data, size_t size, const char *path, uint64_t offset,
			 struct pd_comp_header *h, struct pc_error *err)
{
	uint32_t v[5];

	if (!data || size < PD_COMP_HEADER_SIZE)
		return bad(path, err, offset,
			   "COMPRESSED header section holds %zu bytes, needs %d (version, type, level, ratio, mmap_len)",
			   data ? size : 0, PD_COMP_HEADER_SIZE);
	memcpy(v, data, sizeof(v));
	h->version = v[0];
	h->type = v[1];
	h->level = v[2];
	h->ratio = v[3];
	h->mmap_len = v[4];
	return 0;
}

const char *pd_comp_type_name(uint32_t type)
{
	return type == PD_COMP_ZSTD ? "Zstd" : NULL;
}

int pd_decomp_payload(const struct pd_record *rec, const char *path, const void **payload,
		      size_t *len, struct pc_error *err)
{
	const uint8_t *p = rec->data;
	size_t size = rec->header.size;
	uint64_t data_size;

	if (size < sizeof(struct perf_event_header))
		return bad(path, err, rec->offset, "compressed record size %zu is smaller than its header",
			   size);
	switch (rec->header.type) {
	case PC_RECORD_COMPRESSED:
		*payload = p + 8;
		*len = size - 8;
		return 0;
	case PC_RECORD_COMPRESSED2:
		if (size < 16)
			return bad(path, err, rec->offset,
				   "COMPRESSED2 record size %zu leaves no room for its data_size field", size);
		memcpy(&data_size, p + 8, 8);
		if (data_size > size - 16)
			return bad(path, err, rec->offset,
				   "COMPRESSED2 data_size %llu runs past the record (size %zu holds %zu bytes of data)",
				   (unsigned long long)data_size, size, size - 16);
		if (size - 16 - data_size >= 8)
			return bad(path, err, rec->offset,
				   "COMPRESSED2 data_size %llu leaves %llu bytes of padding in a record of size %zu (at most 7)",
				   (unsigned long long)data_size,
				   (unsigned long long)(size - 16 - data_size), size);
		*payload = p + 16;
		*len = data_size;
		return 0;
	default:
		return bad(path, err, rec->offset, "record type %u is not COMPRESSED or COMPRESSED2",
			   rec->header.type);
	}
}

int pd_decomp_init(struct pd_decomp *d, const char *path, const struct pd_comp_header *h,
		   struct pc_error *err)
{
	size_t ret;

	memset(d, 0, sizeof(*d));
	if (h && h->type != PD_COMP_ZSTD)
		return pc_error_set(err, EOPNOTSUPP,
				    "%s: COMPRESSED header: compression type %u is not supported (only %u, Zstd)",
				    path, h->type, PD_COMP_ZSTD);
	d->path = strdup(path);
	d->zds = ZSTD_createDStream();
	d->win = malloc(WIN_CAP);
	d->aligned = aligned_alloc(8, RECORD_MAX);
	if (!d->path || !d->zds || !d->win || !d->aligned) {
		pd_decomp_fini(d);
		return pc_error_set(err, ENOMEM, "%s: out of memory for the decompressor", path);
	}
	d->win_cap = WIN_CAP;
	d->drained = true;
	ret = ZSTD_DCtx_setParameter(d->zds, ZSTD_d_windowLogMax, WINDOW_LOG_MAX);
	if (!ZSTD_isError(ret))
		ret = ZSTD_initDStream(d->zds);
	if (ZSTD_isError(ret)) {
		pc_error_set(err, EIO, "%s: zstd: %s", path, ZSTD_getErrorName(ret));
		pd_decomp_fini(d);
		return -EIO;
	}
	return 0;
}

int pd_decomp_feed(struct pd_decomp *d, const void *payload, size_t len, uint64_t file_offset,
		   struct pc_error *err)
{
	if (!d->drained)
		return pc_error_set(err, EBUSY,
				    "%s: offset 0x%llx: the previous COMPRESSED record (offset 0x%llx) is not drained",
				    d->path, (unsigned long long)file_offset,
				    (unsigned long long)d->cur_offset);
	d->in = payload;
	d->in_len = len;
	d->in_pos = 0;
	d->cur_offset = file_offset;
	d->cur_out = 0;
	d->drained = false;
	d->stats.nr_compressed++;
	d->stats.bytes_in += len;
	return 0;
}

int pd_decomp_feed_record(struct pd_decomp *d, const struct pd_record *rec, struct pc_error *err)
{
	const void *payload;
	size_t len;
	int ret = pd_decomp_payload(rec, d->path, &payload, &len, err);

	return ret ?: pd_decomp_feed(d, payload, len, rec->offset, err);
}

/* Runs zstd once into the free end of the window: 1 progress, 0 none possible. */
static int decompress_some(struct pd_decomp *d, struct pc_error *err)
{
	ZSTD_outBuffer out;
	ZSTD_inBuffer in = { d->in, d->in_len, d->in_pos };
	size_t ret;

	if (d->in_pos >= d->in_len && !d->out_pending)
		return 0;
	if (d->win_cap - d->tail < WIN_MIN_FREE) {
		memmove(d->win, d->win + d->head, d->tail - d->head);
		d->tail -= d->head;
		d->head = 0;
	}
	out = (ZSTD_outBuffer){ d->win + d->tail, d->win_cap - d->tail, 0 };
	ret = ZSTD_decompressStream(d->zds, &out, &in);
	if (ZSTD_isError(ret))
		return bad(d->path, err, d->cur_offset,
			   "zstd: %s (compressed byte %zu of %zu of this record, %llu bytes decompressed before it)",
			   ZSTD_getErrorName(ret), d->in_pos, d->in_len,
			   (unsigned long long)(d->stats.bytes_out - d->cur_out));
	d->in_pos = in.pos;
	d->tail += out.pos;
	d->cur_out += out.pos;
	d->stats.bytes_out += out.pos;
	if (d->cur_out > d->stats.max_out_per_payload)
		d->stats.max_out_per_payload = d->cur_out;
	d->out_pending = out.pos == out.size;
	d->frame_open = ret != 0;
	return 1;
}

int pd_decomp_next(struct pd_decomp *d, struct pd_record *rec, struct pc_error *err)
{
	for (;;) {
		size_t avail = d->tail - d->head;
		struct perf_event_header hdr;
		int ret;

		if (avail >= sizeof(hdr)) {
			memcpy(&hdr, d->win + d->head, sizeof(hdr));
			if (hdr.size < sizeof(hdr))
				return bad(d->path, err, d->cur_offset,
					   "decompressed record at stream byte %llu: size %u is smaller than a record header (type %u)",
					   (unsigned long long)d->head_pos, hdr.size, hdr.type);
			if (hdr.type == PC_RECORD_COMPRESSED || hdr.type == PC_RECORD_COMPRESSED2)
				return bad(d->path, err, d->cur_offset,
					   "decompressed record at stream byte %llu is itself a compressed record (type %u)",
					   (unsigned long long)d->head_pos, hdr.type);
			if (avail >= hdr.size) {
				const uint8_t *p = d->win + d->head;

				if ((uintptr_t)p % 8) {
					memcpy(d->aligned, p, hdr.size);
					p = (const uint8_t *)d->aligned;
				}
				rec->offset = d->cur_offset;
				rec->header = hdr;
				rec->data = p;
				if (d->head_fed != d->stats.nr_compressed)
					d->stats.nr_straddling++;
				d->head += hdr.size;
				d->head_pos += hdr.size;
				d->head_fed = d->stats.nr_compressed;
				d->stats.nr_records++;
				return 1;
			}
		}
		if (avail == 0)
			d->head_fed = d->stats.nr_compressed;
		ret = decompress_some(d, err);
		if (ret <= 0) {
			d->drained = ret == 0;
			return ret;
		}
	}
}

int pd_decomp_finish(struct pd_decomp *d, struct pc_error *err)
{
	size_t avail = d->tail - d->head;
	struct perf_event_header hdr = { 0 };

	if (!d->drained)
		return pc_error_set(err, EBUSY, "%s: offset 0x%llx: COMPRESSED record not drained",
				    d->path, (unsigned long long)d->cur_offset);
	if (!avail)
		return 0;
	if (avail >= sizeof(hdr)) {
		memcpy(&hdr, d->win + d->head, sizeof(hdr));
		return bad(d->path, err, d->cur_offset,
			   "the compressed stream ends inside a record: %zu of its %u bytes (type %u) at stream byte %llu",
			   avail, hdr.size, hdr.type, (unsigned long long)d->head_pos);
	}
	return bad(d->path, err, d->cur_offset,
		   "the compressed stream ends inside a record header: %zu of 8 bytes at stream byte %llu",
		   avail, (unsigned long long)d->head_pos);
}

size_t pd_decomp_unfinished(const struct pd_decomp *d)
{
	return d->drained ? d->tail - d->head : 0;
}

void pd_decomp_fini(struct pd_decomp *d)
{
	ZSTD_freeDStream(d->zds);
	free(d->win);
	free(d->aligned);
	free(d->path);
	memset(d, 0, sizeof(*d));
}
