// SPDX-License-Identifier: GPL-2.0
/*
 * A pipe read as it comes (perf record -o - | perfcheck script -i -): the
 * records pass through one buffer of a fixed size, so memory does not grow
 * with the input.  What outlives a record is copied out of it: the feature
 * payloads and TRACING_DATA (each its own allocation), the attrs (evsels).
 * A record handed out is valid until the next call.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata/reader_int.h"

#define STREAM_CAP (256 * 1024)	/* > the largest record (64 KiB) */

int pd_stream_new(struct pd_reader *r, int fd, bool own_fd, struct pc_error *err)
{
	struct pd_stream *st = calloc(1, sizeof(*st));

	if (!st || !(st->buf = aligned_alloc(8, STREAM_CAP))) {
		free(st);
		return pc_error_set(err, ENOMEM, "out of memory");
	}
	st->fd = fd;
	st->own_fd = own_fd;
	st->cap = STREAM_CAP;
	r->stream = st;
	return 0;
}

void pd_stream_free(struct pd_stream *st)
{
	if (!st)
		return;
	if (st->own_fd)
		close(st->fd);
	for (int i = 0; i < PD_FEAT_BITS; i++)
		free(st->feat[i]);
	free(st->buf);
	free(st);
}

/* Makes n bytes readable at buf + head if the input has them; returns how many are. */
size_t pd_stream_need(struct pd_stream *st, size_t n, int *error)
{
	if (n > st->cap)
		n = st->cap;
	if (st->cap - st->head < n) {
		memmove(st->buf, st->buf + st->head, st->tail - st->head);
		st->tail -= st->head;
		st->head = 0;
	}
	while (st->tail - st->head < n && !st->eof) {
		ssize_t got = read(st->fd, st->buf + st->tail, st->cap - st->tail);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			*error = errno;
			st->eof = true;
			break;
		}
		if (got == 0)
			st->eof = true;
		st->tail += (size_t)got;
	}
	return st->tail - st->head;
}

static void consume(struct pd_stream *st, size_t n)
{
	st->head += n;
	st->off += n;
}

/* The bytes of TRACING_DATA that follow its record, copied out (size, then padding). */
static int tracing_data(struct pd_reader *r, const struct pd_record *rec, struct pc_error *err)
{
	struct pd_stream *st = r->stream;
	uint32_t size;
	uint64_t padded, done = 0, start = st->off;
	uint8_t *copy;
	int error = 0;

	if (rec->header.size < sizeof(struct perf_event_header) + 4)
		return pd_bad(r, err, rec->offset, "TRACING_DATA record of %u bytes is too short",
			      rec->header.size);
	memcpy(&size, (const uint8_t *)rec->data + sizeof(struct perf_event_header), 4);
	padded = ((uint64_t)size + 7) & ~7ULL;
	copy = malloc(padded ? padded : 1);
	if (!copy)
		return pc_error_set(err, ENOMEM, "out of memory");
	while (done < padded) {
		size_t want = padded - done > st->cap ? st->cap : (size_t)(padded - done);
		size_t have = pd_stream_need(st, want, &error);

		if (!have) {
			free(copy);
			return pd_bad(r, err, rec->offset,
				      "TRACING_DATA of %u bytes runs past the end of the input "
				      "(%llu bytes came)%s%s", size, (unsigned long long)done,
				      error ? ": " : "", error ? strerror(error) : "");
		}
		if (have > want)
			have = want;
		memcpy(copy + done, st->buf + st->head, have);
		consume(st, have);
		done += have;
	}
	free(st->feat[PD_FEAT_TRACING_DATA]);
	st->feat[PD_FEAT_TRACING_DATA] = copy;
	r->features[PD_FEAT_TRACING_DATA].offset = start;
	r->features[PD_FEAT_TRACING_DATA].size = size;
	if (size)
		r->feat_present[PD_FEAT_TRACING_DATA / 64] |= 1ULL << (PD_FEAT_TRACING_DATA % 64);
	return 0;
}

int pd_stream_next(struct pd_reader *r, uint64_t *pos, struct pd_record *rec,
		   struct pc_error *err)
{
	struct pd_stream *st = r->stream;
	int error = 0;
	size_t have = pd_stream_need(st, sizeof(struct perf_event_header), &error);
	const uint8_t *p;

	if (error)
		return pc_error_set(err, error, "%s: offset 0x%llx: reading the input: %s", r->path,
				    (unsigned long long)st->off, strerror(error));
	if (!have)
		return 0;
	if (have < sizeof(struct perf_event_header))
		return pd_bad(r, err, st->off, "the input ends %zu bytes into a record header",
			      have);
	memcpy(&rec->header, st->buf + st->head, sizeof(rec->header));
	if (rec->header.size < sizeof(struct perf_event_header))
		return pd_bad(r, err, st->off, "record size %u is smaller than a record header (type %u)",
			      rec->header.size, rec->header.type);
	have = pd_stream_need(st, rec->header.size, &error);
	if (have < rec->header.size)
		return pd_bad(r, err, st->off,
			      "record of type %u and size %u runs past the end of the input "
			      "(%zu bytes came)%s%s", rec->header.type, rec->header.size, have,
			      error ? ": " : "", error ? strerror(error) : "");
	rec->offset = st->off;
	p = st->buf + st->head;
	/* every parser reads u64 in place; TRACING_DATA's read moves the buffer */
	if ((uintptr_t)p % 8 || rec->header.type == PC_RECORD_HEADER_TRACING_DATA) {
		if (!r->scratch) {
			r->scratch = aligned_alloc(8, 65536);
			if (!r->scratch)
				return pc_error_set(err, ENOMEM, "%s: out of memory", r->path);
		}
		memcpy(r->scratch, p, rec->header.size);
		p = r->scratch;
	}
	rec->data = p;
	consume(st, rec->header.size);
	if (rec->header.type == PC_RECORD_HEADER_TRACING_DATA) {
		int ret = tracing_data(r, rec, err);

		if (ret)
			return ret;
	}
	*pos = st->off;
	return 1;
}
