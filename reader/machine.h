/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine stage: threads and processes with their address spaces
 * (COMM, FORK, MMAP, MMAP2), the kernel's maps and kallsyms, and resolving
 * an ip to a symbol and DSO (with a cache valid while the generation of
 * the ip's address space is unchanged).
 * Samples and deferred records go on to the consumer; state records end
 * here unless pass_records is set (then they go on once applied).
 */
#ifndef PERFCHECK_READER_MACHINE_H
#define PERFCHECK_READER_MACHINE_H

#include "reader/cgroups.h"
#include "reader/stage.h"
#include "symbols/maps.h"
#include "symbols/symbols.h"

#define RD_COMM_LEN 32

/*
 * Address spaces are lib/symbols' model (symbols/maps.h): a process is a
 * struct pc_aspace, its maps a struct pc_maps (maps.gen: the unwinder's
 * cache), and each struct pc_map's obj the struct pc_dso it maps, flags
 * RD_MAP_JIT for JIT code.
 */
#define RD_MAP_JIT	1u	/* JIT code: addresses are absolute (perf-PID.map) */

static inline struct pc_dso *rd_map_dso(const struct pc_map *map)
{
	return (struct pc_dso *)map->obj;
}

struct rd_thread {
	uint32_t pid, tid;
	int32_t ppid;			/* its FORK's parent thread, -1 without one (perf's) */
	char comm[RD_COMM_LEN];
	uint32_t comm_gen;		/* bumped when comm is written: caches compare it */
	/*
	 * The first comm a COMM or FORK gave (comm_set): perf writes it over
	 * the ":TID" placeholder, so rows made before it show it (report)
	 */
	bool comm_set;
	char first_comm[RD_COMM_LEN];
	struct pc_aspace *proc;		/* its address space, shared by its process */
	struct rd_thread *next;
};

struct rd_resolved {
	const struct pc_symbol *sym;	/* NULL when unknown */
	const char *dso;		/* NULL when no map */
	size_t dso_len;
	const struct pc_dso *obj;	/* a user map's object (its short name), else NULL */
	uint64_t addr;			/* as perf 6.1 prints it: map-relative for user maps */
	uint64_t off;			/* ip - symbol start */
	uint64_t dso_rank;		/* the object's place among objects (RD_RANK_*) */
	uint64_t map;			/* a user map's identity (pc_map.id), else 0 */
};

/*
 * perf 6.1 orders objects by the address of its record of each, that is
 * as it made them: the kernel's and its modules' when the session starts
 * (modules in /proc/modules order, the order kallsyms lists them in), then
 * one per file as the maps of the recording name it.  No object is lowest.
 * A rank says that order without depending on where an allocator puts things.
 */
#define RD_RANK_NONE	0
#define RD_RANK_KERNEL	1
#define RD_RANK_MODULE	2			/* + the name's place in the kallsyms names */
#define RD_RANK_DSO	(1ULL << 40)		/* + pc_dso seq */

struct rd_rcache;
struct rd_unwind;

struct rd_machine {
	const char *path;		/* of the file, for messages */
	struct rd_thread **threads;	/* hash by tid */
	size_t nr_thread_buckets;
	struct pc_aspaces procs;	/* address spaces by pid */
	struct pc_maps kmaps;
	struct pc_dso_cache *dsos;	/* not owned */
	bool kernel_local;		/* kallsyms of this machine apply */
	const char *kallsyms_path;	/* --kallsyms: the kernel's symbols, wherever recorded */
	bool kernel_map;		/* the kernel's own MMAP came: without it perf has no kernel map */
	struct pc_kallsyms kallsyms;
	struct rd_rcache *rcache;
	uint64_t kernel_gen;		/* bumped when the kernel's maps change */
	struct rd_unwind *unwind;	/* DWARF user frames, NULL: none (owned) */
	bool pass_records;		/* state and other records go on too, once applied */
	/*
	 * perf script since 6.8 (keep_exited_threads unset): a thread's EXIT
	 * removes it, and a process's its maps; what comes after (deferred
	 * samples, samples of the exit path) finds a new ":TID" with none
	 */
	bool forget_exited;
	struct rd_thread *exited;	/* threads removed so, freed with the machine */
	struct rd_cgroups cgroups;	/* PERF_RECORD_CGROUP's ids and paths */
	struct rd_sink out;
};

void rd_machine_init(struct rd_machine *m, const char *path, struct pc_dso_cache *dsos,
		     struct rd_sink out);
int rd_machine_deliver(void *ctx, struct rd_item *it, struct pc_error *err);
/* A state record; trailer: bytes of its sample_id at the end. */
int rd_machine_record(struct rd_machine *m, const struct pd_record *rec, size_t trailer,
		      struct pc_error *err);
/* The thread a tid belongs to, created (comm ":TID") when unknown; NULL: no memory. */
struct rd_thread *rd_machine_thread(struct rd_machine *m, uint32_t pid, uint32_t tid);
/* Resolves one ip of thread t; kernel selects the kernel maps. */
void rd_machine_resolve(struct rd_machine *m, struct rd_thread *t, bool kernel, uint64_t ip,
			struct rd_resolved *out);
void rd_machine_free(struct rd_machine *m);
/*
 * The kernel symbol holding addr and the offset into it (*off), NULL when
 * none: a rd_ksym_fn (reader/recfmt.h) of machine ctx
 */
const char *rd_machine_ksym(void *ctx, uint64_t addr, uint64_t *off);

/*
 * What a resolution of an ip in the kernel's or t's address space depends
 * on, as a number that changes when it does: the kernel's maps, or the
 * maps of t's process.  Processes live as long as the machine, so a space
 * and its generation always name the same maps: a cache keyed on both is
 * not emptied by every process's exec and forks, as one on gen would be.
 */
static inline uint64_t rd_machine_space_gen(const struct rd_machine *m,
					    const struct rd_thread *t, bool kernel)
{
	if (kernel)
		return m->kernel_gen;
	return t && t->proc ? t->proc->maps.gen : 0;
}

/* thread.c: frees the threads and address spaces */
void rd_machine_threads_free(struct rd_machine *m);
/* fn on every thread the machine holds (exited ones removed excepted); fn's non-zero stops */
int rd_machine_each_thread(const struct rd_machine *m,
			   int (*fn)(const struct rd_thread *t, void *ctx), void *ctx);
/* Thread tid exited (forget_exited): unlinked, and its process's maps when it led it. */
void rd_machine_exit(struct rd_machine *m, uint32_t pid, uint32_t tid);

#endif
