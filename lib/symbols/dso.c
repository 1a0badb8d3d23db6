// SPDX-License-Identifier: GPL-2.0
/*
 * ELF DSOs through libelf.  The symbols come from the first of: the
 * separate debug file found by build id (what Debian's -dbg packages
 * install), the object's own .symtab, its .dynsym.  Addresses stay ELF
 * virtual addresses; callers translate file offsets with the PT_LOAD table
 * of the object itself.
 */
#include "symbols/symbols.h"
#include "symbols/buildid.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool elf_ready(void)
{
	static int state;	/* 0 unknown, 1 ok, -1 broken */

	if (!state)
		state = elf_version(EV_CURRENT) == EV_NONE ? -1 : 1;
	return state > 0;
}

static Elf *elf_open(const char *path, int *fd)
{
	Elf *e;

	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	e = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(*fd);
		*fd = -1;
		return NULL;
	}
	return e;
}

static void elf_close(Elf *e, int fd)
{
	elf_end(e);
	close(fd);
}

/* The GNU build id of an ELF object, hex; false when it has none. */
static bool elf_build_id(Elf *e, char *hex, size_t hex_size)
{
	uint8_t id[PC_BUILD_ID_MAX];
	size_t n;

	if (pc_build_id_elf(e, id, &n) || n * 2 + 1 > hex_size)
		return false;
	pc_build_id_hex(id, n, hex);
	return true;
}

static int load_segments(struct pc_dso *dso, Elf *e)
{
	size_t n;
	GElf_Ehdr eh;

	if (!gelf_getehdr(e, &eh))
		return -EINVAL;
	dso->exec = eh.e_type == ET_EXEC;
	if (elf_getphdrnum(e, &n) || n == 0)
		return 0;
	dso->segs = calloc(n, sizeof(*dso->segs));
	if (!dso->segs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		dso->segs[dso->nr_segs++] = (struct pc_load_seg){
			ph.p_offset, ph.p_filesz, ph.p_memsz, ph.p_vaddr };
	}
	return 0;
}

/*
 * The symbols perf 6.1 keeps (its tree holds them all, so they shape it):
 * functions and data objects of allocated sections, and code labels
 * (NOTYPE) of a section whose name holds "text".
 */
static bool perf_keeps(Elf *e, size_t shstrndx, const GElf_Sym *s)
{
	int st = GELF_ST_TYPE(s->st_info);
	Elf_Scn *in;
	GElf_Shdr ish;
	const char *sec;

	if (s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS || s->st_shndx == SHN_COMMON ||
	    s->st_shndx >= SHN_LORESERVE || s->st_value == 0)
		return false;
	if (st != STT_FUNC && st != STT_GNU_IFUNC && st != STT_OBJECT && st != STT_NOTYPE)
		return false;
	in = elf_getscn(e, s->st_shndx);
	if (!in || !gelf_getshdr(in, &ish) || !(ish.sh_flags & SHF_ALLOC))
		return false;
	if (st != STT_NOTYPE)
		return true;
	sec = elf_strptr(e, shstrndx, ish.sh_name);
	return sec && strstr(sec, "text");
}

/* Adds the symbols of the first table of type that perf keeps; count added. */
static size_t load_table(struct pc_symtab *t, Elf *e, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	size_t added = 0, shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		return 0;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t count;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		count = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < count; i++) {
			GElf_Sym s;
			const char *name;
			int bind;

			if (!gelf_getsym(d, (int)i, &s))
				break;
			if (!perf_keeps(e, shstrndx, &s))
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (!name || !*name)
				continue;
			bind = GELF_ST_BIND(s.st_info);
			bind = bind == STB_WEAK ? PC_BIND_WEAK :
			       bind == STB_GLOBAL ? PC_BIND_GLOBAL : PC_BIND_LOCAL;
			if (GELF_ST_TYPE(s.st_info) == STT_GNU_IFUNC)
				bind |= PC_SYM_IFUNC;
			if (pc_symtab_add(t, s.st_value, s.st_size, name, bind, NULL))
				return added;
			added++;
		}
		break;
	}
	return added;
}

