// SPDX-License-Identifier: GPL-2.0
/* Reading header feature sections. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/reader_int.h"

/* A bounds-checked cursor over one section of the file (offsets in the file). */
struct cursor {
	const struct pd_reader *r;
	const uint8_t *data;	/* the section's first byte */
	uint64_t start, off, end;
	const char *what;
};

const uint8_t *pd_feature_bytes(const struct pd_reader *r, int feat)
{
	if (!pd_reader_has_feature(r, feat))
		return NULL;
	if (r->stream)
		return r->stream->feat[feat];
	return r->base + r->features[feat].offset;
}

static int cur_take(struct cursor *c, uint64_t len, const uint8_t **p, struct pc_error *err)
{
	if (len > c->end - c->off)
		return pd_bad(c->r, err, c->off, "%s: needs %llu bytes, only %llu left in the section",
			      c->what, (unsigned long long)len,
			      (unsigned long long)(c->end - c->off));
	*p = c->data + (c->off - c->start);
	c->off += len;
	return 0;
}

static int cur_u32(struct cursor *c, uint32_t *v, struct pc_error *err)
{
	const uint8_t *p = NULL;
	int ret = cur_take(c, 4, &p, err);

	if (!ret)
		memcpy(v, p, 4);
	return ret;
}

/* perf_header_string: u32 len, then len bytes holding a NUL-terminated string */
static int cur_string(struct cursor *c, const char **s, struct pc_error *err)
{
	uint64_t at = c->off;
	const uint8_t *p = NULL;
	uint32_t len;
	int ret;

	ret = cur_u32(c, &len, err);
	if (ret)
		return ret;
	ret = cur_take(c, len, &p, err);
	if (ret)
		return ret;
	if (len == 0 || !memchr(p, '\0', len))
		return pd_bad(c->r, err, at, "%s: string of %u bytes is not NUL-terminated",
			      c->what, len);
	*s = (const char *)p;
	return 0;
}

static int feature_cursor(const struct pd_reader *r, int feat, struct cursor *c,
			  struct pc_error *err)
{
	const struct pd_file_section *s;

	if (!pd_feature_bytes(r, feat))
		return pc_error_set(err, ENOENT, "%s: no %s feature", r->path,
				    pd_feature_name(feat) ?: "such");
	s = &r->features[feat];
	c->r = r;
	c->data = pd_feature_bytes(r, feat);
	c->start = s->offset;
	c->off = s->offset;
	c->end = s->offset + s->size;
	c->what = pd_feature_name(feat) ?: "feature";
	return 0;
}

int pd_reader_feature(const struct pd_reader *r, int feat, const void **data, size_t *size)
{
	if (!pd_feature_bytes(r, feat))
		return -ENOENT;
	*data = pd_feature_bytes(r, feat);
	*size = r->features[feat].size;
	return 0;
}

int pd_reader_clock_data(const struct pd_reader *r, struct pd_clock_data *c)
{
	const uint8_t *p = pd_feature_bytes(r, PD_FEAT_CLOCK_DATA);

	if (!p || r->features[PD_FEAT_CLOCK_DATA].size < 24)
		return -ENOENT;
	memcpy(&c->version, p, 4);
	memcpy(&c->clockid, p + 4, 4);
	memcpy(&c->tod_ns, p + 8, 8);
	memcpy(&c->clockid_ns, p + 16, 8);
	return 0;
}

int pd_reader_feature_string(const struct pd_reader *r, int feat, char *buf, size_t size,
			     struct pc_error *err)
{
	struct cursor c = { 0 };
	const char *s;
	int ret;

	ret = feature_cursor(r, feat, &c, err);
	if (!ret)
		ret = cur_string(&c, &s, err);
	if (ret)
		return ret;
	snprintf(buf, size, "%s", s);
	return 0;
}

