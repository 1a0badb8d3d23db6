// SPDX-License-Identifier: GPL-2.0
/*
 * perf stat's layouts, as perf 6.1 prints them: the std table (counts in 18
 * columns, unit in 4, event name in 32, the metric after " # " in 35), CSV
 * with -x (value, unit, event, [noise,] run time, percent running, metric
 * value, metric unit) and JSON with -j (one object per line).
 *
 * perf 6.12's (--compat 6.12): 6.1's with the metric in 38 columns (and
 * as many blank after an uncounted event), "CPU3" and a thread's
 * "comm-tid" without a space before the count, a core's id in 11 columns,
 * an unsupported event counted on 0 cpus of its aggregate, an event given
 * with -e named "event [pmu]" in -A lines, JSON's metric value a string,
 * -x's time and "summary" unpadded, --summary's totals without a header,
 * 7.2's -I headers with "cpus" for "ctrs" (reading.c: its threads in the
 * order they were found, a rate from a clock of the event's modifiers).
 *
 * perf 7.2's (--compat 7.2): no metric beside an event given with -e (its
 * metrics come from tables per CPU model, not reproduced), 38 blank columns
 * in its place on every line, its default set's Default metrics there
 * (default_metrics.c: "#    819.1 cs/sec  cs_per_second"), "CPU3" and a
 * thread's "comm-tid" without a space before the count, a core's id in 11
 * columns, an unsupported event counted on 0 cpus of its aggregate, JSON's
 * "counters" for the number of cpus, the time of -r in nanoseconds, its own
 * -I headers, -x's time unpadded, --summary's totals without a header
 * (reading.c: -d's events it cannot count left out).
 *
 * Differences from perf 6.1 on purpose: where a counted event has no
 * metric, perf 6.1's and 6.12's JSON print "metric-value" : 0.000000,
 * "metric-unit" : "(null)"; we leave both keys out, so that consumers never
 * read "(null)" as a unit (an uncounted one has perf's 0 and "").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stat/stat.h"

#define COUNTS_LEN	18
#define UNIT_LEN	4
#define EVNAME_LEN	32
#define METRIC_LEN	35
#define METRIC_LEN_6_12	38
#define NOT_COUNTED_NAME_LEN 25	/* perf 6.1's event name of a counter with no value */
#define NOT_COUNTED_PAD	28	/* what perf 6.1 leaves after the name of a counter with no value */
#define BLANK_7_2	38	/* perf 7.2: the metric's place, after every event name */

/* What perf 6.12 changed and 7.2 kept: the layouts are in the perfs' order */
static bool since_6_12(const struct stat_printer *p)
{
	return p->layout >= STAT_LAYOUT_6_12;
}

bool stat_event_is_clock(const union pc_attr *attr)
{
	return attr->attr.type == PERF_TYPE_SOFTWARE &&
	       (attr->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
		attr->attr.config == PERF_COUNT_SW_TASK_CLOCK);
}

const char *stat_event_unit(const union pc_attr *attr, double *scale)
{
	if (stat_event_is_clock(attr)) {
		*scale = 1e-6;
		return "msec";
	}
	*scale = 1;
	return "";
}

const char *stat_event_pmu(const union pc_attr *attr)
{
	if (attr->attr.type == PERF_TYPE_SOFTWARE)
		return "software";
#if defined(__x86_64__) || defined(__i386__)
	/* x86's core PMU: seen on L1-dcache-loads; on other machines it has another name */
	if (attr->attr.type == PERF_TYPE_HW_CACHE)
		return "cpu";
#endif
	return NULL;
}

/*
 * The line's event as the layout names it: perf 6.12 adds the PMU of an
 * event given with -e in -A lines, "task-clock [software]"
 */
static const char *event_name(const struct stat_printer *p, const struct stat_line *l, char *buf,
			      size_t size)
{
	if (p->layout != STAT_LAYOUT_6_12 || !l->pmu || !l->aggr || l->aggr->mode != STAT_AGGR_CPU)
		return l->event;
	snprintf(buf, size, "%s [%s]", l->event, l->pmu);
	return buf;
}

