// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a perf.data file: header, attrs with their ids, feature table,
 * event names.  Every offset and size taken from the file is checked
 * against the file before anything is read through it.
 */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/perfdata.h"
#include "perfdata/reader_int.h"
#include "util/log.h"

#define PD_MAX_ATTR_SLOT 4096

/* All of fd, after the n bytes at first already read from it. */
static int slurp_fd(int fd, const uint8_t *first, size_t first_len, uint8_t **out,
		    size_t *out_size)
{
	size_t cap = (size_t)1 << 20, len = first_len;
	uint8_t *buf;

	while (cap < first_len)
		cap *= 2;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, first, first_len);
	for (;;) {
		ssize_t n;

		if (len == cap) {
			uint8_t *nbuf = realloc(buf, cap * 2);

			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			free(buf);
			return (int)n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	*out = buf;
	*out_size = len;
	return 0;
}

static int map_input(struct pd_reader *r, const char *path, struct pc_error *err)
{
	struct stat st;
	uint8_t *buf = NULL;
	size_t size = 0;
	int fd, ret;

	if (!strcmp(path, "-")) {
		fd = STDIN_FILENO;
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return pc_error_set(err, errno, "%s: cannot open: %s", path,
					    strerror(errno));
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (map != MAP_FAILED) {
			r->base = map;
			r->size = (size_t)st.st_size;
			r->mapped = true;
			if (fd != STDIN_FILENO)
				close(fd);
			return 0;
		}
	}
	/*
	 * Not seekable: a pipe-format input is read as it comes, in bounded
	 * memory; a file-format one needs random access, and is read whole.
	 */
	ret = pd_stream_new(r, fd, fd != STDIN_FILENO, err);
	if (ret) {
		if (fd != STDIN_FILENO)
			close(fd);
		return ret;
	}
	{
		struct pd_stream *ps = r->stream;
		int error = 0;
		size_t have = pd_stream_need(ps, 16, &error);
		uint64_t magic = 0, hsize = 0;

		if (have >= 16) {
			memcpy(&magic, ps->buf + ps->head, 8);
			memcpy(&hsize, ps->buf + ps->head + 8, 8);
		}
		if (magic == PD_MAGIC && hsize == PD_PIPE_HEADER_SIZE)
			return 0;
		ret = error ? -error : slurp_fd(fd, ps->buf + ps->head, have, &buf, &size);
		ps->own_fd = false;
		pd_stream_free(ps);
		r->stream = NULL;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (ret)
		return pc_error_set(err, -ret, "%s: cannot read: %s", path, strerror(-ret));
	r->base = buf;
	r->size = size;
	r->mapped = false;
	return 0;
}

static int read_header(struct pd_reader *r, struct pc_error *err)
{
	uint64_t magic, hsize;

	if (r->stream) {
		/* checked by map_input: a pipe header */
		r->stream->head += PD_PIPE_HEADER_SIZE;
		r->stream->off = PD_PIPE_HEADER_SIZE;
		r->pipe_format = true;
		r->data_start = PD_PIPE_HEADER_SIZE;
		r->data_end = UINT64_MAX;
		return 0;
	}

	if (r->size == 0)
		return pc_error_set(err, EINVAL, "%s: file is empty", r->path);
	if (r->size < 16)
		return pd_bad(r, err, 0, "file is %zu bytes, too short for a perf.data header",
			      r->size);
	memcpy(&magic, r->base, 8);
	memcpy(&hsize, r->base + 8, 8);
	if (magic == PD_MAGIC_SWAPPED)
		return pd_bad(r, err, 0, "byte-swapped (other-endian) perf.data is not supported");
	if (magic != PD_MAGIC)
		return pd_bad(r, err, 0, "bad magic %#llx, not a perf.data file (PERFILE2)",
			      (unsigned long long)magic);
	if (hsize == PD_PIPE_HEADER_SIZE) {
		r->pipe_format = true;
		r->data_start = PD_PIPE_HEADER_SIZE;
		r->data_end = r->size;
		return 0;
	}
	if (hsize < sizeof(struct pd_file_header) || hsize > 4096)
		return pd_bad(r, err, 8, "header size %#llx is not %#zx",
			      (unsigned long long)hsize, sizeof(struct pd_file_header));
	if (r->size < hsize)
		return pd_bad(r, err, 0, "file is %zu bytes, truncated inside the %llu-byte header",
			      r->size, (unsigned long long)hsize);
	memcpy(&r->header, r->base, sizeof(r->header));
	return 0;
}

static int check_section(struct pd_reader *r, struct pc_error *err, uint64_t where,
			 const char *name, const struct pd_file_section *s)
{
	if (!pd_in_file(r, s->offset, s->size))
		return pd_bad(r, err, where,
			      "%s section [%#llx, +%#llx) lies outside the file (%#zx bytes)",
			      name, (unsigned long long)s->offset,
			      (unsigned long long)s->size, r->size);
	return 0;
}

static int read_attrs(struct pd_reader *r, struct pc_error *err)
{
	const struct pd_file_header *h = &r->header;
	uint64_t nr;
	int ret;

	ret = check_section(r, err, offsetof(struct pd_file_header, attrs), "attrs", &h->attrs);
	if (ret)
		return ret;
	if (h->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct pd_file_section) ||
	    h->attr_size > PD_MAX_ATTR_SLOT || h->attr_size % 8)
		return pd_bad(r, err, offsetof(struct pd_file_header, attr_size),
			      "attr_size %#llx is not a valid attr slot size",
			      (unsigned long long)h->attr_size);
	if (h->attrs.size % h->attr_size)
		return pd_bad(r, err, offsetof(struct pd_file_header, attrs),
			      "attrs section size %#llx is not a multiple of attr_size %#llx",
			      (unsigned long long)h->attrs.size, (unsigned long long)h->attr_size);
	nr = h->attrs.size / h->attr_size;
	/* perf stat record -n writes counts of nothing: no attrs, the STAT feature */
	if (nr == 0 && !(h->adds_features[PD_FEAT_STAT / 64] & (1ULL << (PD_FEAT_STAT % 64))))
		return pd_bad(r, err, offsetof(struct pd_file_header, attrs), "file has no attrs");
	if (nr > PD_MAX_EVSELS)
		return pd_bad(r, err, offsetof(struct pd_file_header, attrs),
			      "%llu attrs, more than the %d this reader accepts",
			      (unsigned long long)nr, PD_MAX_EVSELS);
	r->evsels = calloc(nr ? nr : 1, sizeof(*r->evsels));
	if (!r->evsels)
		return pc_error_set(err, ENOMEM, "%s: out of memory", r->path);
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t off = h->attrs.offset + i * h->attr_size;
		uint64_t slot = h->attr_size - sizeof(struct pd_file_section);
		struct pd_evsel *evsel = &r->evsels[i];
		struct pd_file_section ids;

		r->nr_evsels = (uint32_t)i + 1;
		evsel->idx = (uint32_t)i;
		ret = pd_load_attr(r, evsel, r->base + off, slot, off, err);
		if (ret)
			return ret;
		memcpy(&ids, r->base + off + slot, sizeof(ids));
		ret = check_section(r, err, off + slot, "attr ids", &ids);
		if (ret)
			return ret;
		if (ids.size % 8)
			return pd_bad(r, err, off + slot, "ids section size %#llx is not a multiple of 8",
				      (unsigned long long)ids.size);
		evsel->nr_ids = (uint32_t)(ids.size / 8);
		if (evsel->nr_ids) {
			evsel->ids = malloc(ids.size);
			if (!evsel->ids)
				return pc_error_set(err, ENOMEM, "%s: out of memory", r->path);
			memcpy(evsel->ids, r->base + ids.offset, ids.size);
		}
	}
	return pd_build_id_map(r, err);
}

