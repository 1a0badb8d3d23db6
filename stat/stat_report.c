// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck stat report [-i FILE] [-A | --per-socket | --per-die |
 * --per-core | --per-node | --per-thread] [-x SEP | -j] [--compat 6.1|6.12|7.2]:
 * the counts of a perf stat record file (perf's or ours) printed as perf
 * stat report prints them, on stderr.  The file is read by the reader's
 * one pipeline (reader/session.h); its stat records are placed by
 * reader/stat_counts.c, and at each STAT_ROUND the counts become a
 * stat_evlist that the live stat's own printer (reading.c, print.c) prints.
 *
 * What perf 6.1's report does, done the same way: the header names the
 * file's command line; a round of an -I file prints its time and the
 * readings' deltas to the round before; "CPUs utilized" divides by the
 * mean of the FINAL rounds' times (none before the first: no metric on -I
 * lines); the clock a rate divides by is the mean of that line's clock
 * over the rounds so far; -A and --per-* on the command line replace the
 * file's aggregation.
 *
 * Differences on purpose: -x, -j and --per-thread are options here (perf
 * 6.1's report has none of them, and fails on its own -a --per-thread
 * files, though it reads ours); the cpus of
 * --per-socket and the like are this machine's (sysfs), not the file's
 * CPU_TOPOLOGY; a multiplexed count is scaled by its sums (perf 6.1 scales
 * each cpu's reading before summing: the same numbers unless counters
 * multiplexed unevenly across cpus); a file with no STAT_ROUND is an error
 * (perf prints nothing and succeeds).
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "reader/session.h"
#include "reader/stat_counts.h"
#include "stat/stat.h"

struct report {
	struct stat_printer p;
	struct stat_opts o;		/* the layout, and the file's command line for the header */
	bool aggr_given;		/* -A, --per-*, --per-thread given: the file's mode is not used */
	struct stat_evlist l;		/* the file's counters, built at the first round */
	struct stat_running *means;	/* per line slot: the clock's mean over the rounds */
	struct stat_running wall;	/* the FINAL rounds' times */
	unsigned int rounds;		/* interval rounds printed (-I's titles every 25) */
	struct rd_stat_counts counts;
	struct pd_reader *r;
};

enum { O_PER_THREAD = 256, O_PER_SOCKET, O_PER_DIE, O_PER_CORE, O_PER_NODE, O_COMPAT };

static void usage(FILE *out)
{
	fprintf(out, "usage: perfcheck stat report [-i FILE] [-A | --per-socket | --per-die | "
		     "--per-core | --per-node | --per-thread] [-x SEP | -j] [--compat 6.1|6.12|7.2]\n");
}