static bool is_hw(const union pc_attr *attr, uint64_t config)
{
	return attr->attr.type == PERF_TYPE_HARDWARE &&
	       (attr->attr.config & 0xffffffffULL) == config;
}

/* 1234 -> 1.234 'K': the prefix perf puts before "/sec". */
static double with_prefix(double v, char *prefix)
{
	*prefix = ' ';
	if (v > 1e9) {
		*prefix = 'G';
		return v / 1e9;
	}
	if (v > 1e6) {
		*prefix = 'M';
		return v / 1e6;
	}
	if (v > 1e3) {
		*prefix = 'K';
		return v / 1e3;
	}
	return v;
}

struct stat_metric stat_metric_of(const union pc_attr *attr, double val, const struct stat_context *ctx)
{
	static const char *const rates[] = { "/sec", "K/sec", "M/sec", "G/sec" };
	struct stat_metric m = { 0 };
	char prefix;

	if (stat_event_is_clock(attr)) {
		/* val is in msec */
		if (ctx->wall_ns > 0) {
			m.value = val * 1e6 / ctx->wall_ns;
			m.fmt = "%8.3f";
			m.unit = "CPUs utilized";
		}
		return m;
	}
	if (is_hw(attr, PERF_COUNT_HW_INSTRUCTIONS) && ctx->cycles > 0) {
		m.value = val / ctx->cycles;
		m.fmt = "%7.2f ";
		m.unit = "insn per cycle";
		return m;
	}
	/* read misses of a cache counted with its read accesses: perf's share */
	if (attr->attr.type == PERF_TYPE_HW_CACHE && attr->attr.config >> 8 == 0x100 &&
	    (attr->attr.config & 0xff) < 5 && ctx->cache_loads[attr->attr.config & 0xff] > 0) {
		static const char *const of[] = { "of all L1-dcache accesses",
						  "of all L1-icache accesses",
						  "of all LL-cache accesses",
						  "of all dTLB cache accesses",
						  "of all iTLB cache accesses" };

		m.value = 100.0 * val / ctx->cache_loads[attr->attr.config & 0xff];
		m.fmt = "%7.2f%%";
		m.unit = of[attr->attr.config & 0xff];
		return m;
	}
	if (is_hw(attr, PERF_COUNT_HW_BRANCH_MISSES) && ctx->branches > 0) {
		m.value = 100.0 * val / ctx->branches;
		m.fmt = "%7.2f%%";
		m.unit = "of all branches";
		return m;
	}
	/* no clock: no rate; a clock of 0 read in a report: rates of 0, as perf 6.1 */
	if (ctx->clock_ns <= 0 && !ctx->clock_read)
		return m;
	if (is_hw(attr, PERF_COUNT_HW_CPU_CYCLES)) {
		m.value = ctx->clock_ns > 0 ? val / ctx->clock_ns : 0;
		m.fmt = "%8.3f";
		m.unit = "GHz";
		return m;
	}
	m.value = with_prefix(ctx->clock_ns > 0 ? val * 1e9 / ctx->clock_ns : 0, &prefix);
	m.fmt = "%8.3f";
	m.unit = rates[prefix == ' ' ? 0 : prefix == 'K' ? 1 : prefix == 'M' ? 2 : 3];
	return m;
}

static void print_value(const struct stat_printer *p, const struct stat_line *l, int width)
{
	const char *fmt;

	if (!l->supported || !l->v.counted) {
		fprintf(p->out, "%*s", width, l->supported ? "<not counted>" : "<not supported>");
		return;
	}
	/* a value with a fraction (the clocks in msec) shows two decimals; a count
	 * the locale's thousands separators, as perf's big_num, in the std table */
	fmt = *l->unit ? "%*.2f" : p->format == STAT_FMT_STD && !p->no_big_num ? "%'*.0f" : "%*.0f";
	fprintf(p->out, fmt, width, l->v.val);
}

