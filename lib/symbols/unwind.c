// SPDX-License-Identifier: GPL-2.0
/*
 * The unwinder: one Dwfl per sampled process, attached to a "thread" whose
 * registers and memory are those of the sample being unwound.  libdwfl
 * asks for the initial registers, then walks frames through the CFI of the
 * module of each pc; modules are reported lazily, at the pc of each frame,
 * before the unwinder needs them.
 */
#include "symbols/unwind.h"
#include "symbols/debuginfo.h"
#include "symbols/cfirow.h"

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define UW_KNOWN 16
#define UW_NONE 4

/*
 * One ELF file as the fast path sees it, shared by every process that maps
 * it: its own Dwfl with the module reported at base 0 (ET_DYN) or at its
 * own addresses (ET_EXEC), and the CFI rows compiled at those addresses.
 * A new process costs no ELF or CFI parsing, and no decompression of the
 * debug file's sections when .debug_frame is looked at.
 */
struct uw_dso {
	char *path, *build_id;
	Dwfl *dwfl;
	Dwfl_Module *mod;	/* NULL: not usable (build id refused, no ELF) */
	bool exec;		/* ET_EXEC: the module's addresses are the process's */
	unsigned em;		/* its e_machine */
	uint64_t low, high;	/* the module's range in dwfl */
	const char *raw;	/* the file's bytes (text and rodata reads) */
	size_t raw_size;
	struct pc_cfi_rows rows;
	struct uw_dso *next;
};

#define UW_DSO_BUCKETS 256
#define UW_DSOS_MAX 1024	/* past it the table starts over (between samples) */

/* A map of the process as the fast path knows it, under one maps_gen. */
struct uw_fmap {
	uint64_t start, end, pgoff;
	uint64_t bias;		/* an address there less bias: the address in the DSO's own Dwfl */
	struct uw_dso *dso;	/* NULL: no usable file there */
};

struct uw_space {
	uint32_t pid;
	Dwfl *dwfl;
	bool attached;
	uint64_t used;		/* LRU tick, 0 when the slot is free */
	/* maps checked against their module while the caller's maps_gen holds */
	uint64_t gen;
	struct uw_known {
		uint64_t start, end, pgoff;
		Dwfl_Module *mod;
	} known[UW_KNOWN];
	uint32_t nr_known, next_known;
	struct uw_fmap fknown[UW_KNOWN];
	uint32_t nr_fknown, next_fknown, last_fknown;	/* last: the one found last */
	/* ranges where the fast path found no usable file, under the same gen */
	struct uw_none {
		uint64_t start, end;
	} fnone[UW_NONE];
	uint32_t nr_fnone, next_fnone;
};

/* What one pc_unwind call works on; the callbacks reach it through u. */
struct uw_current {
	const struct pc_unwind_sample *s;
	struct pc_user_regs regs;
	struct uw_space *space;
	uint64_t *ips;
	uint32_t max, nr;
	bool conflict;		/* a map differs from the module at its address */
	bool wrong_machine;	/* a module of another ELF machine */
	char wrong_path[256];
	unsigned wrong_em;
};

/* A file's build id checked against the one recorded, once per (path, id). */
struct uw_checked {
	char *path, *want;
	bool ok;
	struct uw_checked *next;
};

#define UW_CHECKED_BUCKETS 256

struct pc_unwinder {
	struct uw_checked *checked[UW_CHECKED_BUCKETS];
	struct uw_dso *dsos[UW_DSO_BUCKETS];
	uint32_t nr_dsos;
	enum pc_arch arch;
	unsigned elf_machine;
	unsigned fast_nregs;	/* 0: every sample through libdwfl's unwinder */
	char *debug_dir;	/* separate debug files by build id under it */
	Dwfl_Callbacks cbs;
	struct uw_space spaces[PC_UNWIND_SPACES];
	uint64_t tick;
	struct uw_current cur;
	struct pc_unwind_stats stats;
	struct pc_regs_plan plan;	/* of the last mask seen, when valid */
	bool plan_ok;
	bool zero_unreadable;	/* perf 6.1's memory (pc_unwinder_set_zero_unreadable) */
	bool libunwind_ends;	/* perf 6.1's libunwind's ends (pc_unwinder_set_libunwind_ends) */
};

