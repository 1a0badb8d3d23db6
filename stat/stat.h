/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcheck stat: counting mode.  Events are opened with read_format
 * TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING (+ID|GROUP for groups, +LOST where
 * the kernel has it) through the one open path, read at the end (or every
 * -I interval), scaled when multiplexed, and printed in perf stat's layouts.
 *
 * Flow (cmd_stat.c): options -> counters opened (counters.c) -> workload
 * released -> reads (counters.c) -> per-run statistics (aggregate.c) ->
 * lines in the chosen layout (print.c).
 */
#ifndef PERFCHECK_STAT_STAT_H
#define PERFCHECK_STAT_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "recorder/cpus.h"
#include "recorder/events.h"
#include "recorder/evlist.h"
#include "recorder/workload.h"
#include "util/error.h"

enum stat_format { STAT_FMT_STD, STAT_FMT_CSV, STAT_FMT_JSON };

/* How counts of cpus add up into lines (-A, --per-*); threads: --per-thread */
enum stat_aggr { STAT_AGGR_GLOBAL, STAT_AGGR_CPU, STAT_AGGR_SOCKET, STAT_AGGR_DIE,
		 STAT_AGGR_CORE, STAT_AGGR_NODE, STAT_AGGR_CLUSTER, STAT_AGGR_CACHE };

/*
 * Whose perf stat layout is printed (--compat), in the order of the perfs:
 * perf 6.1's (the default), 6.12's, 7.2's
 */
enum stat_layout { STAT_LAYOUT_6_1, STAT_LAYOUT_6_12, STAT_LAYOUT_7_2 };
#define STAT_LAYOUT_NAMES "6.1, 6.12 or 7.2"
/* layout.c: "6.1", "6.12" or "7.2" into out; -EINVAL for anything else */
int stat_layout_parse(const char *s, enum stat_layout *out);

/* The command line, nothing else. */
struct stat_opts {
	struct rec_evlist ev;		/* -e, parsed by the recorder's event parser */
	pid_t *pids;			/* -p or -t */
	int nr_pids;
	bool pids_are_tids;		/* -t */
	bool system_wide;		/* -a */
	const char *cpu_list;		/* -C */
	bool per_thread;
	/*
	 * -G NAME,...: per event of ev (as many as it has), its cgroup's name
	 * (NULL: none) and fd (-1), counted system wide in that cgroup alone
	 */
	struct stat_cgroups {
		char **names;
		int *fds;
		int size;		/* entries of names and fds */
		int nr;			/* names -G gave, empty ones too: perf's nr_cgroups */
	} cgroups;
	/* --for-each-cgroup NAME,...: its list, then its cgroups (each event counted in each) */
	const char *each_cgroup_list;
	const char *control;		/* --control fifo:CTL[,ACK] or fd:CTL[,ACK], NULL: none */
	struct stat_cgroups each;
	enum stat_aggr aggr;		/* -A, --per-socket, --per-die, --per-core, --per-node,
					 * --per-cluster, --per-cache */
	int cache_level;		/* --per-cache=LN: N; 0: the last level cache */
	struct stat_attr_opts {
		bool no_inherit;	/* -i */
		bool user_only;		/* --all-user: exclude_kernel */
		bool kernel_only;	/* --all-kernel: exclude_user */
	} attrs;
	unsigned int interval_ms;	/* -I */
	unsigned int interval_count;	/* --interval-count: lines of -I, 0: all */
	unsigned int timeout_ms;	/* --timeout: the count ends then, 0: never */
	struct stat_each_run {
		int delay_ms;		/* -D: the count starts then, -1: never, 0: at once */
		const char *pre, *post;	/* --pre, --post: shell commands around each run */
		bool sync;		/* --sync: sync() before each run */
	} each_run;
	bool null_run;			/* -n: no counters, the time alone */
	bool no_scale;			/* --no-scale: a multiplexed count as read, not scaled up */
	struct stat_event_sets {
		unsigned int detailed;	/* -d given this many times */
		int nr_named;		/* ev's first events, given with -e (then -d's, the default set) */
		int first_detailed;	/* with -d: ev's index of its first event */
	} sets;
	struct stat_output {
		const char *path;	/* -o, NULL: stderr */
		int fd;			/* --log-fd N: to that descriptor; 0: stderr */
		bool append;		/* --append */
	} output;
	unsigned int repeat;		/* -r, >= 1 */
	bool forever;			/* -r 0: run after run until a signal */
	struct stat_look {
		enum stat_format format;
		const char *sep;	/* -x */
		enum stat_layout layout;	/* --compat */
		bool no_big_num;	/* --no-big-num: counts without thousands separators */
		bool summary;		/* --summary: -I's lines, then the totals */
		bool no_csv_summary;	/* --no-csv-summary: CSV totals without "summary" */
		bool interval_clear;	/* --interval-clear: a clear screen and the titles each -I */
		bool table;		/* --table: each run's elapsed time before -r's mean */
	} look;
	int argc;			/* the workload */
	char **argv;
	int error_exit;			/* a parse error's exit status where perf's is not 129 */
};

