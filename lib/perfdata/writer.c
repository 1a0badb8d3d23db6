// SPDX-License-Identifier: GPL-2.0
/*
 * Writing perf.data: header | ids | attrs | data | feature table | features.
 *
 * The header and attrs go to disk before the first record (begin_data), so
 * a file whose writer was killed still opens; data.size stays 0 until
 * finish, which is how the reader knows to recover the whole records.
 * data_size only ever counts whole records that reached the disk, so a
 * failed write (ENOSPC) loses nothing that was written before it.
 *
 * A pipe (writer_pipe.c) gets everything in order instead, and with -z
 * (writer_zstd.c) the records become PERF_RECORD_COMPRESSED records as
 * they leave the buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata/codec.h"
#include "perfdata/perfdata.h"
#include "perfdata/writer_int.h"

#define PD_WRITE_BUF (256 * 1024)

static int write_pipe_part(struct pd_writer *w, bool prologue, struct pc_error *err);

static int io_error(struct pd_writer *w, struct pc_error *err, int code, const char *what)
{
	return pc_error_set(err, code, "%s: %s: %s", w->path, what, strerror(code));
}

/* Writes len bytes at off; returns bytes written (< len only on error, with *code set). */
static size_t pwrite_all(int fd, const void *buf, size_t len, uint64_t off, int *code)
{
	size_t done = 0;

	*code = 0;
	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			*code = errno;
			break;
		}
		if (n == 0) {
			*code = EIO;
			break;
		}
		done += (size_t)n;
	}
	return done;
}

/* A pipe takes bytes in order; a file at their offset. */
static size_t out_all(struct pd_writer *w, const void *buf, size_t len, uint64_t off, int *code)
{
	size_t done = 0;

	if (!w->pipe)
		return pwrite_all(w->fd, buf, len, off, code);
	*code = 0;
	while (done < len) {
		ssize_t n = write(w->fd, (const char *)buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			*code = errno;
			break;
		}
		if (n == 0) {
			*code = EIO;
			break;
		}
		done += (size_t)n;
	}
	return done;
}

int pd_writer_open_pipe(struct pd_writer *w, int fd, const char *name, struct pc_error *err)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->pipe = true;
	w->path = strdup(name);
	if (!w->path)
		return pc_error_set(err, ENOMEM, "out of memory");
	return 0;
}

int pd_writer_rename(struct pd_writer *w, const char *path, struct pc_error *err)
{
	char *copy = strdup(path);

	if (!copy)
		return pc_error_set(err, ENOMEM, "out of memory");
	if (rename(w->path, path)) {
		int code = errno;

		free(copy);
		return pc_error_set(err, code, "cannot rename %s to %s: %s", w->path, path,
				    strerror(code));
	}
	free(w->path);
	w->path = copy;
	return 0;
}

/* HEADER_COMPRESSED: u32 version, type (1 = zstd), level, ratio, mmap_len */
static int set_compressed_feature(struct pd_writer *w, uint32_t ratio)
{
	uint32_t f[5] = { 0, 1, (uint32_t)w->comp.level, ratio, w->comp.mmap_len };

	return pd_writer_set_feature(w, PD_FEAT_COMPRESSED, f, sizeof(f));
}

int pd_writer_set_compression(struct pd_writer *w, int level, uint32_t mmap_len,
			      struct pc_error *err)
{
	/*
	 * What one flush decompresses to must fit the reader's buffer of
	 * mmap_len (plus the tail of a record carried from the previous one):
	 * half of it, at most 256 KiB, as big as a drain pass usually is
	 */
	size_t unit = mmap_len / 2 > 262144 ? 262144 : mmap_len / 2;
	int ret;