struct pc_unwinder *pc_unwinder_new(enum pc_arch arch, const char *debug_dir)
{
	struct pc_unwinder *u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	elf_version(EV_CURRENT);
	u->arch = arch;
	u->elf_machine = pc_arch_elf_machine(arch);
	u->fast_nregs = pc_cfi_nregs(arch);
	u->debug_dir = strdup(debug_dir ? debug_dir : "/usr/lib/debug");
	if (!u->debug_dir) {
		free(u);
		return NULL;
	}
	pc_debuginfo_callbacks_cfi(&u->cbs);
	return u;
}

static void space_drop(struct uw_space *sp)
{
	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	memset(sp, 0, sizeof(*sp));
}

static void dsos_drop(struct pc_unwinder *u)
{
	for (size_t b = 0; b < UW_DSO_BUCKETS; b++) {
		struct uw_dso *d = u->dsos[b], *n;

		for (; d; d = n) {
			n = d->next;
			if (d->dwfl)
				dwfl_end(d->dwfl);
			pc_cfi_rows_free(&d->rows);
			free(d->path);
			free(d->build_id);
			free(d);
		}
		u->dsos[b] = NULL;
	}
	u->nr_dsos = 0;
	/* the maps the fast path knew point at them */
	for (size_t i = 0; i < PC_UNWIND_SPACES; i++)
		u->spaces[i].nr_fknown = u->spaces[i].next_fknown = u->spaces[i].last_fknown = 0;
}

void pc_unwinder_free(struct pc_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < PC_UNWIND_SPACES; i++)
		space_drop(&u->spaces[i]);
	dsos_drop(u);
	for (size_t b = 0; b < UW_CHECKED_BUCKETS; b++) {
		struct uw_checked *k = u->checked[b], *n;

		for (; k; k = n) {
			n = k->next;
			free(k->path);
			free(k->want);
			free(k);
		}
	}
	free(u->debug_dir);
	free(u);
}

void pc_unwinder_forget(struct pc_unwinder *u, uint32_t pid)
{
	for (size_t i = 0; i < PC_UNWIND_SPACES; i++)
		if (u->spaces[i].used && u->spaces[i].pid == pid)
			space_drop(&u->spaces[i]);
}

void pc_unwinder_set_fast(struct pc_unwinder *u, bool fast)
{
	u->fast_nregs = fast ? pc_cfi_nregs(u->arch) : 0;
}

void pc_unwinder_set_libunwind_ends(struct pc_unwinder *u, bool on)
{
	u->libunwind_ends = on;
}

void pc_unwinder_set_zero_unreadable(struct pc_unwinder *u, bool on)
{
	u->zero_unreadable = on;
}

const struct pc_unwind_stats *pc_unwinder_stats(const struct pc_unwinder *u)
{
	return &u->stats;
}

/* The space of pid, created (evicting the least recently used) if needed. */
static struct uw_space *space_get(struct pc_unwinder *u, uint32_t pid)
{
	struct uw_space *victim = &u->spaces[0];

	for (size_t i = 0; i < PC_UNWIND_SPACES; i++) {
		struct uw_space *sp = &u->spaces[i];

		if (sp->used && sp->pid == pid) {
			sp->used = ++u->tick;
			return sp;
		}
		if (sp->used < victim->used)
			victim = sp;
	}
	space_drop(victim);
	victim->dwfl = dwfl_begin(&u->cbs);
	if (!victim->dwfl)
		return NULL;
	victim->pid = pid;
	victim->used = ++u->tick;
	return victim;
}

