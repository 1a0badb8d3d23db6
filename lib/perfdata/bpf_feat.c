// SPDX-License-Identifier: GPL-2.0
/* The BPF_PROG_INFO and BPF_BTF features, checked (see bpf_feat.h). */
#include "perfdata/bpf_feat.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>

#include "perfdata/btf.h"
#include "perfdata/reader_int.h"

#define TAG_SIZE 8

/* The arrays of perf's linear prog info: pointer field, count field, element size. */
struct array_desc {
	const char *name;
	size_t ptr, count;
	uint32_t elem;		/* 0: count is in bytes; UINT32_MAX: the record size field below */
	size_t rec_size;
};

#define BIT_KSYMS	3
#define BIT_LENS	4
#define BIT_FUNC_INFO	5
#define BIT_TAGS	8
#define REC_SIZE	UINT32_MAX

static const struct array_desc arrays[] = {
	{ "jited_prog_insns", offsetof(struct bpf_prog_info, jited_prog_insns),
	  offsetof(struct bpf_prog_info, jited_prog_len), 1, 0 },
	{ "xlated_prog_insns", offsetof(struct bpf_prog_info, xlated_prog_insns),
	  offsetof(struct bpf_prog_info, xlated_prog_len), 1, 0 },
	{ "map_ids", offsetof(struct bpf_prog_info, map_ids),
	  offsetof(struct bpf_prog_info, nr_map_ids), 4, 0 },
	{ "jited_ksyms", offsetof(struct bpf_prog_info, jited_ksyms),
	  offsetof(struct bpf_prog_info, nr_jited_ksyms), 8, 0 },
	{ "jited_func_lens", offsetof(struct bpf_prog_info, jited_func_lens),
	  offsetof(struct bpf_prog_info, nr_jited_func_lens), 4, 0 },
	{ "func_info", offsetof(struct bpf_prog_info, func_info),
	  offsetof(struct bpf_prog_info, nr_func_info), REC_SIZE,
	  offsetof(struct bpf_prog_info, func_info_rec_size) },
	{ "line_info", offsetof(struct bpf_prog_info, line_info),
	  offsetof(struct bpf_prog_info, nr_line_info), REC_SIZE,
	  offsetof(struct bpf_prog_info, line_info_rec_size) },
	{ "jited_line_info", offsetof(struct bpf_prog_info, jited_line_info),
	  offsetof(struct bpf_prog_info, nr_jited_line_info), REC_SIZE,
	  offsetof(struct bpf_prog_info, jited_line_info_rec_size) },
	{ "prog_tags", offsetof(struct bpf_prog_info, prog_tags),
	  offsetof(struct bpf_prog_info, nr_prog_tags), TAG_SIZE, 0 },
};

#define NR_ARRAYS (sizeof(arrays) / sizeof(arrays[0]))

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* A feature's bytes and its count; 1: absent. */
static int feature_start(const struct pd_reader *r, int feat, const char *what,
			 const uint8_t **p, uint64_t *size, uint32_t *count, struct pc_error *err)
{
	*p = pd_feature_bytes(r, feat);
	if (!*p)
		return 1;
	*size = r->features[feat].size;
	if (*size < 4)
		return pd_bad(r, err, r->features[feat].offset,
			      "%s feature of %llu bytes has no room for its count", what,
			      (unsigned long long)*size);
	*count = get32(*p);
	return 0;
}

/* The arrays perf's header uses: ksyms, lens, tags, func_info; each checked. */
static int prog_arrays(const struct pd_reader *r, uint64_t off, const uint8_t *info,
		       uint64_t mask, const uint8_t *data, uint32_t data_len,
		       struct pd_bpf_prog *p, struct pc_error *err)
{
	const uint8_t *at[NR_ARRAYS] = { NULL };
	uint32_t count[NR_ARRAYS] = { 0 };

