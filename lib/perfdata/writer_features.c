// SPDX-License-Identifier: GPL-2.0
/* Encoding header feature sections for the writer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "perfdata/perfdata.h"
#include "perfdata/writer_int.h"

void pd_feat_put(struct pd_feat *b, const void *p, size_t n)
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

void pd_feat_u32(struct pd_feat *b, uint32_t v)
{
	pd_feat_put(b, &v, sizeof(v));
}

void pd_feat_u64(struct pd_feat *b, uint64_t v)
{
	pd_feat_put(b, &v, sizeof(v));
}

/* perf_header_string: u32 length (padded to NAME_ALIGN), bytes, NUL padding */
void pd_feat_string(struct pd_feat *b, const char *s)
{
	static const uint8_t zeros[PD_NAME_ALIGN];
	size_t len = strlen(s) + 1;
	size_t padded = (len + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;

	pd_feat_u32(b, (uint32_t)padded);
	pd_feat_put(b, s, len);
	pd_feat_put(b, zeros, padded - len);
}

int pd_feat_commit(struct pd_writer *w, int feat, struct pd_feat *b)
{
	if (b->oom) {
		free(b->data);
		return -ENOMEM;
	}
	if (feat < 0 || feat >= PD_FEAT_BITS) {
		free(b->data);
		return -EINVAL;
	}
	/* a feature without a body (perf stat record's STAT) is present all the same */
	if (!b->data && !(b->data = calloc(1, 1)))
		return -ENOMEM;
	free(w->features[feat].data);
	w->features[feat].data = b->data;
	w->features[feat].size = b->len;
	return 0;
}

int pd_writer_set_feature(struct pd_writer *w, int feat, const void *data, size_t size)
{
	struct pd_feat b = { 0 };

	pd_feat_put(&b, data, size);
	return pd_feat_commit(w, feat, &b);
}

int pd_writer_set_string(struct pd_writer *w, int feat, const char *s)
{
	struct pd_feat b = { 0 };

	pd_feat_string(&b, s);
	return pd_feat_commit(w, feat, &b);
}

int pd_writer_set_nrcpus(struct pd_writer *w, uint32_t avail, uint32_t online)
{
	struct pd_feat b = { 0 };

	pd_feat_u32(&b, avail);
	pd_feat_u32(&b, online);
	return pd_feat_commit(w, PD_FEAT_NRCPUS, &b);
}

int pd_writer_set_cmdline(struct pd_writer *w, int argc, char *const argv[])
{
	struct pd_feat b = { 0 };

	pd_feat_u32(&b, (uint32_t)argc);
	for (int i = 0; i < argc; i++)
		pd_feat_string(&b, argv[i]);
	return pd_feat_commit(w, PD_FEAT_CMDLINE, &b);
}

int pd_writer_add_build_id(struct pd_writer *w, bool kernel, int32_t pid,
			   const uint8_t *id, size_t id_size, const char *filename)
{
	struct pd_writer_feature *f = &w->features[PD_FEAT_BUILD_ID];
	struct pd_feat b = { f->data, f->size, f->size, false };
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
	pd_feat_put(&b, &e, sizeof(e));
	pd_feat_put(&b, filename, len);
	pd_feat_put(&b, zeros, padded - len);
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
	struct pd_feat b = { 0 };
	uint8_t attr[PC_ATTR_SIZE_MAX];

	if (w->features[PD_FEAT_EVENT_DESC].data || !w->nr_evsels)
		return 0;
	pd_feat_u32(&b, w->nr_evsels);
	pd_feat_u32(&b, w->attr_size);
	for (uint32_t i = 0; i < w->nr_evsels; i++) {
		const struct pd_evsel *e = &w->evsels[i];
		char buf[64];

		memset(attr, 0, sizeof(attr));
		memcpy(attr, &e->attr, e->file_attr_size);
		((struct perf_event_attr *)attr)->size = w->attr_size;
		pd_feat_put(&b, attr, w->attr_size);
		pd_feat_u32(&b, e->nr_ids);
		pd_feat_string(&b, e->name ? e->name : pd_event_name(&e->attr.attr, buf, sizeof(buf)));
		pd_feat_put(&b, e->ids, e->nr_ids * sizeof(uint64_t));
	}
	return pd_feat_commit(w, PD_FEAT_EVENT_DESC, &b);
}
