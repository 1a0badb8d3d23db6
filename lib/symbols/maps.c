// SPDX-License-Identifier: GPL-2.0
/* Sorted, non-overlapping maps per process, and processes by pid. */
#include "symbols/maps.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int maps_reserve(struct pc_maps *m, size_t extra)
{
	if (m->nr + extra > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;
		struct pc_map *v;

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

/* perf makes a new struct map for each of these: a number no other map has had */
static uint64_t new_map_id(void)
{
	static uint64_t last;

	return __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

int pc_maps_insert(struct pc_maps *m, const struct pc_map *n)
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
		struct pc_map head = m->v[i];

		head.end = n->start;
		head.id = new_map_id();
		if (m->v[i].end > n->end) {
			struct pc_map tail = m->v[i];

			tail.pgoff += n->end - tail.start;
			tail.start = n->end;
			tail.id = new_map_id();
			memmove(&m->v[i + 2], &m->v[i + 1], (m->nr - i - 1) * sizeof(*m->v));
			m->v[i] = head;
			m->v[i + 1] = tail;
			m->nr++;
		} else {
			m->v[i] = head;
		}
		i++;
	}
	/* drop the maps it covers whole, trim the one sticking out at its end */
	j = i;
	while (j < m->nr && m->v[j].end <= n->end)
		j++;
	if (j < m->nr && m->v[j].start < n->end) {
		m->v[j].pgoff += n->end - m->v[j].start;
		m->v[j].start = n->end;
		m->v[j].id = new_map_id();
	}
	memmove(&m->v[i + 1], &m->v[j], (m->nr - j) * sizeof(*m->v));
	m->nr = m->nr - (j - i) + 1;
	m->v[i] = *n;
	m->v[i].id = new_map_id();
	m->gen++;
	return 0;
}

/* How many maps start at or below addr. */
static size_t maps_upto(const struct pc_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct pc_map *pc_maps_find(const struct pc_maps *m, uint64_t addr)
{
	size_t n = maps_upto(m, addr);

	if (n && addr < m->v[n - 1].end)
		return &m->v[n - 1];
	return NULL;
}

const struct pc_map *pc_maps_find_hole(const struct pc_maps *m, uint64_t addr, uint64_t *lo,
				       uint64_t *hi)
{
	size_t n = maps_upto(m, addr);

	if (n && addr < m->v[n - 1].end)
		return &m->v[n - 1];
	*lo = n ? m->v[n - 1].end : 0;
	*hi = n < m->nr ? m->v[n].start : UINT64_MAX;
	return NULL;
}

int pc_maps_copy(struct pc_maps *dst, const struct pc_maps *src)
{
	dst->gen++;
	dst->nr = 0;
	if (!src->nr)
		return 0;
	if (maps_reserve(dst, src->nr))
		return -ENOMEM;
	memcpy(dst->v, src->v, src->nr * sizeof(*src->v));
	dst->nr = src->nr;
	for (size_t i = 0; i < dst->nr; i++)
		dst->v[i].id = new_map_id();
	return 0;
}

void pc_maps_free(struct pc_maps *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static size_t bucket(uint32_t pid, size_t n)
{
	return (size_t)((pid * 2654435761u) % n);
}

struct pc_aspace *pc_aspaces_find(const struct pc_aspaces *a, uint32_t pid)
{
	if (!a->nr_buckets)
		return NULL;
	for (struct pc_aspace *p = a->buckets[bucket(pid, a->nr_buckets)]; p; p = p->next)
		if (p->pid == pid)
			return p;
	return NULL;
}

static int grow(struct pc_aspaces *a)
{
	size_t n = a->nr_buckets ? a->nr_buckets * 2 : 64;
	struct pc_aspace **b = calloc(n, sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < a->nr_buckets; i++) {
		struct pc_aspace *p = a->buckets[i], *next;

		for (; p; p = next) {
			size_t k = bucket(p->pid, n);

			next = p->next;
			p->next = b[k];
			b[k] = p;
		}
	}
	free(a->buckets);
	a->buckets = b;
	a->nr_buckets = n;
	return 0;
}

struct pc_aspace *pc_aspaces_get(struct pc_aspaces *a, uint32_t pid)
{
	struct pc_aspace *p = pc_aspaces_find(a, pid);
	size_t k;

	if (p)
		return p;
	if (a->nr >= a->nr_buckets && grow(a))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	k = bucket(pid, a->nr_buckets);
	p->next = a->buckets[k];
	a->buckets[k] = p;
	a->nr++;
	return p;
}

void pc_aspaces_forget(struct pc_aspaces *a, uint32_t pid)
{
	struct pc_aspace **link;

	if (!a->nr_buckets)
		return;
	for (link = &a->buckets[bucket(pid, a->nr_buckets)]; *link; link = &(*link)->next) {
		struct pc_aspace *p = *link;

		if (p->pid != pid)
			continue;
		*link = p->next;
		p->next = a->forgotten;
		a->forgotten = p;
		a->nr--;
		return;
	}
}

int pc_aspaces_for_each(const struct pc_aspaces *a,
			int (*fn)(const struct pc_aspace *as, void *priv), void *priv)
{
	for (size_t i = 0; i < a->nr_buckets; i++)
		for (const struct pc_aspace *p = a->buckets[i]; p; p = p->next) {
			int ret = fn(p, priv);

			if (ret)
				return ret;
		}
	return 0;
}

static void free_chain(struct pc_aspace *p)
{
	struct pc_aspace *next;

	for (; p; p = next) {
		next = p->next;
		pc_maps_free(&p->maps);
		free(p);
	}
}

void pc_aspaces_free(struct pc_aspaces *a)
{
	for (size_t i = 0; i < a->nr_buckets; i++)
		free_chain(a->buckets[i]);
	free_chain(a->forgotten);
	free(a->buckets);
	memset(a, 0, sizeof(*a));
}