int pd_reader_cmdline(const struct pd_reader *r, int (*fn)(const char *arg, void *ctx),
		      void *ctx, struct pc_error *err)
{
	struct cursor c = { 0 };
	uint32_t nr;
	int ret;

	ret = feature_cursor(r, PD_FEAT_CMDLINE, &c, err);
	if (!ret)
		ret = cur_u32(&c, &nr, err);
	if (ret)
		return ret;
	if (nr > r->features[PD_FEAT_CMDLINE].size / 4)
		return pd_bad(r, err, c.off - 4, "CMDLINE: %u arguments cannot fit in %llu bytes",
			      nr, (unsigned long long)r->features[PD_FEAT_CMDLINE].size);
	for (uint32_t i = 0; i < nr; i++) {
		const char *arg;

		ret = cur_string(&c, &arg, err);
		if (ret)
			return ret;
		ret = fn(arg, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

int pd_reader_nrcpus(const struct pd_reader *r, uint32_t *avail, uint32_t *online,
		     struct pc_error *err)
{
	struct cursor c = { 0 };
	int ret;

	ret = feature_cursor(r, PD_FEAT_NRCPUS, &c, err);
	if (!ret)
		ret = cur_u32(&c, avail, err);
	if (!ret)
		ret = cur_u32(&c, online, err);
	return ret;
}

int pd_reader_build_ids(const struct pd_reader *r,
			int (*fn)(const struct pd_build_id_entry *e, const uint8_t *id,
				  size_t id_size, const char *filename, void *ctx),
			void *ctx, struct pc_error *err)
{
	struct pd_build_id_entry *e = NULL;
	struct cursor c = { 0 };
	int ret;

	ret = feature_cursor(r, PD_FEAT_BUILD_ID, &c, err);
	if (ret)
		return ret;
	while (c.off < c.end) {
		uint64_t at = c.off;
		struct perf_event_header h;
		const uint8_t *p = NULL;
		size_t id_size, name_len;

		if (c.end - c.off < sizeof(struct pd_build_id_entry)) {
			ret = pd_bad(r, err, at, "BUILD_ID: %llu bytes left, too few for an entry",
				     (unsigned long long)(c.end - c.off));
			goto out;
		}
		memcpy(&h, c.data + (at - c.start), sizeof(h));
		if (h.size < sizeof(struct pd_build_id_entry) + 1) {
			ret = pd_bad(r, err, at, "BUILD_ID: entry size %u too small", h.size);
			goto out;
		}
		ret = cur_take(&c, h.size, &p, err);
		if (ret)
			goto out;
		free(e);
		e = malloc(h.size + 1);
		if (!e) {
			ret = pc_error_set(err, ENOMEM, "out of memory");
			goto out;
		}
		memcpy(e, p, h.size);
		((char *)e)[h.size] = '\0';
		name_len = h.size - sizeof(*e);
		if (!memchr(e->filename, '\0', name_len)) {
			ret = pd_bad(r, err, at, "BUILD_ID: file name not NUL-terminated");
			goto out;
		}
		id_size = PD_BUILD_ID_MAX;
		if (h.misc & PC_RECORD_MISC_BUILD_ID_SIZE) {
			id_size = e->build_id[PD_BUILD_ID_MAX];
			if (id_size > PD_BUILD_ID_MAX) {
				ret = pd_bad(r, err, at + 32, "BUILD_ID: id size %zu > %d",
					     id_size, PD_BUILD_ID_MAX);
				goto out;
			}
		}
		ret = fn(e, e->build_id, id_size, e->filename, ctx);
		if (ret)
			break;
	}
out:
	free(e);
	return ret;
}

/* The I-th EVENT_DESC entry names the I-th attr (ctx: the reader, the entry count so far). */
struct desc_names {
	struct pd_reader *r;
	uint32_t i;
	struct pc_error *err;
};

static int name_evsel(const uint8_t *attr, uint32_t attr_size, const char *name,
		      const uint8_t *ids, uint32_t nr_ids, void *ctx)
{
	struct desc_names *d = ctx;
	struct pd_evsel *e = d->i < d->r->nr_evsels ? &d->r->evsels[d->i] : NULL;

	(void)attr, (void)attr_size, (void)ids, (void)nr_ids;
	d->i++;
	if (!e || e->name)
		return 0;
	e->name = strdup(name);
	return e->name ? 0 : pc_error_set(d->err, ENOMEM, "out of memory");
}

/* Names the evsels from EVENT_DESC; those it does not name get perf's name for their attr. */
int pd_read_event_desc(struct pd_reader *r, struct pc_error *err)
{
	struct desc_names d = { r, 0, err };

	if (r->features[PD_FEAT_EVENT_DESC].size) {
		int ret = pd_reader_event_desc(r, name_evsel, &d, err);

		if (ret)
			return ret;
	}
	for (uint32_t i = 0; i < r->nr_evsels; i++) {
		char buf[64];

		if (r->evsels[i].name)
			continue;
		r->evsels[i].name = strdup(pd_event_name_from_attr(&r->evsels[i].attr.attr, buf,
								   sizeof(buf)));
		if (!r->evsels[i].name)
			return pc_error_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

int pd_reader_event_desc(const struct pd_reader *r,
			 int (*fn)(const uint8_t *attr, uint32_t attr_size, const char *name,
				   const uint8_t *ids, uint32_t nr_ids, void *ctx),
			 void *ctx, struct pc_error *err)
{
	struct cursor c = { 0 };
	uint32_t nr, attr_size;
	int ret = feature_cursor(r, PD_FEAT_EVENT_DESC, &c, err);

	if (!ret)
		ret = cur_u32(&c, &nr, err);
	if (!ret)
		ret = cur_u32(&c, &attr_size, err);
	if (ret)
		return ret;
	if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > 4096)
		return pd_bad(r, err, c.off - 4, "EVENT_DESC: attr size %u is not valid", attr_size);
	for (uint32_t i = 0; i < nr && !ret; i++) {
		const uint8_t *attr = NULL, *ids = NULL;
		const char *name;
		uint32_t nr_ids;

		ret = cur_take(&c, attr_size, &attr, err);
		if (!ret)
			ret = cur_u32(&c, &nr_ids, err);
		if (!ret)
			ret = cur_string(&c, &name, err);
		if (!ret)
			ret = cur_take(&c, (uint64_t)nr_ids * 8, &ids, err);
		if (!ret)
			ret = fn(attr, attr_size, name, ids, nr_ids, ctx);
	}
	return ret;
}

int pd_reader_groups(const struct pd_reader *r,
		     int (*fn)(const char *name, uint32_t leader, uint32_t nr_members, void *ctx),
		     void *ctx, struct pc_error *err)
{
	struct cursor c = { 0 };
	uint32_t nr, leader, members;
	const char *name;
	int ret;

	ret = feature_cursor(r, PD_FEAT_GROUP_DESC, &c, err);
	if (!ret)
		ret = cur_u32(&c, &nr, err);
	for (uint32_t i = 0; !ret && i < nr; i++) {
		uint64_t at = c.off;

		ret = cur_string(&c, &name, err);
		if (!ret)
			ret = cur_u32(&c, &leader, err);
		if (!ret)
			ret = cur_u32(&c, &members, err);
		if (ret)
			break;
		if (leader >= r->nr_evsels || members > r->nr_evsels - leader)
			return pd_bad(r, err, at, "GROUP_DESC: group %u (leader %u, %u members) "
				      "names events the file does not have (%u)", i, leader, members,
				      r->nr_evsels);
		ret = fn(name, leader, members, ctx);
	}
	return ret;
}
