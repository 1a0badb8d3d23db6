// SPDX-License-Identifier: GPL-2.0
/*
 * The user frames of DWARF samples: the unwinder (one per file, arch from
 * its ARCH feature) asks for maps through find_map, answered from the
 * process's maps; the frames go on with the item.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "reader/unwind_stage.h"
#include "symbols/unwind.h"
#include "uapi/perf_compat.h"

#define RD_UNWIND_MAX 127

struct rd_unwind {
	struct pc_unwinder *u;
	struct pc_dso_cache *dsos;
	char path[4096];	/* find_map's answer lives here until the next call */
	char vdso[4096];	/* our vdso written out, "" until needed */
	bool vdso_tried;
	enum pc_arch arch;	/* the file's */
	bool leaf_lr;		/* perf 6.1: the leaf's caller is LR - 1 where the step stops */
};

struct find_ctx {
	struct rd_unwind *u;
	const struct pc_aspace *proc;
};

struct rd_unwind *rd_unwind_new(enum pc_arch arch, struct pc_dso_cache *dsos)
{
	struct rd_unwind *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->u = pc_unwinder_new(arch, NULL);
	if (!u->u) {
		free(u);
		return NULL;
	}
	u->dsos = dsos;
	u->arch = arch;
	return u;
}

void rd_unwind_free(struct rd_unwind *u)
{
	if (!u)
		return;
	pc_unwinder_free(u->u);
	if (u->vdso[0])
		unlink(u->vdso);
	free(u);
}

void rd_unwind_forget(struct rd_unwind *u, uint32_t pid)
{
	if (u)
		pc_unwinder_forget(u->u, pid);
}