static double pcnt_running(const struct stat_line *l)
{
	return l->v.ena ? 100.0 * (double)l->v.run / (double)l->v.ena : 100.0;
}

/*
 * The cpus a line's aggregate counted: an unsupported event's is 1 in perf
 * 6.1 (seen on a socket of 2 cpus), 0 from 6.12 on
 */
static int aggr_nr(const struct stat_printer *p, const struct stat_aggr_of *a, bool supported)
{
	if (supported)
		return a->nr;
	return since_6_12(p) ? 0 : 1;
}

/* The name of a --per-cluster or --per-cache aggregate: "S0-D0-CLS1", "S0-D0-L3-ID0" */
static void cluster_or_cache_name(const struct stat_aggr_of *a, char *buf, size_t size)
{
	const struct stat_cpu_at *at = &a->at;

	if (a->mode == STAT_AGGR_CLUSTER)
		snprintf(buf, size, "S%d-D%d-CLS%d", at->socket, at->die, at->cluster);
	else
		snprintf(buf, size, "S%d-D%d-L%d-ID%d", at->socket, at->die, at->cache_level,
			 at->cache);
}

/* perf's widths of the cluster and cache names (std layout) */
#define CLUSTER_LEN 20
#define CACHE_LEN 22

/*
 * A line's aggregate as perf names it, then sep: "CPU3", "S0", "S0-D1",
 * "S0-D0-C2", "N1", "S0-D0-CLS1", "S0-D0-L3-ID0" with the number of cpus
 * after the --per-* ones; in the std layout each in perf's width (csv: none)
 */
static void print_aggr(const struct stat_printer *p, const struct stat_aggr_of *a,
		       bool supported, bool csv)
{
	const struct stat_cpu_at *at = &a->at;
	const char *s = csv ? p->sep : " ";
	int nr = aggr_nr(p, a, supported);

	switch (a->mode) {
	case STAT_AGGR_CPU:
		if (since_6_12(p) && !csv)
			fprintf(p->out, "CPU%-4d", at->cpu);
		else
			fprintf(p->out, "CPU%*d%s", csv ? 0 : -7, at->cpu, s);
		return;
	case STAT_AGGR_SOCKET:
		fprintf(p->out, "S%*d", csv ? 0 : -5, at->socket);
		break;
	case STAT_AGGR_DIE:
		fprintf(p->out, "S%d-D%*d", at->socket, csv ? 0 : -8, at->die);
		break;
	case STAT_AGGR_CORE:
		fprintf(p->out, "S%d-D%d-C%*d", at->socket, at->die,
			csv ? 0 : since_6_12(p) ? -11 : -8, at->core);
		break;
	case STAT_AGGR_NODE:
		fprintf(p->out, "N%*d", csv ? 0 : -5, at->node);
		break;
	case STAT_AGGR_CLUSTER:
	case STAT_AGGR_CACHE: {
		char name[96];

		cluster_or_cache_name(a, name, sizeof(name));
		fprintf(p->out, "%-*s", csv ? 0 : a->mode == STAT_AGGR_CLUSTER ? CLUSTER_LEN :
			CACHE_LEN, name);
		break;
	}
	default:
		return;
	}
	fprintf(p->out, "%s%*d%s", s, csv ? 0 : 4, nr, s);
}

/* " # VALUE UNIT" in width columns (a longer unit overflows them, as perf's) */
static void print_std_metric(const struct stat_printer *p, const struct stat_line *l, int width)
{
	char num[64];
	int n;

	snprintf(num, sizeof(num), l->metric.fmt, l->metric.value);
	n = fprintf(p->out, " # %s", num);
	fprintf(p->out, " %-*s", width - n - 1, l->metric.unit);
}

