/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbol tables for the reader: ELF DSOs (libelf; symtab, else dynsym) and
 * the running kernel's /proc/kallsyms.  Each DSO is loaded at most once,
 * on its first lookup, and cached by path for the life of the cache.
 */
#ifndef PERFCHECK_SYMBOLS_H
#define PERFCHECK_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pc_symbol {
	uint64_t start, end;	/* [start, end) in the table's address space */
	const char *name;
	const char *module;	/* kallsyms: "[mod]" of a module symbol, else NULL */
	uint32_t name_len;
	/*
	 * an inlined function's entry (reader/inline_syms.c): named
	 * "FUNC (inlined)", with the range of the function it is inlined in
	 */
	bool inlined;
};

/*
 * Binding ranks used to pick one symbol among aliases at one address;
 * PC_BIND_PLT: a global symbol perf adds after it has closed the others'
 * ends and dropped their aliases (its PLT entries), kept as it is.
 */
enum pc_sym_bind { PC_BIND_LOCAL, PC_BIND_GLOBAL, PC_BIND_WEAK, PC_BIND_PLT };
/*
 * Or'ed into a bind: the ELF symbol is an STT_GNU_IFUNC.  perf 6.3+ names
 * an IRELATIVE PLT slot after the symbol at its resolver when that one is
 * an IFUNC or won over one among its aliases.
 */
#define PC_SYM_IFUNC 0x80

struct pc_symtab {
	struct pc_symbol *syms;
	uint8_t *bind;		/* parallel to syms while building */
	size_t nr, cap;
	char *names;		/* all names, NUL-separated */
	size_t names_len, names_cap;
	/*
	 * Where symbols overlap, perf's tree decides (rbshape.h): per symbol
	 * its left and right child (index + 1, 0: none), from root (index + 1).
	 * NULL when no two overlap: then any search finds the one.
	 */
	uint32_t *kids;
	uint32_t root;
	uint8_t demangle;	/* C++ names: enum pc_demangle */
	/*
	 * A late symbol (index + 1, 0: none) perf erases from its tree again
	 * once retract_at symbols were added (6.3+: a .plt header that is no
	 * header); the tree's shape remembers it.
	 */
	size_t retracted, retract_at;
};

/* Builder: add, then finish (sorts, drops aliases, closes open ends). */
int pc_symtab_add(struct pc_symtab *t, uint64_t start, uint64_t size,
		  const char *name, enum pc_sym_bind bind, const char *module);
void pc_symtab_finish(struct pc_symtab *t);
/*
 * While building: the name perf 6.3+ gives the resolver of an IRELATIVE
 * PLT slot, the symbol it keeps among those starting at addr when that is
 * an IFUNC or won over one; NULL if none.  Valid until the next add.
 */
const char *pc_symtab_ifunc_at(const struct pc_symtab *t, uint64_t addr);
/* While building: perf erases late symbol i (an index of the adds) now. */
void pc_symtab_retract(struct pc_symtab *t, size_t i);
/*
 * While building: perf 6.3+ cuts the symbol holding limit (its end as
 * finish would close it) at limit when it starts below.
 */
void pc_symtab_clip_at(struct pc_symtab *t, uint64_t limit);
/* As perf takes a JIT's perf-PID.map: every line a symbol as it is, none dropped or closed. */
void pc_symtab_finish_raw(struct pc_symtab *t);
const struct pc_symbol *pc_symtab_find(const struct pc_symtab *t, uint64_t addr);
void pc_symtab_free(struct pc_symtab *t);

/* C++ names as perf prints them (no parameters); name itself when not C++. */
const char *pc_demangle(const char *name, bool signature, char *buf, size_t size);

/* How C++ names are shown: as perf 6.1 (the name alone), 7.2 (whole), --no-demangle */
enum pc_demangle { PC_DEMANGLE_NAME, PC_DEMANGLE_WHOLE, PC_DEMANGLE_NONE };

/* One ELF object as mapped by a process. */
struct pc_dso {
	char *path;
	size_t path_len;
	/* perf's short name (reports): the basename, "[JIT] tid N" for /tmp/perf-N.map */
	const char *short_name;
	size_t short_len;
	char build_id[2 * 20 + 1];	/* as recorded (hex), "" when unknown */
	bool loaded;		/* load attempted */
	bool found;		/* the file could be read as ELF */
	bool exec;		/* ET_EXEC: addresses are absolute */
	bool has_symtab;	/* symbols read from a .symtab or .dynsym (perf: its text offset known) */
	struct pc_load_seg { uint64_t off, filesz, memsz, vaddr; } *segs;
	size_t nr_segs;
	struct pc_symtab tab;	/* ELF virtual addresses */
	uint32_t seq;		/* the cache made it seq-th (0 first): the order objects are met */
	struct pc_dso *next;	/* hash chain */
};

struct pc_dso_cache {
	struct pc_dso **buckets;
	size_t nr_buckets, nr;
	const char *root;	/* prefix prepended to paths (tests), or NULL */
	const char *debug_dir;	/* "/usr/lib/debug" unless overridden */
	bool own_vdso;		/* "[vdso]" is this process's (recorded on this kernel) */
	const char *buildid_dir;	/* perf's build-id cache ($HOME/.debug), or NULL */
	bool names_6_1;		/* PLT entries and C++ names as perf 6.1 shows them
				 * (--compat 6.1), else as 6.4+ */
	bool mangled;		/* --no-demangle: C++ names as the objects have them */
};

void pc_dso_cache_init(struct pc_dso_cache *c);
/* The enum pc_demangle the cache's settings ask for */
uint8_t pc_dso_cache_demangle(const struct pc_dso_cache *c);
void pc_dso_cache_free(struct pc_dso_cache *c);
/* The DSO for path, created on first use; never NULL except on ENOMEM. */
struct pc_dso *pc_dso_cache_get(struct pc_dso_cache *c, const char *path);
/* Loads the DSO's symbols if not done yet (failures leave an empty table). */
void pc_dso_load(struct pc_dso_cache *c, struct pc_dso *dso);
/* A JIT's /tmp/perf-PID.map ("START SIZE NAME" in hex, absolute addresses). */
void pc_dso_load_jitmap(struct pc_dso_cache *c, struct pc_dso *dso);
/* File offset -> ELF vaddr through the PT_LOAD segments; false if none covers it. */
bool pc_dso_off_to_vaddr(const struct pc_dso *dso, uint64_t off, uint64_t *vaddr);
/* The file offset of a virtual address in a loaded segment's file part */
bool pc_dso_vaddr_to_off(const struct pc_dso *dso, uint64_t vaddr, uint64_t *off);

/* /proc/kallsyms, text symbols of the kernel and its modules. */
struct pc_kallsyms {
	struct pc_symtab tab;
	bool loaded;
};

int pc_kallsyms_load(struct pc_kallsyms *k, const char *path);
void pc_kallsyms_free(struct pc_kallsyms *k);

#endif