static bool file_has_build_id(const char *path, const char *want)
{
	const unsigned char *id;
	char hex[2 * 64 + 1];
	bool ok = false;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e;

	if (fd < 0)
		return false;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	n = e ? dwelf_elf_gnu_build_id(e, (const void **)&id) : -1;
	if (n > 0 && n <= 64) {
		for (ssize_t i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", id[i]);
		ok = !strcasecmp(hex, want);
	}
	if (e)
		elf_end(e);
	close(fd);
	return ok;
}

/* Whether path is the file recorded with build id want (cached). */
static bool build_id_ok(struct pc_unwinder *u, const char *path, const char *want)
{
	size_t h = 5381, b;
	struct uw_checked *k;

	for (const char *p = path; *p; p++)
		h = h * 33 + (unsigned char)*p;
	for (const char *p = want; *p; p++)
		h = h * 33 + (unsigned char)*p;
	b = h % UW_CHECKED_BUCKETS;
	for (k = u->checked[b]; k; k = k->next)
		if (!strcmp(k->path, path) && !strcmp(k->want, want))
			return k->ok;
	k = calloc(1, sizeof(*k));
	if (!k)
		return false;
	k->path = strdup(path);
	k->want = strdup(want);
	k->ok = file_has_build_id(path, want);
	if (!k->path || !k->want) {
		free(k->path);
		free(k->want);
		free(k);
		return false;
	}
	k->next = u->checked[b];
	u->checked[b] = k;
	if (!k->ok)
		u->stats.build_id_mismatch++;
	return k->ok;
}

static size_t str_hash(size_t h, const char *p)
{
	for (; *p; p++)
		h = h * 33 + (unsigned char)*p;
	return h;
}

/*
 * The fast path's DSO of path (recorded with build_id), opened on first
 * use; its mod stays NULL when the file is refused or cannot be read.
 * NULL on ENOMEM.
 */
static struct uw_dso *dso_get(struct pc_unwinder *u, const char *path, const char *build_id)
{
	const char *id = build_id ? build_id : "";
	size_t b = str_hash(str_hash(5381, path), id) % UW_DSO_BUCKETS;
	Dwarf_Addr bias, low, high;
	Dwfl_Module *mod;
	struct uw_dso *d;
	GElf_Ehdr eh;
	Elf *e;

	for (d = u->dsos[b]; d; d = d->next)
		if (!strcmp(d->path, path) && !strcmp(d->build_id, id))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->path = strdup(path);
	d->build_id = strdup(id);
	if (!d->path || !d->build_id) {
		free(d->path);
		free(d->build_id);
		free(d);
		return NULL;
	}
	d->next = u->dsos[b];
	u->dsos[b] = d;
	u->nr_dsos++;
	if (*id && !build_id_ok(u, path, id))
		return d;
	d->dwfl = dwfl_begin(&u->cbs);
	if (!d->dwfl)
		return d;
	dwfl_report_begin(d->dwfl);
	mod = dwfl_report_elf(d->dwfl, path, path, -1, 0, false);
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (!mod)
		return d;
	pc_debuginfo_attach(mod, u->debug_dir);
	e = dwfl_module_getelf(mod, &bias);
	if (!e || !gelf_getehdr(e, &eh) ||
	    !dwfl_module_info(mod, NULL, &low, &high, NULL, NULL, NULL, NULL))
		return d;
	d->em = eh.e_machine;
	d->exec = eh.e_type == ET_EXEC;
	d->raw = elf_rawfile(e, &d->raw_size);
	d->low = low;
	d->high = high;
	d->mod = mod;
	return d;
}

/*
 * The map holding addr as the fast path knows it (dso NULL: no usable
 * file there); false when addr is in no file-backed map.  Maps found under
 * the same maps_gen are taken as they were.
 */
static bool fast_map(struct pc_unwinder *u, uint64_t addr, struct uw_fmap *out)
{
	struct uw_current *c = &u->cur;
	struct uw_space *sp = c->space;
	struct pc_unwind_map m = { 0 };

	const struct uw_fmap *k = &sp->fknown[sp->last_fknown];

	if (sp->nr_fknown && addr >= k->start && addr < k->end) {
		*out = *k;
		return true;
	}
	for (uint32_t i = 0; i < sp->nr_fnone; i++)
		if (addr >= sp->fnone[i].start && addr < sp->fnone[i].end)
			return false;
	for (uint32_t i = 0; i < sp->nr_fknown; i++) {
		k = &sp->fknown[i];
		if (addr >= k->start && addr < k->end) {
			sp->last_fknown = i;
			*out = *k;
			return true;
		}
	}
	if (c->s->find_map(c->s->map_ctx, addr, &m) || !m.path || addr < m.start ||
	    addr >= m.end || m.pgoff > m.start) {
		/* the range of the answer holds no usable file: not asked again (a stack) */
		if (addr >= m.start && addr < m.end) {
			sp->fnone[sp->next_fnone] = (struct uw_none){ m.start, m.end };
			sp->next_fnone = (sp->next_fnone + 1) % UW_NONE;
			if (sp->nr_fnone < UW_NONE)
				sp->nr_fnone++;
		}
		return false;
	}
	*out = (struct uw_fmap){ m.start, m.end, m.pgoff, m.start - m.pgoff,
				 dso_get(u, m.path, m.build_id) };
	if (out->dso && out->dso->exec)
		out->bias = 0;
	sp->last_fknown = sp->next_fknown;
	sp->fknown[sp->next_fknown] = *out;
	sp->next_fknown = (sp->next_fknown + 1) % UW_KNOWN;
	if (sp->nr_fknown < UW_KNOWN)
		sp->nr_fknown++;
	return true;
}

/*
 * addr of the process, in map f, as an address of the DSO's own Dwfl
 * (where the process's Dwfl would report the module at start - pgoff);
 * false when the file is not usable or addr is outside its module.  A file
 * of another machine is noted for the error libdwfl's path reports.
 */
static bool fast_addr(struct pc_unwinder *u, const struct uw_fmap *f, uint64_t addr,
		      uint64_t *own)
{
	const struct uw_dso *d = f->dso;
	uint64_t a;

	if (!d || !d->mod)
		return false;
	if (d->em != u->elf_machine) {
		u->cur.wrong_machine = true;
		u->cur.wrong_em = d->em;
		snprintf(u->cur.wrong_path, sizeof(u->cur.wrong_path), "%s", d->path);
		return false;
	}
	a = addr - f->bias;
	if (a < d->low || a >= d->high)
		return false;
	*own = a;
	return true;
}

/*
 * A word neither the dump nor a file gave: 0 in perf 6.1's memory where a
 * map holds addr (pc_unwinder_set_zero_unreadable), else unreadable.
 */
static bool unreadable_word(struct pc_unwinder *u, uint64_t addr, uint64_t *result)
{
	const struct pc_unwind_sample *s = u->cur.s;
	struct pc_unwind_map m = { 0 };

	if (!u->zero_unreadable || s->find_map(s->map_ctx, addr, &m))
		return false;
	*result = 0;
	return true;
}

/*
 * A word of the sample's stack dump (its dyn_size valid bytes from SP).
 * perf 6.1's accessor takes the dump's last word for outside it (it tests
 * addr + 8 >= end): in its memory that word is not the dump's.
 */
static bool dump_word(struct pc_unwinder *u, uint64_t addr, uint64_t *result)
{
	const struct pc_unwind_sample *s = u->cur.s;
	uint64_t sp = u->cur.regs.sp, off;
	uint64_t need = sizeof(*result) + (u->zero_unreadable ? 1 : 0);

	if (addr < sp || (off = addr - sp) >= s->stack_dyn_size || s->stack_dyn_size - off < need)
		return false;
	memcpy(result, (const uint8_t *)s->stack + off, sizeof(*result));
	return true;
}

/* A word of the sample's stack, else of the mapped file (the fast path's memory). */
static bool fast_read(struct pc_unwinder *u, uint64_t addr, uint64_t *result)
{
	uint64_t off, own;
	struct uw_fmap f;

	if (dump_word(u, addr, result))
		return true;
	if (!fast_map(u, addr, &f) || !fast_addr(u, &f, addr, &own))
		return unreadable_word(u, addr, result);
	off = addr - f.start + f.pgoff;
	if (!f.dso->raw || off > f.dso->raw_size || f.dso->raw_size - off < sizeof(*result))
		return unreadable_word(u, addr, result);
	memcpy(result, f.dso->raw + off, sizeof(*result));
	return true;
}

static Dwfl_Module *remember(struct uw_space *sp, const struct pc_unwind_map *m,
			     Dwfl_Module *mod)
{
	sp->known[sp->next_known] = (struct uw_known){ m->start, m->end, m->pgoff, mod };
	sp->next_known = (sp->next_known + 1) % UW_KNOWN;
	if (sp->nr_known < UW_KNOWN)
		sp->nr_known++;
	return mod;
}

/*
 * The module of the map holding addr, reported if new; NULL if none.  A map
 * found and checked before under the same maps_gen is taken as it was.
 */
static Dwfl_Module *report(struct pc_unwinder *u, uint64_t addr, struct pc_unwind_map *m)
{
	struct uw_current *c = &u->cur;
	Dwfl *dwfl = c->space->dwfl;
	Dwfl_Module *mod;
	const char *name;
	Dwarf_Addr bias;
	uint64_t base;
	GElf_Ehdr eh;
	Elf *e;

	for (uint32_t i = 0; i < c->space->nr_known; i++) {
		const struct uw_known *k = &c->space->known[i];

		if (addr >= k->start && addr < k->end) {
			*m = (struct pc_unwind_map){ k->start, k->end, k->pgoff, NULL };
			return k->mod;
		}
	}
	*m = (struct pc_unwind_map){ 0 };	/* what the callback leaves is unknown */
	if (c->s->find_map(c->s->map_ctx, addr, m) || !m->path || addr < m->start ||
	    addr >= m->end || m->pgoff > m->start)
		return NULL;
	base = m->start - m->pgoff;
	mod = dwfl_addrmodule(dwfl, addr);
	if (mod) {
		name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
		if (name && !strcmp(name, m->path))
			return remember(c->space, m, mod);
		c->conflict = true;	/* another file is mapped there now */
		return NULL;
	}
	if (m->build_id && *m->build_id && !build_id_ok(u, m->path, m->build_id))
		return NULL;
	dwfl_report_begin_add(dwfl);
	mod = dwfl_report_elf(dwfl, m->path, m->path, -1, base, false);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!mod)
		return NULL;
	pc_debuginfo_attach(mod, u->debug_dir);
	u->stats.modules++;
	e = dwfl_module_getelf(mod, &bias);
	if (!e || !gelf_getehdr(e, &eh))
		return NULL;
	if (eh.e_machine != u->elf_machine) {
		c->wrong_machine = true;
		c->wrong_em = eh.e_machine;
		snprintf(c->wrong_path, sizeof(c->wrong_path), "%s", m->path);
		return NULL;
	}
	return dwfl_addrmodule(dwfl, addr) == mod ? remember(c->space, m, mod) : NULL;
}

