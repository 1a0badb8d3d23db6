// SPDX-License-Identifier: GPL-2.0
/*
 * addr2line's file for a DWARF 5 line (see a2lline.h): the unit's line
 * program is run once here, only to find the rows binutils gives file 0
 * (rows before the first DW_LNS_set_file of their sequence), kept as
 * address spans.  Every length and offset read is checked against the
 * section: a table that does not parse leaves libdw's names alone.
 */
#include "symbols/a2lline.h"

#include <dwarf.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct a2l_span {
	Dwarf_Addr lo, hi;	/* [lo, hi): rows addr2line names file 0 */
};

struct a2l_unit {
	Dwarf_Off off;		/* the unit DIE's */
	const char *file0;	/* libdw's name of file 0; NULL: nothing to change */
	struct a2l_span *s;
	size_t nr, cap;
	struct a2l_unit *next;
};

#define A2L_BUCKETS 64

struct pc_a2llines {
	struct a2l_unit *b[A2L_BUCKETS];
};

/* A bounded reader of the section's bytes. */
struct rd {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t rd_n(struct rd *r, unsigned int n)
{
	uint64_t v = 0;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		return 0;
	}
	for (unsigned int i = 0; i < n; i++)	/* little-endian: x86_64, arm64 */
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;

	for (unsigned int shift = 0; !r->bad; shift += 7) {
		unsigned char c;

		if (r->p >= r->end || shift > 63) {
			r->bad = true;
			break;
		}
		c = *r->p++;
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			break;
	}
	return v;
}

static void rd_skip(struct rd *r, uint64_t n)
{
	if (r->bad || (uint64_t)(r->end - r->p) < n)
		r->bad = true;
	else
		r->p += n;
}

static int add_span(struct a2l_unit *u, Dwarf_Addr lo, Dwarf_Addr hi)
{
	if (u->nr && u->s[u->nr - 1].hi == lo) {
		u->s[u->nr - 1].hi = hi;
		return 0;
	}
	if (u->nr == u->cap) {
		size_t nc = u->cap ? 2 * u->cap : 64;
		struct a2l_span *s = realloc(u->s, nc * sizeof(*s));

		if (!s)
			return -1;
		u->s = s;
		u->cap = nc;
	}
	u->s[u->nr++] = (struct a2l_span){ lo, hi };
	return 0;
}

/* One row at addr: the span of the one before it, if binutils names it file 0. */
struct machine {
	Dwarf_Addr addr, row_addr;
	bool have_row, row_file0, file_set;
};

static int row(struct a2l_unit *u, struct machine *m)
{
	if (m->have_row && m->row_file0 && m->addr > m->row_addr &&
	    add_span(u, m->row_addr, m->addr))
		return -1;
	m->have_row = true;
	m->row_addr = m->addr;
	m->row_file0 = !m->file_set;
	return 0;
}

/* Runs the program in [r->p, r->end); false where it does not parse. */
static bool run(struct a2l_unit *u, struct rd *r, unsigned int min_inst, unsigned int line_range,
		unsigned int opcode_base, const unsigned char *std_len)
{
	struct machine m = { 0 };

	while (!r->bad && r->p < r->end) {
		unsigned int op = (unsigned int)rd_n(r, 1);

		if (op >= opcode_base) {
			m.addr += (Dwarf_Addr)((op - opcode_base) / line_range) * min_inst;
			if (row(u, &m))
				return false;
			continue;
		}
		switch (op) {
		case 0: {
			uint64_t len = rd_uleb(r);
			const unsigned char *next = r->p;
			unsigned int sub;

			if (r->bad || !len || (uint64_t)(r->end - r->p) < len)
				return false;
			next += len;
			sub = (unsigned int)rd_n(r, 1);
			if (sub == DW_LNE_end_sequence) {
				if (row(u, &m))
					return false;
				m = (struct machine){ 0 };
			} else if (sub == DW_LNE_set_address) {
				if (len - 1 != 4 && len - 1 != 8)
					return false;
				m.addr = rd_n(r, (unsigned int)(len - 1));
			}
			r->p = next;
			break;
		}
		case DW_LNS_copy:
			if (row(u, &m))
				return false;
			break;
		case DW_LNS_advance_pc:
			m.addr += rd_uleb(r) * min_inst;
			break;
		case DW_LNS_advance_line:
			rd_uleb(r);	/* the same bytes as a signed LEB128 */
			break;
		case DW_LNS_set_file:
			rd_uleb(r);
			m.file_set = true;
			break;
		case DW_LNS_const_add_pc:
			m.addr += (Dwarf_Addr)((255 - opcode_base) / line_range) * min_inst;
			break;
		case DW_LNS_fixed_advance_pc:
			m.addr += rd_n(r, 2);
			break;
		default:	/* the header says how many LEB128 operands */
			for (unsigned int i = 0; i < std_len[op - 1]; i++)
				rd_uleb(r);
			break;
		}
	}
	return !r->bad;
}

