// SPDX-License-Identifier: GPL-2.0
/*
 * perf 7.2's default set and the metrics of its "Default" metric group
 * (tools/perf/pmu-events/arch/common/common/metrics.json), as perf 7.2.13
 * prints them: the software events in the order of their names, then a
 * line per hardware metric the machine can count (below), each with its
 * metric, "nan" where a count it needs is missing.
 *
 * The group's metrics, from the json's expressions: a software event per
 * second of the set's clock (cpu-clock when counting cpus, task-clock
 * otherwise), CPUs_utilized the clock over the elapsed time, and
 * cycles_frequency cycles per nanosecond of the clock.  Measured: per task
 * (a command, -p, -t) CPUs_utilized is always nan (the elapsed time is not
 * a count of the task's).
 *
 * The hardware metrics, measured in the 7.2-arm64 guest (QEMU's PMUv3:
 * cycles and instructions count, branches and branch-misses are <not
 * supported>, stalled-cycles-* count 0), perf 7.2.13's default set after the software lines: cpu-cycles
 * (cycles_frequency), instructions (insn_per_cycle), stalled-cycles-frontend
 * (frontend_cycles_idle), stalled-cycles-backend (backend_cycles_idle) and
 * stalled-cycles-backend again (stalled_cycles_per_instruction), each
 * metric's events a group of their own, multiplexed (60%, 60%, 60%, 80%,
 * 59% running); metrics of unsupported events (branch_frequency,
 * branch_miss_rate) leave no line.  On this host (no PMU) only cpu-cycles
 * shows, "<not supported>".  Not reproduced: -M Default (every group's
 * events, duration_time among them) and what a vendor's json adds to the
 * Default group (Intel's TopdownL1 lines).
 */
#include <math.h>

#include "stat/stat.h"

/*
 * The hardware half of the set: perf parses each Default metric's events as
 * a group of its own (software events aside), sorts the set (its software
 * events first, then by PMU and name, a group's members kept in order: the
 * order perf 7.2.13 opened them in, stat -vv on this host) and shows one
 * line per metric, on the member its metric is least shared with: the
 * display member.  Members that display nothing are hidden, and so is a
 * display member that did not count (unsupported, or never ran), except
 * cycles_frequency's cpu-cycles: perf 7.2.13 shows it "<not supported>"
 * where the machine has no PMU.
 */
enum dflt_metric { BRANCH_MISS_RATE, BRANCH_FREQUENCY, CYCLES_FREQUENCY, INSN_PER_CYCLE,
		   FRONTEND_CYCLES_IDLE, BACKEND_CYCLES_IDLE, STALLED_CYCLES_PER_INSN };

static const struct dflt_row {
	enum dflt_metric metric;
	int nr;
	uint64_t config[3];	/* PERF_TYPE_HARDWARE configs of the group, in order */
	int display;		/* the member that shows the metric */
} dflt_rows[] = {
	{ BRANCH_MISS_RATE, 2, { PERF_COUNT_HW_BRANCH_MISSES, PERF_COUNT_HW_BRANCH_INSTRUCTIONS }, 0 },
	{ BRANCH_FREQUENCY, 1, { PERF_COUNT_HW_BRANCH_INSTRUCTIONS }, 0 },
	{ CYCLES_FREQUENCY, 1, { PERF_COUNT_HW_CPU_CYCLES }, 0 },
	{ INSN_PER_CYCLE, 2, { PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS }, 1 },
	{ FRONTEND_CYCLES_IDLE, 2, { PERF_COUNT_HW_CPU_CYCLES,
				     PERF_COUNT_HW_STALLED_CYCLES_FRONTEND }, 1 },
	{ BACKEND_CYCLES_IDLE, 2, { PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_STALLED_CYCLES_BACKEND }, 1 },
	{ STALLED_CYCLES_PER_INSN, 3, { PERF_COUNT_HW_STALLED_CYCLES_BACKEND, PERF_COUNT_HW_INSTRUCTIONS,
					PERF_COUNT_HW_STALLED_CYCLES_FRONTEND }, 0 },
};