static int read_feature_table(struct pd_reader *r, struct pc_error *err)
{
	const struct pd_file_header *h = &r->header;
	uint64_t table = h->data.offset + h->data.size;
	uint32_t n = 0;

	for (int bit = 0; bit < PD_FEAT_BITS; bit++) {
		struct pd_file_section s;
		const char *name = pd_feature_name(bit);
		char label[48];
		int ret;

		if (!(h->adds_features[bit / 64] & (1ULL << (bit % 64))))
			continue;
		if (!pd_in_file(r, table + n * 16ULL, 16))
			return pd_bad(r, err, table + n * 16ULL,
				      "feature table entry %u (feature %d) lies outside the file", n, bit);
		memcpy(&s, r->base + table + n * 16ULL, sizeof(s));
		snprintf(label, sizeof(label), "feature %s", name ? name : "(unknown)");
		ret = check_section(r, err, table + n * 16ULL, label, &s);
		if (ret)
			return ret;
		r->features[bit] = s;
		r->feat_present[bit / 64] |= 1ULL << (bit % 64);
		n++;
	}
	return 0;
}

static int read_data_section(struct pd_reader *r, struct pc_error *err)
{
	const struct pd_file_header *h = &r->header;
	int ret;

	if (h->data.offset < h->size)
		return pd_bad(r, err, offsetof(struct pd_file_header, data),
			      "data section offset 0x%llx lies inside the header",
			      (unsigned long long)h->data.offset);
	if (h->data.size == 0) {
		/* recorder killed before it wrote the final header: keep what is there */
		if (h->data.offset > r->size)
			return pd_bad(r, err, offsetof(struct pd_file_header, data),
				      "data section offset 0x%llx lies outside the file (%#zx bytes)",
				      (unsigned long long)h->data.offset, r->size);
		r->data_start = h->data.offset;
		r->data_end = r->size;
		r->data_size_recovered = true;
		pc_warn("%s: the header's data size is 0 (recording was not finalized); "
			"reading every whole record up to the end of the file\n", r->path);
		return 0;
	}
	ret = check_section(r, err, offsetof(struct pd_file_header, data), "data", &h->data);
	if (ret)
		return ret;
	r->data_start = h->data.offset;
	r->data_end = h->data.offset + h->data.size;
	return read_feature_table(r, err);
}