/* A word of the mapped file at addr (perf reads text and rodata so). */
static bool read_file_word(struct pc_unwinder *u, uint64_t addr, Dwarf_Word *result)
{
	struct pc_unwind_map m;
	Dwfl_Module *mod = report(u, addr, &m);
	Dwarf_Addr bias;
	size_t size;
	uint64_t off;
	char *raw;
	Elf *e;

	if (!mod)
		return false;
	e = dwfl_module_getelf(mod, &bias);
	raw = e ? elf_rawfile(e, &size) : NULL;
	off = addr - m.start + m.pgoff;
	if (!raw || off > size || size - off < sizeof(*result))
		return false;
	memcpy(result, raw + off, sizeof(*result));
	return true;
}

static pid_t cb_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct pc_unwinder *u = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->cur.s->tid ? (pid_t)u->cur.s->tid : 1;
}

static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct pc_unwinder *u = arg;

	return dump_word(u, addr, result) || read_file_word(u, addr, result) ||
	       unreadable_word(u, addr, result);
}

static bool cb_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct pc_unwinder *u = arg;
	const struct pc_user_regs *r = &u->cur.regs;

	for (unsigned n = 0; n < PC_DWARF_REGS_MAX; n++) {
		Dwarf_Word v = r->dwarf[n];

		if ((r->dwarf_valid >> n & 1) && !dwfl_thread_state_registers(thread, (int)n, 1, &v))
			return false;
	}
	dwfl_thread_state_register_pc(thread, r->ip);
	return true;
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = cb_next_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

