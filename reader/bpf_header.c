// SPDX-License-Identifier: GPL-2.0
/* The BPF_PROG_INFO and BPF_BTF features as perf's header shows them. */
#include "reader/bpf_header.h"

#include <errno.h>
#include <stdlib.h>

#include "perfdata/bpf_feat.h"

#define NAME_MAX_LEN 512	/* perf's KSYM_NAME_LEN */

struct progs {
	struct pd_bpf_prog *v;
	size_t nr, cap;
};

struct btfs {
	struct pd_btf *v;
	size_t nr, cap;
};

static int grow(void **v, size_t *cap, size_t nr, size_t elem)
{
	void *n;

	if (nr < *cap)
		return 0;
	n = realloc(*v, (*cap ? *cap * 2 : 16) * elem);
	if (!n)
		return -ENOMEM;
	*v = n;
	*cap = *cap ? *cap * 2 : 16;
	return 0;
}

static int add_prog(const struct pd_bpf_prog *p, void *ctx)
{
	struct progs *ps = ctx;

	if (grow((void **)&ps->v, &ps->cap, ps->nr, sizeof(*ps->v)))
		return -ENOMEM;
	ps->v[ps->nr++] = *p;
	return 0;
}

static int add_btf(const struct pd_btf *b, void *ctx)
{
	struct btfs *bs = ctx;

	if (grow((void **)&bs->v, &bs->cap, bs->nr, sizeof(*bs->v)))
		return -ENOMEM;
	bs->v[bs->nr++] = *b;
	return 0;
}

/* id order; of equal ids the first in the file first */
static int cmp_prog(const void *a, const void *b)
{
	const struct pd_bpf_prog *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int cmp_btf(const void *a, const void *b)
{
	const struct pd_btf *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int load_btfs(const struct pd_reader *r, struct btfs *bs, struct pc_error *err)
{
	int ret = pd_btf_each(r, add_btf, bs, err);

	if (ret == -ENOMEM)
		return pc_error_set(err, ENOMEM, "%s: BPF_BTF: out of memory", r->path);
	if (ret)
		return ret;
	if (bs->nr)
		qsort(bs->v, bs->nr, sizeof(*bs->v), cmp_btf);
	return 0;
}

static const struct pd_btf *find_btf(const struct btfs *bs, uint32_t id)
{
	for (size_t i = 0; i < bs->nr; i++)
		if (bs->v[i].id == id)
			return &bs->v[i];
	return NULL;
}

static int print_prog(struct rd_out *o, const struct pd_reader *r, const struct pd_bpf_prog *p,
		      const struct pd_btf *btf, struct pc_error *err)
{
	char name[NAME_MAX_LEN];
	int ret;

	if (!p->shown)
		return 0;
	if (p->nr_funcs == 1) {
		ret = pd_bpf_func_name(r, p, btf, 0, name, sizeof(name), err);
		if (!ret)
			rd_out_printf(o, "# bpf_prog_info %u: %s addr 0x%llx size %u\n", p->id, name,
				      (unsigned long long)pd_bpf_prog_addr(p, 0),
				      pd_bpf_prog_len(p, 0));
		return ret;
	}
	rd_out_printf(o, "# bpf_prog_info %u:\n", p->id);
	for (uint32_t i = 0; i < p->nr_funcs; i++) {
		ret = pd_bpf_func_name(r, p, btf, i, name, sizeof(name), err);
		if (ret)
			return ret;
		rd_out_printf(o, "# \tsub_prog %u: %s addr 0x%llx size %u\n", i, name,
			      (unsigned long long)pd_bpf_prog_addr(p, i), pd_bpf_prog_len(p, i));
	}
	return 0;
}

int rd_bpf_header_progs(struct rd_out *o, const struct pd_reader *r, struct pc_error *err)
{
	struct progs ps = { 0 };
	struct btfs bs = { 0 };
	int ret = pd_bpf_prog_each(r, add_prog, &ps, err);

	if (ret == -ENOMEM)
		ret = pc_error_set(err, ENOMEM, "%s: BPF_PROG_INFO: out of memory", r->path);
	if (!ret)
		ret = load_btfs(r, &bs, err);
	if (!ret && ps.nr)
		qsort(ps.v, ps.nr, sizeof(*ps.v), cmp_prog);
	for (size_t i = 0; !ret && i < ps.nr; i++) {
		const struct pd_bpf_prog *p = &ps.v[i];

		if (i && ps.v[i - 1].id == p->id)
			continue;
		ret = print_prog(o, r, p, p->btf_id ? find_btf(&bs, p->btf_id) : NULL, err);
	}
	free(ps.v);
	free(bs.v);
	return ret;
}

int rd_bpf_header_btfs(struct rd_out *o, const struct pd_reader *r, struct pc_error *err)
{
	struct btfs bs = { 0 };
	int ret = load_btfs(r, &bs, err);

	for (size_t i = 0; !ret && i < bs.nr; i++)
		if (!i || bs.v[i - 1].id != bs.v[i].id)
			rd_out_printf(o, "# btf info of id %u\n", bs.v[i].id);
	free(bs.v);
	return ret;
}