int pd_reader_open(struct pd_reader *r, const char *path, struct pc_error *err)
{
	int ret;

	struct stat st;
	char *data = NULL;

	memset(r, 0, sizeof(*r));
	/* a directory (perf record --threads, --kcore): its "data" file leads */
	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode) &&
	    asprintf(&data, "%s/data", path) < 0)
		return pc_error_set(err, ENOMEM, "out of memory");
	r->path = data ? data : strdup(!strcmp(path, "-") ? "<stdin>" : path);
	if (!r->path)
		return pc_error_set(err, ENOMEM, "out of memory");
	ret = map_input(r, data ? data : path, err);
	if (ret)
		goto fail;
	ret = read_header(r, err);
	if (ret)
		goto fail;
	if (!r->pipe_format) {
		ret = read_attrs(r, err);
		if (ret)
			goto fail;
		ret = read_data_section(r, err);
		if (ret)
			goto fail;
		ret = pd_read_event_desc(r, err);
		if (ret)
			goto fail;
		if (data) {
			ret = pd_dir_open(r, path, err);
			if (ret)
				goto fail;
		}
	}
	return 0;
fail:
	pd_reader_close(r);
	return ret;
}

void pd_reader_close(struct pd_reader *r)
{
	if (r->base) {
		if (r->mapped)
			munmap((void *)r->base, r->size);
		else
			free((void *)r->base);
	}
	for (uint32_t i = 0; i < r->nr_evsels; i++) {
		free(r->evsels[i].ids);
		free(r->evsels[i].name);
	}
	pd_stream_free(r->stream);
	pd_dir_free(r->dir);
	free(r->evsels);
	free(r->id_map);
	free(r->scratch);
	free(r->path);
	memset(r, 0, sizeof(*r));
}