static int cb_frame(Dwfl_Frame *state, void *arg)
{
	struct pc_unwinder *u = arg;
	struct pc_unwind_map m;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	/* a return address of 0 ends the stack, as in perf's unwinders (decremented,
	 * it would be (u64)-1, which a reader takes for a callchain context); perf
	 * 6.1's shows that (u64)-1 as the last frame */
	if (!pc) {
		if (u->zero_unreadable && u->cur.nr && u->cur.nr < u->cur.max)
			u->cur.ips[u->cur.nr++] = UINT64_MAX;
		return DWARF_CB_ABORT;
	}
	/* the module must be known before asking whether this is an activation */
	report(u, pc, &m);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	/* a return address of 1 (garbage past the CFI, seen in static busybox) is 0 here:
	 * no frame, as perf leaves out its zero entries */
	if (pc)
		u->cur.ips[u->cur.nr++] = pc;
	return u->cur.nr >= u->cur.max ? DWARF_CB_ABORT : DWARF_CB_OK;
}

static int check_sample(const struct pc_unwind_sample *s, struct pc_error *err)
{
	if (!s->find_map)
		return pc_error_set(err, EINVAL, "unwind: no maps callback");
	if (s->stack_dyn_size > s->stack_size)
		return pc_error_set(err, EINVAL,
				    "user stack: dyn_size %llu exceeds the dump's size %llu",
				    (unsigned long long)s->stack_dyn_size,
				    (unsigned long long)s->stack_size);
	if (s->stack_size && !s->stack)
		return pc_error_set(err, EINVAL, "user stack: size %llu without data",
				    (unsigned long long)s->stack_size);
	if (s->nr_regs && !s->regs)
		return pc_error_set(err, EINVAL, "user registers: %llu without data",
				    (unsigned long long)s->nr_regs);
	return 0;
}

