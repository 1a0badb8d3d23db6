// SPDX-License-Identifier: GPL-2.0
/*
 * addr2line's symbol-table function names (see a2lsym.h): the module's
 * function-like symbols sorted by address once, then for an address the
 * closest start at or below it in the address's section, aliases decided
 * in symbol-table order.
 */
#include "symbols/a2lsym.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

struct a2l_ent {
	Dwarf_Addr addr, size;		/* size 0 counts as 1, as binutils does */
	Dwarf_Addr sec_lo, sec_hi;	/* the symbol's section, biased */
	const char *name;		/* libdwfl's string (lives with the module) */
	const char *file;		/* the file symbol addr2line names with it, or NULL */
	size_t idx;			/* symbol-table order */
};

struct pc_a2lsyms {
	struct a2l_ent *e;
	size_t nr;
};

static int ent_cmp(const void *a, const void *b)
{
	const struct a2l_ent *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* binutils' test for a symbol that may be a function */
static bool function_like(const GElf_Sym *s)
{
	int type = GELF_ST_TYPE(s->st_info);

	if (type != STT_FUNC && type != STT_NOTYPE && type != STT_GNU_IFUNC)
		return false;
	if (s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS || s->st_shndx == SHN_COMMON)
		return false;
	/* annobin's hidden local zero-sized markers are not functions */
	if (!s->st_size && GELF_ST_BIND(s->st_info) == STB_LOCAL && type != STT_FUNC &&
	    GELF_ST_VISIBILITY(s->st_other) == STV_HIDDEN)
		return false;
	return true;
}

static struct pc_a2lsyms *build(Dwfl_Module *mod)
{
	struct pc_a2lsyms *c = calloc(1, sizeof(*c));
	int n = dwfl_module_getsymtab(mod);
	/* binutils' view of file symbols: one after any other symbol ends the globals' */
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL } state = NOTHING_SEEN;
	const char *file = NULL;

	if (!c)
		return NULL;
	if (n <= 0)
		return c;
	c->e = calloc((size_t)n, sizeof(*c->e));
	if (!c->e)
		return c;
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr, bias = 0;
		GElf_Word shndx;
		GElf_Shdr sh;
		Elf *elf = NULL;
		Elf_Scn *scn;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, &elf,
							   &bias);

		if (name && GELF_ST_TYPE(sym.st_info) == STT_FILE) {
			file = name;
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
		if (!name || !*name || !elf || !function_like(&sym))
			continue;
		scn = elf_getscn(elf, shndx);
		if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		c->e[c->nr++] = (struct a2l_ent){
			.addr = addr,
			.size = sym.st_size ? sym.st_size : 1,
			.sec_lo = sh.sh_addr + bias,
			.sec_hi = sh.sh_addr + bias + sh.sh_size,
			.name = name,
			.file = GELF_ST_BIND(sym.st_info) == STB_LOCAL || state != FILE_AFTER_SYMBOL ?
				file : NULL,
			.idx = (size_t)i,
		};
	}
	qsort(c->e, c->nr, sizeof(*c->e), ent_cmp);
	return c;
}

static bool in_section(const struct a2l_ent *e, Dwarf_Addr addr)
{
	return addr >= e->sec_lo && addr < e->sec_hi;
}

const char *pc_a2lsym_find(Dwfl_Module *mod, struct pc_a2lsyms **cache, Dwarf_Addr addr,
			   Dwarf_Addr *start, const char **file)
{
	struct pc_a2lsyms *c = *cache;
	const struct a2l_ent *best = NULL;
	size_t lo = 0, hi, i;
	Dwarf_Addr at;

	if (!c && !(c = *cache = build(mod)))
		return NULL;
	hi = c->nr;
	while (lo < hi) {		/* first entry past addr */
		size_t mid = lo + (hi - lo) / 2;

		if (c->e[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	i = lo;
	while (i && !in_section(&c->e[i - 1], addr))
		i--;
	if (!i)
		return NULL;
	at = c->e[i - 1].addr;
	while (i && c->e[i - 1].addr == at)
		i--;
	/* the aliases at 'at', in symbol-table order */
	for (; i < c->nr && c->e[i].addr == at; i++) {
		const struct a2l_ent *e = &c->e[i];

		if (!in_section(e, addr))
			continue;
		if (!best)
			best = e;
		else if (best->addr + best->size <= addr)
			best = e->size > best->size ? e : best;
		else if (e->addr + e->size > addr && e->size < best->size)
			best = e;
	}
	if (!best)
		return NULL;
	*start = best->addr;
	if (file)
		*file = best->file;
	return best->name;
}

const char *pc_a2lsym_name(Dwfl_Module *mod, struct pc_a2lsyms **cache, Dwarf_Addr addr,
			   Dwarf_Addr *start)
{
	return pc_a2lsym_find(mod, cache, addr, start, NULL);
}

void pc_a2lsyms_free(struct pc_a2lsyms *c)
{
	if (!c)
		return;
	free(c->e);
	free(c);
}