static void print_std(const struct stat_printer *p, const struct stat_line *l)
{
	int metric_len = p->layout == STAT_LAYOUT_6_12 ? METRIC_LEN_6_12 : METRIC_LEN;
	char name[300];

	if (l->interval >= 0)
		fprintf(p->out, "%6lu.%09lu ", (unsigned long)l->interval,
			(unsigned long)((l->interval - (unsigned long)l->interval) * 1e9 + 0.5));
	if (l->comm)
		fprintf(p->out, since_6_12(p) ? "%16s-%-8d" : "%16s-%-8d ", l->comm, l->tid);
	if (l->aggr)
		print_aggr(p, l->aggr, l->supported, false);
	print_value(p, l, COUNTS_LEN);
	/*
	 * -G: perf 6.1 names the cgroup after the name, which it pads to 32
	 * where there is a value and to 25 where there is none (then the
	 * metric's blank place)
	 */
	if (l->cgroup && !(l->supported && l->v.counted) && p->layout == STAT_LAYOUT_6_1) {
		fprintf(p->out, " %-*s %-*s %s%*s\n", UNIT_LEN, l->unit, NOT_COUNTED_NAME_LEN,
			event_name(p, l, name, sizeof(name)), l->cgroup, METRIC_LEN, "");
		return;
	}
	fprintf(p->out, " %-*s %-*s", UNIT_LEN, l->unit, EVNAME_LEN,
		event_name(p, l, name, sizeof(name)));
	/* perf 6.12 and 7.2 pad the cgroup's name to 16, 6.1 does not */
	if (l->cgroup)
		fprintf(p->out, since_6_12(p) ? " %-16s" : " %s", l->cgroup);
	if (p->layout == STAT_LAYOUT_7_2) {
		/* its default set's Default metric, on every line of it; else blank */
		if (l->metric.unit)
			print_std_metric(p, l, BLANK_7_2);
		else
			fprintf(p->out, "%*s", BLANK_7_2, "");
		/* perf leaves out a noise of 0 */
		if (l->noise_pct > 0)
			fprintf(p->out, "  ( +-%6.2f%% )", l->noise_pct);
		/* a counter that never ran (multiplexed out) is "(0.00%)" */
		if (l->supported && l->v.ena && l->v.run < l->v.ena)
			fprintf(p->out, "  (%.2f%%)", pcnt_running(l));
		fputc('\n', p->out);
		return;
	}
	if (!l->supported || !l->v.counted) {
		fprintf(p->out, "%*s\n", since_6_12(p) ? METRIC_LEN_6_12 : NOT_COUNTED_PAD, "");
		return;
	}
	if (l->metric.unit) {
		print_std_metric(p, l, metric_len);
	} else {
		fprintf(p->out, "%-*s", metric_len, "");
	}
	/* perf leaves out a noise of 0 (-x's keeps it) */
	if (l->noise_pct > 0)
		fprintf(p->out, "  ( +-%6.2f%% )", l->noise_pct);
	if (l->v.run < l->v.ena)
		fprintf(p->out, "  (%.2f%%)", pcnt_running(l));
	fputc('\n', p->out);
}

static void print_csv(const struct stat_printer *p, const struct stat_line *l)
{
	const char *s = p->sep;
	char name[300];

	/* perf 6.1 pads the time (and "summary") to 16 columns, 6.12 and 7.2 do not */
	if (l->interval >= 0)
		fprintf(p->out, since_6_12(p) ? "%lu.%09lu%s" : "%6lu.%09lu%s",
			(unsigned long)l->interval,
			(unsigned long)((l->interval - (unsigned long)l->interval) * 1e9 + 0.5), s);
	else if (p->first)
		fprintf(p->out, "%*s%s", since_6_12(p) ? 0 : 16, p->first, s);
	if (l->comm)
		fprintf(p->out, "%s-%d%s", l->comm, l->tid, s);
	if (l->aggr)
		print_aggr(p, l->aggr, l->supported, true);
	print_value(p, l, 0);
	fprintf(p->out, "%s%s%s%s", s, l->unit, s, event_name(p, l, name, sizeof(name)));
	if (l->cgroup)
		fprintf(p->out, "%s%s", s, l->cgroup);
	if (l->noise_pct >= 0)
		fprintf(p->out, "%s%.2f%%", s, l->noise_pct);
	fprintf(p->out, "%s%llu%s%.2f", s, (unsigned long long)l->v.run, s, pcnt_running(l));
	/* perf 7.2's Default metrics: on uncounted lines too, nan as an empty value */
	if (l->metric.unit && p->layout == STAT_LAYOUT_7_2 && isnan(l->metric.value)) {
		fprintf(p->out, "%s%s%s\n", s, s, l->metric.unit);
	} else if (l->metric.unit &&
		   (p->layout == STAT_LAYOUT_7_2 || (l->supported && l->v.counted))) {
		char num[64];
		size_t end;

		snprintf(num, sizeof(num), l->metric.fmt, l->metric.value);
		/* the std layout's padding is not part of a CSV field */
		end = strlen(num);
		while (end && num[end - 1] == ' ')
			num[--end] = '\0';
		fprintf(p->out, "%s%s%s%s\n", s, num + strspn(num, " "), s, l->metric.unit);
	} else {
		fprintf(p->out, "%s%s\n", s, s);
	}
}

