/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The address-space model: a process's executable maps, sorted and
 * non-overlapping (a new mmap cuts what it covers, as the kernel does),
 * found by binary search; and the set of processes by pid.  What a map
 * points at is the caller's: a DSO pointer, an index.
 */
#ifndef PERFCHECK_SYMBOLS_MAPS_H
#define PERFCHECK_SYMBOLS_MAPS_H

#include <stddef.h>
#include <stdint.h>

struct pc_map {
	uint64_t start, end, pgoff;
	uintptr_t obj;			/* the caller's: DSO pointer or index */
	uint32_t flags;			/* the caller's */
	uint32_t prot, mmap_flags;	/* as the MMAP2 record says (PROT_*, MAP_*) */
	uint64_t ino;			/* the file's inode, from MMAP2 (0 without) */
	/*
	 * this map's identity, as perf's struct map: new for each map made,
	 * each piece an overlap cuts off and each copy a fork makes (set by
	 * pc_maps_insert and pc_maps_copy)
	 */
	uint64_t id;
};

struct pc_maps {
	struct pc_map *v;		/* sorted by start; may move on insert */
	size_t nr, cap;
	uint64_t gen;			/* bumped by every change: a cache of lookups keys on it */
};

/* Inserts [start, end), cutting whatever it overlaps; -ENOMEM or 0. */
int pc_maps_insert(struct pc_maps *m, const struct pc_map *n);
/* The map holding addr, or NULL; valid until the next insert. */
const struct pc_map *pc_maps_find(const struct pc_maps *m, uint64_t addr);
/* The same; when NULL, [*lo, *hi) is the hole around addr, which no map touches. */
const struct pc_map *pc_maps_find_hole(const struct pc_maps *m, uint64_t addr, uint64_t *lo,
				       uint64_t *hi);
/* dst becomes a copy of src (a fork). */
int pc_maps_copy(struct pc_maps *dst, const struct pc_maps *src);
void pc_maps_free(struct pc_maps *m);

/* Processes by pid, each with its maps; each allocated on its own. */
struct pc_aspace {
	uint32_t pid;
	struct pc_maps maps;
	struct pc_aspace *next;		/* hash chain */
};

struct pc_aspaces {
	struct pc_aspace **buckets;
	size_t nr_buckets, nr;
	struct pc_aspace *forgotten;	/* unlinked by pc_aspaces_forget, freed with the rest */
};

/* The process pid, created (with no maps) on first use; NULL on ENOMEM. */
struct pc_aspace *pc_aspaces_get(struct pc_aspaces *a, uint32_t pid);
struct pc_aspace *pc_aspaces_find(const struct pc_aspaces *a, uint32_t pid);
/*
 * Process pid is gone (its exit): the next get makes a new one with no
 * maps; the old one stays valid for whoever holds it until pc_aspaces_free.
 */
void pc_aspaces_forget(struct pc_aspaces *a, uint32_t pid);
/* Calls fn on every process until it returns non-zero (returned). */
int pc_aspaces_for_each(const struct pc_aspaces *a,
			int (*fn)(const struct pc_aspace *as, void *priv), void *priv);
void pc_aspaces_free(struct pc_aspaces *a);

#endif
