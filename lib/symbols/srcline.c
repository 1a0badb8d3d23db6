// SPDX-License-Identifier: GPL-2.0
/*
 * Lines from the line table (dwfl_module_getsrc), inline chains from the
 * DIE scopes at the address (dwarf_getscopes): each DW_TAG_inlined_subroutine
 * up to the enclosing DW_TAG_subprogram is a frame, its DW_AT_call_file and
 * DW_AT_call_line the position of the frame around it.
 */
#include "symbols/srcline.h"
#include "symbols/a2lsym.h"
#include "symbols/debuginfo.h"
#include "symbols/symbols.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
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

/* A name made here (demangled), kept as long as the file. */
struct sl_str {
	struct sl_str *next;
	char s[];
};

struct sl_file {
	char *path;
	struct sl_addr **addrs;	/* SL_ADDR_BUCKETS chains, allocated on first use */
	uint32_t nr_addrs;
	Dwfl *dwfl;
	Dwfl_Module *mod;	/* NULL: the file did not open */
	struct pc_a2lsyms *a2l;	/* addr2line's symbol names, built on first use */
	struct sl_str *strs;
	struct sl_file *next;
};

#define SL_BUCKETS 64

struct pc_srcline_cache {
	char *debug_dir;
	Dwfl_Callbacks cbs;
	struct sl_file *buckets[SL_BUCKETS];
};

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
			pc_a2lsyms_free(f->a2l);
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
 * binutils takes DW_AT_name as the symbol's name in these languages; not
 * in assembly, whose DIEs gas names after the global symbol (getxattr)
 * while addr2line names the first alias (__GI_getxattr).
 */
static bool lang_unmangled(Dwarf_Die *cu)
{
	switch (dwarf_srclang(cu)) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_C99: case DW_LANG_C11:
	case DW_LANG_Ada83: case DW_LANG_Ada95: case DW_LANG_Cobol74: case DW_LANG_Cobol85:
	case DW_LANG_Fortran77: case DW_LANG_Pascal83: case DW_LANG_PLI: case DW_LANG_UPC:
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

	if (!name || name[0] != '_' || name[1] != 'Z')
		return name;
	d = pc_demangle(name, buf, sizeof(buf));
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
	nscopes = cu ? dwarf_getscopes(cu, addr - cubias, &scopes) : 0;
	if (nscopes > 0) {
		/*
		 * dwarf_getscopes continues an inlined instance with its
		 * abstract definition; the frames are the DIE tree instead: the
		 * parents of the innermost scope, up to the real function.
		 */
		Dwarf_Die inner = scopes[0];

		free(scopes);
		scopes = NULL;
		nscopes = die_path(&inner, &scopes);
	}
	for (int i = 0; i < nscopes && *nr < max; i++) {
		int tag = dwarf_tag(&scopes[i]);
		Dwarf_Addr low, at;
		const char *sn;
		bool linkage;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
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