static Elf_Scn *section_named(Elf *e, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, sh))
			continue;
		name = elf_strptr(e, shstrndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

static bool is_x86(const GElf_Ehdr *eh)
{
	return eh->e_machine == EM_X86_64 || eh->e_machine == EM_386;
}

/*
 * The size of a PLT's header and of its entries, 0 when unknown.  arm64's
 * are fixed; x86's .plt holds entries of its sh_entsize (6.3+: 8 or 16,
 * else its alignment tells) behind a header of one entry.
 */
static void plt_sizes(const GElf_Ehdr *eh, const GElf_Shdr *sh, bool as_6_1,
		      uint64_t *header, uint64_t *entry)
{
	if (eh->e_machine == EM_AARCH64) {
		*header = 32;
		*entry = 16;
		return;
	}
	*entry = sh->sh_entsize;
	if (as_6_1 && !*entry)
		*entry = 16;
	else if (!as_6_1 && is_x86(eh) && *entry != 8 && *entry != 16)
		*entry = sh->sh_addralign == 8 ? 8 : 16;
	*header = *entry;
}

/* One relocation of .rela.plt or .rela.dyn. */
struct plt_rel {
	uint64_t offset;
	int64_t addend;
	uint32_t sym;
	uint32_t seq;		/* its place in the section: qsort is not stable */
};

static int plt_rel__cmp(const void *a, const void *b)
{
	const struct plt_rel *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int plt_rel__off_cmp(const void *a, const void *b)
{
	const struct plt_rel *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The relocations of a RELA section; with_sym: only those naming a symbol. */
static struct plt_rel *read_rels(Elf_Scn *scn, const GElf_Shdr *sh, bool with_sym, size_t *nr)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t count = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	struct plt_rel *r = calloc(count ? count : 1, sizeof(*r));

	*nr = 0;
	if (!d || !r) {
		free(r);
		return NULL;
	}
	for (size_t i = 0; i < count; i++) {
		GElf_Rela ra;

		if (!gelf_getrela(d, (int)i, &ra))
			break;
		if (with_sym && !GELF_R_SYM(ra.r_info))
			continue;
		r[(*nr)++] = (struct plt_rel){ ra.r_offset, ra.r_addend,
					       (uint32_t)GELF_R_SYM(ra.r_info), (uint32_t)i };
	}
	return r;
}

/* The name of symbol i of the symbol table at scn ("" when none). */
static const char *sym_name(Elf *e, Elf_Scn *scn, uint32_t i)
{
	GElf_Shdr sh;
	GElf_Sym s;
	Elf_Data *d;
	const char *name;

	if (!scn || !gelf_getshdr(scn, &sh) || !(d = elf_getdata(scn, NULL)) ||
	    !gelf_getsym(d, (int)i, &s))
		return NULL;
	name = elf_strptr(e, sh.sh_link, s.st_name);
	return name ? name : "";
}

/*
 * Where the jmp *disp(%rip) of a .plt.got entry at p (n bytes) lands,
 * from the entry's start (an endbr64 and a bnd prefix may come first);
 * 0 when it is no such jump.  Unsigned as perf adds it: a GOT below the
 * entry is not found.
 */
static uint32_t plt_got_jump(const uint8_t *p, size_t n)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	size_t at = 0;
	uint32_t disp;

	if (n >= sizeof(endbr64) && !memcmp(p, endbr64, sizeof(endbr64)))
		at += sizeof(endbr64);
	if (at < n && p[at] == 0xf2)
		at++;
	if (at + 6 > n || p[at] != 0xff || p[at + 1] != 0x25)
		return 0;
	at += 2;
	disp = (uint32_t)p[at] | (uint32_t)p[at + 1] << 8 | (uint32_t)p[at + 2] << 16 |
	       (uint32_t)p[at + 3] << 24;
	return (uint32_t)(at + 4) + disp;
}

/*
 * perf 6.3+ names each .plt.got entry (x86) after the symbol of the
 * .rela.dyn relocation of the GOT slot it jumps through (x86-64 only),
 * else "offset_0x...@plt" by its file offset.  It takes the section's
 * file offset for the GOT's address (the same where text is mapped at
 * its offset, as usual).
 */
static int add_plt_got(struct pc_symtab *t, Elf *e, const GElf_Ehdr *eh)
{
	GElf_Shdr sh, rsh;
	Elf_Scn *got = section_named(e, ".plt.got", &sh);
	Elf_Scn *rel = eh->e_machine == EM_X86_64 ? section_named(e, ".rela.dyn", &rsh) : NULL;
	Elf_Scn *dyn = rel && rsh.sh_link ? elf_getscn(e, rsh.sh_link) : NULL;
	Elf_Data *d;
	struct plt_rel *r = NULL;
	size_t nr = 0;
	int err = 0;

	if (!got || !sh.sh_entsize || !(d = elf_getdata(got, NULL)))
		return 0;
	if (dyn && rsh.sh_entsize)
		r = read_rels(rel, &rsh, true, &nr);
	if (r)
		qsort(r, nr, sizeof(*r), plt_rel__cmp);
	for (uint64_t i = 0; !err && i < sh.sh_size; i += sh.sh_entsize) {
		uint32_t jump = i < d->d_size ? plt_got_jump((uint8_t *)d->d_buf + i,
							     d->d_size - i) : 0;
		struct plt_rel key = { sh.sh_offset + d->d_off + i + jump, 0, 0, 0 }, *hit = NULL;
		const char *name = NULL;
		char buf[1024];

		if (jump && r)
			hit = bsearch(&key, r, nr, sizeof(*r), plt_rel__off_cmp);
		if (hit)
			name = sym_name(e, dyn, hit->sym);
		if (name && *name)
			snprintf(buf, sizeof(buf), "%s@plt", name);
		else
			snprintf(buf, sizeof(buf), "offset_%#" PRIx64 "@plt", sh.sh_offset + i);
		err = pc_symtab_add(t, sh.sh_addr + i, sh.sh_entsize, buf, PC_BIND_PLT, NULL);
	}
	free(r);
	return err;
}

/* Whether vaddr lies in one of the object's PT_LOAD segments. */
static bool in_segment(const struct pc_dso *dso, uint64_t vaddr)
{
	for (size_t i = 0; i < dso->nr_segs; i++)
		if (vaddr >= dso->segs[i].vaddr &&
		    vaddr < dso->segs[i].vaddr + dso->segs[i].memsz)
			return true;
	return false;
}

/* Where the slots lie and how perf names them. */
struct plt_slots {
	uint64_t addr, off;	/* the first slot's address and file offset */
	uint64_t entry;
	uint64_t end;		/* the section's end: no slot past it */
	bool as_6_1;
};

/*
 * A slot's name: its symbol's, "name@plt".  A slot without one (an
 * IRELATIVE's, whose addend is the IFUNC resolver) is "@plt" to perf 6.1;
 * perf 6.3+ names it after the resolver's symbol, else after its offset.
 */
static void slot_name(const struct pc_dso *dso, const struct plt_slots *p,
		      const struct plt_rel *r, const char *name, size_t i, char *buf,
		      size_t size)
{
	const char *resolver = NULL;

	if (!name)
		name = "";
	if (p->as_6_1 || *name) {
		snprintf(buf, size, "%s@plt", name);
		return;
	}
	if (in_segment(dso, (uint64_t)r->addend))
		resolver = pc_symtab_ifunc_at(&dso->tab, (uint64_t)r->addend);
	if (resolver)
		snprintf(buf, size, "%s@plt", resolver);
	else
		snprintf(buf, size, "offset_%#" PRIx64 "@plt", p->off + i * p->entry);
}

/* One symbol per .rela.plt relocation, slot after slot. */
static void add_slots(struct pc_dso *dso, Elf *e, Elf_Scn *rel, const GElf_Shdr *rel_sh,
		      const struct plt_slots *p, bool sort)
{
	Elf_Scn *syms = elf_getscn(e, rel_sh->sh_link);
	size_t nr;
	struct plt_rel *r = read_rels(rel, rel_sh, false, &nr);

	if (!r)
		return;
	/* IFUNCs' IRELATIVE relocations are not in PLT order on x86: the GOT's order is */
	if (sort)
		qsort(r, nr, sizeof(*r), plt_rel__cmp);
	for (size_t i = 0; i < nr; i++) {
		const char *name = sym_name(e, syms, r[i].sym);
		char buf[1024];

		if (!name && p->as_6_1)
			break;
		if (p->addr + (i + 1) * p->entry > p->end)
			break;
		slot_name(dso, p, &r[i], name, i, buf, sizeof(buf));
		/* perf adds them after closing the other symbols' ends (over them) */
		if (pc_symtab_add(&dso->tab, p->addr + i * p->entry, p->entry, buf, PC_BIND_PLT,
				  NULL))
			break;
	}
	free(r);
}

/*
 * The .rela.plt perf reads: its symbols are .dynsym's, or for perf 6.3+
 * also a static binary's .symtab (perf 6.1 synthesizes nothing without a
 * .dynsym, so a static binary has no PLT names there).
 */
static Elf_Scn *plt_relocs(Elf *e, GElf_Shdr *sh, bool as_6_1)
{
	Elf_Scn *rel = section_named(e, ".rela.plt", sh), *syms;
	GElf_Shdr ssh;

	if (!rel || sh->sh_type != SHT_RELA || !sh->sh_entsize)
		return NULL;
	syms = sh->sh_link ? elf_getscn(e, sh->sh_link) : NULL;
	if (!syms || !gelf_getshdr(syms, &ssh))
		return NULL;
	if (ssh.sh_type != SHT_DYNSYM && (as_6_1 || ssh.sh_type != SHT_SYMTAB))
		return NULL;
	return rel;
}

/* How many relocations .rela.plt holds, whatever its symbols; 0 without one */
static size_t plt_relocs_count(Elf *e)
{
	GElf_Shdr sh;
	Elf_Scn *rel = section_named(e, ".rela.plt", &sh);

	return rel && sh.sh_type == SHT_RELA && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
}

/*
 * "name@plt" for each PLT slot, from .rela.plt and its symbols: slot i
 * sits after .plt's header, or at entry i of .plt.sec where IBT splits
 * the PLT in two.  perf 6.3+ (as_6_1 false) adds more: ".plt" for the
 * header (all of .plt beside a .plt.sec), the .plt.got entries, no header
 * where .plt holds exactly one entry per relocation, slots in GOT order,
 * and names for the slots without a symbol.
 */
static void load_plt(struct pc_dso *dso, Elf *e, bool as_6_1)
{
	GElf_Ehdr eh;
	GElf_Shdr plt_sh, sec_sh, rel_sh;
	Elf_Scn *plt = section_named(e, ".plt", &plt_sh), *sec, *rel;
	struct plt_slots p = { .as_6_1 = as_6_1 };
	uint64_t header = 0, entry = 0;
	size_t head = 0;
	bool x86;

	if (!gelf_getehdr(e, &eh))
		return;
	x86 = is_x86(&eh);
	/* 6.1 takes a .plt.sec on any machine, 6.3+ only x86's */
	sec = as_6_1 || x86 ? section_named(e, ".plt.sec", &sec_sh) : NULL;
	if (!as_6_1 && !plt)
		return;
	if (plt)
		plt_sizes(&eh, &plt_sh, as_6_1, &header, &entry);
	if (!as_6_1) {
		if (!entry)
			return;
		/* a symbol stretched from below (_init) over .plt ends where .plt starts */
		pc_symtab_clip_at(&dso->tab, plt_sh.sh_addr);
		head = dso->tab.nr;
		if (pc_symtab_add(&dso->tab, plt_sh.sh_addr, sec ? plt_sh.sh_size : header,
				  ".plt", PC_BIND_PLT, NULL) ||
		    (x86 && add_plt_got(&dso->tab, e, &eh)))
			return;
	}
	if (sec) {
		plt_sizes(&eh, &sec_sh, as_6_1, &header, &entry);
		p = (struct plt_slots){ sec_sh.sh_addr, sec_sh.sh_offset, entry,
					sec_sh.sh_addr + sec_sh.sh_size, as_6_1 };
	} else if (plt) {
		p = (struct plt_slots){ plt_sh.sh_addr + header, plt_sh.sh_offset + header, entry,
					plt_sh.sh_addr + plt_sh.sh_size, as_6_1 };
	} else {
		return;
	}
	/*
	 * 6.3+: as many entries as relocations is a PLT bound at load time: no
	 * header, whatever symbols the relocations have (measured: the stripped
	 * static busybox of the arm64 guests, whose .rela.plt links none and
	 * whose IRELATIVE stubs fill .plt, has no ".plt" in perf 7.2)
	 */
	if (!as_6_1 && !sec && entry && plt_relocs_count(e) * entry == plt_sh.sh_size) {
		pc_symtab_retract(&dso->tab, head);
		p.addr -= header;
		p.off -= header;
	}
	rel = plt_relocs(e, &rel_sh, as_6_1);
	if (!rel || !p.entry)
		return;
	add_slots(dso, e, rel, &rel_sh, &p, !as_6_1 && x86);
}

static size_t load_symtab_from(struct pc_symtab *t, const char *path)
{
	int fd;
	Elf *e = elf_open(path, &fd);
	size_t n;

	if (!e)
		return 0;
	n = load_table(t, e, SHT_SYMTAB);
	elf_close(e, fd);
	return n;
}

/*
 * The kernel maps the same vdso image into every process: when the file
 * was recorded on this kernel, ours has the recorded process's symbols.
 */
static void load_own_vdso(struct pc_dso *dso)
{
	size_t size;
	const uint8_t *base = pc_own_vdso(&size);
	Elf *e;

	if (!base)
		return;
	e = elf_memory((char *)base, size);
	if (!e)
		return;
	if (!load_segments(dso, e)) {
		dso->found = true;
		load_table(&dso->tab, e, SHT_DYNSYM);
		pc_symtab_finish(&dso->tab);
	}
	elf_end(e);
}

void pc_dso_load(struct pc_dso_cache *c, struct pc_dso *dso)
{
	char path[4096], id[2 * 64 + 1];
	int fd;
	Elf *e;

	if (dso->loaded)
		return;
	dso->loaded = true;
	/* the names as the reading perf shows them: decided by then */
	dso->tab.demangle = pc_dso_cache_demangle(c);
	if (!elf_ready())
		return;
	if (!strcmp(dso->path, "[vdso]")) {
		if (c->own_vdso)
			load_own_vdso(dso);
		return;
	}
	if (dso->path[0] != '/')
		return;
	snprintf(path, sizeof(path), "%s%s", c->root ? c->root : "", dso->path);
	e = elf_open(path, &fd);
	/*
	 * A file rebuilt since the recording is not the one that ran: perf's
	 * build-id cache keeps a copy of the one that did.
	 */
	if (dso->build_id[0] && (!e || !elf_build_id(e, id, sizeof(id)) ||
				 strcmp(id, dso->build_id))) {
		if (e)
			elf_close(e, fd);
		e = NULL;
		if (c->buildid_dir) {
			/* .build-id/xx/rest is a directory holding "elf" (older perf: the file) */
			snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/elf", c->buildid_dir,
				 dso->build_id, dso->build_id + 2);
			e = elf_open(path, &fd);
			if (!e) {
				path[strlen(path) - 4] = '\0';
				e = elf_open(path, &fd);
			}
		}
	}
	if (!e)
		return;
	if (load_segments(dso, e))
		goto out;
	dso->found = true;
	if (elf_build_id(e, id, sizeof(id)) && strlen(id) > 2) {
		char dbg[4096];

		snprintf(dbg, sizeof(dbg), "%s/.build-id/%.2s/%s.debug",
			 c->debug_dir, id, id + 2);
		if (load_symtab_from(&dso->tab, dbg)) {
			dso->has_symtab = true;
			goto done;
		}
	}
	if (load_table(&dso->tab, e, SHT_SYMTAB)) {
		dso->has_symtab = true;
		goto done;
	}
	dso->has_symtab = load_table(&dso->tab, e, SHT_DYNSYM) > 0;
done:
	load_plt(dso, e, c->names_6_1);
	pc_symtab_finish(&dso->tab);
out:
	elf_close(e, fd);
}