/* event and thread names are ours or the kernel's comm: escape what JSON needs */
static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

/* perf's keys: "cpu" : "3"; "socket" : "S0" (die, core, node alike) and "aggregate-number" */
static void json_aggr(const struct stat_printer *p, const struct stat_aggr_of *a, bool supported)
{
	FILE *o = p->out;
	static const char *const keys[] = { [STAT_AGGR_SOCKET] = "socket", [STAT_AGGR_DIE] = "die",
					    [STAT_AGGR_CORE] = "core", [STAT_AGGR_NODE] = "node",
					    [STAT_AGGR_CLUSTER] = "cluster",
					    [STAT_AGGR_CACHE] = "cache" };
	const struct stat_cpu_at *at = &a->at;
	char name[64];

	if (a->mode == STAT_AGGR_CPU) {
		fprintf(o, "\"cpu\" : \"%d\", ", at->cpu);
		return;
	}
	if (a->mode == STAT_AGGR_SOCKET)
		snprintf(name, sizeof(name), "S%d", at->socket);
	else if (a->mode == STAT_AGGR_DIE)
		snprintf(name, sizeof(name), "S%d-D%d", at->socket, at->die);
	else if (a->mode == STAT_AGGR_CORE)
		snprintf(name, sizeof(name), "S%d-D%d-C%d", at->socket, at->die, at->core);
	else if (a->mode == STAT_AGGR_CLUSTER || a->mode == STAT_AGGR_CACHE)
		cluster_or_cache_name(a, name, sizeof(name));
	else
		snprintf(name, sizeof(name), "N%d", at->node);
	fprintf(o, "\"%s\" : \"%s\", \"%s\" : %d, ", keys[a->mode], name,
		p->layout == STAT_LAYOUT_7_2 ? "counters" : "aggregate-number",
		aggr_nr(p, a, supported));
}