/*
 * The fast path: the frames libdwfl's unwinder would give (same lookup pc,
 * same activation rule, same end conditions: return address undefined,
 * unreadable or zero), from CFI rows compiled once per DSO and address,
 * with no libdwfl state of the process.  Returns 1 when a frame needs what
 * only libdwfl does (no FDE: its heuristics; an expression rule; a pc
 * outside the files the fast path knows), and the caller starts the sample
 * over there.
 */
static int fast_unwind(struct pc_unwinder *u)
{
	struct uw_current *c = &u->cur;
	unsigned nregs = u->fast_nregs;
	uint64_t regs[PC_DWARF_REGS_MAX];
	uint64_t valid = c->regs.dwarf_valid & ((1ULL << nregs) - 1);
	uint64_t pc = c->regs.ip;
	bool initial = true, signal = false;

	memcpy(regs, c->regs.dwarf, sizeof(regs));
	for (;;) {
		const struct pc_cfi_row *row;
		uint64_t lpc = initial || signal ? pc : pc - 1, cfa = 0, npc = 0, own, own_pc;
		bool cfa_ok, more, activation;
		struct uw_fmap f;

		/* pc and its lookup pc in one map and its module, as libdwfl finds them */
		if (!fast_map(u, lpc, &f) || pc < f.start || pc >= f.end ||
		    !fast_addr(u, &f, lpc, &own) || !fast_addr(u, &f, pc, &own_pc))
			return 1;
		row = pc_cfi_row_find(&f.dso->rows, own);
		if (!row)
			row = pc_cfi_row_get(&f.dso->rows, f.dso->mod, own, nregs);
		/*
		 * perf 6.1's libunwind (1.6) on x86_64 goes no further than a
		 * frame its object has no CFI for (a binary without .eh_frame):
		 * the frame is the chain's last; libdwfl, as perf 7.2, walks on
		 * by the frame pointer (on arm64 perf 6.1's libunwind repeats
		 * such a frame once, which libdwfl's path gives as well)
		 */
		if (row && row->no_fde && u->libunwind_ends && u->arch == PC_ARCH_X86_64) {
			if (c->nr < c->max)
				c->ips[c->nr++] = initial || signal ? pc : pc - 1;
			return 0;
		}
		if (!row || !row->usable)
			return 1;
		/*
		 * The caller's registers in place: each new value follows from the
		 * CFA (taken first) and memory, never from another register, and a
		 * same-value register keeps its value.
		 */
		cfa_ok = pc_cfi_cfa(row, regs, valid, &cfa);
		valid &= row->same;
		if (cfa_ok) {
			for (unsigned l = 0; l < row->nr_live; l++) {
				const struct pc_cfi_live *rule = &row->live[l];
				uint64_t at = cfa + (uint64_t)rule->off;
				Dwarf_Word w;

				if (rule->kind == PC_CFI_VAL_CFA) {
					regs[rule->reg] = at;
				} else if (fast_read(u, at, &w)) {
					regs[rule->reg] = w;
				} else {
					continue;
				}
				valid |= 1ULL << rule->reg;
			}
		}
		if (c->wrong_machine)
			return 1;
		more = row->ra_kind != PC_CFI_UNDEF && (valid >> row->ra_reg & 1) &&
		       (npc = regs[row->ra_reg]) != 0;
		activation = initial || signal || (more && row->signal);
		if (activation || pc != 1)	/* no zero entry, as cb_frame */
			c->ips[c->nr++] = activation ? pc : pc - 1;
		/* a return address read as 0 through CFI: perf 6.1's last frame, (u64)-1 */
		if (!more && u->zero_unreadable && u->libunwind_ends && row->ra_kind != PC_CFI_UNDEF &&
		    (valid >> row->ra_reg & 1) && c->nr < c->max)
			c->ips[c->nr++] = UINT64_MAX;
		if (!more || c->nr >= c->max)
			return 0;
		pc = npc;
		signal = row->signal;
		initial = false;
	}
}