/* Returns 0, 1 when --help was printed, or -errno with err set. */
int stat_opts_parse(struct stat_opts *o, int argc, char **argv, struct pc_error *err);
void stat_opts_free(struct stat_opts *o);
/*
 * stat record's own options (-o/--output FILE) in argv[2..] ("stat",
 * "record", ...): the index of the first that is not one, -1 with err set.
 */
int stat_record_args(int argc, char **argv, const char **path, struct pc_error *err);
/* What stat record cannot write (-r N, N != 1, as perf 6.1): -EINVAL, err set to perf's text */
int stat_record_check(const struct stat_opts *o, struct pc_error *err);
/* stat_report.c: perfcheck stat report [-i FILE] [options] */
int cmd_stat_report(int argc, char **argv);

/* One reading: the value and the times the kernel reports with it. */
struct stat_count {
	uint64_t val, ena, run, lost;
};

/* One event to count; fds[cpu * nr_threads + thread]. */
struct stat_counter {
	union pc_attr attr;
	char name[256];
	int leader;			/* index of its group leader (itself when alone) */
	int nr_members;			/* a leader: events in its group, itself included */
	bool supported;			/* false: the kernel refused it (<not supported>) */
	const char *pmu;		/* given with -e: its PMU, which perf 6.12 names in -A lines */
	bool from_default;		/* not given with -e: perf 7.2 shows its Default metric */
	bool detailed;			/* added by -d: perf 7.2 leaves it out when unsupported */
	const char *cgroup;		/* -G: its cgroup's name, NULL: none */
	int cgroup_fd;			/* -G: the pid to open with PERF_FLAG_PID_CGROUP, -1: none */
	int *fds;
	struct stat_count *now;		/* per fd (cpu * nr_threads + thread), this reading */
	struct stat_count *prev;	/* the previous reading, for -I deltas */
};

struct stat_evlist {
	struct stat_counter *c;
	int nr;
	int *cpus;
	int nr_cpus;
	struct stat_cpu_at *cpu_at;	/* per cpus[] entry: its socket, die, core, node */
	pid_t *threads;			/* -1 alone: any thread (system wide) */
	int nr_threads;
	char (*comms)[32];		/* per thread, for --per-thread */
	bool cgroup_column;		/* -G given: each line names its counter's cgroup */
	bool no_scale;			/* --no-scale: values as read */
};

/* perf stat's default events for o's target (and layout: 7.2's differ) */
const char *stat_default_events(const struct stat_opts *o);
/* -d, -dd, -ddd (levels): perf's detailed events appended to ev */
int stat_add_detailed(struct rec_evlist *ev, unsigned int levels, struct pc_error *err);
/* Builds the counters of the parsed events (the default set when none). */
int stat_evlist_build(struct stat_evlist *l, const struct stat_opts *o, pid_t workload,
		      struct pc_error *err);