	for (size_t i = 0; i < NR_ARRAYS; i++) {
		const struct array_desc *a = &arrays[i];
		uint64_t where = get64(info + a->ptr), elem = a->elem, bytes;

		count[i] = get32(info + a->count);
		if (!(mask & (1ULL << i)))
			continue;
		if (elem == REC_SIZE)
			elem = get32(info + a->rec_size);
		bytes = (uint64_t)count[i] * elem;
		if (where > data_len || bytes > data_len - where)
			return pd_bad(r, err, off,
				      "bpf_prog_info %u: %s (%u x %llu bytes at data offset %llu) "
				      "runs past the entry's %u data bytes", p->id, a->name,
				      count[i], (unsigned long long)elem,
				      (unsigned long long)where, data_len);
		at[i] = data + where;
	}
	p->func_info = at[BIT_FUNC_INFO];
	p->nr_func_info = count[BIT_FUNC_INFO];
	p->func_info_rec_size = get32(info + arrays[BIT_FUNC_INFO].rec_size);
	/* perf 6.1 shows a program whose counts agree, and reads the arrays */
	if (count[BIT_KSYMS] != count[BIT_LENS])
		return 0;
	p->shown = true;
	p->nr_funcs = count[BIT_KSYMS];
	p->ksyms = at[BIT_KSYMS];
	p->lens = at[BIT_LENS];
	p->tags = at[BIT_TAGS];
	if (p->nr_funcs && (!p->ksyms || !p->lens))
		return pd_bad(r, err, off, "bpf_prog_info %u: %u JITed functions but no %s array",
			      p->id, p->nr_funcs, p->ksyms ? "jited_func_lens" : "jited_ksyms");
	if (p->nr_funcs && (!p->tags || count[BIT_TAGS] < p->nr_funcs))
		return pd_bad(r, err, off, "bpf_prog_info %u: %u prog_tags for %u JITed functions",
			      p->id, p->tags ? count[BIT_TAGS] : 0, p->nr_funcs);
	return 0;
}

int pd_bpf_prog_each(const struct pd_reader *r, pd_bpf_prog_fn fn, void *ctx,
		     struct pc_error *err)
{
	const uint8_t *base = NULL;
	uint64_t size = 0, pos = 4, foff = r->features[PD_FEAT_BPF_PROG_INFO].offset;
	uint32_t count = 0;
	int ret = feature_start(r, PD_FEAT_BPF_PROG_INFO, "BPF_PROG_INFO", &base, &size, &count,
				err);

