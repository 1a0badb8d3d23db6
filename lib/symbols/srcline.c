// SPDX-License-Identifier: GPL-2.0
/*
 * Lines from the line table (dwfl_module_getsrc), inline chains from the
 * DIE scopes at the address (dwarf_getscopes): each DW_TAG_inlined_subroutine
 * up to the enclosing DW_TAG_subprogram is a frame, its DW_AT_call_file and
 * DW_AT_call_line the position of the frame around it.
 */
#include "symbols/srcline.h"
#include "symbols/a2lline.h"
#include "symbols/a2lsym.h"
#include "symbols/debuginfo.h"
#include "symbols/symbols.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <errno.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The answer for one address, kept: callchains ask for the same few again and again. */
struct sl_addr {
	uint64_t vaddr;
	uint32_t nr;
	struct sl_addr *next;
	struct pc_src_frame frames[];
};

#define SL_ADDR_BUCKETS 1024

/* Whether dwarf_getscopes finds an inlined instance's abstract origin from a unit. */
struct sl_origin {
	Dwarf_Off cu, origin;	/* DIE offsets */
	bool found;
	struct sl_origin *next;
};

/* One pc range of a unit's child: the children of a unit, by address. */
struct sl_range {
	Dwarf_Addr lo, hi;	/* [lo, hi) */
	Dwarf_Addr max_hi;	/* the largest hi of this entry and those before it */
	uint32_t ord;		/* the child's place among the unit's children */
	Dwarf_Die die;
};

struct sl_unit {
	Dwarf_Off off;		/* of the unit's DIE */
	bool indexed;		/* false: walk the children (imported units, an error) */
	struct sl_range *r;
	size_t nr;
	Dwarf_Off *kids;	/* the offsets of all its children, in order */
	size_t nr_kids;
	struct sl_unit *next;
};

#define SL_UNIT_BUCKETS 64

/* A name made here (demangled), kept as long as the file. */
struct sl_str {
	struct sl_str *next;
	char s[];
};

struct sl_file {
	char *path;
	struct sl_addr **addrs;	/* SL_ADDR_BUCKETS chains, allocated on first use */
	uint32_t nr_addrs;
	struct sl_origin *origins;
	struct sl_unit *units[SL_UNIT_BUCKETS];
	Dwfl *dwfl;
	Dwfl_Module *mod;	/* NULL: the file did not open */
	struct pc_a2lsyms *a2l;	/* addr2line's symbol names, built on first use */
	struct pc_a2llines *a2ll;	/* addr2line's DWARF 5 file names, per unit */
	struct sl_str *strs;
	uint8_t demangle;	/* the cache's: enum pc_demangle */
	bool libdw_files;	/* the cache's: line files as libdw gives them */
	struct sl_file *next;
};

#define SL_BUCKETS 64

struct pc_srcline_cache {
	char *debug_dir;
	uint8_t demangle;
	bool libdw_files;
	Dwfl_Callbacks cbs;
	struct sl_file *buckets[SL_BUCKETS];
};

void pc_srcline_set_demangle(struct pc_srcline_cache *c, uint8_t how)
{
	c->demangle = how;
}

void pc_srcline_set_libdw_files(struct pc_srcline_cache *c, bool libdw)
{
	c->libdw_files = libdw;
}

struct pc_srcline_cache *pc_srcline_new(const char *debug_dir)
{
	struct pc_srcline_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	elf_version(EV_CURRENT);
	c->debug_dir = strdup(debug_dir ? debug_dir : "/usr/lib/debug");
	if (!c->debug_dir) {
		free(c);
		return NULL;
	}
	pc_debuginfo_callbacks(&c->cbs);
	return c;
}

static void sl_addrs_free(struct sl_file *f)
{
	if (!f->addrs)
		return;
	for (size_t b = 0; b < SL_ADDR_BUCKETS; b++) {
		struct sl_addr *a = f->addrs[b], *n;

		for (; a; a = n) {
			n = a->next;
			free(a);
		}
	}
	free(f->addrs);
	f->addrs = NULL;
	f->nr_addrs = 0;
}

