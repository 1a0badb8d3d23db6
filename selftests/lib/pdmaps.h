/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal per-process map table built from a perf.data file's MMAP,
 * MMAP2, COMM (exec) and FORK records, for the unwinder's tests and its
 * benchmark (the reader has its own; this one exists so that the unwinder
 * is checked against perf without the reader in between).
 */
#ifndef PERFCHECK_SELFTESTS_PDMAPS_H
#define PERFCHECK_SELFTESTS_PDMAPS_H

#include <stdint.h>

#include "perfdata/perfdata.h"
#include "symbols/symbols.h"
#include "symbols/unwind.h"

struct pdm_map {
	uint64_t start, end, pgoff;
	char *path;
	struct pc_dso *dso;	/* looked up on first use */
};

struct pdm_proc {
	uint32_t pid;
	struct pdm_map *maps;	/* in arrival order: the last one wins */
	size_t nr, cap;
	size_t last;		/* the map of the last lookup */
	uint64_t gen;		/* changes with every change of the maps, never 0 */
};

struct pdmaps {
	struct pdm_proc **procs;
	size_t nr, cap;
	struct pc_dso_cache dsos;
	uint32_t cur_pid;	/* the process pdmaps_find looks in */
};

void pdmaps_init(struct pdmaps *m);
void pdmaps_free(struct pdmaps *m);
/* Takes a user MMAP/MMAP2, an exec COMM, a FORK into the table; other records are ignored. */
int pdmaps_record(struct pdmaps *m, const struct pd_record *rec);
/* The maps generation of pid (pc_unwind_sample.maps_gen), 0 when unknown. */
uint64_t pdmaps_gen(struct pdmaps *m, uint32_t pid);
/* pc_unwind_find_map_fn over m->cur_pid's maps (ctx is the struct pdmaps). */
int pdmaps_find(void *ctx, uint64_t addr, struct pc_unwind_map *out);

/* "sym+0xoff" (or "[unknown]") and perf 6.1's map-relative address of ip in pid. */
void pdmaps_describe(struct pdmaps *m, uint32_t pid, uint64_t ip, uint64_t *rel,
		     char *sym, size_t size);

#endif