/* The hex digits at s as a number (no "0x"); how many there were. */
static size_t hex_prefix(const char *s, uint64_t *v)
{
	size_t n = 0;

	*v = 0;
	for (;; n++) {
		char c = s[n];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return n;
		*v = (*v << 4) | (uint64_t)d;
	}
}

void pc_dso_load_jitmap(struct pc_dso_cache *c, struct pc_dso *dso)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	if (dso->loaded)
		return;
	dso->loaded = true;
	/* the names as the reading perf shows them: decided by then */
	dso->tab.demangle = pc_dso_cache_demangle(c);
	snprintf(path, sizeof(path), "%s%s", c->root ? c->root : "", dso->path);
	f = fopen(path, "re");
	if (!f)
		return;
	/*
	 * perf's reading: the line's last character dropped (its newline), hex
	 * digits for the start, one separator, hex digits for the size, one
	 * separator, the rest the name; a line too short for that is skipped.
	 */
	while ((len = getline(&line, &cap, f)) > 0) {
		uint64_t start, size;
		size_t at;

		line[--len] = '\0';
		at = hex_prefix(line, &start) + 1;
		if ((ssize_t)at + 2 >= len)
			continue;
		at += hex_prefix(line + at, &size) + 1;
		if ((ssize_t)at + 2 >= len)
			continue;
		if (pc_symtab_add(&dso->tab, start, size, line + at, PC_BIND_GLOBAL, NULL))
			break;
	}
	free(line);
	fclose(f);
	dso->found = true;
	pc_symtab_finish_raw(&dso->tab);
}