void pc_srcline_free(struct pc_srcline_cache *c)
{
	if (!c)
		return;
	for (size_t b = 0; b < SL_BUCKETS; b++) {
		struct sl_file *f = c->buckets[b], *n;

		for (; f; f = n) {
			n = f->next;
			if (f->dwfl)
				dwfl_end(f->dwfl);
			sl_addrs_free(f);
			while (f->origins) {
				struct sl_origin *o = f->origins;

				f->origins = o->next;
				free(o);
			}
			for (size_t u = 0; u < SL_UNIT_BUCKETS; u++) {
				while (f->units[u]) {
					struct sl_unit *un = f->units[u];

					f->units[u] = un->next;
					free(un->r);
					free(un->kids);
					free(un);
				}
			}
			pc_a2lsyms_free(f->a2l);
			pc_a2llines_free(f->a2ll);
			for (struct sl_str *t = f->strs, *tn; t; t = tn) {
				tn = t->next;
				free(t);
			}
			free(f->path);
			free(f);
		}
	}
	free(c->debug_dir);
	free(c);
}

static struct sl_file *file_get(struct pc_srcline_cache *c, const char *path)
{
	size_t h = 5381, b;
	struct sl_file *f;

	for (const char *p = path; *p; p++)
		h = h * 33 + (unsigned char)*p;
	b = h % SL_BUCKETS;
	for (f = c->buckets[b]; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path))) {
		free(f);
		return NULL;
	}
	f->demangle = c->demangle;
	f->libdw_files = c->libdw_files;
	f->dwfl = dwfl_begin(&c->cbs);
	if (f->dwfl) {
		dwfl_report_begin(f->dwfl);
		f->mod = dwfl_report_elf(f->dwfl, path, path, -1, 0, false);
		dwfl_report_end(f->dwfl, NULL, NULL);
		pc_debuginfo_attach(f->mod, c->debug_dir);
	}
	f->next = c->buckets[b];
	c->buckets[b] = f;
	return f;
}

const char *pc_srcline_basename(const char *file)
{
	const char *s = file ? strrchr(file, '/') : NULL;

	return s ? s + 1 : file;
}

const char *pc_srcline_shown(const char *file, bool full)
{
	return full ? file : pc_srcline_basename(file);
}

const char *pc_srcline_frame_file(const struct pc_src_frame *fr, bool full, bool binutils,
				  char *buf, size_t size)
{
	if (!full || !fr->file)
		return pc_srcline_shown(fr->file, full);
	if (!binutils || fr->file[0] == '/' || !fr->comp_dir)
		return fr->file;
	snprintf(buf, size, "%s/%s", fr->comp_dir, fr->file);
	return buf;
}

/*
 * A function's name as addr2line gives it (and perf 6.1 shows it): the
 * linkage name where the DIE (or its abstract origin) has one, else
 * DW_AT_name; *linkage says which.  glibc's hidden aliases make the two
 * differ in C too: write's DIE is __libc_write, linkage __GI___libc_write.
 */
static const char *die_name(Dwarf_Die *die, bool *linkage)
{
	Dwarf_Attribute a;
	const char *s;

	*linkage = true;
	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	     dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a)) &&
	    (s = dwarf_formstring(&a)))
		return s;
	*linkage = false;
	if (dwarf_attr_integrate(die, DW_AT_name, &a))
		return dwarf_formstring(&a);
	return NULL;
}

/*
 * binutils takes DW_AT_name as the symbol's name in these languages,
 * assembly included: gas 2.40 gives each function symbol of a .S file a
 * DW_TAG_subprogram of its own named after it, one per alias (at
 * mprotect: __mprotect, __GI___mprotect, mprotect, __GI_mprotect), and
 * a2l_holder picks the one addr2line names.  The vendor codes dwarf.h
 * lacks: GNU UPC 0x8765, HP Basic91 0x8004, IMacro 0x8006, Assembler 0x8007.
 */
static bool lang_unmangled(Dwarf_Die *cu)
{
	switch (dwarf_srclang(cu)) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_C99: case DW_LANG_C11:
	case DW_LANG_Ada83: case DW_LANG_Ada95: case DW_LANG_Cobol74: case DW_LANG_Cobol85:
	case DW_LANG_Fortran77: case DW_LANG_Pascal83: case DW_LANG_PLI: case DW_LANG_UPC:
	case DW_LANG_Mips_Assembler: case 0x8765: case 0x8004: case 0x8006: case 0x8007:
		return true;
	default:
		return false;
	}
}