static void print_json(const struct stat_printer *p, const struct stat_line *l)
{
	FILE *o = p->out;
	char name[300];

	fputc('{', o);
	if (l->interval >= 0)
		fprintf(o, "\"interval\" : %.9f, ", l->interval);
	if (l->aggr)
		json_aggr(p, l->aggr, l->supported);
	if (l->comm) {
		char thread[64];

		snprintf(thread, sizeof(thread), "%s-%d", l->comm, l->tid);
		fprintf(o, "\"thread\" : ");
		json_string(o, thread);
		fprintf(o, ", ");
	}
	if (!l->supported || !l->v.counted)
		fprintf(o, "\"counter-value\" : \"%s\", ",
			l->supported ? "<not counted>" : "<not supported>");
	else
		fprintf(o, "\"counter-value\" : \"%f\", ", l->v.val);
	fprintf(o, "\"unit\" : ");
	json_string(o, l->unit);
	fprintf(o, ", \"event\" : ");
	json_string(o, event_name(p, l, name, sizeof(name)));
	if (l->cgroup) {
		fprintf(o, ", \"cgroup\" : ");
		json_string(o, l->cgroup);
	}
	if (l->noise_pct >= 0)
		fprintf(o, ", \"variance\" : %.2f", l->noise_pct);
	fprintf(o, ", \"event-runtime\" : %llu, \"pcnt-running\" : %.2f",
		(unsigned long long)l->v.run, pcnt_running(l));
	/* perf 7.2's Default metrics: quoted, "nan" where a count is missing */
	if (l->metric.unit && p->layout == STAT_LAYOUT_7_2) {
		fprintf(o, ", \"metric-value\" : \"%f\", \"metric-unit\" : ", l->metric.value);
		json_string(o, l->metric.unit);
		if (l->metric.threshold)
			fprintf(o, ", \"metric-threshold\" : \"%s\"", l->metric.threshold);
	}
	/* an uncounted event: perf's 0 and empty unit (7.2: no metric keys) */
	if ((!l->supported || !l->v.counted) && p->layout != STAT_LAYOUT_7_2)
		fprintf(o, since_6_12(p) ? ", \"metric-value\" : \"0.000000\", \"metric-unit\" : \"\"" :
			", \"metric-value\" : 0.000000, \"metric-unit\" : \"\"");
	if (l->supported && l->v.counted && l->metric.unit && p->layout != STAT_LAYOUT_7_2) {
		/* perf 6.12 quotes the value */
		fprintf(o, since_6_12(p) ? ", \"metric-value\" : \"%f\", \"metric-unit\" : " :
			", \"metric-value\" : %f, \"metric-unit\" : ", l->metric.value);
		json_string(o, l->metric.unit);
	}
	fprintf(o, "}\n");
}

void stat_print_line(const struct stat_printer *p, const struct stat_line *l)
{
	switch (p->format) {
	case STAT_FMT_STD:
		print_std(p, l);
		break;
	case STAT_FMT_CSV:
		print_csv(p, l);
		break;
	case STAT_FMT_JSON:
		print_json(p, l);
		break;
	}
}

void stat_print_header(const struct stat_printer *p, const struct stat_opts *o)
{
	if (p->format != STAT_FMT_STD)
		return;
	fprintf(p->out, "\n Performance counter stats for ");
	/* -C alone names its cpus; with -a it is the system */
	if (o->cpu_list && !o->system_wide) {
		fprintf(p->out, "'CPU(s) %s'", o->cpu_list);
	} else if (o->system_wide) {
		fprintf(p->out, "'system wide'");
	} else if (o->nr_pids) {
		fprintf(p->out, "%s id '", o->pids_are_tids ? "thread" : "process");
		for (int i = 0; i < o->nr_pids; i++)
			fprintf(p->out, "%s%d", i ? "," : "", (int)o->pids[i]);
		fputc('\'', p->out);
	} else {
		fputc('\'', p->out);
		for (int i = 0; i < o->argc; i++)
			fprintf(p->out, "%s%s", i ? " " : "", o->argv[i]);
		fputc('\'', p->out);
	}
	if (o->repeat > 1)
		fprintf(p->out, " (%u runs)", o->repeat);
	fprintf(p->out, ":\n\n");
}

