// SPDX-License-Identifier: GPL-2.0
/* Encoding header feature sections for the writer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "perfdata/perfdata.h"
#include "perfdata/writer_int.h"

/* A growable byte buffer for building one feature payload. */
struct feat_buf {
	uint8_t *data;
	size_t len, cap;
	bool oom;
};

static void fb_put(struct feat_buf *b, const void *p, size_t n)
{
	if (b->oom || n == 0)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		uint8_t *d;

		while (cap < b->len + n)
			cap *= 2;
		d = realloc(b->data, cap);
		if (!d) {
			b->oom = true;
			return;
		}
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void fb_u32(struct feat_buf *b, uint32_t v)
{
	fb_put(b, &v, sizeof(v));
}

/* perf_header_string: u32 length (padded to NAME_ALIGN), bytes, NUL padding */
static void fb_string(struct feat_buf *b, const char *s)
{
	static const uint8_t zeros[PD_NAME_ALIGN];
	size_t len = strlen(s) + 1;
	size_t padded = (len + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;

	fb_u32(b, (uint32_t)padded);
	fb_put(b, s, len);
	fb_put(b, zeros, padded - len);
}

static int fb_commit(struct pd_writer *w, int feat, struct feat_buf *b)
{
	if (b->oom) {
		free(b->data);
		return -ENOMEM;
	}
	if (feat < 0 || feat >= PD_FEAT_BITS) {
		free(b->data);
		return -EINVAL;
	}
	free(w->features[feat].data);
	w->features[feat].data = b->data;
	w->features[feat].size = b->len;
	return 0;
}

int pd_writer_set_feature(struct pd_writer *w, int feat, const void *data, size_t size)
{
	struct feat_buf b = { 0 };

	fb_put(&b, data, size);
	return fb_commit(w, feat, &b);
}

int pd_writer_set_string(struct pd_writer *w, int feat, const char *s)
{
	struct feat_buf b = { 0 };

	fb_string(&b, s);
	return fb_commit(w, feat, &b);
}

int pd_writer_set_nrcpus(struct pd_writer *w, uint32_t avail, uint32_t online)
{
	struct feat_buf b = { 0 };

	fb_u32(&b, avail);
	fb_u32(&b, online);
	return fb_commit(w, PD_FEAT_NRCPUS, &b);
}

int pd_writer_set_cmdline(struct pd_writer *w, int argc, char *const argv[])
{
	struct feat_buf b = { 0 };

	fb_u32(&b, (uint32_t)argc);
	for (int i = 0; i < argc; i++)
		fb_string(&b, argv[i]);
	return fb_commit(w, PD_FEAT_CMDLINE, &b);
}

int pd_writer_add_build_id(struct pd_writer *w, bool kernel, int32_t pid,
			   const uint8_t *id, size_t id_size, const char *filename)
{
	struct pd_writer_feature *f = &w->features[PD_FEAT_BUILD_ID];
	struct feat_buf b = { f->data, f->size, f->size, false };
	static const uint8_t zeros[PD_NAME_ALIGN];
	struct pd_build_id_entry e;
	size_t len = strlen(filename) + 1;
	size_t padded = (len + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;

	if (id_size > PD_BUILD_ID_MAX || sizeof(e) + padded > UINT16_MAX)
		return -EINVAL;
	memset(&e, 0, sizeof(e));
	e.header.type = 0;
	e.header.misc = (kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) |
			PC_RECORD_MISC_BUILD_ID_SIZE;
	e.header.size = (uint16_t)(sizeof(e) + padded);
	e.pid = pid;
	memcpy(e.build_id, id, id_size);
	e.build_id[PD_BUILD_ID_MAX] = (uint8_t)id_size;
	fb_put(&b, &e, sizeof(e));
	fb_put(&b, filename, len);
	fb_put(&b, zeros, padded - len);
	if (b.oom)
		return -ENOMEM;
	f->data = b.data;
	f->size = b.len;
	return 0;
}

int pd_writer_set_host_features(struct pd_writer *w, const char *version)
{
	struct utsname u;
	long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);
	int ret;

	if (uname(&u))
		return -errno;
	ret = pd_writer_set_string(w, PD_FEAT_HOSTNAME, u.nodename);
	if (!ret)
		ret = pd_writer_set_string(w, PD_FEAT_OSRELEASE, u.release);
	if (!ret)
		ret = pd_writer_set_string(w, PD_FEAT_ARCH, u.machine);
	if (!ret)
		ret = pd_writer_set_string(w, PD_FEAT_VERSION, version);
	if (!ret)
		ret = pd_writer_set_nrcpus(w, (uint32_t)(conf > 0 ? conf : 1),
					   (uint32_t)(onln > 0 ? onln : 1));
	return ret;
}

/* EVENT_DESC: u32 nr, u32 attr size, then per event attr, u32 nr_ids, name, ids */
int pd_writer_event_desc(struct pd_writer *w)
{
	struct feat_buf b = { 0 };
	uint8_t attr[PC_ATTR_SIZE_MAX];

	if (w->features[PD_FEAT_EVENT_DESC].data || !w->nr_evsels)
		return 0;
	fb_u32(&b, w->nr_evsels);
	fb_u32(&b, w->attr_size);
	for (uint32_t i = 0; i < w->nr_evsels; i++) {
		const struct pd_evsel *e = &w->evsels[i];
		char buf[64];

		memset(attr, 0, sizeof(attr));
		memcpy(attr, &e->attr, e->file_attr_size);
		((struct perf_event_attr *)attr)->size = w->attr_size;
		fb_put(&b, attr, w->attr_size);
		fb_u32(&b, e->nr_ids);
		fb_string(&b, e->name ? e->name : pd_event_name(&e->attr.attr, buf, sizeof(buf)));
		fb_put(&b, e->ids, e->nr_ids * sizeof(uint64_t));
	}
	return fb_commit(w, PD_FEAT_EVENT_DESC, &b);
}
