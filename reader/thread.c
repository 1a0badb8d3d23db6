// SPDX-License-Identifier: GPL-2.0
/*
 * Thread and process state from COMM, FORK, EXIT, MMAP and MMAP2.  Maps
 * belong to a process (threads share them); a new mapping replaces what it
 * overlaps, splitting older maps, as the kernel's address space does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/session.h"

static size_t hash_id(uint32_t id, size_t buckets)
{
	return (id * 2654435761u) % buckets;
}

static struct rd_process *process_get(struct rd_session *s, uint32_t pid)
{
	struct rd_process *p;
	size_t b;

	if (!s->procs) {
		s->nr_proc_buckets = 1024;
		s->procs = calloc(s->nr_proc_buckets, sizeof(*s->procs));
		if (!s->procs)
			return NULL;
	}
	b = hash_id(pid, s->nr_proc_buckets);
	for (p = s->procs[b]; p; p = p->next)
		if (p->pid == pid)
			return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->next = s->procs[b];
	s->procs[b] = p;
	return p;
}

static struct rd_thread *thread_find(struct rd_session *s, uint32_t tid)
{
	struct rd_thread *t;

	if (!s->threads)
		return NULL;
	for (t = s->threads[hash_id(tid, s->nr_thread_buckets)]; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

struct rd_thread *rd_thread_get(struct rd_session *s, uint32_t pid, uint32_t tid)
{
	struct rd_thread *t = thread_find(s, tid);
	size_t b;

	if (t) {
		if (t->pid != pid && pid != (uint32_t)-1 && t->pid == (uint32_t)-1) {
			t->pid = pid;
			t->proc = process_get(s, pid);
		}
		return t;
	}
	if (!s->threads) {
		s->nr_thread_buckets = 4096;
		s->threads = calloc(s->nr_thread_buckets, sizeof(*s->threads));
		if (!s->threads)
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
	t->proc = process_get(s, pid);
	if (!t->proc) {
		free(t);
		return NULL;
	}
	b = hash_id(tid, s->nr_thread_buckets);
	t->next = s->threads[b];
	s->threads[b] = t;
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

static const struct rd_map *maps_find(const struct rd_maps *m, uint64_t addr)
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

/* Bytes of a non-sample record before its sample_id trailer. */
static size_t body_size(struct rd_session *s, const struct pd_record *rec)
{
	size_t size = rec->header.size;
	const struct pd_evsel *e = s->r.nr_evsels ? &s->r.evsels[0] : NULL;

	if (e && s->r.sample_id_all && size >= e->sample_id_size + sizeof(rec->header))
		size -= e->sample_id_size;
	return size;
}

static int bad(struct rd_session *s, const struct pd_record *rec, struct pc_error *err,
	       const char *what)
{
	return pc_error_set(err, EINVAL, "%s: offset %#llx: %s", s->r.path,
			    (unsigned long long)rec->offset, what);
}

static int add_map(struct rd_session *s, const struct pd_record *rec, bool v2,
		   struct pc_error *err)
{
	const uint8_t *p = rec->data;
	size_t size = body_size(s, rec), fixed = v2 ? 8 + 32 + 24 + 8 : 8 + 32;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	const char *name;
	char jit[64];
	struct rd_map m;
	struct rd_maps *maps;