	if (ret)
		return ret > 0 ? 0 : ret;
	for (uint32_t n = 0; n < count; n++) {
		uint8_t info[sizeof(struct bpf_prog_info)] = { 0 };
		struct pd_bpf_prog p = { .offset = foff + pos };
		uint32_t info_len, data_len;
		uint64_t mask;

		if (size - pos < 16)
			return pd_bad(r, err, foff + pos,
				      "BPF_PROG_INFO entry %u of %u: %llu bytes left, its sizes "
				      "need 16", n, count, (unsigned long long)(size - pos));
		info_len = get32(base + pos);
		data_len = get32(base + pos + 4);
		mask = get64(base + pos + 8);
		pos += 16;
		if (info_len > size - pos || data_len > size - pos - info_len)
			return pd_bad(r, err, p.offset,
				      "BPF_PROG_INFO entry %u of %u: info of %u and data of %u "
				      "bytes run past the feature's end (%llu bytes left)", n, count,
				      info_len, data_len, (unsigned long long)(size - pos));
		if (info_len > sizeof(info))
			return pd_bad(r, err, p.offset,
				      "BPF_PROG_INFO entry %u of %u: info_len %u is larger than "
				      "struct bpf_prog_info (%zu bytes)", n, count, info_len,
				      sizeof(info));
		memcpy(info, base + pos, info_len);
		p.id = get32(info + offsetof(struct bpf_prog_info, id));
		p.btf_id = get32(info + offsetof(struct bpf_prog_info, btf_id));
		memcpy(p.name, info + offsetof(struct bpf_prog_info, name), 16);
		ret = prog_arrays(r, p.offset, info, mask, base + pos + info_len, data_len, &p, err);
		if (ret)
			return ret;
		pos += (uint64_t)info_len + data_len;
		ret = fn(&p, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

int pd_btf_each(const struct pd_reader *r, pd_btf_fn fn, void *ctx, struct pc_error *err)
{
	const uint8_t *base = NULL;
	uint64_t size = 0, pos = 4, foff = r->features[PD_FEAT_BPF_BTF].offset;
	uint32_t count = 0;
	int ret = feature_start(r, PD_FEAT_BPF_BTF, "BPF_BTF", &base, &size, &count, err);

	if (ret)
		return ret > 0 ? 0 : ret;
	for (uint32_t n = 0; n < count; n++) {
		struct pd_btf b = { .offset = foff + pos };

		if (size - pos < 8)
			return pd_bad(r, err, b.offset,
				      "BPF_BTF entry %u of %u: %llu bytes left, its id and size "
				      "need 8", n, count, (unsigned long long)(size - pos));
		b.id = get32(base + pos);
		b.size = get32(base + pos + 4);
		pos += 8;
		if (b.size > size - pos)
			return pd_bad(r, err, b.offset,
				      "BPF_BTF entry %u of %u (id %u): %u bytes of BTF run past the "
				      "feature's end (%llu bytes left)", n, count, b.id, b.size,
				      (unsigned long long)(size - pos));
		b.data = base + pos;
		pos += b.size;
		ret = fn(&b, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

uint64_t pd_bpf_prog_addr(const struct pd_bpf_prog *p, uint32_t i)
{
	return i < p->nr_funcs ? get64(p->ksyms + 8 * (size_t)i) : 0;
}

uint32_t pd_bpf_prog_len(const struct pd_bpf_prog *p, uint32_t i)
{
	return i < p->nr_funcs ? get32(p->lens + 4 * (size_t)i) : 0;
}

/* The name of BTF type type_id, the object checked as it is walked. */
static int btf_type_name(const struct pd_reader *r, const struct pd_btf *b, uint32_t type_id,
			 const char **name, struct pc_error *err)
{
	struct pd_btf_fault f = { 0 };

	if (pd_btf_type_name(b->data, b->size, type_id, name, &f))
		return pd_bad(r, err, b->offset, "BPF_BTF id %u (%u bytes): %s (%llu)", b->id,
			      b->size, f.what, (unsigned long long)f.value);
	return 0;
}

int pd_bpf_func_name(const struct pd_reader *r, const struct pd_bpf_prog *p,
		     const struct pd_btf *btf, uint32_t i, char *buf, size_t size,
		     struct pc_error *err)
{
	const char *short_name = NULL;
	size_t n;

	if (i >= p->nr_funcs)
		return -EINVAL;
	n = (size_t)snprintf(buf, size, "bpf_prog_");
	for (int k = 0; k < TAG_SIZE && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%02x", p->tags[TAG_SIZE * (size_t)i + k]);
	if (btf) {
		uint64_t rec = (uint64_t)i * p->func_info_rec_size;
		int ret;

		if (!p->func_info || i >= p->nr_func_info || p->func_info_rec_size < 8)
			return pd_bad(r, err, p->offset,
				      "bpf_prog_info %u: function %u has no func_info record "
				      "(%u records of %u bytes) for its BTF name", p->id, i,
				      p->func_info ? p->nr_func_info : 0, p->func_info_rec_size);
		/* struct bpf_func_info: u32 insn_off, u32 type_id */
		ret = btf_type_name(r, btf, get32(p->func_info + rec + 4), &short_name, err);
		if (ret)
			return ret;
	} else if (i == 0 && p->nr_funcs == 1) {
		if (p->name[0])
			short_name = p->name;
	} else {
		short_name = "F";
	}
	if (short_name && n < size)
		snprintf(buf + n, size - n, "_%s", short_name);
	return 0;
}