/* This process's vdso image, written once to a temporary file. */
static const char *own_vdso(struct rd_unwind *u)
{
	const uint8_t *base = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	size_t size;
	FILE *f;
	int fd;

	if (u->vdso_tried)
		return u->vdso[0] ? u->vdso : NULL;
	u->vdso_tried = true;
	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (size > (1u << 20))
		return NULL;
	snprintf(u->vdso, sizeof(u->vdso), "%s/perfcheck-vdso-XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(u->vdso);
	if (fd < 0) {
		u->vdso[0] = '\0';
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f || fwrite(base, 1, size, f) != size) {
		if (f)
			fclose(f);
		else
			close(fd);
		unlink(u->vdso);
		u->vdso[0] = '\0';
		return NULL;
	}
	fclose(f);
	return u->vdso;
}

/* The file for a map's DSO: perf's build-id cache copy of the vdso, ours, or the path. */
static const char *map_file(struct rd_unwind *u, struct pc_dso *dso)
{
	const struct pc_dso_cache *c = u->dsos;

	if (!strcmp(dso->path, "[vdso]")) {
		if (c->buildid_dir && dso->build_id[0]) {
			snprintf(u->path, sizeof(u->path), "%s/[vdso]/%s/vdso", c->buildid_dir,
				 dso->build_id);
			if (!access(u->path, R_OK))
				return u->path;
		}
		return c->own_vdso ? own_vdso(u) : NULL;
	}
	if (dso->path[0] != '/')
		return NULL;
	snprintf(u->path, sizeof(u->path), "%s%s", c->root ? c->root : "", dso->path);
	if (dso->build_id[0] && c->buildid_dir && access(u->path, R_OK)) {
		snprintf(u->path, sizeof(u->path), "%s/.build-id/%.2s/%s/elf", c->buildid_dir,
			 dso->build_id, dso->build_id + 2);
	}
	return u->path;
}

static int find_map(void *ctx, uint64_t addr, struct pc_unwind_map *out)
{
	struct find_ctx *fc = ctx;
	const struct pc_map *map;
	uint64_t lo, hi;

	if (!fc->proc)
		return -ENOENT;
	map = pc_maps_find_hole(&fc->proc->maps, addr, &lo, &hi);
	/* the range where no file is offered, as the unwinder may keep it */
	if (!map || (map->flags & RD_MAP_JIT)) {
		out->start = map ? map->start : lo;
		out->end = map ? map->end : hi;
		return -ENOENT;
	}
	out->start = map->start;
	out->end = map->end;
	out->pgoff = map->pgoff;
	out->path = map_file(fc->u, rd_map_dso(map));
	out->build_id = rd_map_dso(map)->build_id;
	return 0;
}

/* arm64 perf register numbers (arch/arm64 uapi perf_regs.h) */
#define RD_ARM64_LR 30
#define RD_ARM64_SP 31
#define RD_ARM64_PC 32

void rd_unwind_set_leaf_lr(struct rd_unwind *u, bool on)
{
	if (u)
		u->leaf_lr = on;
}

void rd_unwind_set_zero_unreadable(struct rd_unwind *u, bool on, bool libunwind_ends)
{
	if (u) {
		pc_unwinder_set_zero_unreadable(u->u, on);
		pc_unwinder_set_libunwind_ends(u->u, libunwind_ends);
	}
}

bool rd_unwind_lr_mask(uint64_t sample_regs_user)
{
	return sample_regs_user & (1ULL << RD_ARM64_LR);
}

/* The value of perf register reg in a sample's user registers, false when absent. */
static bool user_reg(const struct pd_sample *smp, uint64_t mask, int reg, uint64_t *v)
{
	uint64_t at;

	if (!(mask & (1ULL << reg)))
		return false;
	at = (uint64_t)__builtin_popcountll(mask & ((1ULL << reg) - 1));
	if (at >= (uint64_t)__builtin_popcountll(mask) || !smp->regs_user.regs)
		return false;
	*v = smp->regs_user.regs[at];
	return true;
}

/* perf's leaf caller of an arm64 frame-pointer chain (unwind_stage.h). */
static int leaf_caller(struct rd_unwind *u, struct find_ctx *fc, struct rd_item *it)
{
	const struct pd_sample *smp = &it->p->smp;
	const uint64_t mask = smp->evsel->attr.attr.sample_regs_user;
	const uint64_t *ips = smp->chain.ips;
	uint64_t nr = smp->chain.nr, usr, regs[3], out[2], *chain;
	struct pc_unwind_sample us;
	struct pc_error err = { 0 };
	uint32_t got = 0;

	for (usr = 0; usr < nr && ips[usr] != PC_CONTEXT_USER; usr++)
		;
	if (usr + 2 >= nr || pc_is_context(ips[usr + 1]) || pc_is_context(ips[usr + 2]))
		return 0;
	/* in the order of the mask's bits: LR, SP, PC */
	if (!user_reg(smp, mask, RD_ARM64_LR, &regs[0]))
		return 0;
	if (!user_reg(smp, mask, RD_ARM64_SP, &regs[1]))
		regs[1] = 0;
	if (!user_reg(smp, mask, RD_ARM64_PC, &regs[2]))
		regs[2] = ips[usr + 1];
	us = (struct pc_unwind_sample){
		.pid = smp->pid, .tid = smp->tid, .regs_abi = smp->regs_user.abi,
		.regs_mask = (1ULL << RD_ARM64_LR) | (1ULL << RD_ARM64_SP) | (1ULL << RD_ARM64_PC),
		.regs = regs, .nr_regs = 3,
		.find_map = find_map, .map_ctx = fc,
		.maps_gen = fc->proc ? fc->proc->maps.gen : 0,
	};
	/* as perf: a caller not found is no frame, and no error */
	if (pc_unwind(u->u, &us, out, 2, &got, &err) == -ENOMEM)
		return -ENOMEM;
	/* perf 6.1 (Debian 12) adds LR - 1 also where the step cannot read the
	 * leaf's saved LR (it has stored its frame record): one frame more than
	 * later perfs, next to the caller's own return address */
	if (got == 1 && u->leaf_lr && regs[0] > 1) {
		out[1] = regs[0] - 1;
		got = 2;
	}
	if (got != 2 || !out[1] || out[1] == ips[usr + 2])
		return 0;
	chain = malloc((nr - usr + 1) * sizeof(*chain));
	if (!chain)
		return -ENOMEM;
	chain[0] = PC_CONTEXT_USER;
	chain[1] = ips[usr + 1];
	chain[2] = out[1];
	memcpy(chain + 3, ips + usr + 2, (nr - usr - 2) * sizeof(*chain));
	it->unwound = chain;
	it->unwound_nr = nr - usr + 1;
	it->fp_cut = usr;
	it->fp_leaf = true;
	return 0;
}

int rd_unwind_item(struct rd_unwind *u, const char *path, struct rd_thread *t,
		   struct rd_item *it, struct pc_error *err)
{
	const struct pd_sample *smp = &it->p->smp;
	const struct perf_event_attr *attr = &smp->evsel->attr.attr;
	struct find_ctx fc = { .u = u, .proc = t ? t->proc : NULL };
	struct pc_unwind_sample us;
	uint64_t *ips;
	uint32_t nr = 0;
	int ret;

	if ((attr->sample_type & PERF_SAMPLE_REGS_USER) && smp->regs_user.abi &&
	    !(attr->sample_type & PERF_SAMPLE_STACK_USER) &&
	    (attr->sample_type & PERF_SAMPLE_CALLCHAIN) && u->arch == PC_ARCH_AARCH64 &&
	    rd_unwind_lr_mask(attr->sample_regs_user)) {
		if (leaf_caller(u, &fc, it) == -ENOMEM)
			return pc_error_set(err, ENOMEM, "out of memory");
		return 0;
	}
	/* no stack captured (dyn_size 0: the kernel could copy none of it, as in a
	 * page fault on a user copy): no user frames, as perf (its user_stack.size
	 * is the dump's dyn_size), not the registers' ip alone */
	if (!(attr->sample_type & PERF_SAMPLE_REGS_USER) ||
	    !(attr->sample_type & PERF_SAMPLE_STACK_USER) || !smp->regs_user.abi ||
	    !smp->stack_user.dyn_size)
		return 0;
	us = (struct pc_unwind_sample){
		.pid = smp->pid, .tid = smp->tid, .regs_abi = smp->regs_user.abi,
		.regs_mask = attr->sample_regs_user, .regs = smp->regs_user.regs,
		.nr_regs = (uint64_t)__builtin_popcountll(attr->sample_regs_user),
		.stack = smp->stack_user.data, .stack_size = smp->stack_user.size,
		.stack_dyn_size = smp->stack_user.dyn_size,
		.find_map = find_map, .map_ctx = &fc,
		.maps_gen = fc.proc ? fc.proc->maps.gen : 0,
	};
	ips = malloc((RD_UNWIND_MAX + 1) * sizeof(*ips));
	if (!ips)
		return pc_error_set(err, ENOMEM, "out of memory");
	ret = pc_unwind(u->u, &us, ips + 1, RD_UNWIND_MAX, &nr, err);
	if (ret == -ENODATA || (!ret && !nr)) {
		free(ips);
		return 0;
	}
	if (ret) {
		free(ips);
		if (ret == -ENOMEM)
			return ret;
		return pc_error_prefix(err, "%s: offset 0x%llx: SAMPLE", path,
				       (unsigned long long)it->offset);
	}
	ips[0] = PC_CONTEXT_USER;
	it->unwound = ips;
	it->unwound_nr = nr + 1;
	return 0;
}