	if (size <= fixed)
		return bad(s, rec, err, v2 ? "MMAP2 record too short" : "MMAP record too short");
	memcpy(&pid, p + 8, 4);
	memcpy(&tid, p + 12, 4);
	memcpy(&start, p + 16, 8);
	memcpy(&len, p + 24, 8);
	memcpy(&pgoff, p + 32, 8);
	name = (const char *)p + fixed;
	if (!memchr(name, '\0', size - fixed))
		return bad(s, rec, err, "MMAP filename is not NUL-terminated");
	if (start + len < start)
		len = UINT64_MAX - start;
	m.start = start;
	m.end = start + len;
	m.pgoff = pgoff;
	m.identity = false;
	/* anonymous executable memory is JIT code, named as perf names it */
	if (pid != (uint32_t)-1 && (!strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
				    !strncmp(name, "/anon_hugepage", 14))) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", (int)pid);
		name = jit;
		m.identity = true;
	}
	m.dso = pc_dso_cache_get(&s->dsos, name);
	if (!m.dso)
		return pc_error_set(err, ENOMEM, "out of memory");
	/* MMAP2 may carry the build id instead of device and inode */
	if (v2 && (rec->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && !m.dso->build_id[0] &&
	    !m.dso->loaded) {
		uint8_t n = p[40];

		for (uint8_t i = 0; i < n && i < 20; i++)
			snprintf(m.dso->build_id + 2 * i, 3, "%02x", p[44 + i]);
	}
	if (pid == (uint32_t)-1) {
		maps = &s->kmaps;
	} else {
		struct rd_thread *t = rd_thread_get(s, pid, tid);

		if (!t)
			return pc_error_set(err, ENOMEM, "out of memory");
		maps = &t->proc->maps;
	}
	if (maps_insert(maps, &m))
		return pc_error_set(err, ENOMEM, "out of memory");
	s->maps_gen++;
	return 0;
}

static int set_comm(struct rd_session *s, const struct pd_record *rec, struct pc_error *err)
{
	const uint8_t *p = rec->data;
	size_t size = body_size(s, rec);
	uint32_t pid, tid;
	struct rd_thread *t;
	size_t n;

	if (size <= 16)
		return bad(s, rec, err, "COMM record too short");
	memcpy(&pid, p + 8, 4);
	memcpy(&tid, p + 12, 4);
	n = strnlen((const char *)p + 16, size - 16);
	if (n == size - 16)
		return bad(s, rec, err, "COMM name is not NUL-terminated");
	t = rd_thread_get(s, pid, tid);
	if (!t)
		return pc_error_set(err, ENOMEM, "out of memory");
	snprintf(t->comm, sizeof(t->comm), "%s", (const char *)p + 16);
	return 0;
}

static int fork_thread(struct rd_session *s, const struct pd_record *rec, struct pc_error *err)
{
	const uint8_t *p = rec->data;
	uint32_t pid, ppid, tid, ptid;
	struct rd_thread *parent, *child;

	if (body_size(s, rec) < 8 + 24)
		return bad(s, rec, err, "FORK record too short");
	memcpy(&pid, p + 8, 4);
	memcpy(&ppid, p + 12, 4);
	memcpy(&tid, p + 16, 4);
	memcpy(&ptid, p + 20, 4);
	parent = rd_thread_get(s, ppid, ptid);
	child = rd_thread_get(s, pid, tid);
	if (!parent || !child)
		return pc_error_set(err, ENOMEM, "out of memory");
	if (child == parent)
		return 0;
	memcpy(child->comm, parent->comm, sizeof(child->comm));
	/* a new process starts with a copy of its parent's address space */
	if (pid != ppid && child->proc != parent->proc &&
	    maps_copy(&child->proc->maps, &parent->proc->maps))
		return pc_error_set(err, ENOMEM, "out of memory");
	s->maps_gen++;
	return 0;
}

int rd_state_record(struct rd_session *s, const struct pd_record *rec, struct pc_error *err)
{
	switch (rec->header.type) {
	case PERF_RECORD_MMAP:
		return add_map(s, rec, false, err);
	case PERF_RECORD_MMAP2:
		return add_map(s, rec, true, err);
	case PERF_RECORD_COMM:
		return set_comm(s, rec, err);
	case PERF_RECORD_FORK:
		return fork_thread(s, rec, err);
	default:
		return 0;
	}
}