/* The .debug_line bytes of the unit's file, decompressed as libdw reads them. */
static bool line_section(Dwarf_Die *cu, struct rd *r)
{
	Dwarf *dbg = dwarf_cu_getdwarf(cu->cu);
	Elf *elf = dbg ? dwarf_getelf(dbg) : NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".debug_line"))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			return false;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			return false;
		r->p = d->d_buf;
		r->end = r->p + d->d_size;
		r->bad = false;
		return true;
	}
	return false;
}

static int span_cmp(const void *a, const void *b)
{
	const struct a2l_span *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The unit's spans; u->file0 stays NULL where nothing differs from libdw. */
static void build(struct a2l_unit *u, Dwarf_Die *cu)
{
	Dwarf_Attribute a;
	Dwarf_Word off;
	Dwarf_Files *files;
	size_t nfiles;
	const char *f0, *f1;
	struct rd r;
	uint64_t len, hlen;
	unsigned int offsz = 4, min_inst, max_ops, line_range, opcode_base;
	const unsigned char *std_len, *end;

	if (!dwarf_attr(cu, DW_AT_stmt_list, &a) || dwarf_formudata(&a, &off) ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) || nfiles < 2 ||
	    !(f0 = dwarf_filesrc(files, 0, NULL, NULL)) ||
	    !(f1 = dwarf_filesrc(files, 1, NULL, NULL)) || !strcmp(f0, f1) ||
	    !line_section(cu, &r) || off >= (Dwarf_Word)(r.end - r.p))
		return;
	r.p += off;
	len = rd_n(&r, 4);
	if (len == 0xffffffff) {
		len = rd_n(&r, 8);
		offsz = 8;
	}
	if (r.bad || len > (uint64_t)(r.end - r.p))
		return;
	end = r.p + len;
	r.end = end;
	if (rd_n(&r, 2) < 5)	/* before DWARF 5 file 0 is no file: binutils agrees */
		return;
	rd_skip(&r, 2);		/* address_size, segment_selector_size */
	hlen = rd_n(&r, offsz);
	if (r.bad || hlen > (uint64_t)(r.end - r.p))
		return;
	end = r.p + hlen;	/* the program starts there */
	min_inst = (unsigned int)rd_n(&r, 1);
	max_ops = (unsigned int)rd_n(&r, 1);
	rd_skip(&r, 1);		/* default_is_stmt */
	rd_skip(&r, 1);		/* line_base: lines are not needed */
	line_range = (unsigned int)rd_n(&r, 1);
	opcode_base = (unsigned int)rd_n(&r, 1);
	std_len = r.p;
	rd_skip(&r, opcode_base ? opcode_base - 1 : 0);
	if (r.bad || max_ops != 1 || !line_range || !opcode_base || r.p > end)
		return;
	r.p = end;
	if (!run(u, &r, min_inst, line_range, opcode_base, std_len)) {
		u->nr = 0;
		return;
	}
	if (!u->nr)
		return;		/* no row names file 0 */
	qsort(u->s, u->nr, sizeof(*u->s), span_cmp);
	u->file0 = f0;
}

const char *pc_a2lline_file(struct pc_a2llines **cache, Dwarf_Die *cu, Dwarf_Addr pc)
{
	struct pc_a2llines *c = *cache;
	Dwarf_Off off = dwarf_dieoffset(cu);
	struct a2l_unit *u, **b;
	size_t lo = 0, hi;

	if (!c && !(c = *cache = calloc(1, sizeof(*c))))
		return NULL;
	b = &c->b[(off >> 3) % A2L_BUCKETS];
	for (u = *b; u; u = u->next)
		if (u->off == off)
			break;
	if (!u) {
		if (!(u = calloc(1, sizeof(*u))))
			return NULL;
		u->off = off;
		build(u, cu);
		u->next = *b;
		*b = u;
	}
	if (!u->file0)
		return NULL;
	hi = u->nr;
	while (lo < hi) {		/* the last span starting at or before pc */
		size_t mid = lo + (hi - lo) / 2;

		if (u->s[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && pc < u->s[lo - 1].hi ? u->file0 : NULL;
}

void pc_a2llines_free(struct pc_a2llines *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < A2L_BUCKETS; i++)
		while (c->b[i]) {
			struct a2l_unit *u = c->b[i];

			c->b[i] = u->next;
			free(u->s);
			free(u);
		}
	free(c);
}
