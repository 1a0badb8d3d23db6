/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroups a recording names (PERF_RECORD_CGROUP: id and path, perf
 * record --all-cgroups synthesizes one per existing cgroup), as perf keeps
 * them for report's "cgroup" key: the first record of an id names it (a
 * later one of the same id changes nothing).
 */
#ifndef PERFCHECK_READER_CGROUPS_H
#define PERFCHECK_READER_CGROUPS_H

#include <stddef.h>
#include <stdint.h>

struct rd_cgroup {
	uint64_t id;
	char *path;
	struct rd_cgroup *next;
};

struct rd_cgroups {
	struct rd_cgroup *buckets[256];
};

/* Names id unless a record named it before; -ENOMEM */
int rd_cgroups_set(struct rd_cgroups *c, uint64_t id, const char *path);
/* The path of id, NULL when no record named it */
const char *rd_cgroups_path(const struct rd_cgroups *c, uint64_t id);
void rd_cgroups_free(struct rd_cgroups *c);

#endif