/*
 * A file offset's virtual address: in the segment whose file bytes hold it,
 * else past the file bytes of a segment that is longer in memory (.bss: a
 * data address there has the offset the file mapping gives it, as perf
 * reads it).
 */
bool pc_dso_off_to_vaddr(const struct pc_dso *dso, uint64_t off, uint64_t *vaddr)
{
	for (int in_memory = 0; in_memory < 2; in_memory++)
		for (size_t i = 0; i < dso->nr_segs; i++) {
			const struct pc_load_seg *s = &dso->segs[i];
			uint64_t size = in_memory ? s->memsz : s->filesz;

			if (off >= s->off && off - s->off < size) {
				*vaddr = off - s->off + s->vaddr;
				return true;
			}
		}
	return false;
}

uint8_t pc_dso_cache_demangle(const struct pc_dso_cache *c)
{
	return c->mangled ? PC_DEMANGLE_NONE : c->names_6_1 ? PC_DEMANGLE_NAME : PC_DEMANGLE_WHOLE;
}

bool pc_dso_vaddr_to_off(const struct pc_dso *dso, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < dso->nr_segs; i++) {
		const struct pc_load_seg *s = &dso->segs[i];

		if (vaddr >= s->vaddr && vaddr - s->vaddr < s->filesz) {
			*off = vaddr - s->vaddr + s->off;
			return true;
		}
	}
	return false;
}

