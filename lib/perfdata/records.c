// SPDX-License-Identifier: GPL-2.0
/* Walking the data section one record at a time, every size checked. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/reader_int.h"
#include "util/log.h"

#define PD_RECORD_MAX 65536	/* header.size is a u16 */

int pd_reader_next(struct pd_reader *r, uint64_t *pos, struct pd_record *rec,
		   struct pc_error *err)
{
	uint64_t off = *pos ? *pos : r->data_start;
	uint64_t left, start, end;
	const uint8_t *p, *base;
	int ret;

	if (r->stream) {
		if (*pos && *pos != r->stream->off)
			return pc_error_set(err, ESPIPE, "%s: a pipe is read once, in order", r->path);
		ret = pd_stream_next(r, pos, rec, err);
		if (ret <= 0)
			return ret;
		goto read;
	}
	/* the data section, then a directory's data.N files in turn */
	if (!r->dir && off < r->data_end) {
		base = r->base;		/* a plain file: the data section alone */
		start = 0;
		end = r->data_end;
	} else for (;;) {
		if (!pd_dir_range(r, off, &base, &start, &end))
			return 0;
		if (off < end)
			break;
		if (!pd_dir_next_range(r, &off))
			return 0;
	}
	left = end - off;
	p = base + (off - start);
	if (left < sizeof(struct perf_event_header)) {
		if (r->data_size_recovered) {
			pc_warn("%s: offset 0x%llx: %llu bytes of a torn record at the end ignored\n",
				r->path, (unsigned long long)off, (unsigned long long)left);
			*pos = end;
			return 0;
		}
		return pd_bad(r, err, off, "%llu bytes left in the data section, too few for a record header",
			      (unsigned long long)left);
	}
	memcpy(&rec->header, p, sizeof(rec->header));
	if (rec->header.size < sizeof(struct perf_event_header))
		return pd_bad(r, err, off, "record size %u is smaller than a record header (type %u)",
			      rec->header.size, rec->header.type);
	if (rec->header.size > left) {
		if (r->data_size_recovered) {
			pc_warn("%s: offset 0x%llx: torn last record (size %u, %llu bytes present) ignored\n",
				r->path, (unsigned long long)off, rec->header.size,
				(unsigned long long)left);
			*pos = end;
			return 0;
		}
		return pd_bad(r, err, off,
			      "record of type %u and size %u runs past the end of the %s at %#llx",
			      rec->header.type, rec->header.size,
			      off >> PD_DIR_SHIFT ? "file" : "data section",
			      (unsigned long long)(end & ((1ULL << PD_DIR_SHIFT) - 1)));
	}
	rec->offset = off;
	if ((uintptr_t)p % 8) {
		/* every parser reads u64 in place: give it an aligned copy */
		if (!r->scratch) {
			r->scratch = aligned_alloc(8, PD_RECORD_MAX);
			if (!r->scratch)
				return pc_error_set(err, ENOMEM, "%s: out of memory", r->path);
		}
		memcpy(r->scratch, p, rec->header.size);
		p = r->scratch;
	}
	rec->data = p;
	*pos = off + rec->header.size;
	if (r->pipe_format && rec->header.type == PC_RECORD_HEADER_TRACING_DATA)
		return pd_pipe_tracing_data(r, rec, pos, err) ?: 1;
read:
	if (rec->header.type == PC_RECORD_EVENT_UPDATE)
		return pd_event_update(r, rec, err) ?: 1;
	if (r->pipe_format && rec->header.type != PC_RECORD_HEADER_TRACING_DATA)
		return pd_pipe_record(r, rec, err) ?: 1;
	return 1;
}
