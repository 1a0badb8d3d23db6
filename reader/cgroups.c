// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/cgroups.h"

static size_t bucket(uint64_t id)
{
	return (size_t)((id * 0x9E3779B97F4A7C15ULL) >> 56);
}

int rd_cgroups_set(struct rd_cgroups *c, uint64_t id, const char *path)
{
	struct rd_cgroup **head = &c->buckets[bucket(id)], *g;

	for (g = *head; g; g = g->next)
		if (g->id == id)
			return 0;
	g = calloc(1, sizeof(*g));
	if (!g || !(g->path = strdup(path))) {
		free(g);
		return -ENOMEM;
	}
	g->id = id;
	g->next = *head;
	*head = g;
	return 0;
}

const char *rd_cgroups_path(const struct rd_cgroups *c, uint64_t id)
{
	for (const struct rd_cgroup *g = c->buckets[bucket(id)]; g; g = g->next)
		if (g->id == id)
			return g->path;
	return NULL;
}

void rd_cgroups_free(struct rd_cgroups *c)
{
	for (size_t b = 0; b < sizeof(c->buckets) / sizeof(c->buckets[0]); b++) {
		struct rd_cgroup *g = c->buckets[b], *n;

		for (; g; g = n) {
			n = g->next;
			free(g->path);
			free(g);
		}
		c->buckets[b] = NULL;
	}
}
