// SPDX-License-Identifier: GPL-2.0
/*
 * The cpu topology perf stat aggregates by: sysfs's socket
 * (physical_package_id), die (die_id, 0 before kernels had it), core
 * (core_id), NUMA node (the node directory holding the cpu), cluster
 * (cluster_id, 0 before kernels had it) and cache (cache/indexN: its level,
 * and the lowest cpu of its shared_cpu_list as its id).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stat/stat.h"

static int read_id(int cpu, const char *what, int missing)
{
	char path[128];
	FILE *f;
	int v;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	f = fopen(path, "re");
	if (!f)
		return missing;
	if (fscanf(f, "%d", &v) != 1)
		v = missing;
	fclose(f);
	return v;
}

static int node_of(int cpu)
{
	char path[128];
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *e;
	int node = -1;

	if (!d)
		return -1;
	while ((e = readdir(d)) && node < 0) {
		int n;

		if (sscanf(e->d_name, "node%d", &n) != 1)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpu%d", n, cpu);
		if (!access(path, F_OK))
			node = n;
	}
	closedir(d);
	return node;
}

/* The lowest cpu of a cpu list ("0-3,8"), -1 when it names none. */
static int lowest_cpu(const char *list)
{
	int lowest = -1;

	while (*list) {
		char *end;
		long v = strtol(list, &end, 10);

		if (end == list)
			break;
		if (v >= 0 && v <= 1 << 20 && (lowest < 0 || v < lowest))
			lowest = (int)v;
		list = end + strspn(end, "-,\n");
	}
	return lowest;
}

/* One line of cache/indexN/WHAT into buf; 0, or -1 when it cannot be read. */
static int read_cache_file(int cpu, int index, const char *what, char *buf, size_t size)
{
	char path[160];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/%s", cpu,
		 index, what);
	f = fopen(path, "re");
	if (!f)
		return -1;
	ret = fgets(buf, (int)size, f) ? 0 : -1;
	fclose(f);
	return ret;
}

/*
 * perf's --per-cache aggregate of a cpu: the first cache index of the
 * level asked (want 0: of the highest level), its id the lowest cpu sharing
 * it (the cpu itself when the list is empty).  Without caches in sysfs, or
 * with one that cannot be read, level and id are -1 (perf prints
 * "L-1-ID-1"); with caches but none of the level asked, the id alone is -1.
 */
static void cache_of(int cpu, int want, int *level, int *id)
{
	char map[4096], buf[64];
	bool index0_missing = false;
	int best = -1;

	*level = -1;
	*id = -1;
	for (int index = 0; index < 10; index++) {
		int lvl;

		/* perf stops at the first index that is not there */
		if (read_cache_file(cpu, index, "level", buf, sizeof(buf))) {
			char path[128];

			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d",
				 cpu, index);
			if (!access(path, F_OK))
				return;		/* there, unreadable: perf's error */
			index0_missing = index == 0;
			break;
		}
		lvl = atoi(buf);
		if (read_cache_file(cpu, index, "shared_cpu_list", map, sizeof(map)))
			return;
		if (want ? lvl == want : lvl > best) {
			best = lvl;
			*id = lowest_cpu(map) >= 0 ? lowest_cpu(map) : cpu;
			if (want)
				break;
		}
	}
	if (index0_missing)
		return;		/* no caches: perf's error too */
	*level = want ? want : best;
}

struct stat_cpu_at stat_cpu_at(int cpu, int cache_level)
{
	struct stat_cpu_at at = {
		.cpu = cpu,
		.socket = read_id(cpu, "physical_package_id", -1),
		/* kernels before die_id: one die per socket, as perf takes it */
		.die = read_id(cpu, "die_id", 0),
		.core = read_id(cpu, "core_id", -1),
		.node = node_of(cpu),
		/* kernels before cluster_id: one cluster, 0, as perf takes it */
		.cluster = read_id(cpu, "cluster_id", 0),
		.cache_level = -1,
		.cache = -1,
	};

	if (at.cluster < 0)
		at.cluster = 0;
	/* only --per-cache reads the caches: a dozen files a cpu */
	if (cache_level >= 0)
		cache_of(cpu, cache_level, &at.cache_level, &at.cache);
	return at;
}

bool stat_same_aggr(enum stat_aggr mode, const struct stat_cpu_at *a, const struct stat_cpu_at *b)
{
	return !stat_aggr_cmp(mode, a, b);
}

static int cmp_int(int a, int b)
{
	return (a > b) - (a < b);
}

int stat_aggr_cmp(enum stat_aggr mode, const struct stat_cpu_at *a, const struct stat_cpu_at *b)
{
	int c;

	switch (mode) {
	case STAT_AGGR_CPU:
		return cmp_int(a->cpu, b->cpu);
	case STAT_AGGR_NODE:
		return cmp_int(a->node, b->node);
	case STAT_AGGR_SOCKET:
		return cmp_int(a->socket, b->socket);
	case STAT_AGGR_DIE:
		c = cmp_int(a->socket, b->socket);
		return c ? c : cmp_int(a->die, b->die);
	case STAT_AGGR_CORE:
		c = cmp_int(a->socket, b->socket);
		c = c ? c : cmp_int(a->die, b->die);
		return c ? c : cmp_int(a->core, b->core);
	case STAT_AGGR_CLUSTER:
		c = cmp_int(a->socket, b->socket);
		c = c ? c : cmp_int(a->die, b->die);
		return c ? c : cmp_int(a->cluster, b->cluster);
	case STAT_AGGR_CACHE:
		c = cmp_int(a->socket, b->socket);
		c = c ? c : cmp_int(a->die, b->die);
		c = c ? c : cmp_int(a->cache_level, b->cache_level);
		return c ? c : cmp_int(a->cache, b->cache);
	default:
		return 0;
	}
}
