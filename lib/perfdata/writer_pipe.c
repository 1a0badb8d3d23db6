// SPDX-License-Identifier: GPL-2.0
/*
 * The pipe format (-o -): a 16-byte header, then everything in order as
 * records: one HEADER_ATTR per event (attr and ids), one HEADER_FEATURE
 * per feature perf synthesizes in a pipe, TRACING_DATA as its own record
 * followed by the data, the data records, and at the end the build ids as
 * HEADER_BUILD_ID records (they are known only once the samples are).
 *
 * Only the encoding lives here: the records go into a buffer that the
 * writer (writer.c) sends out, so this file calls nothing of the writer's.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/codec.h"
#include "perfdata/perfdata.h"
#include "perfdata/writer_int.h"

#define REC_MAX 0xffffU

/*
 * Features perf reads from a pipe: it warns "unsupported record type in
 * pipe-mode" for TRACING_DATA and BUILD_ID (records of their own here) and
 * fails on a feature past the last it knows ("wrong feature ID: 31" from
 * perf 5.10, which knows none past CLOCK_DATA; 6.1 knows up to PMU_CAPS),
 * so perfcheck's own sections (PERFCHECK_OPEN) and the PMU capabilities
 * stay out of a pipe: a pipe is read by whatever perf the pipe reaches.
 * CACHE stays out too: perf writes it to a file only.
 */
static bool pipe_feature(int f)
{
	return f != PD_FEAT_TRACING_DATA && f != PD_FEAT_BUILD_ID && f != PD_FEAT_CACHE &&
	       f <= PD_FEAT_CLOCK_DATA;
}

/* Appends len bytes of buf, or len (< 8) zeros when buf is NULL. */
static int put(struct pd_buf *out, const void *buf, size_t len)
{
	static const uint8_t zeros[8];

	return pd_buf_put(out, buf ? buf : zeros, len);
}

static int put_record(const struct pd_writer *w, struct pd_buf *out, uint32_t type,
		      const void *a, size_t alen, const void *b, size_t blen,
		      struct pc_error *err)
{
	struct perf_event_header h = { type, 0, (uint16_t)(sizeof(h) + alen + blen) };

	if (sizeof(h) + alen + blen > REC_MAX)
		return pc_error_set(err, E2BIG, "%s: a pipe record of %zu bytes is too large",
				    w->path, sizeof(h) + alen + blen);
	if (put(out, &h, sizeof(h)) || put(out, a, alen) || (blen && put(out, b, blen)))
		return pc_error_set(err, ENOMEM, "out of memory");
	return 0;
}

static int put_tracing_data(struct pd_buf *out, const struct pd_writer_feature *f,
			    struct pc_error *err)
{
	/* header, u32 size, u32 pad; the data follows, padded to 8 */
	struct { struct perf_event_header h; uint32_t size, pad; } rec = {
		{ PC_RECORD_HEADER_TRACING_DATA, 0, sizeof(rec) }, (uint32_t)f->size, 0,
	};
	size_t pad = (8 - f->size % 8) % 8;

	if (put(out, &rec, sizeof(rec)) || put(out, f->data, f->size) || put(out, NULL, pad))
		return pc_error_set(err, ENOMEM, "out of memory");
	return 0;
}

int pd_pipe_prologue(const struct pd_writer *w, struct pd_buf *out, struct pc_error *err)
{
	int ret = 0;

	if (pd_encode_pipe_header(out))
		return pc_error_set(err, ENOMEM, "out of memory");
	/*
	 * perf (6.1 at least) builds its evsel from a pipe ATTR by copying its
	 * whole struct perf_event_attr, whatever attr.size says: with a short
	 * attr it takes the ids that follow as sample_regs_user and friends
	 * and crashes on the first callchain sample.  So a pipe's attrs are
	 * zero-extended to the largest size known (perf 7.2's), which every
	 * perf copies without reading past it.
	 */
	for (uint32_t i = 0; i < w->nr_evsels && !ret; i++) {
		const struct pd_evsel *e = &w->evsels[i];
		union pc_attr attr = e->attr;

		attr.attr.size = PC_ATTR_SIZE_MAX;
		if (sizeof(struct perf_event_header) + PC_ATTR_SIZE_MAX +
		    e->nr_ids * sizeof(uint64_t) > REC_MAX)
			return pc_error_set(err, E2BIG, "%s: the ATTR record of %s (%u ids) is too large for a pipe",
					    w->path, e->name ? e->name : "an event", e->nr_ids);
		if (pd_encode_attr(out, &attr.attr, e->ids, e->nr_ids))
			return pc_error_set(err, ENOMEM, "out of memory");
	}
	for (int f = 0; f < PD_FEAT_BITS && !ret; f++) {
		uint64_t id = (uint64_t)f;

		if (!w->features[f].data || !pipe_feature(f) || w->pipe_no_features)
			continue;
		ret = put_record(w, out, PC_RECORD_HEADER_FEATURE, &id, sizeof(id),
				 w->features[f].data, w->features[f].size, err);
	}
	if (!ret && w->features[PD_FEAT_TRACING_DATA].data)
		ret = put_tracing_data(out, &w->features[PD_FEAT_TRACING_DATA], err);
	return ret;
}

/*
 * The BUILD_ID section is a run of build id records: each goes out with its
 * type, its NUL-terminated name padded with zeros to a multiple of 8 bytes
 * (perf 7.2 aborts a pipe at a record whose size is not).
 */
int pd_pipe_epilogue(const struct pd_writer *w, struct pd_buf *out, struct pc_error *err)
{
	const struct pd_writer_feature *f = &w->features[PD_FEAT_BUILD_ID];
	size_t off = 0;

	while (f->data && off + sizeof(struct perf_event_header) <= f->size) {
		struct perf_event_header h;
		size_t len, size;

		memcpy(&h, f->data + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > f->size - off)
			break;
		len = h.size;
		size = (len + 7) & ~(size_t)7;
		if (size > REC_MAX)
			break;
		h.type = PC_RECORD_HEADER_BUILD_ID;
		h.size = (uint16_t)size;
		if (put(out, &h, sizeof(h)) ||
		    put(out, f->data + off + sizeof(h), len - sizeof(h)) ||
		    put(out, NULL, size - len))
			return pc_error_set(err, ENOMEM, "out of memory");
		off += len;
	}
	return 0;
}