/* Opens every counter on every cpu and thread; a refused one is marked unsupported. */
int stat_evlist_open(struct stat_evlist *l, const struct stat_opts *o, struct pc_error *err);
/* -n of stat record: no counter, the maps alone (any cpu, the command's thread) */
int stat_evlist_null_maps(struct stat_evlist *l, pid_t workload, struct pc_error *err);
int stat_evlist_enable(struct stat_evlist *l);
int stat_evlist_disable(struct stat_evlist *l);
/* Reads every counter into ->now (prev keeps the last reading). */
int stat_evlist_read(struct stat_evlist *l, struct pc_error *err);
void stat_evlist_close(struct stat_evlist *l);
void stat_evlist_free(struct stat_evlist *l);

/* aggregate.c: a counter's value as shown, and running statistics over -r runs. */
struct stat_value {
	double val;			/* scaled when multiplexed, in the event's unit */
	uint64_t run, ena;
	bool counted;			/* false: <not counted> (never ran) */
};

/* a - b, field by field (for -I). */
struct stat_count stat_count_delta(const struct stat_count *a, const struct stat_count *b);
/* val * ena / run when the counter ran part of the time (and scale); counted = run && ena. */
struct stat_value stat_scale(const struct stat_count *c, bool scale);

struct stat_running {
	double n, mean, m2;		/* Welford */
};
void stat_running_add(struct stat_running *s, double v);
/* The standard error of the mean, as perf's "+-". */
double stat_running_stderr(const struct stat_running *s);
/* stderr / mean in percent, 0 when the mean is 0. */
double stat_running_rel(const struct stat_running *s);

/* topology.c: where a cpu is, as perf names the aggregates (S0-D0-C1, N0, S0-D0-CLS1) */
struct stat_cpu_at {
	int cpu, socket, die, core, node;	/* -1 where sysfs does not say */
	int cluster;				/* 0 where sysfs does not say, as perf */
	int cache_level, cache;			/* --per-cache's: -1 where sysfs has no caches */
};

#define STAT_CPU_NOWHERE ((struct stat_cpu_at){ -1, -1, -1, -1, -1, -1, -1, -1 })

/* cache_level: the cache --per-cache aggregates by, 0 for the last level; -1: none
 * (sysfs's caches not read) */
struct stat_cpu_at stat_cpu_at(int cpu, int cache_level);
/* Whether a and b fall in one line of mode (the cpus of that aggregate) */
bool stat_same_aggr(enum stat_aggr mode, const struct stat_cpu_at *a, const struct stat_cpu_at *b);
/* perf's order of the aggregates: by socket, die, core (node; cpu) */
int stat_aggr_cmp(enum stat_aggr mode, const struct stat_cpu_at *a, const struct stat_cpu_at *b);

/* A line's aggregate: its mode, where it is, and how many cpus it sums */
struct stat_aggr_of {
	enum stat_aggr mode;
	struct stat_cpu_at at;
	int nr;
};

/* print.c: perf stat's std, CSV and JSON lines. */
struct stat_metric {
	double value;
	const char *fmt;		/* printf format of value, as perf prints it */
	const char *unit;		/* NULL: no metric */
	const char *threshold;		/* perf 7.2's JSON: "good" or "bad" by the metric's threshold, NULL: none */
};

struct stat_line {
	const char *event;
	const char *pmu;		/* perf 6.12's -A lines: "event [pmu]", NULL: the name alone */
	const char *unit;		/* "msec" for the clocks, "" otherwise */
	struct stat_value v;
	bool supported;
	struct stat_metric metric;
	double noise_pct;		/* -r: relative error, < 0 when not shown */
	const char *comm;		/* --per-thread: the thread's comm, NULL otherwise */
	int tid;
	const struct stat_aggr_of *aggr;	/* -A, --per-*: the line's cpus, else NULL */
	double interval;		/* -I: seconds since start, < 0 otherwise */
	const char *cgroup;		/* -G: the counter's cgroup ("": none), NULL: no column */
};