/* Kernel addresses: the module maps when one holds ip, else the kernel itself. */
static void resolve_kernel(struct rd_session *s, uint64_t ip, struct rd_resolved *out)
{
	const struct rd_map *m = maps_find(&s->kmaps, ip);

	out->addr = ip;
	out->dso = "[kernel.kallsyms]";
	out->dso_len = 17;
	if (!s->kernel_local)
		return;
	if (!s->kallsyms.loaded)
		pc_kallsyms_load(&s->kallsyms, "/proc/kallsyms");
	out->sym = pc_symtab_find(&s->kallsyms.tab, ip);
	if (out->sym) {
		out->off = ip - out->sym->start;
		if (out->sym->module) {
			out->dso = out->sym->module;
			out->dso_len = strlen(out->dso);
		}
	} else if (m && m->dso->path[0] == '/') {
		out->dso = m->dso->path;
		out->dso_len = m->dso->path_len;
	}
}

static void resolve(struct rd_session *s, struct rd_thread *t, bool kernel, uint64_t ip,
		    struct rd_resolved *out)
{
	const struct rd_map *m;
	uint64_t off, vaddr;

	out->sym = NULL;
	out->dso = NULL;
	out->dso_len = 0;
	out->addr = ip;
	out->off = 0;
	if (kernel) {
		if (ip >= 0xffff800000000000ULL)
			resolve_kernel(s, ip, out);
		return;
	}
	m = t && t->proc ? maps_find(&t->proc->maps, ip) : NULL;
	if (!m)
		return;
	out->dso = m->dso->path;
	out->dso_len = m->dso->path_len;
	if (m->identity) {
		pc_dso_load_jitmap(&s->dsos, m->dso);
		out->sym = pc_symtab_find(&m->dso->tab, ip);
		if (out->sym)
			out->off = ip - out->sym->start;
		return;
	}
	off = ip - m->start + m->pgoff;
	pc_dso_load(&s->dsos, m->dso);
	out->addr = off;	/* what perf 6.1 prints, for ET_EXEC too */
	if (!m->dso->found || !pc_dso_off_to_vaddr(m->dso, off, &vaddr))
		return;
	out->sym = pc_symtab_find(&m->dso->tab, vaddr);
	if (out->sym)
		out->off = vaddr - out->sym->start;
}

#define RD_RCACHE_SIZE 16384

/* The same few thousand ips come back in every sample: remember them. */
void rd_resolve(struct rd_session *s, struct rd_thread *t, bool kernel, uint64_t ip,
		struct rd_resolved *out)
{
	const void *space = kernel ? (const void *)s : (t ? (const void *)t->proc : NULL);
	struct rd_rcache *c;

	if (!s->rcache) {
		s->rcache = calloc(RD_RCACHE_SIZE, sizeof(*s->rcache));
		if (!s->rcache) {
			resolve(s, t, kernel, ip, out);
			return;
		}
	}
	c = &s->rcache[((ip >> 2) ^ ((uintptr_t)space >> 4)) * 0x9E3779B97F4A7C15ULL >> 50];
	if (c->space == space && c->ip == ip && c->gen == s->maps_gen + 1) {
		*out = c->r;
		return;
	}
	resolve(s, t, kernel, ip, out);
	c->space = space;
	c->ip = ip;
	c->gen = s->maps_gen + 1;
	c->r = *out;
}

void rd_threads_free(struct rd_session *s)
{
	free(s->rcache);
	s->rcache = NULL;
	for (size_t b = 0; b < s->nr_thread_buckets; b++) {
		struct rd_thread *t = s->threads[b], *n;

		for (; t; t = n) {
			n = t->next;
			free(t->waiting);
			free(t);
		}
	}
	for (size_t b = 0; b < s->nr_proc_buckets; b++) {
		struct rd_process *p = s->procs[b], *n;

		for (; p; p = n) {
			n = p->next;
			free(p->maps.v);
			free(p);
		}
	}
	free(s->threads);
	free(s->procs);
	free(s->kmaps.v);
	s->threads = NULL;
	s->procs = NULL;
}
