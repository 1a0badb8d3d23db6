// SPDX-License-Identifier: GPL-2.0
/* The raw BTF walker (see btf.h). */
#include "perfdata/btf.h"

#include <errno.h>
#include <string.h>

#define BTF_MAGIC	0xeb9f
#define BTF_HDR_LEN	24	/* magic, version, flags, hdr_len, 4 section fields */
#define BTF_TYPE_LEN	12	/* name_off, info, size/type */
#define BTF_KIND_LAST	19	/* ENUM64 */

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* bytes that follow a type of this kind */
static uint64_t kind_extra(uint32_t kind, uint32_t vlen)
{
	switch (kind) {
	case 1: case 14: case 17:		/* INT, VAR, DECL_TAG */
		return 4;
	case 3:					/* ARRAY */
		return 12;
	case 4: case 5: case 15: case 19:	/* STRUCT, UNION, DATASEC, ENUM64 */
		return 12ULL * vlen;
	case 6: case 13:			/* ENUM, FUNC_PROTO */
		return 8ULL * vlen;
	default:	/* PTR, FWD, TYPEDEF, VOLATILE, CONST, RESTRICT, FUNC, FLOAT, TYPE_TAG */
		return 0;
	}
}

static int fault(struct pd_btf_fault *f, const char *what, uint64_t value)
{
	if (f) {
		f->what = what;
		f->value = value;
	}
	return -EINVAL;
}

int pd_btf_type_name(const void *btf, size_t size, uint32_t type_id, const char **name,
		     struct pd_btf_fault *f)
{
	const uint8_t *d = btf;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, name_off = 0;
	uint64_t at, end;

	if (size < BTF_HDR_LEN)
		return fault(f, "shorter than a BTF header, bytes", size);
	if ((get32(d) & 0xffff) != BTF_MAGIC)
		return fault(f, "no BTF header (magic 0xeb9f) at its start", get32(d) & 0xffff);
	hdr_len = get32(d + 4);
	type_off = get32(d + 8);
	type_len = get32(d + 12);
	str_off = get32(d + 16);
	str_len = get32(d + 20);
	if (hdr_len < BTF_HDR_LEN || hdr_len > size)
		return fault(f, "header length out of the object", hdr_len);
	if ((uint64_t)hdr_len + type_off + type_len > size)
		return fault(f, "type section runs past the object, ending at",
			     (uint64_t)hdr_len + type_off + type_len);
	if ((uint64_t)hdr_len + str_off + str_len > size || str_len == 0)
		return fault(f, "string section empty or past the object, ending at",
			     (uint64_t)hdr_len + str_off + str_len);
	at = (uint64_t)hdr_len + type_off;
	end = at + type_len;
	for (uint32_t id = 1; type_id && id <= type_id; id++) {
		uint32_t info, kind;
		uint64_t extra;

		if (end - at < BTF_TYPE_LEN)
			return fault(f, "type id past the type section", type_id);
		info = get32(d + at + 4);
		kind = (info >> 24) & 0x1f;
		if (kind == 0 || kind > BTF_KIND_LAST)
			return fault(f, "a type of unknown kind, type id", id);
		extra = kind_extra(kind, info & 0xffff);
		if (id == type_id)
			name_off = get32(d + at);
		at += BTF_TYPE_LEN;
		if (extra > end - at)
			return fault(f, "a type runs past the type section, type id", id);
		at += extra;
	}
	if (name_off >= str_len)
		return fault(f, "a type's name offset is past the strings", name_off);
	*name = (const char *)d + hdr_len + str_off + name_off;
	if (!memchr(*name, '\0', str_len - name_off))
		return fault(f, "a type's name is not terminated, name offset", name_off);
	return 0;
}
