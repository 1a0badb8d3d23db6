// SPDX-License-Identifier: GPL-2.0
/*
 * perf 7.2's default set and the metrics of its "Default" metric group
 * (tools/perf/pmu-events/arch/common/common/metrics.json), as perf 7.2.13
 * prints them on a machine without a hardware PMU: the software events in
 * the order of their names, then cpu-cycles, each line with its metric,
 * "nan" where a count it needs is missing.
 *
 * The group's metrics, from the json's expressions: a software event per
 * second of the set's clock (cpu-clock when counting cpus, task-clock
 * otherwise), CPUs_utilized the clock over the elapsed time, and
 * cycles_frequency cycles per nanosecond of the clock.  Measured: per task
 * (a command, -p, -t) CPUs_utilized is always nan (the elapsed time is not
 * a count of the task's).
 *
 * A machine with a PMU counts more of the group, not reproduced yet.  Seen
 * in the 7.2-arm64 guest (QEMU's PMUv3: cycles and instructions count,
 * branches and branch-misses are <not supported>, stalled-cycles-* count
 * 0), perf 7.2.13's default set after the software lines: cpu-cycles
 * (cycles_frequency), instructions (insn_per_cycle), stalled-cycles-frontend
 * (frontend_cycles_idle), stalled-cycles-backend (backend_cycles_idle) and
 * stalled-cycles-backend again (stalled_cycles_per_instruction), each
 * metric's events a group of their own, multiplexed (60%, 60%, 60%, 80%,
 * 59% running); metrics of unsupported events (branch_frequency,
 * branch_miss_rate) leave no line.  -M Default prints every group's events,
 * duration_time among them, with a metric on one event of each.
 */
#include <math.h>

#include "stat/stat.h"

const char *stat_default_events_7_2(bool on_cpus)
{
	return on_cpus ? "context-switches,cpu-clock,cpu-migrations,page-faults,cpu-cycles" :
			 "context-switches,cpu-migrations,page-faults,task-clock,cpu-cycles";
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
