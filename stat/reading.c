// SPDX-License-Identifier: GPL-2.0
/*
 * One reading of the counters as lines: summed, per thread (--per-thread)
 * or per aggregate of cpus (-A, --per-*), each line's metric from the
 * counts beside it.  perfcheck stat prints its live readings through this,
 * perfcheck stat report the readings of a file.
 */
#include <stdlib.h>

#include <string.h>

#include "stat/stat.h"

/*
 * The count of counter i: thread t (t < 0: every thread) on the cpus of
 * aggregate a (NULL: every cpu), summed; delta against prev.
 */
static struct stat_count count_of(const struct stat_evlist *l, int i, int t,
				  const struct stat_aggr_of *a, bool delta)
{
	const struct stat_counter *c = &l->c[i];
	struct stat_count sum = { 0 };

	for (int cpu = 0; cpu < l->nr_cpus; cpu++) {
		if (a && !stat_same_aggr(a->mode, &l->cpu_at[cpu], &a->at))
			continue;
		for (int th = 0; th < l->nr_threads; th++) {
			size_t k = (size_t)cpu * l->nr_threads + th;
			struct stat_count v;

			if (t >= 0 && th != t)
				continue;
			v = delta ? stat_count_delta(&c->now[k], &c->prev[k]) : c->now[k];
			sum.val += v.val;
			sum.ena += v.ena;
			sum.run += v.run;
			sum.lost += v.lost;
		}
	}
	return sum;
}

/* Values of one reading, in each event's unit. */
void stat_values_of(const struct stat_evlist *l, int t, const struct stat_aggr_of *a,
		      bool delta, struct stat_value *out)
{
	for (int i = 0; i < l->nr; i++) {
		struct stat_count c = count_of(l, i, t, a, delta);
		double scale;

		out[i] = stat_scale(&c, !l->no_scale);
		stat_event_unit(&l->c[i].attr, &scale);
		out[i].val *= scale;
		out[i].counted = out[i].counted && l->c[i].supported;
	}
}

struct stat_context stat_context_of(const struct stat_evlist *l, const struct stat_value *v,
				   double wall_ns)
{
	struct stat_context ctx = { .wall_ns = wall_ns };
	int clocks = 0;

	for (int i = 0; i < l->nr; i++) {
		const union pc_attr *a = &l->c[i].attr;

		if (!v[i].counted)
			continue;
		if (stat_event_is_clock(a)) {
			ctx.clock_ns += v[i].val * 1e6;
			clocks++;
		} else if (a->attr.type == PERF_TYPE_HARDWARE) {
			uint64_t id = a->attr.config & 0xffffffffULL;

			if (id == PERF_COUNT_HW_CPU_CYCLES)
				ctx.cycles = v[i].val;
			else if (id == PERF_COUNT_HW_BRANCH_INSTRUCTIONS)
				ctx.branches = v[i].val;
		} else if (a->attr.type == PERF_TYPE_HW_CACHE) {
			/* read accesses (cache | READ << 8 | ACCESS << 16): the misses' base */
			uint64_t cache = a->attr.config & 0xff;

			if (cache < 5 && !(a->attr.config >> 8))
				ctx.cache_loads[cache] = v[i].val;
		}
	}
	if (clocks)
		ctx.clock_ns /= clocks;
	return ctx;
}

/*
 * The context of a line in slot (its aggregate, its thread, 0 when summed):
 * with means, the clock a metric divides by is the mean of that slot's
 * clock over the readings so far (not counted: 0), as perf 6.1's stat
 * report keeps it (it never resets its per-reading statistics).
 */
static struct stat_context context_at(const struct stat_evlist *l, const struct stat_value *v,
				      double wall_ns, struct stat_running *means, size_t slot)
{
	struct stat_context ctx = stat_context_of(l, v, wall_ns);
	double clock = 0;
	int clocks = 0;

	if (!means)
		return ctx;
	for (int i = 0; i < l->nr; i++)
		if (stat_event_is_clock(&l->c[i].attr)) {
			clock += v[i].counted ? v[i].val * 1e6 : 0;
			clocks++;
		}
	if (!clocks)
		return ctx;
	stat_running_add(&means[slot], clock / clocks);
	ctx.clock_ns = means[slot].mean;
	ctx.clock_read = true;
	return ctx;
}

/* What perf 6.12 compares of two events before one's clock makes the other's rate */
static bool same_context(const union pc_attr *a, const union pc_attr *b)
{
	return a->attr.exclude_user == b->attr.exclude_user &&
	       a->attr.exclude_kernel == b->attr.exclude_kernel &&
	       a->attr.exclude_hv == b->attr.exclude_hv &&
	       a->attr.exclude_host == b->attr.exclude_host &&
	       a->attr.exclude_idle == b->attr.exclude_idle;
}