	/* a data.N has no attrs to come first: before its first record will do */
	if (w->data_begun && !(w->records_only && !w->data_size && !w->buf_len))
		return pc_error_set(err, EBUSY, "%s: compression is set before the data", w->path);
	ret = pd_zstd_new(&w->comp.zstd, level, unit);
	if (ret)
		return pc_error_set(err, -ret, "zstd level %d: %s", level, strerror(-ret));
	w->comp.level = level;
	w->comp.mmap_len = mmap_len;
	if (set_compressed_feature(w, 0))
		return pc_error_set(err, ENOMEM, "out of memory");
	return 0;
}

void pd_writer_totals(const struct pd_writer *w, uint64_t *in, uint64_t *out)
{
	if (w->comp.zstd) {
		pd_zstd_totals(w->comp.zstd, in, out);
		return;
	}
	*in = *out = w->data_size;
}

int pd_writer_open(struct pd_writer *w, const char *path, struct pc_error *err)
{
	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->path = strdup(path);
	if (!w->path)
		return pc_error_set(err, ENOMEM, "out of memory");
	w->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		int code = errno;

		pc_error_set(err, code, "%s: cannot create: %s", path, strerror(code));
		free(w->path);
		w->path = NULL;
		return -code;
	}
	return 0;
}

int pd_writer_open_records(struct pd_writer *w, const char *path, struct pc_error *err)
{
	int ret = pd_writer_open(w, path, err);

	if (ret)
		return ret;
	w->records_only = true;
	w->data_begun = true;		/* no attrs: records from the first byte */
	w->buf_cap = PD_WRITE_BUF;
	w->buf = malloc(w->buf_cap);
	if (!w->buf) {
		pd_writer_abort(w);
		return pc_error_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

int pd_writer_set_path(struct pd_writer *w, const char *path, struct pc_error *err)
{
	char *copy = strdup(path);

	if (!copy)
		return pc_error_set(err, ENOMEM, "out of memory");
	free(w->path);
	w->path = copy;
	return 0;
}

int pd_writer_add_evsel(struct pd_writer *w, const struct perf_event_attr *attr,
			const uint64_t *ids, uint32_t nr_ids, const char *name,
			struct pc_error *err)
{
	struct pd_evsel *evsels, *evsel;
	uint32_t size = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;

	if (w->data_begun)
		return pc_error_set(err, EBUSY, "%s: events must be added before the data", w->path);
	if (size < PERF_ATTR_SIZE_VER0 || size > PC_ATTR_SIZE_MAX || size % 8)
		return pc_error_set(err, EINVAL, "%s: attr size %u cannot be written", w->path, size);
	evsels = realloc(w->evsels, (w->nr_evsels + 1) * sizeof(*evsels));
	if (!evsels)
		return pc_error_set(err, ENOMEM, "out of memory");
	w->evsels = evsels;
	evsel = &evsels[w->nr_evsels];
	memset(evsel, 0, sizeof(*evsel));
	memcpy(&evsel->attr, attr, size);
	evsel->attr.attr.size = size;
	evsel->file_attr_size = size;
	if (name) {
		evsel->name = strdup(name);
		if (!evsel->name)
			return pc_error_set(err, ENOMEM, "out of memory");
	}
	w->nr_evsels++;
	if (size > w->attr_size)
		w->attr_size = size;
	return pd_writer_add_ids(w, w->nr_evsels - 1, ids, nr_ids, err);
}

int pd_writer_add_ids(struct pd_writer *w, uint32_t idx, const uint64_t *ids,
		      uint32_t nr_ids, struct pc_error *err)
{
	struct pd_evsel *evsel;
	uint64_t *nids;

	if (idx >= w->nr_evsels || w->data_begun)
		return pc_error_set(err, EINVAL, "%s: ids for event %u cannot be added now",
				    w->path, idx);
	if (!nr_ids)
		return 0;
	evsel = &w->evsels[idx];
	nids = realloc(evsel->ids, (evsel->nr_ids + nr_ids) * sizeof(*nids));
	if (!nids)
		return pc_error_set(err, ENOMEM, "out of memory");
	memcpy(nids + evsel->nr_ids, ids, nr_ids * sizeof(*nids));
	evsel->ids = nids;
	evsel->nr_ids += nr_ids;
	return 0;
}

/*
 * Every attr slot has the size of the largest attr; smaller attrs are
 * zero-extended and say so in their size field, which every perf reads.
 */
static int write_header(struct pd_writer *w, const struct pd_file_header *h,
			struct pc_error *err)
{
	int code;

	if (out_all(w, h, sizeof(*h), 0, &code) != sizeof(*h))
		return io_error(w, err, code, "writing the header");
	return 0;
}

static void fill_header(const struct pd_writer *w, struct pd_file_header *h,
			uint64_t attrs_offset)
{
	memset(h, 0, sizeof(*h));
	h->magic = PD_MAGIC;
	h->size = sizeof(*h);
	h->attr_size = w->attr_size + sizeof(struct pd_file_section);
	h->attrs.offset = attrs_offset;
	h->attrs.size = (uint64_t)w->nr_evsels * h->attr_size;
	h->data.offset = w->data_start;
}

int pd_writer_begin_data(struct pd_writer *w, struct pc_error *err)
{
	uint64_t off = sizeof(struct pd_file_header), attrs_offset;
	size_t slot = w->attr_size + sizeof(struct pd_file_section);
	struct pd_file_header h;
	uint8_t *buf;
	int code;

	if (!w->nr_evsels && !w->no_evsels_ok)
		return pc_error_set(err, EINVAL, "%s: no events to write", w->path);
	/* no attrs (stat record -n): perf 6.1's header still says 128 + 16 */
	if (!w->nr_evsels)
		w->attr_size = PERF_ATTR_SIZE_VER7;
	if (w->pipe) {
		w->data_begun = true;
		w->buf_cap = PD_WRITE_BUF;
		w->buf = malloc(w->buf_cap);
		if (!w->buf)
			return pc_error_set(err, ENOMEM, "out of memory");
		return write_pipe_part(w, true, err);
	}
	buf = calloc(1, slot);
	if (!buf)
		return pc_error_set(err, ENOMEM, "out of memory");
	/* ids of every event first, then the attrs pointing at them */
	for (uint32_t i = 0; i < w->nr_evsels; i++) {
		size_t len = w->evsels[i].nr_ids * sizeof(uint64_t);

		if (pwrite_all(w->fd, w->evsels[i].ids, len, off, &code) != len)
			goto fail;
		off += len;
	}
	attrs_offset = off;
	off = sizeof(struct pd_file_header);
	for (uint32_t i = 0; i < w->nr_evsels; i++) {
		struct pd_file_section ids = { off, w->evsels[i].nr_ids * sizeof(uint64_t) };

		memset(buf, 0, slot);
		memcpy(buf, &w->evsels[i].attr, w->evsels[i].file_attr_size);
		((struct perf_event_attr *)buf)->size = w->attr_size;
		memcpy(buf + w->attr_size, &ids, sizeof(ids));
		if (pwrite_all(w->fd, buf, slot, attrs_offset + (uint64_t)i * slot, &code) != slot)
			goto fail;
		off += ids.size;
	}
	free(buf);
	w->data_start = attrs_offset + (uint64_t)w->nr_evsels * slot;
	w->data_start = (w->data_start + 7) & ~7ULL;
	fill_header(w, &h, attrs_offset);
	w->data_begun = true;
	w->buf_cap = PD_WRITE_BUF;
	w->buf = malloc(w->buf_cap);
	if (!w->buf)
		return pc_error_set(err, ENOMEM, "out of memory");
	return write_header(w, &h, err);
fail:
	free(buf);
	return io_error(w, err, code, "writing the attrs");
}

/* Bytes of whole records at the start of buf[0..len). */
static size_t whole_records(const uint8_t *buf, size_t len)
{
	size_t off = 0;

	while (len - off >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;

		memcpy(&h, buf + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - off)
			break;
		off += h.size;
	}
	return off;
}

static int write_out(struct pd_writer *w, const void *buf, size_t len, struct pc_error *err)
{
	int code;
	size_t done;

	if (w->failed)
		return pc_error_set(err, EIO, "%s: an earlier write failed", w->path);
	done = out_all(w, buf, len, w->data_start + w->data_size, &code);
	if (done == len) {
		w->data_size += len;
		return 0;
	}
	/* keep the whole records that made it; finish truncates the torn rest */
	w->data_size += whole_records(buf, done);
	w->failed = true;
	return io_error(w, err, code, "writing the data");
}

/* The pipe format's prologue or epilogue (writer_pipe.c), encoded then written. */
static int write_pipe_part(struct pd_writer *w, bool prologue, struct pc_error *err)
{
	struct pd_buf out = { 0 };
	int ret;

	if (prologue && !w->pipe_no_features && pd_writer_event_desc(w))
		return pc_error_set(err, ENOMEM, "out of memory");
	ret = prologue ? pd_pipe_prologue(w, &out, err) : pd_pipe_epilogue(w, &out, err);
	if (!ret && out.len)
		ret = write_out(w, out.data, out.len, err);
	free(out.data);
	return ret;
}

/* Whole records to the output, compressed with -z. */
static int emit(struct pd_writer *w, const void *records, size_t len, struct pc_error *err)
{
	const uint8_t *out;
	size_t out_len;
	int ret;

	if (!w->comp.zstd)
		return write_out(w, records, len, err);
	if (w->failed)
		return pc_error_set(err, EIO, "%s: an earlier write failed", w->path);
	ret = pd_zstd_compress(w->comp.zstd, records, len, &out, &out_len);
	if (ret)
		return pc_error_set(err, -ret, "%s: compressing: %s", w->path, strerror(-ret));
	return write_out(w, out, out_len, err);
}

int pd_writer_flush(struct pd_writer *w, struct pc_error *err)
{
	int ret;

	if (!w->buf_len)
		return 0;
	ret = emit(w, w->buf, w->buf_len, err);
	w->buf_len = 0;
	return ret;
}

int pd_writer_write(struct pd_writer *w, const void *records, size_t len,
		    struct pc_error *err)
{
	size_t whole = whole_records(records, len);
	int ret;

	if (!w->data_begun)
		return pc_error_set(err, EINVAL, "%s: records written before the attrs", w->path);
	if (whole != len)
		return pc_error_set(err, EINVAL, "%s: %zu bytes given are not whole records (%zu are)",
				    w->path, len, whole);
	/* none (stat record -n has no counts to write): records may be NULL */
	if (!len)
		return 0;
	if (len >= w->buf_cap / 2) {
		ret = pd_writer_flush(w, err);
		return ret ? ret : emit(w, records, len, err);
	}
	if (w->buf_len + len > w->buf_cap) {
		ret = pd_writer_flush(w, err);
		if (ret)
			return ret;
	}
	memcpy(w->buf + w->buf_len, records, len);
	w->buf_len += len;
	return 0;
}

/* The feature table and payloads after the data; 0 features on failure. */
static int write_features(struct pd_writer *w, struct pd_file_header *h)
{
	uint64_t table = w->data_start + w->data_size, off;
	struct pd_file_section sec[PD_FEAT_BITS];
	uint32_t n = 0;
	int code;

	for (int f = 0; f < PD_FEAT_BITS; f++)
		if (w->features[f].data)
			n++;
	off = table + n * sizeof(struct pd_file_section);
	n = 0;
	for (int f = 0; f < PD_FEAT_BITS; f++) {
		struct pd_writer_feature *feat = &w->features[f];

		if (!feat->data)
			continue;
		if (pwrite_all(w->fd, feat->data, feat->size, off, &code) != feat->size)
			return -code;
		sec[n].offset = off;
		sec[n].size = feat->size;
		n++;
		off += feat->size;
		h->adds_features[f / 64] |= 1ULL << (f % 64);
	}
	if (pwrite_all(w->fd, sec, n * sizeof(sec[0]), table, &code) != n * sizeof(sec[0]))
		return -code;
	return 0;
}

int pd_writer_finish(struct pd_writer *w, struct pc_error *err)
{
	struct pd_file_header h, old;
	int ret = 0, code;

	if (!w->data_begun) {
		ret = pd_writer_begin_data(w, err);
		if (ret) {
			pd_writer_abort(w);
			return ret;
		}
	}
	if (!w->failed)
		ret = pd_writer_flush(w, err);
	if (w->records_only) {
		/* nothing to point at the records: keep the whole ones, cut a torn rest */
		if (w->failed && ftruncate(w->fd, (off_t)w->data_size) && !ret)
			ret = io_error(w, err, errno, "truncating after a failed write");
		goto out;
	}
	if (w->pipe) {
		if (!ret && !w->failed)
			ret = write_pipe_part(w, false, err);
		goto out;
	}
	if (w->comp.zstd) {
		uint64_t in, out;

		pd_zstd_totals(w->comp.zstd, &in, &out);
		if (set_compressed_feature(w, out ? (uint32_t)((in + out / 2) / out) : 0))
			ret = ret ? ret : pc_error_set(err, ENOMEM, "out of memory");
	}
	if (!w->failed && w->data_size == 0) {
		/*
		 * A zero data size means "not finalized" to the reader; an empty
		 * recording is finalized, so it holds one empty FINISHED_ROUND.
		 */
		struct perf_event_header fr = { PC_RECORD_FINISHED_ROUND, 0, sizeof(fr) };

		ret = write_out(w, &fr, sizeof(fr), err);
	}
	if (pd_writer_event_desc(w))
		ret = ret ? ret : pc_error_set(err, ENOMEM, "out of memory");
	if (pread(w->fd, &old, sizeof(old), 0) != sizeof(old)) {
		code = errno ? errno : EIO;
		ret = io_error(w, err, code, "re-reading the header");
		goto out;
	}
	h = old;
	memset(h.adds_features, 0, sizeof(h.adds_features));
	/*
	 * After a failed write the torn rest is cut first and the features
	 * are tried all the same: the caller may have freed room since (a
	 * perf.data directory needs its DIR_FORMAT to be read by perf).
	 */
	if (w->failed && ftruncate(w->fd, (off_t)(w->data_start + w->data_size)) && !ret)
		ret = io_error(w, err, errno, "truncating after a failed write");
	if (write_features(w, &h)) {
		/* disk full: a file with its data and no features beats no file */
		memset(h.adds_features, 0, sizeof(h.adds_features));
		if (ftruncate(w->fd, (off_t)(w->data_start + w->data_size)) && !ret)
			ret = io_error(w, err, errno, "truncating after a failed write");
	}
	h.data.size = w->data_size;
	code = write_header(w, &h, err);
	if (code && !ret)
		ret = code;
out:
	if (close(w->fd) && !ret)
		ret = io_error(w, err, errno, "closing");
	w->fd = -1;
	pd_writer_abort(w);
	return ret;
}

void pd_writer_abort(struct pd_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	for (uint32_t i = 0; i < w->nr_evsels; i++) {
		free(w->evsels[i].ids);
		free(w->evsels[i].name);
	}
	free(w->evsels);
	for (int f = 0; f < PD_FEAT_BITS; f++)
		free(w->features[f].data);
	free(w->buf);
	free(w->path);
	pd_zstd_free(w->comp.zstd);
	w->comp.zstd = NULL;
	w->evsels = NULL;
	w->nr_evsels = 0;
	w->buf = NULL;
	w->path = NULL;
	w->fd = -1;
	memset(w->features, 0, sizeof(w->features));
}