/* name demangled as perf shows it, kept with the file; name itself if not C++ */
static const char *sl_demangle(struct sl_file *f, const char *name)
{
	char buf[1024];
	const char *d;
	struct sl_str *t;
	size_t len;

	if (!name || name[0] != '_' || name[1] != 'Z' || f->demangle == PC_DEMANGLE_NONE)
		return name;
	d = pc_demangle(name, f->demangle == PC_DEMANGLE_WHOLE, buf, sizeof(buf));
	if (d == name)
		return name;
	len = strlen(d) + 1;
	t = malloc(sizeof(*t) + len);
	if (!t)
		return name;
	memcpy(t->s, d, len);
	t->next = f->strs;
	f->strs = t;
	return t->s;
}

static const char *call_file(Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word idx;
	Dwarf_Files *files;
	size_t nfiles;

	if (!dwarf_attr(die, DW_AT_call_file, &a) || dwarf_formudata(&a, &idx) ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) || idx >= nfiles)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

static uint32_t call_line(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word line;

	if (!dwarf_attr(die, DW_AT_call_line, &a) || dwarf_formudata(&a, &line))
		return 0;
	return (uint32_t)line;
}

/*
 * The scopes holding die, innermost first ([0] is die, the last its unit's
 * root), as dwarf_getscopes_die gives them, found by descending the tree by
 * offset (a DIE's children follow it, before its next sibling) instead of
 * visiting every scope before it.  n, or -1.
 */
#define SL_DEPTH_MAX 256

static int die_path(Dwarf_Die *die, Dwarf_Die **scopes)
{
	Dwarf_Die path[SL_DEPTH_MAX], cur, child, best;
	Dwarf_Off target = dwarf_dieoffset(die);
	int n = 0;

	if (!dwarf_diecu(die, &cur, NULL, NULL))
		return -1;
	path[n++] = cur;
	while (dwarf_dieoffset(&cur) != target) {
		bool have = false;

		if (dwarf_child(&cur, &child) != 0)
			return -1;
		do {
			if (dwarf_dieoffset(&child) > target)
				break;
			best = child;
			have = true;
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!have || n == SL_DEPTH_MAX)
			return -1;
		cur = best;
		path[n++] = cur;
	}
	*scopes = malloc((size_t)n * sizeof(**scopes));
	if (!*scopes)
		return -1;
	for (int i = 0; i < n; i++)
		(*scopes)[i] = path[n - 1 - i];
	return n;
}

/* The tags dwarf_getscopes descends into (scopes, and what can own scopes). */
static bool may_have_scopes(Dwarf_Die *die)
{
	switch (dwarf_tag(die)) {
	case DW_TAG_compile_unit:
	case DW_TAG_module:
	case DW_TAG_lexical_block:
	case DW_TAG_with_stmt:
	case DW_TAG_catch_block:
	case DW_TAG_try_block:
	case DW_TAG_entry_point:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_subprogram:
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
		return true;
	default:
		return false;
	}
}

#define SL_ASK_LIBDW (-2)	/* the answer needs dwarf_getscopes itself */

/*
 * dwarf_haspc: 1, 0 (also for a DIE without pc attributes), or
 * SL_ASK_LIBDW on an error, which dwarf_getscopes sorts by codes that
 * libdw keeps to itself.
 */
static int has_pc(Dwarf_Die *die, Dwarf_Addr pc)
{
	int r = dwarf_haspc(die, pc);

	if (r < 0)
		return dwarf_errno() ? SL_ASK_LIBDW : 0;
	return r;
}

/*
 * The first child of parent (imported units walked in place, as
 * dwarf_getscopes walks them) that holds pc: 1 and *out, 0 none, < 0 ask
 * libdw.  *imported: the child came from an imported unit.
 */
static int first_holder(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *out, bool *imported,
			int depth)
{
	Dwarf_Die child;
	int ret;

	if (depth > 8)
		return SL_ASK_LIBDW;
	ret = dwarf_child(parent, &child);
	if (ret)
		return ret < 0 ? SL_ASK_LIBDW : 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_imported_unit) {
			Dwarf_Attribute a;
			Dwarf_Die unit;

			if (dwarf_formref_die(dwarf_attr(&child, DW_AT_import, &a), &unit)) {
				ret = first_holder(&unit, pc, out, imported, depth + 1);
				if (ret) {
					*imported = true;
					return ret;
				}
			}
			continue;
		}
		ret = has_pc(&child, pc);
		if (ret) {
			*out = child;
			return ret;
		}
	} while ((ret = dwarf_siblingof(&child, &child)) == 0);
	return ret < 0 ? SL_ASK_LIBDW : 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct sl_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* Every pc range of the unit's children, sorted; false where only a walk is exact. */
