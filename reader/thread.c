// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's state: threads and processes from COMM, FORK, MMAP and
 * MMAP2.  Maps belong to a process (threads share them); the address
 * spaces are lib/symbols' model (symbols/maps.h: a new mapping replaces
 * what it overlaps, splitting older maps, as the kernel's address space
 * does), each map pointing at its DSO.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "perfdata/codec.h"
#include "reader/machine.h"

static size_t hash_id(uint32_t id, size_t buckets)
{
	return (id * 2654435761u) % buckets;
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
			struct pc_aspace *as = pc_aspaces_get(&m->procs, pid);

			if (!as)
				return NULL;
			t->pid = pid;
			t->proc = as;
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
	t->ppid = -1;
	if (tid == 0) {
		snprintf(t->comm, sizeof(t->comm), "swapper");
		t->comm_set = true;	/* perf names it so from the start: no placeholder */
	} else
		snprintf(t->comm, sizeof(t->comm), ":%d", (int)tid);
	t->proc = pc_aspaces_get(&m->procs, pid);
	if (!t->proc) {
		free(t);
		return NULL;
	}
	b = hash_id(tid, m->nr_thread_buckets);
	t->next = m->threads[b];
	m->threads[b] = t;
	return t;
}

static bool map_is_exec(const struct pd_record *rec, const struct pd_mmap *mm)
{
	if (rec->header.type == PERF_RECORD_MMAP2)
		return mm->prot & PROT_EXEC;
	return !(rec->header.misc & PERF_RECORD_MISC_MMAP_DATA);
}

static int add_map(struct rd_machine *m, const struct pd_record *rec, size_t size,
		   struct pc_error *err)
{
	struct pd_mmap mm;
	const char *name;
	char jit[64];
	struct pc_map map = { 0 };
	struct pc_dso *dso;
	struct pc_maps *maps;
	bool had_kernel_map;
	int ret = pd_decode_mmap(m->path, rec, size, &mm, err);

	if (ret)
		return ret;
	name = mm.filename;
	if (mm.start + mm.len < mm.start)
		mm.len = UINT64_MAX - mm.start;
	map.start = mm.start;
	map.end = mm.start + mm.len;
	map.pgoff = mm.pgoff;
	/* what perf keeps of the mapping (report --mmaps): MMAP says only "executable" */
	map.prot = rec->header.type == PERF_RECORD_MMAP2 ? mm.prot :
		   rec->header.misc & PERF_RECORD_MISC_MMAP_DATA ? 0 : PROT_EXEC;
	map.mmap_flags = rec->header.type == PERF_RECORD_MMAP2 ? mm.flags : 0;
	map.ino = rec->header.type == PERF_RECORD_MMAP2 && !mm.build_id_size ? mm.ino : 0;
	/*
	 * anonymous executable memory is JIT code, named as perf names it; a
	 * data map (-d) keeps its name ("//anon"): MMAP2 says PROT_EXEC, MMAP
	 * marks data maps with MISC_MMAP_DATA
	 */
	if (mm.pid != (uint32_t)-1 && map_is_exec(rec, &mm) &&
	    (!strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	     !strncmp(name, "/anon_hugepage", 14))) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", (int)mm.pid);
		name = jit;
		map.flags = RD_MAP_JIT;
	}
	dso = pc_dso_cache_get(m->dsos, name);
	if (!dso)
		return pc_error_set(err, ENOMEM, "out of memory");
	map.obj = (uintptr_t)dso;
	/* MMAP2 may carry the build id instead of device and inode */
	if (mm.build_id_size && !dso->build_id[0] && !dso->loaded)
		for (uint8_t i = 0; i < mm.build_id_size; i++)
			snprintf(dso->build_id + 2 * i, 3, "%02x", mm.build_id[i]);
	/* perf's kernel map is made by the kernel's MMAP ("[kernel.kallsyms]_text") alone */
	had_kernel_map = m->kernel_map;
	if ((rec->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL &&
	    !strncmp(name, "[kernel.kallsyms", 16))
		m->kernel_map = true;
	if (mm.pid == (uint32_t)-1) {
		maps = &m->kmaps;
	} else {
		struct rd_thread *t = rd_machine_thread(m, mm.pid, mm.tid);

		if (!t)
			return pc_error_set(err, ENOMEM, "out of memory");
		maps = &t->proc->maps;
	}
	if (pc_maps_insert(maps, &map))
		return pc_error_set(err, ENOMEM, "out of memory");
	if (maps == &m->kmaps || m->kernel_map != had_kernel_map)
		m->kernel_gen++;
	return 0;
}

static void thread_comm(struct rd_thread *t, const char *comm)
{
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->comm_gen++;
	if (!t->comm_set) {
		memcpy(t->first_comm, t->comm, sizeof(t->first_comm));
		t->comm_set = true;
	}
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
	thread_comm(t, c.comm);
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
	/*
	 * as perf: a thread the child's id already names (its COMM read first,
	 * out of time order) goes, and the child starts anew from its parent
	 */
	child = thread_find(m, f.tid);
	if (child && child != parent)
		rd_machine_exit(m, child->pid, f.tid);
	child = rd_machine_thread(m, f.pid, f.tid);
	if (!parent || !child)
		return pc_error_set(err, ENOMEM, "out of memory");
	child->ppid = (int32_t)parent->tid;
	if (child == parent)
		return 0;
	/* as perf: a parent known only by its ":TID" placeholder gives no comm */
	snprintf(placeholder, sizeof(placeholder), ":%d", (int)parent->tid);
	if (strcmp(parent->comm, placeholder))
		thread_comm(child, parent->comm);
	/*
	 * a new process starts with a copy of its parent's address space;
	 * not one perf record synthesized for a running process (FORK_EXEC):
	 * its own MMAPs follow, and perf copies nothing (its maps would overlap)
	 */
	if (f.pid != f.ppid && child->proc != parent->proc &&
	    !(rec->header.misc & PERF_RECORD_MISC_FORK_EXEC) &&
	    pc_maps_copy(&child->proc->maps, &parent->proc->maps))
		return pc_error_set(err, ENOMEM, "out of memory");
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

void rd_machine_exit(struct rd_machine *m, uint32_t pid, uint32_t tid)
{
	struct rd_thread **link;

	if (!m->threads)
		return;
	for (link = &m->threads[hash_id(tid, m->nr_thread_buckets)]; *link;
	     link = &(*link)->next) {
		struct rd_thread *t = *link;

		if (t->tid != tid)
			continue;
		*link = t->next;
		t->next = m->exited;
		m->exited = t;
		break;
	}
	if (pid == tid)
		pc_aspaces_forget(&m->procs, pid);
}

int rd_machine_each_thread(const struct rd_machine *m,
			   int (*fn)(const struct rd_thread *t, void *ctx), void *ctx)
{
	int ret = 0;

	for (size_t b = 0; b < m->nr_thread_buckets && !ret; b++)
		for (const struct rd_thread *t = m->threads[b]; t && !ret; t = t->next)
			ret = fn(t, ctx);
	return ret;
}

void rd_machine_threads_free(struct rd_machine *m)
{
	struct rd_thread *t, *n;

	for (t = m->exited; t; t = n) {
		n = t->next;
		free(t);
	}
	m->exited = NULL;
	for (size_t b = 0; b < m->nr_thread_buckets; b++) {
		for (t = m->threads[b]; t; t = n) {
			n = t->next;
			free(t);
		}
	}
	free(m->threads);
	m->threads = NULL;
	m->nr_thread_buckets = 0;
	pc_aspaces_free(&m->procs);
	pc_maps_free(&m->kmaps);
}