void stat_print_interval_header(const struct stat_printer *p, enum stat_aggr mode, bool per_thread,
				bool force)
{
	static const char *const cols_7_2[] = {
		[STAT_AGGR_GLOBAL] = "            ", [STAT_AGGR_CPU] = " cpu               ",
		[STAT_AGGR_SOCKET] = " socket ctrs            ",
		[STAT_AGGR_DIE] = " die          ctrs            ",
		[STAT_AGGR_CORE] = " core               ctrs            ",
		[STAT_AGGR_NODE] = " node   ctrs            ",
		[STAT_AGGR_CLUSTER] = " cluster              ctrs            ",
		[STAT_AGGR_CACHE] = " cache                  ctrs            ",
	};
	static const char *const cols[] = {
		[STAT_AGGR_GLOBAL] = "", [STAT_AGGR_CPU] = " CPU    ",
		[STAT_AGGR_SOCKET] = " socket cpus", [STAT_AGGR_DIE] = " die          cpus",
		[STAT_AGGR_CORE] = " core            cpus", [STAT_AGGR_NODE] = " node   cpus",
		[STAT_AGGR_CLUSTER] = " cluster              cpus",
		[STAT_AGGR_CACHE] = " cache                  cpus",
	};

	if (p->format != STAT_FMT_STD && !force)
		return;
	/* the threads' column, one wider in perf 6.1 */
	if (per_thread) {
		fprintf(p->out, "#           time             comm-pid                %s counts unit "
			"events\n", since_6_12(p) ? "" : " ");
		return;
	}
	if (p->layout == STAT_LAYOUT_7_2) {
		fprintf(p->out, "#           time%s counts unit events\n", cols_7_2[mode]);
		return;
	}
	/* perf 6.12: 7.2's cpu and core columns, with "cpus" */
	if (p->layout == STAT_LAYOUT_6_12 && (mode == STAT_AGGR_CPU || mode == STAT_AGGR_CORE)) {
		fprintf(p->out, "#           time%s counts unit events\n",
			mode == STAT_AGGR_CPU ? cols_7_2[mode] : " core               cpus            ");
		return;
	}
	fprintf(p->out, "#           time%s%s counts unit events\n", cols[mode],
		mode == STAT_AGGR_CPU ? "               " : "            ");
}

/* Decimals that show two more digits than the error: perf's precision of the mean. */
static int precision_of(double err)
{
	int digits = 0;

	if (err >= 1)
		return 2;
	while (err > 0 && err < 1 && digits < 9) {
		err *= 10;
		digits++;
	}
	return digits + 2 > 9 ? 9 : digits + 2;
}

/*
 * --table: each run's time and its distance from the mean, a '#' per 5% of
 * it (and one), indented as the mean below it, as perf
 */
static void print_table(FILE *o, const double *walls, unsigned int runs, int prec, double avg)
{
	char tmp[64];
	int indent = 0;

	snprintf(tmp, sizeof(tmp), " %17.*f", prec, avg);
	while (tmp[indent] == ' ')
		indent++;
	fprintf(o, "%*s# Table of individual measurements:\n", indent, "");
	for (unsigned int r = 0; r < runs; r++) {
		double run = walls[r];
		int n = 1 + abs((int)(100.0 * (run - avg) / run) / 5);

		fprintf(o, " %17.*f (%+.*f) ", prec, run, prec, run - avg);
		for (int h = 0; h < n; h++)
			fputc('#', o);
		fputc('\n', o);
	}
	fprintf(o, "\n%*s# Final result:\n", indent, "");
}

void stat_print_footer(const struct stat_printer *p, const struct stat_running *wall,
		       unsigned int runs, double user_s, double sys_s, bool show_rusage)
{
	FILE *o = p->out;

	if (p->format != STAT_FMT_STD)
		return;
	if (!p->no_counts)
		fputc('\n', o);
	if (runs > 1) {
		double err = stat_running_stderr(wall) / 1e9;
		int prec = p->layout == STAT_LAYOUT_7_2 ? 9 : precision_of(err);

		if (p->run_walls)
			print_table(o, p->run_walls, runs, prec, wall->mean / 1e9);
		fprintf(o, p->layout == STAT_LAYOUT_7_2 ? "%18.*f +- %.*f seconds time elapsed" :
			" %17.*f +- %.*f seconds time elapsed", prec, wall->mean / 1e9, prec, err);
		fprintf(o, "  ( +-%6.2f%% )\n", stat_running_rel(wall));
	} else {
		fprintf(o, "%18.9f seconds time elapsed\n", wall->mean / 1e9);
		if (show_rusage) {
			fprintf(o, "\n%18.9f seconds user\n", user_s);
			fprintf(o, "%18.9f seconds sys\n\n", sys_s);
		}
	}
	fputc('\n', o);
}
