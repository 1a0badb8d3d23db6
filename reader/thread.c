// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's state: threads and processes from COMM, FORK, MMAP and
 * MMAP2.  Maps belong to a process (threads share them); a new mapping
 * replaces what it overlaps, splitting older maps, as the kernel's
 * address space does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/codec.h"
#include "reader/machine.h"

static size_t hash_id(uint32_t id, size_t buckets)
{
	return (id * 2654435761u) % buckets;
}

static struct rd_process *process_get(struct rd_machine *m, uint32_t pid)
{
	struct rd_process *p;
	size_t b;

	if (!m->procs) {
		m->nr_proc_buckets = 1024;
		m->procs = calloc(m->nr_proc_buckets, sizeof(*m->procs));
		if (!m->procs)
			return NULL;
	}
	b = hash_id(pid, m->nr_proc_buckets);
	for (p = m->procs[b]; p; p = p->next)
		if (p->pid == pid)
			return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->next = m->procs[b];
	m->procs[b] = p;
	return p;
}

static struct rd_thread *thread_find(struct rd_machine *m, uint32_t tid)
{
	struct rd_thread *t;

	if (!m->threads)
		return NULL;
	for (t = m->threads[hash_id(tid, m->nr_thread_buckets)]; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

struct rd_thread *rd_machine_thread(struct rd_machine *m, uint32_t pid, uint32_t tid)
{
	struct rd_thread *t = thread_find(m, tid);
	size_t b;

	if (t) {
		if (t->pid != pid && pid != (uint32_t)-1 && t->pid == (uint32_t)-1) {
			t->pid = pid;
			t->proc = process_get(m, pid);
		}
		return t;
	}
	if (!m->threads) {
		m->nr_thread_buckets = 4096;
		m->threads = calloc(m->nr_thread_buckets, sizeof(*m->threads));
		if (!m->threads)
			return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	if (tid == 0)
		snprintf(t->comm, sizeof(t->comm), "swapper");
	else
		snprintf(t->comm, sizeof(t->comm), ":%d", (int)tid);
	t->proc = process_get(m, pid);
	if (!t->proc) {
		free(t);
		return NULL;
	}
	b = hash_id(tid, m->nr_thread_buckets);
	t->next = m->threads[b];
	m->threads[b] = t;
	return t;
}

static int maps_reserve(struct rd_maps *m, size_t extra)
{
	if (m->nr + extra > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;
		struct rd_map *v;

		while (cap < m->nr + extra)
			cap *= 2;
		v = realloc(m->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		m->v = v;
		m->cap = cap;
	}
	return 0;
}

/* Inserts [start, end), cutting whatever it overlaps; v stays sorted. */
static int maps_insert(struct rd_maps *m, const struct rd_map *n)
{
	size_t i = 0, j;

	if (n->end <= n->start)
		return 0;
	if (maps_reserve(m, 2))
		return -ENOMEM;
	while (i < m->nr && m->v[i].end <= n->start)
		i++;
	/* an older map straddling the new start keeps its head (and maybe its tail) */
	if (i < m->nr && m->v[i].start < n->start) {
		struct rd_map head = m->v[i];

		head.end = n->start;
		if (m->v[i].end > n->end) {
			struct rd_map tail = m->v[i];

			tail.pgoff += n->end - tail.start;
			tail.start = n->end;
			memmove(&m->v[i + 2], &m->v[i + 1], (m->nr - i - 1) * sizeof(*m->v));
			m->v[i] = head;
			m->v[i + 1] = tail;
			m->nr++;
			i++;
		} else {
			m->v[i] = head;
			i++;
		}
	}
	/* drop maps fully covered, trim one sticking out at the end */
	j = i;
	while (j < m->nr && m->v[j].end <= n->end)
		j++;
	if (j < m->nr && m->v[j].start < n->end) {
		m->v[j].pgoff += n->end - m->v[j].start;
		m->v[j].start = n->end;
	}
	memmove(&m->v[i + 1], &m->v[j], (m->nr - j) * sizeof(*m->v));
	m->nr = m->nr - (j - i) + 1;
	m->v[i] = *n;
	return 0;
}

const struct rd_map *rd_maps_find(const struct rd_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < m->v[lo - 1].end)
		return &m->v[lo - 1];
	return NULL;
}

static int maps_copy(struct rd_maps *dst, const struct rd_maps *src)
{
	dst->nr = 0;
	if (!src->nr)
		return 0;
	if (maps_reserve(dst, src->nr))
		return -ENOMEM;
	memcpy(dst->v, src->v, src->nr * sizeof(*src->v));
	dst->nr = src->nr;
	return 0;
}

static int add_map(struct rd_machine *m, const struct pd_record *rec, size_t size,
		   struct pc_error *err)
{
	struct pd_mmap mm;
	const char *name;
	char jit[64];
	struct rd_map map;
	struct rd_maps *maps;
	int ret = pd_decode_mmap(m->path, rec, size, &mm, err);

	if (ret)
		return ret;
	name = mm.filename;
	if (mm.start + mm.len < mm.start)
		mm.len = UINT64_MAX - mm.start;
	map.start = mm.start;
	map.end = mm.start + mm.len;
	map.pgoff = mm.pgoff;
	map.identity = false;
	/* anonymous executable memory is JIT code, named as perf names it */
	if (mm.pid != (uint32_t)-1 && (!strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
				       !strncmp(name, "/anon_hugepage", 14))) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", (int)mm.pid);
		name = jit;
		map.identity = true;
	}
	map.dso = pc_dso_cache_get(m->dsos, name);
	if (!map.dso)
		return pc_error_set(err, ENOMEM, "out of memory");
	/* MMAP2 may carry the build id instead of device and inode */
	if (mm.build_id_size && !map.dso->build_id[0] && !map.dso->loaded)
		for (uint8_t i = 0; i < mm.build_id_size; i++)
			snprintf(map.dso->build_id + 2 * i, 3, "%02x", mm.build_id[i]);
	if (mm.pid == (uint32_t)-1) {
		maps = &m->kmaps;
	} else {
		struct rd_thread *t = rd_machine_thread(m, mm.pid, mm.tid);

		if (!t)
			return pc_error_set(err, ENOMEM, "out of memory");
		maps = &t->proc->maps;
		t->proc->gen++;
	}
	if (maps_insert(maps, &map))
		return pc_error_set(err, ENOMEM, "out of memory");
	m->gen++;
	return 0;
}

static int set_comm(struct rd_machine *m, const struct pd_record *rec, size_t size,
		    struct pc_error *err)
{
	struct pd_comm c;
	struct rd_thread *t;
	int ret = pd_decode_comm(m->path, rec, size, &c, err);

	if (ret)
		return ret;
	t = rd_machine_thread(m, c.pid, c.tid);
	if (!t)
		return pc_error_set(err, ENOMEM, "out of memory");
	snprintf(t->comm, sizeof(t->comm), "%s", c.comm);
	return 0;
}

static int fork_thread(struct rd_machine *m, const struct pd_record *rec, size_t size,
		       struct pc_error *err)
{
	struct pd_task f;
	struct rd_thread *parent, *child;
	char placeholder[16];
	int ret = pd_decode_task(m->path, rec, size, &f, err);

	if (ret)
		return ret;
	parent = rd_machine_thread(m, f.ppid, f.ptid);
	child = rd_machine_thread(m, f.pid, f.tid);
	if (!parent || !child)
		return pc_error_set(err, ENOMEM, "out of memory");
	if (child == parent)
		return 0;
	/* as perf: a parent known only by its ":TID" placeholder gives no comm */
	snprintf(placeholder, sizeof(placeholder), ":%d", (int)parent->tid);
	if (strcmp(parent->comm, placeholder))
		memcpy(child->comm, parent->comm, sizeof(child->comm));
	/* a new process starts with a copy of its parent's address space */
	if (f.pid != f.ppid && child->proc != parent->proc &&
	    maps_copy(&child->proc->maps, &parent->proc->maps))
		return pc_error_set(err, ENOMEM, "out of memory");
	child->proc->gen++;
	m->gen++;
	return 0;
}

int rd_machine_record(struct rd_machine *m, const struct pd_record *rec, size_t trailer,
		      struct pc_error *err)
{
	size_t size = rec->header.size;

	/* the body ends where the sample_id trailer begins */
	if (size >= trailer + sizeof(rec->header))
		size -= trailer;
	switch (rec->header.type) {
	case PERF_RECORD_MMAP:
		return add_map(m, rec, size, err);
	case PERF_RECORD_MMAP2:
		return add_map(m, rec, size, err);
	case PERF_RECORD_COMM:
		return set_comm(m, rec, size, err);
	case PERF_RECORD_FORK:
		return fork_thread(m, rec, size, err);
	default:
		return 0;
	}
}

void rd_machine_threads_free(struct rd_machine *m)
{
	for (size_t b = 0; b < m->nr_thread_buckets; b++) {
		struct rd_thread *t = m->threads[b], *n;

		for (; t; t = n) {
			n = t->next;
			free(t);
		}
	}
	for (size_t b = 0; b < m->nr_proc_buckets; b++) {
		struct rd_process *p = m->procs[b], *n;

		for (; p; p = n) {
			n = p->next;
			free(p->maps.v);
			free(p);
		}
	}
	free(m->threads);
	free(m->procs);
	free(m->kmaps.v);
	m->threads = NULL;
	m->procs = NULL;
	m->kmaps.v = NULL;
	m->nr_thread_buckets = m->nr_proc_buckets = 0;
	m->kmaps.nr = m->kmaps.cap = 0;
}
