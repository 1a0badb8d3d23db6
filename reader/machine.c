// SPDX-License-Identifier: GPL-2.0
/*
 * The machine stage's flow and lookups: state records update the threads
 * and maps (thread.c); samples and deferred records go on; an ip resolves
 * to a symbol through the maps of its address space or kallsyms.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/codec.h"
#include "reader/machine.h"
#include "reader/unwind_stage.h"

struct rd_rcache {
	uint64_t ip;
	const void *space;	/* the process, or the machine (kernel) */
	uint64_t gen;		/* the space's generation + 1 */
	struct rd_resolved r;
};

void rd_machine_init(struct rd_machine *m, const char *path, struct pc_dso_cache *dsos,
		     struct rd_sink out)
{
	memset(m, 0, sizeof(*m));
	m->path = path;
	m->dsos = dsos;
	m->out = out;
}

int rd_machine_deliver(void *ctx, struct rd_item *it, struct pc_error *err)
{
	struct rd_machine *m = ctx;
	struct pd_record rec = { .offset = it->offset, .data = it->data };
	int ret;

	switch (it->type) {
	case PERF_RECORD_SAMPLE:
		if (m->unwind && it->p) {
			const struct pd_sample *smp = &it->p->smp;

			ret = rd_unwind_item(m->unwind, m->path,
					     rd_machine_thread(m, smp->pid, smp->tid), it, err);
			if (ret) {
				rd_item_release(it);
				return ret;
			}
		}
		return rd_sink_put(&m->out, it, err);
	case PC_RECORD_CALLCHAIN_DEFERRED:
		return rd_sink_put(&m->out, it, err);
	case PERF_RECORD_EXIT: {
		uint32_t ids[4];	/* pid, ppid, tid, ptid */
		bool whole = ((const struct perf_event_header *)it->data)->size >=
			     sizeof(struct perf_event_header) + sizeof(ids);

		if (whole)
			memcpy(ids, (const uint8_t *)it->data + sizeof(struct perf_event_header),
			       sizeof(ids));
		/* a process's end: its unwinding state goes (its pid == tid) */
		if (m->unwind && whole && ids[0] == ids[2])
			rd_unwind_forget(m->unwind, ids[0]);
		/* shown (--show-task-events) with the thread it ends, then forgotten */
		ret = 0;
		if (m->pass_records)
			ret = rd_sink_put(&m->out, it, err);
		else
			rd_item_release(it);
		if (m->forget_exited && whole)
			rd_machine_exit(m, ids[0], ids[2]);
		return ret;
	}
	case PERF_RECORD_COMM:
		/* an exec replaces the address space the unwinder knew */
		if (m->unwind && (((const struct perf_event_header *)it->data)->misc &
				  PERF_RECORD_MISC_COMM_EXEC) &&
		    ((const struct perf_event_header *)it->data)->size >=
			    sizeof(struct perf_event_header) + 8) {
			uint32_t pid;

			memcpy(&pid, (const uint8_t *)it->data + sizeof(struct perf_event_header),
			       sizeof(pid));
			rd_unwind_forget(m->unwind, pid);
		}
		/* fall through */
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_FORK:
		memcpy(&rec.header, it->data, sizeof(rec.header));
		ret = rd_machine_record(m, &rec, it->p ? it->p->smp.evsel->sample_id_size : 0, err);
		if (!ret && m->pass_records)
			return rd_sink_put(&m->out, it, err);
		rd_item_release(it);
		return ret;
	case PERF_RECORD_CGROUP: {
		struct pd_cgroup c;
		size_t trailer = it->p ? it->p->smp.evsel->sample_id_size : 0;

		memcpy(&rec.header, it->data, sizeof(rec.header));
		ret = rec.header.size < trailer ?
		      pd_record_too_short(m->path, &rec, trailer + 16, err) :
		      pd_decode_cgroup(m->path, &rec, rec.header.size - trailer, &c, err);
		if (!ret && rd_cgroups_set(&m->cgroups, c.id, c.path))
			ret = pc_error_set(err, ENOMEM, "out of memory");
		if (!ret && m->pass_records)
			return rd_sink_put(&m->out, it, err);
		rd_item_release(it);
		return ret;
	}
	default:
		/* the round marker comes this far only where nothing is time-ordered */
		if (m->pass_records && (it->type < PC_RECORD_HEADER_ATTR ||
					it->type == PC_RECORD_FINISHED_ROUND))
			return rd_sink_put(&m->out, it, err);
		rd_item_release(it);
		return 0;
	}
}