struct stat_printer {
	FILE *out;
	enum stat_format format;
	const char *sep;
	bool no_counts;		/* -n: the footer follows the header directly */
	bool no_big_num;	/* counts without the locale's thousands separators */
	const char *first;	/* the CSV lines' first field (--summary's "summary"), or NULL */
	const double *run_walls;	/* --table: each run's elapsed seconds (the footer's runs) */
	enum stat_layout layout;	/* --compat: that perf's widths and keys (7.2: no metrics) */
};

/* The event's unit and its scale from the kernel's value ("msec", 1e-6 for clocks). */
const char *stat_event_unit(const union pc_attr *attr, double *scale);
/* The PMU perf 6.12 names after an event given with -e in -A lines ("software"), or NULL */
const char *stat_event_pmu(const union pc_attr *attr);
bool stat_event_is_clock(const union pc_attr *attr);
/* The metric perf shows beside an event (CPUs utilized, N K/sec). */
/* The context a metric needs: the clock (ns) and the cycles, branches counted beside. */
struct stat_context {
	double clock_ns;		/* mean of the counted clock events, 0 when none */
	double wall_ns;			/* elapsed (or the -I interval) */
	double cycles, branches;	/* 0 when not counted */
	double cache_loads[5];		/* read accesses of L1-dcache, L1-icache, LLC, dTLB, iTLB */
	/*
	 * stat report: a clock was read for the line, so a rate prints 0 when
	 * that clock is 0 (perf 6.1's report: its clock statistic has a value)
	 */
	bool clock_read;
};
struct stat_metric stat_metric_of(const union pc_attr *attr, double val, const struct stat_context *ctx);
/* default_metrics.c: perf 7.2's default set (on_cpus: -a, -C) and its Default metrics */
const char *stat_default_events_7_2(bool on_cpus);
struct stat_metric stat_default_metric_7_2(const union pc_attr *attr, const struct stat_value *v,
					   const struct stat_context *ctx);
/*
 * Counter i of the default set (from_default) in perf 7.2's layout: false
 * when perf hides its line, else true with its metric in *m.
 */
bool stat_default_line_7_2(const struct stat_evlist *l, int i, const struct stat_value *v,
			   const struct stat_context *ctx, struct stat_metric *m);
void stat_print_line(const struct stat_printer *p, const struct stat_line *l);
void stat_print_header(const struct stat_printer *p, const struct stat_opts *o);
/*
 * -I's titles (the std table's; force: in CSV and JSON too, as
 * --interval-clear); per_thread: --per-thread's "comm-pid" column
 */
void stat_print_interval_header(const struct stat_printer *p, enum stat_aggr mode, bool per_thread,
				bool force);
void stat_print_footer(const struct stat_printer *p, const struct stat_running *wall,
		       unsigned int runs, double user_s, double sys_s, bool show_rusage);

/* reading.c: one reading of the counters as lines, in the layout of o (-A, --per-*, --per-thread) */
struct stat_reading {
	bool delta;			/* now - prev (-I) */
	double wall_ns;			/* the clocks' "CPUs utilized" base; 0: none shown */
	double interval;		/* -I: seconds since start, < 0 otherwise */
	/*
	 * NULL live; stat report: per line slot (aggregate, thread, or 0), the
	 * running mean of the clock a metric divides by, as perf 6.1's report
	 */
	struct stat_running *clock_means;
};

/* Values of counter each of thread t (< 0: all) on aggregate a (NULL: all cpus), in its unit */
void stat_values_of(const struct stat_evlist *l, int t, const struct stat_aggr_of *a,
		    bool delta, struct stat_value *out);
struct stat_context stat_context_of(const struct stat_evlist *l, const struct stat_value *v,
				   double wall_ns);
/* A line of each counter in [from, to) with the values v */
void stat_print_values(const struct stat_printer *p, const struct stat_evlist *l, int from,
		       int to, const struct stat_value *v, const struct stat_context *ctx,
		       const double *noise, double interval, const char *comm, int tid,
		       const struct stat_aggr_of *aggr);
void stat_print_reading(const struct stat_printer *p, const struct stat_opts *o,
			const struct stat_evlist *l, const struct stat_reading *rd);

#endif
