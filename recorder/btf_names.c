// SPDX-License-Identifier: GPL-2.0
/*
 * The name of one type of a raw BTF object (a BPF program's, as the kernel
 * gives it): walk the type section to the id, every length checked.
 */
#include <errno.h>
#include <linux/btf.h>
#include <string.h>

#include "recorder/bpf_progs.h"

/* bytes that follow a struct btf_type of this kind; -1: a kind not known */
static long extra_bytes(uint32_t info)
{
	uint32_t vlen = BTF_INFO_VLEN(info);

	switch (BTF_INFO_KIND(info)) {
	case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return 12;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_DATASEC: case BTF_KIND_ENUM64:
		return 12L * vlen;
	case BTF_KIND_ENUM: case BTF_KIND_FUNC_PROTO:
		return 8L * vlen;
	default:
		return -1;
	}
}

int rec_btf_type_name(const void *btf, size_t size, uint32_t type_id, const char **name)
{
	const uint8_t *base = btf;
	struct btf_header h;
	struct btf_type t;
	const char *strs;
	uint64_t pos, end;

	if (size < sizeof(h))
		return -EINVAL;
	memcpy(&h, base, sizeof(h));
	if (h.magic != BTF_MAGIC || h.hdr_len < sizeof(h) || h.hdr_len > size ||
	    (uint64_t)h.hdr_len + h.type_off + h.type_len > size ||
	    (uint64_t)h.hdr_len + h.str_off + h.str_len > size || !h.str_len)
		return -EINVAL;
	if (!type_id)
		return -ENOENT;		/* 0 is void */
	pos = (uint64_t)h.hdr_len + h.type_off;
	end = pos + h.type_len;
	strs = (const char *)base + h.hdr_len + h.str_off;
	for (uint32_t id = 1;; id++) {
		long extra;

		if (pos + sizeof(t) > end)
			return -ENOENT;
		memcpy(&t, base + pos, sizeof(t));
		if (id == type_id)
			break;
		extra = extra_bytes(t.info);
		if (extra < 0)
			return -EINVAL;
		pos += sizeof(t) + (uint64_t)extra;
	}
	if (t.name_off >= h.str_len || !memchr(strs + t.name_off, '\0', h.str_len - t.name_off))
		return -EINVAL;
	*name = strs + t.name_off;
	return 0;
}
