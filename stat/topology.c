// SPDX-License-Identifier: GPL-2.0
/*
 * The cpu topology perf stat aggregates by: sysfs's socket
 * (physical_package_id), die (die_id, 0 before kernels had it), core
 * (core_id) and NUMA node (the node directory holding the cpu).
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

struct stat_cpu_at stat_cpu_at(int cpu)
{
	struct stat_cpu_at at = {
		.cpu = cpu,
		.socket = read_id(cpu, "physical_package_id", -1),
		/* kernels before die_id: one die per socket, as perf takes it */
		.die = read_id(cpu, "die_id", 0),
		.core = read_id(cpu, "core_id", -1),
		.node = node_of(cpu),
	};

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
	default:
		return 0;
	}
}