/*
 * The fast path's view of the sample's ip: 0 with no frames when it is in
 * no usable file (as libdwfl's path), -EINVAL for a file of another
 * machine, 1 to unwind.
 */
static int fast_start(struct pc_unwinder *u, struct pc_error *err)
{
	struct uw_current *c = &u->cur;
	struct uw_fmap f;
	uint64_t own;

	if (fast_map(u, c->regs.ip, &f) && fast_addr(u, &f, c->regs.ip, &own))
		return 1;
	if (c->wrong_machine)
		return pc_error_set(err, EINVAL,
				    "user registers of %s, but the ip 0x%llx is in %s, an ELF file for machine %u",
				    pc_arch_name(u->arch), (unsigned long long)c->regs.ip,
				    c->wrong_path, c->wrong_em);
	return 0;
}

static int unwind_once(struct pc_unwinder *u, struct pc_error *err)
{
	struct uw_current *c = &u->cur;
	struct pc_unwind_map m;
	uint32_t pid = c->s->pid ? c->s->pid : 1;
	int ret;

	c->space = space_get(u, c->s->pid);
	if (!c->space)
		return pc_error_set(err, ENOMEM, "unwind: cannot create an address space");
	if (!c->s->maps_gen || c->s->maps_gen != c->space->gen) {
		c->space->nr_known = c->space->next_known = 0;
		c->space->nr_fknown = c->space->next_fknown = c->space->last_fknown = 0;
		c->space->nr_fnone = c->space->next_fnone = 0;
		c->space->gen = c->s->maps_gen;
	}
	if (u->fast_nregs) {
		ret = fast_start(u, err);
		if (ret <= 0)
			return ret;
		if (!fast_unwind(u)) {
			u->stats.fast++;
			return 0;
		}
		c->nr = 0;	/* libdwfl's unwinder does this sample whole */
	}
	if (!report(u, c->regs.ip, &m)) {
		if (c->wrong_machine)
			return pc_error_set(err, EINVAL,
					    "user registers of %s, but the ip 0x%llx is in %s, an ELF file for machine %u",
					    pc_arch_name(u->arch), (unsigned long long)c->regs.ip,
					    c->wrong_path, c->wrong_em);
		return 0;
	}
	if (!c->space->attached) {
		if (!dwfl_attach_state(c->space->dwfl, NULL, (pid_t)pid, &thread_cbs, u))
			return pc_error_set(err, EINVAL, "unwind: %s", dwfl_errmsg(-1));
		c->space->attached = true;
	}
	u->stats.slow++;
	if (dwfl_getthread_frames(c->space->dwfl, (pid_t)(c->s->tid ? c->s->tid : 1),
				  cb_frame, u) && c->nr && c->nr < c->max)
		u->stats.truncated++;
	if (c->wrong_machine)
		return pc_error_set(err, EINVAL,
				    "user registers of %s, but a frame is in %s, an ELF file for machine %u",
				    pc_arch_name(u->arch), c->wrong_path, c->wrong_em);
	return 0;
}

