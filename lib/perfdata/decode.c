// SPDX-License-Identifier: GPL-2.0
/* Decoding the non-sample records the project writes, every size checked. */
#include <errno.h>
#include <string.h>

#include "perfdata/codec.h"
#include "perfdata/reader_int.h"

/* The record's body (header included, trailer excluded), its sample_id into id. */
static int body(const struct pd_reader *r, const struct pd_record *rec, struct pd_sample *id,
		size_t *size, struct pc_error *err)
{
	struct pd_sample tmp;
	int ret = pd_parse_sample_id(r, rec, id ? id : &tmp, err);

	if (ret)
		return ret;
	*size = rec->header.size;
	if ((id ? id : &tmp)->evsel)
		*size -= (id ? id : &tmp)->evsel->sample_id_size;
	return 0;
}

static int bad(const char *path, const struct pd_record *rec, struct pc_error *err,
	       const char *what)
{
	return pc_error_set(err, EINVAL, "%s: offset 0x%llx: %s", path,
			    (unsigned long long)rec->offset, what);
}

static int string_at(const char *path, const struct pd_record *rec, size_t off, size_t size,
		     const char *what, const char **out, struct pc_error *err)
{
	const char *p = (const char *)rec->data + off;

	if (size <= off)
		return bad(path, rec, err, what);
	if (!memchr(p, '\0', size - off))
		return bad(path, rec, err, what);
	*out = p;
	return 0;
}

int pd_decode_comm(const char *path, const struct pd_record *rec, size_t size,
		   struct pd_comm *c, struct pc_error *err)
{
	const uint8_t *p = rec->data;

	if (size <= 16)
		return bad(path, rec, err, "COMM record too short");
	memcpy(&c->pid, p + 8, 4);
	memcpy(&c->tid, p + 12, 4);
	return string_at(path, rec, 16, size, "COMM name is not NUL-terminated", &c->comm, err);
}

int pd_decode_task(const char *path, const struct pd_record *rec, size_t size,
		   struct pd_task *t, struct pc_error *err)
{
	const uint8_t *p = rec->data;

	if (size < 8 + 24)
		return bad(path, rec, err, rec->header.type == PERF_RECORD_EXIT ?
			   "EXIT record too short" : "FORK record too short");
	memcpy(&t->pid, p + 8, 4);
	memcpy(&t->ppid, p + 12, 4);
	memcpy(&t->tid, p + 16, 4);
	memcpy(&t->ptid, p + 20, 4);
	memcpy(&t->time, p + 24, 8);
	return 0;
}

int pd_decode_mmap(const char *path, const struct pd_record *rec, size_t size,
		   struct pd_mmap *m, struct pc_error *err)
{
	bool v2 = rec->header.type == PERF_RECORD_MMAP2;
	const uint8_t *p = rec->data;
	size_t fixed = v2 ? 8 + 32 + 24 + 8 : 8 + 32;

	if (size <= fixed)
		return bad(path, rec, err, v2 ? "MMAP2 record too short" : "MMAP record too short");
	memset(m, 0, sizeof(*m));
	memcpy(&m->pid, p + 8, 4);
	memcpy(&m->tid, p + 12, 4);
	memcpy(&m->start, p + 16, 8);
	memcpy(&m->len, p + 24, 8);
	memcpy(&m->pgoff, p + 32, 8);
	if (v2 && (rec->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		m->build_id_size = p[40] > 20 ? 20 : p[40];
		memcpy(m->build_id, p + 44, m->build_id_size);
	} else if (v2) {
		memcpy(&m->maj, p + 40, 4);
		memcpy(&m->min, p + 44, 4);
		memcpy(&m->ino, p + 48, 8);
		memcpy(&m->ino_generation, p + 56, 8);
	}
	if (v2) {
		memcpy(&m->prot, p + 64, 4);
		memcpy(&m->flags, p + 68, 4);
	}
	return string_at(path, rec, fixed, size, "MMAP filename is not NUL-terminated",
			 &m->filename, err);
}

int pd_decode_lost(const char *path, const struct pd_record *rec, size_t size,
		   struct pd_lost *l, struct pc_error *err)
{
	const uint8_t *p = rec->data;

	if (size < 8 + 16)
		return bad(path, rec, err, "LOST record too short");
	memcpy(&l->id, p + 8, 8);
	memcpy(&l->lost, p + 16, 8);
	return 0;
}

int pd_decode_cgroup(const char *path, const struct pd_record *rec, size_t size,
		     struct pd_cgroup *c, struct pc_error *err)
{
	if (size <= 16)
		return bad(path, rec, err, "CGROUP record too short");
	memcpy(&c->id, (const uint8_t *)rec->data + 8, 8);
	return string_at(path, rec, 16, size, "CGROUP path is not NUL-terminated", &c->path, err);
}

int pd_parse_comm(const struct pd_reader *r, const struct pd_record *rec, struct pd_comm *c,
		  struct pd_sample *id, struct pc_error *err)
{
	size_t size;
	int ret = body(r, rec, id, &size, err);

	return ret ? ret : pd_decode_comm(r->path, rec, size, c, err);
}

int pd_parse_task(const struct pd_reader *r, const struct pd_record *rec, struct pd_task *t,
		  struct pd_sample *id, struct pc_error *err)
{
	size_t size;
	int ret = body(r, rec, id, &size, err);

	return ret ? ret : pd_decode_task(r->path, rec, size, t, err);
}

int pd_parse_mmap(const struct pd_reader *r, const struct pd_record *rec, struct pd_mmap *m,
		  struct pd_sample *id, struct pc_error *err)
{
	size_t size;
	int ret = body(r, rec, id, &size, err);

	return ret ? ret : pd_decode_mmap(r->path, rec, size, m, err);
}

int pd_parse_lost(const struct pd_reader *r, const struct pd_record *rec, struct pd_lost *l,
		  struct pd_sample *id, struct pc_error *err)
{
	size_t size;
	int ret = body(r, rec, id, &size, err);

	return ret ? ret : pd_decode_lost(r->path, rec, size, l, err);
}

int pd_parse_cgroup(const struct pd_reader *r, const struct pd_record *rec, struct pd_cgroup *c,
		    struct pd_sample *id, struct pc_error *err)
{
	size_t size;
	int ret = body(r, rec, id, &size, err);

	return ret ? ret : pd_decode_cgroup(r->path, rec, size, c, err);
}