static size_t hash_str(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

void pc_dso_cache_init(struct pc_dso_cache *c)
{
	memset(c, 0, sizeof(*c));
	c->debug_dir = "/usr/lib/debug";
}

/*
 * perf's dso short name: "[JIT] tid N" when the name reads as
 * "/tmp/perf-N..." (its sscanf), the part after the last '/' of a path,
 * else the name itself.  Written after the path's NUL (room for 32 more).
 */
static void short_name(struct pc_dso *d)
{
	char *out = d->path + d->path_len + 1;
	const char *slash = strrchr(d->path, '/');
	int tid;

	if (sscanf(d->path, "/tmp/perf-%d", &tid) == 1) {
		d->short_len = (size_t)snprintf(out, 32, "[JIT] tid %d", tid);
		d->short_name = out;
	} else if (d->path[0] == '/' && slash) {
		d->short_name = slash + 1;
		d->short_len = d->path_len - (size_t)(slash + 1 - d->path);
	} else {
		d->short_name = d->path;
		d->short_len = d->path_len;
	}
}

struct pc_dso *pc_dso_cache_get(struct pc_dso_cache *c, const char *path)
{
	struct pc_dso *d;
	size_t b;

	if (!c->buckets) {
		c->nr_buckets = 256;
		c->buckets = calloc(c->nr_buckets, sizeof(*c->buckets));
		if (!c->buckets)
			return NULL;
	}
	b = hash_str(path) % c->nr_buckets;
	for (d = c->buckets[b]; d; d = d->next)
		if (!strcmp(d->path, path))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->path_len = strlen(path);
	/* the short name lives after the path, in the same allocation */
	d->path = malloc(d->path_len + 1 + 32);
	if (!d->path) {
		free(d);
		return NULL;
	}
	memcpy(d->path, path, d->path_len + 1);
	short_name(d);
	d->seq = (uint32_t)c->nr;
	d->next = c->buckets[b];
	c->buckets[b] = d;
	c->nr++;
	return d;
}

void pc_dso_cache_free(struct pc_dso_cache *c)
{
	for (size_t b = 0; b < c->nr_buckets; b++) {
		struct pc_dso *d = c->buckets[b], *n;

		for (; d; d = n) {
			n = d->next;
			pc_symtab_free(&d->tab);
			free(d->segs);
			free(d->path);
			free(d);
		}
	}
	free(c->buckets);
	c->buckets = NULL;
	c->nr_buckets = c->nr = 0;
}