static bool unit_index(struct sl_unit *u, Dwarf_Die *cu)
{
	Dwarf_Die child;
	size_t cap = 0, kids_cap = 0;
	uint32_t ord = 0;
	int ret = dwarf_child(cu, &child);

	if (ret)
		return ret == 1;	/* no children: an empty index */
	do {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;

		if (dwarf_tag(&child) == DW_TAG_imported_unit)
			return false;
		if (u->nr_kids == kids_cap) {
			size_t nc = kids_cap ? 2 * kids_cap : 256;
			Dwarf_Off *k = realloc(u->kids, nc * sizeof(*k));

			if (!k)
				return false;
			u->kids = k;
			kids_cap = nc;
		}
		u->kids[u->nr_kids++] = dwarf_dieoffset(&child);
		while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0) {
			if (u->nr == cap) {
				size_t nc = cap ? 2 * cap : 256;
				struct sl_range *r = realloc(u->r, nc * sizeof(*r));

				if (!r)
					return false;
				u->r = r;
				cap = nc;
			}
			u->r[u->nr++] = (struct sl_range){ lo, hi, 0, ord, child };
		}
		if (off < 0 && dwarf_errno())
			return false;
		ord++;
	} while ((ret = dwarf_siblingof(&child, &child)) == 0);
	if (ret < 0)
		return false;
	qsort(u->r, u->nr, sizeof(*u->r), range_cmp);
	for (size_t i = 0; i < u->nr; i++)
		u->r[i].max_hi = i && u->r[i - 1].max_hi > u->r[i].hi ? u->r[i - 1].max_hi : u->r[i].hi;
	return true;
}

static struct sl_unit *unit_get(struct sl_file *f, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	struct sl_unit **b = &f->units[(off >> 3) % SL_UNIT_BUCKETS], *u;

	for (u = *b; u; u = u->next)
		if (u->off == off)
			return u;
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->off = off;
	u->indexed = unit_index(u, cu);
	if (!u->indexed) {
		free(u->r);
		free(u->kids);
		u->r = NULL;
		u->kids = NULL;
		u->nr = u->nr_kids = 0;
	}
	u->next = *b;
	*b = u;
	return u;
}

static bool unit_indexed(struct sl_file *f, Dwarf_Die *cu)
{
	struct sl_unit *u = unit_get(f, cu);

	return u && u->indexed;
}