/*
 * perf 6.12's clock for the rate of counter i: the first counted clock
 * counting what it counts (seen: -e cpu-clock:k,faults gives faults no
 * rate, where 6.1 takes any clock); 0 when there is none
 */
static double clock_in_context(const struct stat_evlist *l, const struct stat_value *v, int i)
{
	for (int k = 0; k < l->nr; k++)
		if (k != i && v[k].counted && stat_event_is_clock(&l->c[k].attr) &&
		    same_context(&l->c[k].attr, &l->c[i].attr))
			return v[k].val * 1e6;
	return 0;
}

static bool same_cgroup(const struct stat_counter *a, const struct stat_counter *b)
{
	return a->cgroup == b->cgroup || (a->cgroup && b->cgroup && !strcmp(a->cgroup, b->cgroup));
}

/*
 * -G: perf 6.1 keeps its shadow statistics per cgroup, so a rate divides by
 * the clock of the counter's own cgroup (no rate where there is none)
 */
static struct stat_context cgroup_context(const struct stat_evlist *l, int i,
					  const struct stat_value *v, const struct stat_context *ctx)
{
	struct stat_value mine[l->nr];
	struct stat_context own;

	for (int k = 0; k < l->nr; k++) {
		mine[k] = v[k];
		if (!same_cgroup(&l->c[k], &l->c[i]))
			mine[k].counted = false;
	}
	own = stat_context_of(l, mine, ctx->wall_ns);
	own.clock_read = ctx->clock_read;
	return own;
}

/* A line of each counter in [from, to); comm/tid of --per-thread, aggr of -A and --per-* */
void stat_print_values(const struct stat_printer *p, const struct stat_evlist *l, int from,
			 int to, const struct stat_value *v, const struct stat_context *ctx,
			 const double *noise, double interval, const char *comm, int tid,
			 const struct stat_aggr_of *aggr)
{
	for (int i = from; i < to; i++) {
		double scale;
		struct stat_line line;

		/* perf 7.2 leaves out what -d added and the machine cannot count (seen: no PMU) */
		if (p->layout == STAT_LAYOUT_7_2 && l->c[i].detailed && !l->c[i].supported)
			continue;
		line = (struct stat_line){
			.event = l->c[i].name,
			.pmu = l->c[i].pmu,
			.unit = stat_event_unit(&l->c[i].attr, &scale),
			.v = v[i],
			.supported = l->c[i].supported,
			.noise_pct = noise ? noise[i] : -1,
			.comm = comm,
			.tid = tid,
			.aggr = aggr,
			.interval = interval,
			.cgroup = l->cgroup_column ? (l->c[i].cgroup ? l->c[i].cgroup : "") : NULL,
		};

		/*
		 * perf 7.2 takes its metrics from its tables (json): its default
		 * set's Default group (uncounted too, nan), none beside -e's events
		 */
		if (p->layout == STAT_LAYOUT_7_2) {
			if (l->c[i].from_default &&
			    !stat_default_line_7_2(l, i, v, ctx, &line.metric))
				continue;
		} else if (v[i].counted && p->layout == STAT_LAYOUT_6_12 && !ctx->clock_read) {
			struct stat_context own = *ctx;

			own.clock_ns = clock_in_context(l, v, i);
			line.metric = stat_metric_of(&l->c[i].attr, v[i].val, &own);
		} else if (v[i].counted && l->cgroup_column) {
			struct stat_context own = cgroup_context(l, i, v, ctx);

			line.metric = stat_metric_of(&l->c[i].attr, v[i].val, &own);
		} else if (v[i].counted) {
			line.metric = stat_metric_of(&l->c[i].attr, v[i].val, ctx);
		}
		stat_print_line(p, &line);
	}
}

static int aggr_order(const void *x, const void *y)
{
	const struct stat_aggr_of *a = x, *b = y;

	return stat_aggr_cmp(a->mode, &a->at, &b->at);
}

/* The aggregates of mode over the counted cpus, in perf's order; their number (-1: ENOMEM) */
static int aggregates(const struct stat_evlist *l, enum stat_aggr mode, struct stat_aggr_of **out)
{
	struct stat_aggr_of *v = calloc(l->nr_cpus ? l->nr_cpus : 1, sizeof(*v));
	int n = 0;

	if (!v)
		return -1;
	for (int cpu = 0; cpu < l->nr_cpus; cpu++) {
		int j;

		for (j = 0; j < n && !stat_same_aggr(mode, &v[j].at, &l->cpu_at[cpu]); j++)
			;
		if (j == n)
			v[n++] = (struct stat_aggr_of){ .mode = mode, .at = l->cpu_at[cpu] };
		v[j].nr++;
	}
	qsort(v, (size_t)n, sizeof(*v), aggr_order);
	*out = v;
	return n;
}