#define HW_SET "{branch-misses,branches},branches,cpu-cycles,{cpu-cycles,instructions}," \
	       "{cpu-cycles,stalled-cycles-frontend},{cpu-cycles,stalled-cycles-backend}," \
	       "{stalled-cycles-backend,instructions,stalled-cycles-frontend}"

const char *stat_default_events_7_2(bool on_cpus)
{
	return on_cpus ? "context-switches,cpu-clock,cpu-migrations,page-faults," HW_SET :
			 "context-switches,cpu-migrations,page-faults,task-clock," HW_SET;
}

/* a count per second of the set's clock; nan without both */
static double per_second(const struct stat_value *v, const struct stat_context *ctx)
{
	if (!v->counted || ctx->clock_ns <= 0)
		return NAN;
	return v->val * 1e9 / ctx->clock_ns;
}

struct stat_metric stat_default_metric_7_2(const union pc_attr *attr, const struct stat_value *v,
					   const struct stat_context *ctx)
{
	struct stat_metric m = { .value = NAN, .fmt = "%8.1f" };
	uint64_t config = attr->attr.config;

	if (attr->attr.type == PERF_TYPE_HARDWARE) {
		if ((config & 0xffffffffULL) == PERF_COUNT_HW_CPU_CYCLES) {
			if (v->counted && ctx->clock_ns > 0)
				m.value = v->val / ctx->clock_ns;
			m.unit = "GHz  cycles_frequency";
		}
		return m;
	}
	if (attr->attr.type != PERF_TYPE_SOFTWARE)
		return m;
	switch (config) {
	case PERF_COUNT_SW_CONTEXT_SWITCHES:
		m.value = per_second(v, ctx);
		m.unit = "cs/sec  cs_per_second";
		break;
	case PERF_COUNT_SW_CPU_MIGRATIONS:
		m.value = per_second(v, ctx);
		m.unit = "migrations/sec  migrations_per_second";
		break;
	case PERF_COUNT_SW_PAGE_FAULTS:
		m.value = per_second(v, ctx);
		m.unit = "faults/sec  page_faults_per_second";
		break;
	case PERF_COUNT_SW_CPU_CLOCK:
		/* the clock (msec here) over the elapsed time */
		if (v->counted && ctx->wall_ns > 0)
			m.value = v->val * 1e6 / ctx->wall_ns;
		m.unit = "CPUs  CPUs_utilized";
		break;
	case PERF_COUNT_SW_TASK_CLOCK:
		m.unit = "CPUs  CPUs_utilized";
		break;
	}
	return m;
}

/* The row of counter i's group and i's place in it; NULL when no row is that group */
static const struct dflt_row *row_of(const struct stat_evlist *l, int i, int *member)
{
	int lead = l->c[i].leader, nr = l->c[lead].nr_members > 1 ? l->c[lead].nr_members : 1;

	for (size_t r = 0; r < sizeof(dflt_rows) / sizeof(dflt_rows[0]); r++) {
		const struct dflt_row *row = &dflt_rows[r];
		int k;

		if (row->nr != nr || lead + nr > l->nr)
			continue;
		for (k = 0; k < nr; k++) {
			const struct perf_event_attr *a = &l->c[lead + k].attr.attr;

			if (a->type != PERF_TYPE_HARDWARE || (a->config & 0xffffffffULL) != row->config[k])
				break;
		}
		if (k == nr) {
			*member = i - lead;
			return row;
		}
	}
	return NULL;
}

/*
 * The scaled count of the group member with config, nan when it did not
 * count; *has (may be NULL): the machine has it (perf's has_event)
 */
static double member(const struct stat_evlist *l, const struct stat_value *v, int lead, int nr,
		     uint64_t config, bool *has)
{
	for (int k = lead; k < lead + nr; k++) {
		if ((l->c[k].attr.attr.config & 0xffffffffULL) != config)
			continue;
		if (has)
			*has = l->c[k].supported;
		return l->c[k].supported && v[k].counted ? v[k].val : NAN;
	}
	if (has)
		*has = false;
	return NAN;
}

