// SPDX-License-Identifier: GPL-2.0
/*
 * Which DSOs the samples hit, for the BUILD_ID feature.  Executable maps
 * come from MMAP/MMAP2 records (the kernel's and the synthesized ones)
 * into the shared address-space model (lib/symbols/maps.h); a sample's ip
 * is looked up in its pid's maps, else in anyone's (a forked child shares
 * its parent's maps without a record of its own).  A small direct-mapped
 * cache keeps the drain's cost per sample at a few loads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/dsos.h"
#include "symbols/buildid.h"
#include "symbols/maps.h"

struct rec_dso {
	char *name;
	bool hit;
};

#define CACHE_SLOTS 256

struct rec_dsos {
	struct pc_aspaces procs;	/* maps per pid; map.obj is the DSO index */
	struct rec_dso *dsos;
	size_t nr_dsos, cap_dsos;
	bool kernel_hit;
	struct { uint32_t pid; uint64_t page; uint32_t valid; } cache[CACHE_SLOTS];
};

struct rec_dsos *rec_dsos_new(void)
{
	return calloc(1, sizeof(struct rec_dsos));
}

void rec_dsos_free(struct rec_dsos *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr_dsos; i++)
		free(d->dsos[i].name);
	free(d->dsos);
	pc_aspaces_free(&d->procs);
	free(d);
}

static int dso_index(struct rec_dsos *d, const char *name)
{
	for (size_t i = d->nr_dsos; i-- > 0;)
		if (!strcmp(d->dsos[i].name, name))
			return (int)i;
	if (d->nr_dsos == d->cap_dsos) {
		size_t cap = d->cap_dsos ? d->cap_dsos * 2 : 64;
		struct rec_dso *n = realloc(d->dsos, cap * sizeof(*n));

		if (!n)
			return -1;
		d->dsos = n;
		d->cap_dsos = cap;
	}
	d->dsos[d->nr_dsos].name = strdup(name);
	if (!d->dsos[d->nr_dsos].name)
		return -1;
	d->dsos[d->nr_dsos].hit = false;
	return (int)d->nr_dsos++;
}

void rec_dsos_mmap(struct rec_dsos *d, uint32_t pid, uint64_t start, uint64_t len,
		   const char *filename)
{
	struct pc_aspace *as;
	int dso;

	/* files and the vdso have build ids: not //anon, [heap]... */
	if (filename[0] != '/' && strcmp(filename, "[vdso]"))
		return;
	dso = dso_index(d, filename);
	as = pc_aspaces_get(&d->procs, pid);
	if (dso < 0 || !as)
		return;
	pc_maps_insert(&as->maps, &(struct pc_map){ .start = start, .end = start + len,
						     .obj = (uintptr_t)dso });
	memset(d->cache, 0, sizeof(d->cache));	/* a new map may shadow a cached one */
}

struct any_map {
	uint64_t ip;
	const struct pc_map *found;
};

static int find_any(const struct pc_aspace *as, void *priv)
{
	struct any_map *q = priv;

	q->found = pc_maps_find(&as->maps, q->ip);
	return q->found != NULL;
}

void rec_dsos_hit(struct rec_dsos *d, uint32_t pid, uint64_t ip, bool kernel)
{
	uint64_t page = ip >> 12;
	unsigned int slot = (unsigned int)((page ^ (page >> 8) ^ pid) % CACHE_SLOTS);
	const struct pc_aspace *as;
	const struct pc_map *m = NULL;

	if (kernel) {
		d->kernel_hit = true;
		return;
	}
	if (d->cache[slot].valid && d->cache[slot].pid == pid && d->cache[slot].page == page)
		return;		/* that map's DSO is already marked */
	as = pc_aspaces_find(&d->procs, pid);
	if (as)
		m = pc_maps_find(&as->maps, ip);
	if (!m) {
		/* a forked child shares its parent's maps without records of its own */
		struct any_map q = { .ip = ip };

		pc_aspaces_for_each(&d->procs, find_any, &q);
		m = q.found;
	}
	if (!m)
		return;
	d->dsos[m->obj].hit = true;
	d->cache[slot].pid = pid;
	d->cache[slot].page = page;
	d->cache[slot].valid = 1;
}

int rec_dsos_write_build_ids(struct rec_dsos *d, struct pd_writer *w, bool all)
{
	uint8_t id[PC_BUILD_ID_MAX];
	size_t id_size;
	int nr = 0;

	if ((all || d->kernel_hit) && !pc_build_id_kernel(id, &id_size) &&
	    !pd_writer_add_build_id(w, true, -1, id, id_size, "[kernel.kallsyms]"))
		nr++;
	for (size_t i = 0; i < d->nr_dsos; i++) {
		if (!all && !d->dsos[i].hit)
			continue;
		/* the vdso the kernel maps is the one this process has (the same kernel) */
		if (!strcmp(d->dsos[i].name, "[vdso]") ? pc_build_id_vdso(id, &id_size)
						      : pc_build_id_path(d->dsos[i].name, id, &id_size))
			continue;
		if (!pd_writer_add_build_id(w, false, -1, id, id_size, d->dsos[i].name))
			nr++;
	}
	return nr;
}