/*
 * One reading by aggregate: perf prints -A counter by counter, each on
 * every cpu, and the --per-* modes aggregate by aggregate, each with every
 * counter; a metric takes the clock of its own cpus.
 */
static void print_aggregated(const struct stat_printer *p, const struct stat_opts *o,
			     const struct stat_evlist *l, const struct stat_reading *rd)
{
	struct stat_aggr_of *ag;
	int n = aggregates(l, o->aggr, &ag);
	/* each aggregate's values and context once per reading (the means count readings) */
	struct stat_value *v = n > 0 ? calloc((size_t)n * l->nr + 1, sizeof(*v)) : NULL;
	struct stat_context *ctx = n > 0 ? calloc((size_t)n, sizeof(*ctx)) : NULL;

	if (n < 0)
		return;
	if (!v || !ctx)
		goto out;
	for (int a = 0; a < n; a++) {
		stat_values_of(l, -1, &ag[a], rd->delta, v + (size_t)a * l->nr);
		ctx[a] = context_at(l, v + (size_t)a * l->nr, rd->wall_ns, rd->clock_means,
				    (size_t)a);
	}
	for (int outer = 0; outer < (o->aggr == STAT_AGGR_CPU ? l->nr : n); outer++) {
		for (int inner = 0; inner < (o->aggr == STAT_AGGR_CPU ? n : 1); inner++) {
			int a = o->aggr == STAT_AGGR_CPU ? inner : outer;
			int from = o->aggr == STAT_AGGR_CPU ? outer : 0;
			int to = o->aggr == STAT_AGGR_CPU ? outer + 1 : l->nr;

			stat_print_values(p, l, from, to, v + (size_t)a * l->nr, &ctx[a], NULL,
					  rd->interval, NULL, 0, &ag[a]);
		}
	}
out:
	free(ctx);
	free(v);
	free(ag);
}

struct thread_value {
	double val;
	int t;
};

static int thread_value_order(const void *x, const void *y)
{
	const struct thread_value *a = x, *b = y;

	if (a->val != b->val)
		return a->val > b->val ? -1 : 1;
	return a->t - b->t;
}

/*
 * --per-thread: each event in turn, its threads by count, largest first in
 * perf 6.1's layout, in the order they were found in later perfs' (a
 * thread's metric from its own clock); system-wide, the threads that
 * counted nothing are left out
 */
static void print_threads(const struct stat_printer *p, const struct stat_opts *o,
			  const struct stat_evlist *l, const struct stat_reading *rd)
{
	size_t nt = (size_t)l->nr_threads;
	struct stat_value *v = calloc(nt * (size_t)l->nr + 1, sizeof(*v));
	struct stat_context *ctx = calloc(nt + 1, sizeof(*ctx));
	struct thread_value *order = calloc(nt + 1, sizeof(*order));

	if (!v || !ctx || !order)
		goto out;
	for (size_t t = 0; t < nt; t++) {
		stat_values_of(l, (int)t, NULL, rd->delta, v + t * (size_t)l->nr);
		ctx[t] = context_at(l, v + t * (size_t)l->nr, rd->wall_ns, rd->clock_means, t);
	}
	for (int i = 0; i < l->nr; i++) {
		size_t n = 0;

		for (size_t t = 0; t < nt; t++) {
			const struct stat_value *tv = &v[t * (size_t)l->nr + (size_t)i];

			if (o->system_wide && tv->val == 0)
				continue;
			order[n++] = (struct thread_value){ tv->val, (int)t };
		}
		/* perf 6.12 and 7.2 keep the thread map's order (seen with -a) */
		if (p->layout == STAT_LAYOUT_6_1)
			qsort(order, n, sizeof(*order), thread_value_order);
		for (size_t k = 0; k < n; k++) {
			size_t t = (size_t)order[k].t;

			stat_print_values(p, l, i, i + 1, v + t * (size_t)l->nr, &ctx[t], NULL, rd->interval,
				     l->comms[t], (int)l->threads[t], NULL);
		}
	}
out:
	free(order);
	free(ctx);
	free(v);
}

/* One reading printed: summed, per thread, or per aggregate of cpus. */
void stat_print_reading(const struct stat_printer *p, const struct stat_opts *o,
			const struct stat_evlist *l, const struct stat_reading *rd)
{
	struct stat_value *v = calloc(l->nr, sizeof(*v));
	struct stat_context ctx;

	if (!v)
		return;
	if (o->aggr != STAT_AGGR_GLOBAL) {
		print_aggregated(p, o, l, rd);
	} else if (!o->per_thread) {
		stat_values_of(l, -1, NULL, rd->delta, v);
		ctx = context_at(l, v, rd->wall_ns, rd->clock_means, 0);
		stat_print_values(p, l, 0, l->nr, v, &ctx, NULL, rd->interval, NULL, 0, NULL);
	} else {
		print_threads(p, o, l, rd);
	}
	free(v);
}