/* Whether a DIE is one of the unit's children (the index lists them in order). */
static bool unit_has_kid(const struct sl_unit *u, Dwarf_Off off)
{
	size_t lo = 0, hi = u->nr_kids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (u->kids[mid] == off)
			return true;
		if (u->kids[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The unit's first child (in DIE order) with a range holding pc, from the index. */
/* How many of the unit's ranges (sorted by start) start at or before pc. */
static size_t ranges_from(const struct sl_unit *u, Dwarf_Addr pc)
{
	size_t lo = 0, hi = u->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (u->r[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int indexed_holder(const struct sl_unit *u, Dwarf_Addr pc, Dwarf_Die *out)
{
	size_t lo = ranges_from(u, pc);
	const struct sl_range *best = NULL;

	/* back from the last entry starting at or before pc while one may still hold it */
	while (lo-- > 0 && u->r[lo].max_hi > pc) {
		const struct sl_range *r = &u->r[lo];

		if (r->lo <= pc && pc < r->hi && (!best || r->ord < best->ord))
			best = r;
	}
	if (!best)
		return 0;
	*out = best->die;
	return 1;
}

/*
 * The function binutils names at pc among the unit's children: of the
 * ranges holding pc the shortest, and of equal ones the DIE read last
 * (addr2line keeps the later of two equal fits).  Where gas gives one
 * symbol's aliases a DIE each, that is the last alias.  1 and *out, or 0.
 */
static int a2l_holder(const struct sl_unit *u, Dwarf_Addr pc, Dwarf_Die *out)
{
	const struct sl_range *best = NULL;
	size_t lo = ranges_from(u, pc);

	while (lo-- > 0 && u->r[lo].max_hi > pc) {
		const struct sl_range *r = &u->r[lo];
		Dwarf_Die die = r->die;
		int tag = dwarf_tag(&die);

		if (pc >= r->hi || (tag != DW_TAG_subprogram && tag != DW_TAG_entry_point))
			continue;
		if (!best || r->hi - r->lo < best->hi - best->lo ||
		    (r->hi - r->lo == best->hi - best->lo && r->ord > best->ord))
			best = r;
	}
	if (!best)
		return 0;
	*out = best->die;
	return 1;
}

/*
 * The scopes holding pc, innermost first and up to the unit, as
 * dwarf_getscopes finds the innermost (the first child holding pc at each
 * level, descending) and die_path lists its parents.  dwarf_getscopes
 * answers 0 when the abstract origin of the innermost inlined instance is
 * not reached from the unit; that answer is asked of it once per origin.
 * n, 0, -1, or SL_ASK_LIBDW where only dwarf_getscopes can say.
 */
static int scopes_at(struct sl_file *f, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **scopes)
{
	Dwarf_Die path[SL_DEPTH_MAX], origin;
	Dwarf_Attribute a;
	struct sl_origin *o;
	struct sl_unit *unit = unit_get(f, cu);
	bool imported = false;
	int n = 1, inlined = -1, ret;

	path[0] = *cu;
	for (;;) {
		Dwarf_Die *cur = &path[n - 1];

		if (n > 1 && !(may_have_scopes(cur) && dwarf_haschildren(cur) > 0))
			break;
		if (n == SL_DEPTH_MAX)
			return SL_ASK_LIBDW;
		if (n == 1 && unit && unit->indexed)
			ret = indexed_holder(unit, pc, &path[n]);
		else
			ret = first_holder(cur, pc, &path[n], &imported, 0);
		if (ret < 0)
			return SL_ASK_LIBDW;
		if (!ret)
			break;
		if (dwarf_tag(&path[n]) == DW_TAG_inlined_subroutine)
			inlined = n;
		n++;
	}
	if (n == 1)
		return 0;
	if (inlined >= 0) {
		if (!dwarf_formref_die(dwarf_attr(&path[inlined], DW_AT_abstract_origin, &a), &origin))
			return SL_ASK_LIBDW;
		/*
		 * dwarf_getscopes looks for the origin in the unit's scopes; a
		 * child of the unit itself is always reached (the walk aborts
		 * before it only on a defect in the DWARF before it).
		 */
		if (unit && unit->indexed && unit_has_kid(unit, dwarf_dieoffset(&origin)))
			goto found;
		for (o = f->origins; o; o = o->next)
			if (o->cu == dwarf_dieoffset(cu) && o->origin == dwarf_dieoffset(&origin))
				break;
		if (!o) {
			Dwarf_Die *ask = NULL;
			int got = dwarf_getscopes(cu, pc, &ask);

			free(ask);
			if (got < 0)
				return -1;
			o = malloc(sizeof(*o));
			if (!o)
				return got > 0 ? die_path(&path[n - 1], scopes) : 0;
			*o = (struct sl_origin){ dwarf_dieoffset(cu), dwarf_dieoffset(&origin), got > 0,
						 f->origins };
			f->origins = o;
		}
		if (!o->found)
			return 0;
	}
found:
	/* the parents by offset, as die_path: the unit of an imported DIE is its own */
	if (imported)
		return die_path(&path[n - 1], scopes);
	*scopes = malloc((size_t)n * sizeof(**scopes));
	if (!*scopes)
		return -1;
	for (int i = 0; i < n; i++)
		(*scopes)[i] = path[n - 1 - i];
	return n;
}

static int lookup(struct sl_file *f, uint64_t vaddr, struct pc_src_frame *out, uint32_t max,
		  uint32_t *nr)
{
	Dwarf_Addr bias, cubias, addr;
	Dwarf_Die *cu, *scopes = NULL;
	struct pc_src_frame cur = { 0 };
	Dwfl_Line *line;
	int nscopes, line_nr = 0;

	*nr = 0;
	if (!max || !dwfl_module_getelf(f->mod, &bias))
		return 0;
	addr = vaddr + bias;
	line = dwfl_module_getsrc(f->mod, addr);
	if (line) {
		cur.file = dwfl_lineinfo(line, NULL, &line_nr, NULL, NULL, NULL);
		cur.line = line_nr > 0 ? (uint32_t)line_nr : 0;
	}
	cu = dwfl_module_addrdie(f->mod, addr, &cubias);
	if (cu) {
		Dwarf_Attribute a;

		cur.comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
	}
	if (line && cu && !f->libdw_files) {
		const char *a2l_file = pc_a2lline_file(&f->a2ll, cu, addr - cubias);

		if (a2l_file)
			cur.file = a2l_file;
	}
	/*
	 * Not dwarf_getscopes's list, which continues an inlined instance with
	 * its abstract definition: the frames are the DIE tree, the parents of
	 * the innermost scope up to the real function.
	 */
	nscopes = cu ? scopes_at(f, cu, addr - cubias, &scopes) : 0;
	if (nscopes == SL_ASK_LIBDW) {
		nscopes = dwarf_getscopes(cu, addr - cubias, &scopes);
		if (nscopes > 0) {
			Dwarf_Die inner = scopes[0];

			free(scopes);
			scopes = NULL;
			nscopes = die_path(&inner, &scopes);
		}
	}
	for (int i = 0; i < nscopes && *nr < max; i++) {
		int tag = dwarf_tag(&scopes[i]);
		Dwarf_Addr low, at;
		const char *sn;
		bool linkage;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		/* nothing inlined at pc, a function of the unit: binutils' pick of the unit's */
		if (tag == DW_TAG_subprogram && !*nr && i == nscopes - 2 && unit_indexed(f, cu))
			a2l_holder(unit_get(f, cu), addr - cubias, &scopes[i]);
		cur.func = die_name(&scopes[i], &linkage);
		/*
		 * A real function named only by DW_AT_name in a language
		 * whose symbols are mangled: addr2line takes the symbol
		 * table's name when that symbol starts where the function does.
		 */
		if (tag == DW_TAG_subprogram && !linkage && !lang_unmangled(cu) &&
		    dwarf_lowpc(&scopes[i], &low) == 0 &&
		    (sn = pc_a2lsym_name(f->mod, &f->a2l, addr, &at)) && at == low + cubias)
			cur.func = sn;
		cur.func = sl_demangle(f, cur.func);
		out[(*nr)++] = cur;
		if (tag == DW_TAG_subprogram)
			break;
		/* the frame around this one is at its call site */
		cur.file = call_file(cu, &scopes[i]);
		cur.line = call_line(&scopes[i]);
	}
	free(scopes);
	if (!*nr && line) {
		/*
		 * A line without a function DIE (assembly): addr2line names
		 * the function from the symbol table, its own way (a2lsym.h).
		 */
		Dwarf_Addr at;

		cur.func = sl_demangle(f, pc_a2lsym_name(f->mod, &f->a2l, addr, &at));
		out[0] = cur;
		*nr = 1;
	}
	return 0;
}

int pc_srcline_covered(struct pc_srcline_cache *c, const char *path, uint64_t vaddr)
{
	struct sl_file *f = file_get(c, path);
	Dwarf_Addr bias, cubias;

	if (!f)
		return -ENOMEM;
	if (!f->mod || !dwfl_module_getelf(f->mod, &bias))
		return -ENOENT;
	if (dwfl_module_addrdie(f->mod, vaddr + bias, &cubias))
		return 1;
	return dwfl_module_getdwarf(f->mod, &cubias) ? 0 : -ENODATA;
}

int pc_srcline_named(struct pc_srcline_cache *c, const char *path, uint64_t vaddr,
		     const char **file)
{
	struct sl_file *f = file_get(c, path);
	Dwarf_Addr bias, at;

	if (!f)
		return -ENOMEM;
	if (!f->mod || !dwfl_module_getelf(f->mod, &bias))
		return -ENOENT;
	if (file)
		*file = NULL;
	return pc_a2lsym_find(f->mod, &f->a2l, vaddr + bias, &at, file) != NULL;
}

const char *pc_srcline_a2l_func(struct pc_srcline_cache *c, const char *path, uint64_t vaddr)
{
	struct sl_file *f = file_get(c, path);
	Dwarf_Addr bias, at;

	if (!f || !f->mod || !dwfl_module_getelf(f->mod, &bias))
		return NULL;
	return sl_demangle(f, pc_a2lsym_name(f->mod, &f->a2l, vaddr + bias, &at));
}

bool pc_srcline_a2l_runs(struct pc_srcline_cache *c, const char *path)
{
	struct sl_file *f = file_get(c, path);
	Dwarf_Addr bias;

	return f && f->mod && dwfl_module_getdwarf(f->mod, &bias) != NULL;
}

/*
 * libdwfl places an offline ET_DYN module at its next free address,
 * which starts past a 64 KiB red zone (libdwfl's OFFLINE_REDZONE)
 */
#define SL_OFFLINE_REDZONE 0x10000

/*
 * Whether perf 7.2's libdw lookup answers at vaddr: perf reports the
 * object to libdwfl offline and looks the module up at vaddr itself,
 * unbiased, so an ET_DYN object, placed past the red zone, misses its
 * first 64 KiB; an address without a line misses too
 */
static bool libdw_answers(struct sl_file *f, uint64_t vaddr)
{
	Dwarf_Addr bias, start, end;
	GElf_Ehdr ehdr;
	Elf *elf;

	if (!(elf = dwfl_module_getelf(f->mod, &bias)) || !gelf_getehdr(elf, &ehdr) ||
	    !dwfl_module_info(f->mod, NULL, &start, &end, NULL, NULL, NULL, NULL))
		return false;
	/* perf looks its module up at the object's own address, not the module's */
	if (ehdr.e_type == ET_DYN) {
		start += SL_OFFLINE_REDZONE;
		end += SL_OFFLINE_REDZONE;
	}
	if (vaddr < start || vaddr >= end || !dwfl_module_getdwarf(f->mod, &bias))
		return false;
	return dwfl_module_getsrc(f->mod, vaddr + bias) != NULL;
}

bool pc_srcline_a2l_answers(struct pc_srcline_cache *c, const char *path, uint64_t vaddr)
{
	struct sl_file *f = file_get(c, path);
	Dwarf_Addr bias;

	/* addr2line runs only on an object with DWARF, and after libdw */
	return f && f->mod && dwfl_module_getdwarf(f->mod, &bias) && !libdw_answers(f, vaddr);
}

#define SL_CACHE_MAX 16	/* frames kept per address */
#define SL_ADDRS_MAX (1u << 20)	/* addresses kept per file; past it, lookups are not kept */

int pc_srcline_frames(struct pc_srcline_cache *c, const char *path, uint64_t vaddr,
		      struct pc_src_frame *out, uint32_t max, uint32_t *nr)
{
	struct sl_file *f = file_get(c, path);
	struct pc_src_frame tmp[SL_CACHE_MAX];
	struct sl_addr *a;
	size_t b = (size_t)(vaddr ^ (vaddr >> 12)) % SL_ADDR_BUCKETS;
	int ret;

	*nr = 0;
	if (!f)
		return -ENOMEM;
	if (!f->mod)
		return -ENOENT;
	if (!max)
		return 0;
	for (a = f->addrs ? f->addrs[b] : NULL; a; a = a->next) {
		if (a->vaddr == vaddr) {
			*nr = a->nr < max ? a->nr : max;
			memcpy(out, a->frames, *nr * sizeof(*out));
			return 0;
		}
	}
	if (max > SL_CACHE_MAX)
		return lookup(f, vaddr, out, max, nr);
	ret = lookup(f, vaddr, tmp, SL_CACHE_MAX, nr);
	if (ret)
		return ret;
	if (!f->addrs && f->nr_addrs < SL_ADDRS_MAX)
		f->addrs = calloc(SL_ADDR_BUCKETS, sizeof(*f->addrs));
	if (f->addrs && f->nr_addrs < SL_ADDRS_MAX &&
	    (a = malloc(sizeof(*a) + *nr * sizeof(a->frames[0])))) {
		a->vaddr = vaddr;
		a->nr = *nr;
		memcpy(a->frames, tmp, *nr * sizeof(tmp[0]));
		a->next = f->addrs[b];
		f->addrs[b] = a;
		f->nr_addrs++;
	}
	if (*nr > max)
		*nr = max;
	memcpy(out, tmp, *nr * sizeof(*out));
	return 0;
}