int pc_unwind(struct pc_unwinder *u, const struct pc_unwind_sample *s, uint64_t *ips,
	      uint32_t max, uint32_t *nr, struct pc_error *err)
{
	struct uw_current *c = &u->cur;
	int ret;

	*nr = 0;
	u->stats.samples++;
	ret = check_sample(s, err);
	if (ret)
		return ret;
	c->conflict = c->wrong_machine = false;
	c->nr = 0;
	/* the stack dump is read word by word, frame after frame: ask for all of it at once */
	for (uint64_t off = 0; off < s->stack_dyn_size; off += 64)
		__builtin_prefetch((const uint8_t *)s->stack + off);
	/* between samples: nothing points at the DSOs then */
	if (u->nr_dsos >= UW_DSOS_MAX)
		dsos_drop(u);
	c->s = s;
	c->ips = ips;
	c->max = max;
	if (!u->plan_ok || u->plan.mask != s->regs_mask) {
		u->plan_ok = false;
		ret = pc_regs_plan(u->arch, s->regs_mask, &u->plan, err);
		if (ret)
			return ret;
		u->plan_ok = true;
	}
	ret = pc_regs_apply(&u->plan, s->regs_abi, s->regs, s->nr_regs, &c->regs, err);
	if (ret || !max)
		return ret;
	ret = unwind_once(u, err);
	if (!ret && c->conflict) {
		/* the process mapped another file where a module was: start over */
		u->stats.resets++;
		pc_unwinder_forget(u, s->pid);
		c->conflict = false;
		c->nr = 0;
		ret = unwind_once(u, err);
	}
	if (ret)
		return ret;
	if (!c->nr)
		u->stats.no_map++;
	u->stats.frames += c->nr;
	*nr = c->nr;
	return 0;
}
