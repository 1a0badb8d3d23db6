// SPDX-License-Identifier: GPL-2.0
/*
 * perf 6.1's order follows its thread table: 256 buckets by tid, each a
 * tree by tid.  A thread is put under its parent when first met in that
 * order, walking up until an ancestor already placed or a thread without a
 * parent (a root, listed at the top); children print in the order they
 * were put, one space deeper each level.  perf 7.2 sorts the threads by tid
 * and puts every thread without a parent under swapper (tid 0), the one
 * root.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "reader/report_tasks.h"

struct task {
	const struct rd_thread *t;
	int parent;		/* index, -1 for a root */
	int first_child, last_child, next_sibling;	/* -1: none */
	bool placed;
};

struct tasks {
	struct task *v;
	size_t nr, cap;
	struct tid_index *by_tid;	/* v's tids in order: find's */
};

struct tid_index {
	int32_t tid;
	int i;			/* into v */
};

static int collect(const struct rd_thread *t, void *ctx)
{
	struct tasks *ts = ctx;

	if (ts->nr == ts->cap) {
		size_t cap = ts->cap ? 2 * ts->cap : 256;
		struct task *v = realloc(ts->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		ts->v = v;
		ts->cap = cap;
	}
	ts->v[ts->nr++] = (struct task){ .t = t, .parent = -1, .first_child = -1,
					 .last_child = -1, .next_sibling = -1 };
	return 0;
}

static int tid_order(const void *x, const void *y)
{
	const struct task *a = x, *b = y;
	int32_t ta = (int32_t)a->t->tid, tb = (int32_t)b->t->tid;

	return (ta > tb) - (ta < tb);
}

static int table_order(const void *x, const void *y)
{
	const struct task *a = x, *b = y;
	int32_t ta = (int32_t)a->t->tid, tb = (int32_t)b->t->tid;
	int ba = ta & 255, bb = tb & 255;

	if (ba != bb)
		return ba < bb ? -1 : 1;
	return (ta > tb) - (ta < tb);
}

static int tid_index_order(const void *x, const void *y)
{
	const struct tid_index *a = x, *b = y;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

static int index_by_tid(struct tasks *ts)
{
	ts->by_tid = malloc((ts->nr ? ts->nr : 1) * sizeof(*ts->by_tid));
	if (!ts->by_tid)
		return -ENOMEM;
	for (size_t i = 0; i < ts->nr; i++)
		ts->by_tid[i] = (struct tid_index){ (int32_t)ts->v[i].t->tid, (int)i };
	qsort(ts->by_tid, ts->nr, sizeof(*ts->by_tid), tid_index_order);
	return 0;
}

/* The index of thread tid (the first of that tid), -1 when there is none. */
static int find(const struct tasks *ts, int32_t tid)
{
	size_t lo = 0, hi = ts->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ts->by_tid[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ts->nr && ts->by_tid[lo].tid == tid ? ts->by_tid[lo].i : -1;
}

/* child after its parent's others, or (perf 7.2) among them by tid */
static void add_child(struct tasks *ts, int parent, int child, bool by_tid)
{
	struct task *p = &ts->v[parent];
	int *link = &p->first_child;

	ts->v[child].placed = true;
	/* in tid order, children mostly come in that order: append them at once */
	if (!by_tid || p->last_child < 0 ||
	    (int32_t)ts->v[p->last_child].t->tid < (int32_t)ts->v[child].t->tid) {
		if (p->last_child < 0)
			p->first_child = child;
		else
			ts->v[p->last_child].next_sibling = child;
		p->last_child = child;
		return;
	}
	while (*link >= 0 && (int32_t)ts->v[*link].t->tid < (int32_t)ts->v[child].t->tid)
		link = &ts->v[*link].next_sibling;
	ts->v[child].next_sibling = *link;
	*link = child;	/* before the last child: last_child stays */
}

/* --mmaps: the thread's process's maps under it, perf's columns, indented past its ids */
static void print_maps(const struct rd_thread *t, int indent, struct rd_out *o)
{
	const struct pc_maps *maps = t->proc ? &t->proc->maps : NULL;

	for (size_t k = 0; maps && k < maps->nr; k++) {
		const struct pc_map *m = &maps->v[k];
		const struct pc_dso *dso = (const struct pc_dso *)m->obj;

		rd_out_printf(o, "%*s  %llx-%llx %c%c%c%c %08llx %llu %s\n", indent, "",
			      (unsigned long long)m->start, (unsigned long long)m->end,
			      m->prot & PROT_READ ? 'r' : '-', m->prot & PROT_WRITE ? 'w' : '-',
			      m->prot & PROT_EXEC ? 'x' : '-', m->mmap_flags & MAP_SHARED ? 's' : 'p',
			      (unsigned long long)m->pgoff, (unsigned long long)m->ino,
			      dso ? dso->path : "");
	}
}

static void print_level(const struct tasks *ts, int i, int level, bool maps, struct rd_out *o)
{
	for (; i >= 0; i = ts->v[i].next_sibling) {
		const struct rd_thread *t = ts->v[i].t;
		char ids[64];
		int indent = snprintf(ids, sizeof(ids), "  %8d %8d %8d |%*s", (int)t->pid,
				      (int)t->tid, (int)t->ppid, level, "");

		rd_out_printf(o, "%s%s\n", ids, t->comm);
		if (maps)
			print_maps(t, indent, o);
		print_level(ts, ts->v[i].first_child, level + 1, maps, o);
	}
}

int rp_tasks_print(struct rd_session *s, struct rd_out *o, bool layout_7_2, bool maps)
{
	struct tasks ts = { 0 };
	int first_root = -1, last_root = -1, ret;

	/* perf registers the idle thread, swapper, at the start of every session */
	if (!rd_machine_thread(&s->machine, 0, 0))
		return -ENOMEM;
	ret = rd_machine_each_thread(&s->machine, collect, &ts);
	if (ret) {
		free(ts.v);
		return ret;
	}
	qsort(ts.v, ts.nr, sizeof(*ts.v), layout_7_2 ? tid_order : table_order);
	if (index_by_tid(&ts)) {
		free(ts.v);
		return -ENOMEM;
	}
	for (size_t k = 0; k < ts.nr; k++) {
		int i = (int)k;

		/* up the parents until one placed already, or a root */
		while (!ts.v[i].placed) {
			int p = ts.v[i].t->ppid == -1 ? -1 : find(&ts, ts.v[i].t->ppid);

			/* perf 7.2: swapper the one root, the others its children */
			if (layout_7_2 && (p < 0 || p == i) && ts.v[i].t->tid != 0)
				p = find(&ts, 0);
			if (p < 0 || p == i) {
				/* a root (a parent that is not there: perf fails; shown as a root) */
				ts.v[i].placed = true;
				if (last_root < 0)
					first_root = i;
				else
					ts.v[last_root].next_sibling = i;
				last_root = i;
				break;
			}
			add_child(&ts, p, i, layout_7_2);
			i = p;
		}
	}
	rd_out_printf(o, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	print_level(&ts, first_root, 0, maps, o);
	free(ts.by_tid);
	free(ts.v);
	return 0;
}
