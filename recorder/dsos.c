// SPDX-License-Identifier: GPL-2.0
/*
 * Which DSOs the samples hit, for the BUILD_ID feature.  Executable maps
 * come from MMAP/MMAP2 records (the kernel's and the synthesized ones);
 * a sample's ip is looked up in its pid's maps, else in anyone's (a forked
 * child shares its parent's maps without a record of its own).  A small
 * direct-mapped cache keeps the drain's cost per sample at a few loads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/dsos.h"
#include "symbols/buildid.h"

struct rec_map {
	uint32_t pid;
	uint64_t start, end;
	uint32_t dso;
};

struct rec_dso {
	char *name;
	bool hit;
};

#define CACHE_SLOTS 256

struct rec_dsos {
	struct rec_map *maps;
	size_t nr_maps, cap_maps;
	struct rec_dso *dsos;
	size_t nr_dsos, cap_dsos;
	bool kernel_hit;
	struct { uint32_t pid; uint64_t page; uint32_t map_plus1; } cache[CACHE_SLOTS];
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
	free(d->maps);
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
	int dso;

	/* only files can have a build id: skip [vdso], //anon, [heap]... */
	if (filename[0] != '/')
		return;
	dso = dso_index(d, filename);
	if (dso < 0)
		return;
	if (d->nr_maps == d->cap_maps) {
		size_t cap = d->cap_maps ? d->cap_maps * 2 : 256;
		struct rec_map *n = realloc(d->maps, cap * sizeof(*n));

		if (!n)
			return;
		d->maps = n;
		d->cap_maps = cap;
	}
	d->maps[d->nr_maps++] = (struct rec_map){ pid, start, start + len, (uint32_t)dso };
	memset(d->cache, 0, sizeof(d->cache));	/* a new map may shadow a cached one */
}

static long find_map(struct rec_dsos *d, uint32_t pid, uint64_t ip)
{
	long any = -1;

	/* newest first: a later mmap replaces an older one at the same place */
	for (size_t i = d->nr_maps; i-- > 0;) {
		const struct rec_map *m = &d->maps[i];

		if (ip < m->start || ip >= m->end)
			continue;
		if (m->pid == pid)
			return (long)i;
		if (any < 0)
			any = (long)i;
	}
	return any;
}

void rec_dsos_hit(struct rec_dsos *d, uint32_t pid, uint64_t ip, bool kernel)
{
	uint64_t page = ip >> 12;
	unsigned int slot = (unsigned int)((page ^ (page >> 8) ^ pid) % CACHE_SLOTS);
	long m;

	if (kernel) {
		d->kernel_hit = true;
		return;
	}
	if (d->cache[slot].map_plus1 && d->cache[slot].pid == pid && d->cache[slot].page == page)
		return;		/* that map's DSO is already marked */
	m = find_map(d, pid, ip);
	if (m < 0)
		return;
	d->dsos[d->maps[m].dso].hit = true;
	d->cache[slot].pid = pid;
	d->cache[slot].page = page;
	d->cache[slot].map_plus1 = (uint32_t)m + 1;
}

int rec_dsos_write_build_ids(struct rec_dsos *d, struct pd_writer *w)
{
	uint8_t id[PC_BUILD_ID_MAX];
	size_t id_size;
	int nr = 0;

	if (d->kernel_hit && !pc_build_id_kernel(id, &id_size) &&
	    !pd_writer_add_build_id(w, true, -1, id, id_size, "[kernel.kallsyms]"))
		nr++;
	for (size_t i = 0; i < d->nr_dsos; i++) {
		if (!d->dsos[i].hit)
			continue;
		if (pc_build_id_path(d->dsos[i].name, id, &id_size))
			continue;
		if (!pd_writer_add_build_id(w, false, -1, id, id_size, d->dsos[i].name))
			nr++;
	}
	return nr;
}