/* 0, 1 after --help, or -1 after a usage error (printed) */
static int parse(struct report *rep, int argc, char **argv, const char **input)
{
	static const struct option longs[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "per-thread", no_argument, NULL, O_PER_THREAD },
		{ "per-socket", no_argument, NULL, O_PER_SOCKET },
		{ "per-die", no_argument, NULL, O_PER_DIE },
		{ "per-core", no_argument, NULL, O_PER_CORE },
		{ "per-node", no_argument, NULL, O_PER_NODE },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json-output", no_argument, NULL, 'j' },
		{ "compat", required_argument, NULL, O_COMPAT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct stat_opts *o = &rep->o;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:Ax:jh", longs, NULL)) != -1) {
		switch (c) {
		case 'i':
			*input = optarg;
			break;
		case 'A':
		case O_PER_SOCKET:
		case O_PER_DIE:
		case O_PER_CORE:
		case O_PER_NODE:
			o->aggr = c == 'A' ? STAT_AGGR_CPU : c == O_PER_SOCKET ? STAT_AGGR_SOCKET :
				  c == O_PER_DIE ? STAT_AGGR_DIE : c == O_PER_CORE ? STAT_AGGR_CORE :
				  STAT_AGGR_NODE;
			rep->aggr_given = true;
			break;
		case O_PER_THREAD:
			o->per_thread = true;
			rep->aggr_given = true;
			break;
		case 'x':
			if (!*optarg) {
				fprintf(stderr, "perfcheck stat report: -x: empty separator\n");
				return -1;
			}
			rep->p.format = STAT_FMT_CSV;
			rep->p.sep = optarg;
			break;
		case 'j':
			rep->p.format = STAT_FMT_JSON;
			rep->p.sep = ",";
			break;
		case O_COMPAT:
			if (stat_layout_parse(optarg, &rep->p.layout)) {
				fprintf(stderr, "perfcheck stat report: --compat: '%s' is not "
					STAT_LAYOUT_NAMES "\n", optarg);
				return -1;
			}
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			fprintf(stderr, "perfcheck stat report: unknown option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "perfcheck stat report: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}

/*
 * The file's aggregation, unless the command line chose one (perf's
 * precedence); a mode perf 6.1 has not (7.x's --per-cache, --per-cluster)
 * is printed summed
 */
static void layout_of_file(struct report *rep, const struct pd_stat_config *cfg, bool any_cpu)
{
	static const struct { uint64_t file; enum stat_aggr aggr; } modes[] = {
		{ PD_AGGR_NONE, STAT_AGGR_CPU }, { PD_AGGR_SOCKET, STAT_AGGR_SOCKET },
		{ PD_AGGR_DIE, STAT_AGGR_DIE }, { PD_AGGR_CORE, STAT_AGGR_CORE },
		{ PD_AGGR_NODE, STAT_AGGR_NODE },
	};

	/* perf's words: counted per task, there are no cpus to aggregate by */
	if (rep->aggr_given && any_cpu) {
		fprintf(rep->p.out, "warning: processing task data, aggregation mode not set\n");
		rep->o.aggr = STAT_AGGR_GLOBAL;
		rep->o.per_thread = false;
	} else if (rep->aggr_given) {
		return;
	}
	rep->o.per_thread = cfg->aggr_mode == PD_AGGR_THREAD;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (modes[i].file == cfg->aggr_mode)
			rep->o.aggr = modes[i].aggr;
}

static int add_arg(const char *arg, void *ctx)
{
	struct stat_opts *o = ctx;
	char **v = realloc(o->argv, ((size_t)o->argc + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	o->argv = v;
	v[o->argc] = strdup(arg);
	return v[o->argc++] ? 0 : -ENOMEM;
}

/* The counters of the file, its cpus and threads: a stat_evlist as the live stat's */
static int build(struct report *rep, const struct rd_stat_counts *st, struct pc_error *err)
{
	struct stat_evlist *l = &rep->l;
	size_t n = (size_t)st->cpus.nr * st->threads.nr, slots;

	l->c = calloc(st->nr_counters ? st->nr_counters : 1, sizeof(*l->c));
	if (!l->c)
		return pc_error_set(err, ENOMEM, "out of memory");
	l->nr = (int)st->nr_counters;
	l->nr_cpus = (int)st->cpus.nr;
	l->nr_threads = (int)st->threads.nr;
	l->cpus = calloc(l->nr_cpus ? l->nr_cpus : 1, sizeof(*l->cpus));
	l->cpu_at = calloc(l->nr_cpus ? l->nr_cpus : 1, sizeof(*l->cpu_at));
	l->threads = calloc(l->nr_threads ? l->nr_threads : 1, sizeof(*l->threads));
	l->comms = calloc(l->nr_threads ? l->nr_threads : 1, sizeof(*l->comms));
	slots = (size_t)(l->nr_cpus > l->nr_threads ? l->nr_cpus : l->nr_threads) + 1;
	rep->means = calloc(slots, sizeof(*rep->means));
	if (!l->cpus || !l->cpu_at || !l->threads || !l->comms || !rep->means)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < l->nr_cpus; i++) {
		l->cpus[i] = st->cpus.cpus[i];
		/* this machine's topology: the file's CPU_TOPOLOGY is not read */
		l->cpu_at[i] = l->cpus[i] >= 0 ? stat_cpu_at(l->cpus[i], -1) :
			       STAT_CPU_NOWHERE;
	}
	for (int t = 0; t < l->nr_threads; t++) {
		l->threads[t] = st->threads.pids[t];
		if (st->threads.comms && st->threads.comms[t][0])
			snprintf(l->comms[t], sizeof(l->comms[t]), "%.15s", st->threads.comms[t]);
		else
			snprintf(l->comms[t], sizeof(l->comms[t]), ":%d", (int)l->threads[t]);
	}
	for (int i = 0; i < l->nr; i++) {
		struct stat_counter *c = &l->c[i];
		const struct pd_evsel *e = &rep->r->evsels[i];

		c->attr = e->attr;
		snprintf(c->name, sizeof(c->name), "%s", e->name ? e->name : "");
		c->leader = i;
		c->nr_members = 1;
		c->supported = true;
		c->now = calloc(n ? n : 1, sizeof(*c->now));
		c->prev = calloc(n ? n : 1, sizeof(*c->prev));
		if (!c->now || !c->prev)
			return pc_error_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

/*
 * This round's readings into l's ->now (the last round's into ->prev); a
 * counter with cpus of its own (perf 7.x's EVENT_UPDATE) has them placed
 * at those cpus of the file's map
 */
static void take(struct report *rep, const struct rd_stat_counts *st)
{
	struct stat_evlist *l = &rep->l;
	size_t n = (size_t)l->nr_cpus * l->nr_threads;

	for (int i = 0; i < l->nr && (uint32_t)i < st->nr_counters; i++) {
		const struct rd_stat_counter *rc = &st->counters[i];
		const struct pd_cpu_list *cpus = rd_stat_cpus_of(st, rc);
		struct stat_counter *c = &l->c[i];

		memcpy(c->prev, c->now, n * sizeof(*c->now));
		memset(c->now, 0, n * sizeof(*c->now));
		for (uint32_t ci = 0; ci < rc->nr_cpus; ci++) {
			int at;

			for (at = 0; at < l->nr_cpus && l->cpus[at] != cpus->cpus[ci]; at++)
				;
			if (at == l->nr_cpus)
				continue;
			for (int t = 0; t < l->nr_threads; t++) {
				const struct rd_stat_values *v = &rc->now[(size_t)ci * l->nr_threads + t];

				c->now[(size_t)at * l->nr_threads + t] =
					(struct stat_count){ v->val, v->ena, v->run, 0 };
			}
		}
	}
}

static int on_round(void *ctx, struct rd_stat_counts *st, const struct pd_reader *r,
		    const struct pd_stat_round *rd, struct pc_error *err)
{
	struct report *rep = ctx;
	bool interval = st->config.interval && rd->time;
	struct stat_reading reading = { .delta = true, .interval = -1 };

	if (!rep->l.c) {
		int ret = build(rep, st, err);

		if (ret)
			return ret;
		layout_of_file(rep, &st->config, st->cpus.nr == 1 && st->cpus.cpus[0] == -1);
	}
	take(rep, st);
	reading.clock_means = rep->means;	/* made by build */
	if (rd->type == PD_STAT_ROUND_FINAL)
		stat_running_add(&rep->wall, (double)rd->time);
	reading.wall_ns = rep->wall.n ? rep->wall.mean : 0;
	if (interval) {
		reading.interval = (double)rd->time / 1e9;
		if (rep->rounds++ % 25 == 0)
			stat_print_interval_header(&rep->p, rep->o.aggr, rep->o.per_thread, false);
		stat_print_reading(&rep->p, &rep->o, &rep->l, &reading);
		return 0;
	}
	stat_print_header(&rep->p, &rep->o);
	stat_print_reading(&rep->p, &rep->o, &rep->l, &reading);
	stat_print_footer(&rep->p, &rep->wall, 1, 0, 0, false);
	return 0;
}

/* The stat records of the file as the input stage reads them, in file order */
static int on_user_record(void *ctx, const struct pd_record *rec, struct pc_error *err)
{
	struct report *rep = ctx;

	if (!rd_stat_counts_wants(rec->header.type))
		return 0;
	return rd_stat_counts_record(&rep->counts, rep->r, rec, err);
}

static void report_free(struct report *rep)
{
	stat_evlist_free(&rep->l);
	free(rep->means);
	for (int i = 0; i < rep->o.argc; i++)
		free(rep->o.argv[i]);
	free(rep->o.argv);
	rd_stat_counts_free(&rep->counts);
}

/* Reads input and prints its rounds; 0 or -errno with err set */
static int report_file(struct report *rep, const char *input, struct pc_error *err)
{
	struct rd_session *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return pc_error_set(err, ENOMEM, "out of memory");
	ret = rd_session_open(s, input, err);
	if (!ret && pd_reader_cmdline(&s->r, add_arg, &rep->o, NULL) == -ENOMEM)
		ret = pc_error_set(err, ENOMEM, "out of memory");
	/* perf's name for a command line it does not have (a pipe has no features) */
	if (!ret && !rep->o.argc && add_arg("pipe", &rep->o))
		ret = pc_error_set(err, ENOMEM, "out of memory");
	if (!ret) {
		rep->r = &s->r;
		rd_stat_counts_init(&rep->counts, on_round, rep);
		s->in.tap = (struct rd_input_tap){ on_user_record, rep };
		ret = rd_session_process(s, err);
	}
	/*
	 * A file that says nothing: perf prints nothing, which hides a wrong
	 * file.  perf record's files have THREAD_MAP and CPU_MAP too, not the
	 * STAT feature (a pipe has no features: its stat records tell)
	 */
	if (!ret && !rep->l.c && (!rep->counts.records ||
				  (!s->r.pipe_format && !pd_reader_has_feature(&s->r, PD_FEAT_STAT))))
		ret = pc_error_set(err, EINVAL, "%s: no perf stat record data (no STAT feature, "
				   "no STAT_ROUND): not a perf stat record file", input);
	else if (!ret && !rep->l.c)
		ret = pc_error_set(err, EINVAL, "%s: no STAT_ROUND record: the recording did "
				   "not finish", input);
	rd_session_close(s);
	free(s);
	return ret;
}

int cmd_stat_report(int argc, char **argv)
{
	struct report rep = { .p = { .out = stderr, .format = STAT_FMT_STD, .sep = " " } };
	struct pc_error err = { 0 };
	const char *input = "perf.data";
	int ret = parse(&rep, argc, argv, &input);

	if (ret)
		return ret > 0 ? 0 : 129;
	rep.o.repeat = 1;
	rep.o.look.format = rep.p.format;
	rep.o.look.sep = rep.p.sep;
	rep.o.look.layout = rep.p.layout;
	/* counts with thousands separators where the locale has them, as perf */
	setlocale(LC_NUMERIC, "");
	ret = report_file(&rep, input, &err);
	fflush(stderr);
	if (ret)
		fprintf(stderr, "%s\n", err.msg[0] ? err.msg : strerror(-ret));
	report_free(&rep);
	return ret ? 2 : 0;
}