/* a / b as perf's expressions divide: nan when either is missing or b is 0 */
static double ratio(double a, double b)
{
	return isnan(a) || isnan(b) || b == 0 ? NAN : a / b;
}

/*
 * The JSON's "metric-threshold" of a metric with a MetricThreshold (bad: the
 * threshold's expression holds); none where the value is nan
 */
#define threshold(bad) (isnan(m->value) ? NULL : (bad) ? "bad" : "good")

bool stat_default_line_7_2(const struct stat_evlist *l, int i, const struct stat_value *v,
			   const struct stat_context *ctx, struct stat_metric *m)
{
	const struct dflt_row *row;
	int k, lead = l->c[i].leader, nr;
	double fe, be, own;
	bool fe_has, be_has;

	if (l->c[i].attr.attr.type != PERF_TYPE_HARDWARE) {
		*m = stat_default_metric_7_2(&l->c[i].attr, &v[i], ctx);
		return true;
	}
	row = row_of(l, i, &k);
	if (!row || k != row->display)
		return false;
	if (row->metric == CYCLES_FREQUENCY) {
		*m = stat_default_metric_7_2(&l->c[i].attr, &v[i], ctx);
		return true;
	}
	/* unsupported: hidden; supported but never run: "<not counted>", nan */
	if (!l->c[i].supported)
		return false;
	/* a display member that never ran: nan, as perf's metric of a missing count */
	own = v[i].counted ? v[i].val : NAN;
	nr = row->nr;
	*m = (struct stat_metric){ .value = NAN, .fmt = "%8.1f" };
	switch (row->metric) {
	case BRANCH_MISS_RATE:
		m->value = 100 * ratio(own, member(l, v, lead, nr, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, NULL));
		m->unit = "%  branch_miss_rate";
		m->threshold = threshold(m->value / 100 > 0.05);
		break;
	case BRANCH_FREQUENCY:
		/* branches per microsecond of the clock: "1000M/sec" */
		m->value = 1000 * ratio(own, ctx->clock_ns > 0 ? ctx->clock_ns : NAN);
		m->unit = "M/sec  branch_frequency";
		break;
	case INSN_PER_CYCLE:
		m->value = ratio(own, member(l, v, lead, nr, PERF_COUNT_HW_CPU_CYCLES, NULL));
		m->unit = "instructions  insn_per_cycle";
		m->threshold = threshold(m->value < 1);
		break;
	case FRONTEND_CYCLES_IDLE:
	case BACKEND_CYCLES_IDLE:
		/* no ScaleUnit: two decimals and the name alone */
		m->fmt = "%8.2f";
		m->value = ratio(own, member(l, v, lead, nr, PERF_COUNT_HW_CPU_CYCLES, NULL));
		m->unit = row->metric == FRONTEND_CYCLES_IDLE ? "frontend_cycles_idle" :
								 "backend_cycles_idle";
		m->threshold = threshold(m->value > (row->metric == FRONTEND_CYCLES_IDLE ? 0.1 : 0.2));
		break;
	case STALLED_CYCLES_PER_INSN:
		/*
		 * the larger of the stalls the machine has (has_event: supported),
		 * per instruction; nan where one of them did not count
		 */
		m->fmt = "%8.2f";
		fe = member(l, v, lead, nr, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, &fe_has);
		be = member(l, v, lead, nr, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, &be_has);
		m->value = ratio(!fe_has ? be : !be_has ? fe : isnan(fe) || isnan(be) ? NAN : fe > be ? fe : be,
				 member(l, v, lead, nr, PERF_COUNT_HW_INSTRUCTIONS, NULL));
		m->unit = "stalled_cycles_per_instruction";
		break;
	case CYCLES_FREQUENCY:
		break;
	}
	return true;
}
