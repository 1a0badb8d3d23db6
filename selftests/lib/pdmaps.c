// SPDX-License-Identifier: GPL-2.0
#include "pdmaps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pdmaps_init(struct pdmaps *m)
{
	memset(m, 0, sizeof(*m));
	pc_dso_cache_init(&m->dsos);
}

static void proc_clear(struct pdm_proc *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->maps[i].path);
	p->nr = 0;
	p->gen++;
}

void pdmaps_free(struct pdmaps *m)
{
	for (size_t i = 0; i < m->nr; i++) {
		proc_clear(m->procs[i]);
		free(m->procs[i]->maps);
		free(m->procs[i]);
	}
	free(m->procs);
	pc_dso_cache_free(&m->dsos);
	memset(m, 0, sizeof(*m));
}

static struct pdm_proc *proc_get(struct pdmaps *m, uint32_t pid, int create)
{
	struct pdm_proc *p;

	for (size_t i = 0; i < m->nr; i++)
		if (m->procs[i]->pid == pid)
			return m->procs[i];
	if (!create)
		return NULL;
	if (m->nr == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		struct pdm_proc **v = realloc(m->procs, cap * sizeof(*v));

		if (!v)
			return NULL;
		m->procs = v;
		m->cap = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->gen = 1;
	m->procs[m->nr++] = p;
	return p;
}

static int proc_add(struct pdm_proc *p, uint64_t start, uint64_t len, uint64_t pgoff,
		    const char *path)
{
	if (p->nr == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;
		struct pdm_map *v = realloc(p->maps, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->maps = v;
		p->cap = cap;
	}
	p->gen++;
	p->maps[p->nr] = (struct pdm_map){ start, start + len, pgoff, strdup(path), NULL };
	if (!p->maps[p->nr].path)
		return -ENOMEM;
	p->nr++;
	return 0;
}

int pdmaps_record(struct pdmaps *m, const struct pd_record *rec)
{
	const uint8_t *d = (const uint8_t *)rec->data + sizeof(struct perf_event_header);
	size_t body = rec->header.size - sizeof(struct perf_event_header);
	uint32_t pid;
	struct pdm_proc *p;

	if (body < 8)
		return 0;
	memcpy(&pid, d, 4);
	switch (rec->header.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		size_t name_at = rec->header.type == PERF_RECORD_MMAP ? 32 : 32 + 24 + 8;
		uint64_t v[3];
		const char *name;

		if ((rec->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER ||
		    body <= name_at || !memchr(d + name_at, 0, body - name_at))
			return 0;
		memcpy(v, d + 8, sizeof(v));
		name = (const char *)d + name_at;
		p = proc_get(m, pid, 1);
		return p ? proc_add(p, v[0], v[1], v[2], name) : -ENOMEM;
	}
	case PERF_RECORD_COMM:
		if ((rec->header.misc & PERF_RECORD_MISC_COMM_EXEC) && (p = proc_get(m, pid, 0)))
			proc_clear(p);
		return 0;
	case PERF_RECORD_FORK: {
		uint32_t ppid;
		struct pdm_proc *parent, *child;

		memcpy(&ppid, d + 4, 4);
		if (ppid == pid || !(parent = proc_get(m, ppid, 0)))
			return 0;
		child = proc_get(m, pid, 1);
		parent = proc_get(m, ppid, 0);
		if (!child || !parent)
			return -ENOMEM;
		proc_clear(child);
		for (size_t i = 0; i < parent->nr; i++) {
			const struct pdm_map *pm = &parent->maps[i];

			if (proc_add(child, pm->start, pm->end - pm->start, pm->pgoff, pm->path))
				return -ENOMEM;
		}
		return 0;
	}
	default:
		return 0;
	}
}

static struct pdm_map *find(struct pdmaps *m, uint32_t pid, uint64_t addr)
{
	struct pdm_proc *p = proc_get(m, pid, 0);

	if (!p)
		return NULL;
	/* the last hit, unless a later map covers addr too */
	if (p->last < p->nr && addr >= p->maps[p->last].start && addr < p->maps[p->last].end) {
		size_t i;

		for (i = p->last + 1; i < p->nr; i++)
			if (addr >= p->maps[i].start && addr < p->maps[i].end)
				break;
		if (i == p->nr)
			return &p->maps[p->last];
	}
	for (size_t i = p->nr; i-- > 0;) {
		if (addr >= p->maps[i].start && addr < p->maps[i].end) {
			p->last = i;
			return &p->maps[i];
		}
	}
	return NULL;
}

uint64_t pdmaps_gen(struct pdmaps *m, uint32_t pid)
{
	struct pdm_proc *p = proc_get(m, pid, 0);

	return p ? p->gen : 0;
}

int pdmaps_find(void *ctx, uint64_t addr, struct pc_unwind_map *out)
{
	struct pdmaps *m = ctx;
	const struct pdm_map *pm = find(m, m->cur_pid, addr);

	if (!pm)
		return -ENOENT;
	out->start = pm->start;
	out->end = pm->end;
	out->pgoff = pm->pgoff;
	out->path = pm->path[0] == '/' ? pm->path : NULL;
	out->build_id = NULL;
	return 0;
}

void pdmaps_describe(struct pdmaps *m, uint32_t pid, uint64_t ip, uint64_t *rel,
		     char *sym, size_t size)
{
	struct pdm_map *pm = find(m, pid, ip);
	const struct pc_symbol *s = NULL;
	struct pc_dso *dso;
	uint64_t vaddr;

	*rel = ip;
	snprintf(sym, size, "[unknown]");
	if (!pm)
		return;
	*rel = ip - pm->start + pm->pgoff;
	if (!pm->dso) {
		pm->dso = pc_dso_cache_get(&m->dsos, pm->path);
		if (!pm->dso)
			return;
		pc_dso_load(&m->dsos, pm->dso);
	}
	dso = pm->dso;
	if (dso->exec)
		vaddr = ip;
	else if (!pc_dso_off_to_vaddr(dso, *rel, &vaddr))
		return;
	s = pc_symtab_find(&dso->tab, vaddr);
	if (s)
		snprintf(sym, size, "%.*s+0x%llx", (int)s->name_len, s->name,
			 (unsigned long long)(vaddr - s->start));
}