/* Kernel addresses: the module maps when one holds ip, else the kernel itself. */
static void resolve_kernel(struct rd_machine *m, uint64_t ip, struct rd_resolved *out)
{
	const struct pc_map *map = pc_maps_find(&m->kmaps, ip);

	out->addr = ip;
	/* no kernel MMAP, no kernel map: perf shows [unknown] outside the modules' maps */
	if (!m->kernel_map && !map)
		return;
	out->dso = "[kernel.kallsyms]";
	out->dso_len = 17;
	out->dso_rank = RD_RANK_KERNEL;
	if (!m->kernel_local && !m->kallsyms_path)
		return;
	if (!m->kallsyms.loaded)
		pc_kallsyms_load(&m->kallsyms, m->kallsyms_path ? m->kallsyms_path : "/proc/kallsyms");
	out->sym = pc_symtab_find(&m->kallsyms.tab, ip);
	if (out->sym) {
		out->off = ip - out->sym->start;
		if (out->sym->module) {
			out->dso = out->sym->module;
			out->dso_len = strlen(out->dso);
			/* interned once each, in the order kallsyms lists the modules */
			out->dso_rank = RD_RANK_MODULE +
					(uint64_t)(out->dso - m->kallsyms.tab.names);
		}
	} else if (map && rd_map_dso(map)->path[0] == '/') {
		out->dso = rd_map_dso(map)->path;
		out->dso_len = rd_map_dso(map)->path_len;
		out->dso_rank = RD_RANK_DSO + rd_map_dso(map)->seq;
	}
}

static void resolve(struct rd_machine *m, struct rd_thread *t, bool kernel, uint64_t ip,
		    struct rd_resolved *out)
{
	const struct pc_map *map;
	struct pc_dso *dso;
	uint64_t off, vaddr;

	out->sym = NULL;
	out->dso = NULL;
	out->dso_len = 0;
	out->dso_rank = RD_RANK_NONE;
	out->obj = NULL;
	out->addr = ip;
	out->off = 0;
	out->map = 0;
	if (kernel) {
		if (ip >= 0xffff800000000000ULL)
			resolve_kernel(m, ip, out);
		return;
	}
	map = t && t->proc ? pc_maps_find(&t->proc->maps, ip) : NULL;
	if (!map)
		return;
	dso = rd_map_dso(map);
	out->dso = dso->path;
	out->dso_len = dso->path_len;
	out->dso_rank = RD_RANK_DSO + dso->seq;
	out->obj = dso;
	out->map = map->id;
	if (map->flags & RD_MAP_JIT) {
		pc_dso_load_jitmap(m->dsos, dso);
		out->sym = pc_symtab_find(&dso->tab, ip);
		if (out->sym)
			out->off = ip - out->sym->start;
		return;
	}
	off = ip - map->start + map->pgoff;
	pc_dso_load(m->dsos, dso);
	out->addr = off;	/* what perf 6.1 prints, for ET_EXEC too */
	if (!dso->found || !pc_dso_off_to_vaddr(dso, off, &vaddr))
		return;
	out->sym = pc_symtab_find(&dso->tab, vaddr);
	if (out->sym)
		out->off = vaddr - out->sym->start;
}

#define RD_RCACHE_SIZE 16384

/* The same few thousand ips come back in every sample: remember them. */
void rd_machine_resolve(struct rd_machine *m, struct rd_thread *t, bool kernel, uint64_t ip,
			struct rd_resolved *out)
{
	const void *space = kernel ? (const void *)m : (t ? (const void *)t->proc : NULL);
	struct rd_rcache *c;
	uint64_t gen;

	if (!m->rcache) {
		m->rcache = calloc(RD_RCACHE_SIZE, sizeof(*m->rcache));
		if (!m->rcache) {
			resolve(m, t, kernel, ip, out);
			return;
		}
	}
	gen = rd_machine_space_gen(m, t, kernel) + 1;	/* an empty entry has 0 */
	c = &m->rcache[((ip >> 2) ^ ((uintptr_t)space >> 4)) * 0x9E3779B97F4A7C15ULL >> 50];
	if (c->space == space && c->ip == ip && c->gen == gen) {
		*out = c->r;
		return;
	}
	resolve(m, t, kernel, ip, out);
	c->space = space;
	c->ip = ip;
	c->gen = gen;
	c->r = *out;
}

const char *rd_machine_ksym(void *ctx, uint64_t addr, uint64_t *off)
{
	struct rd_resolved r;

	rd_machine_resolve(ctx, NULL, true, addr, &r);
	if (!r.sym)
		return NULL;
	*off = r.off;
	return r.sym->name;
}

void rd_machine_free(struct rd_machine *m)
{
	rd_unwind_free(m->unwind);
	m->unwind = NULL;
	free(m->rcache);
	m->rcache = NULL;
	pc_kallsyms_free(&m->kallsyms);
	rd_cgroups_free(&m->cgroups);
	rd_machine_threads_free(m);
}
