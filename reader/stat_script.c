// SPDX-License-Identifier: GPL-2.0
/* perf stat record files in perf script: see stat_script.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "reader/stat_script.h"

/* perf 6.1's processing of a counter before it prints it (see the header) */
static void process(const struct rd_stat_counts *st, struct rd_stat_counter *c)
{
	size_t n = (size_t)c->nr_cpus * st->threads.nr;

	/* the other modes' numbers differ between perf versions: only GLOBAL is left alone */
	if (st->config.aggr_mode == PD_AGGR_GLOBAL)
		return;
	for (size_t i = 0; i < n; i++) {
		struct rd_stat_values *v = &c->now[i], old = c->prev[i];

		c->prev[i] = *v;
		v->val -= old.val;
		v->ena -= old.ena;
		v->run -= old.run;
		if (!st->config.scale)
			continue;
		if (!v->run)
			v->val = 0;
		else if (v->run < v->ena)
			v->val = (uint64_t)((double)v->val * (double)v->ena / (double)v->run);
	}
}

/* A round's table: each event, thread and cpu (perf 6.1's script) */
static int on_round(void *ctx, struct rd_stat_counts *st, const struct pd_reader *r,
		    const struct pd_stat_round *rd, struct pc_error *err)
{
	struct rd_stat_script *sc = ctx;
	struct rd_out *o = sc->o;

	/* perf prints the header before its first counter: none of -n's file */
	if (!sc->header_done && st->nr_counters) {
		rd_out_printf(o, "%3s %8s %15s %15s %15s %15s %s\n",
			      "CPU", "THREAD", "VAL", "ENA", "RUN", "TIME", "EVENT");
		sc->header_done = true;
	}
	for (uint32_t e = 0; e < st->nr_counters; e++) {
		struct rd_stat_counter *c = &st->counters[e];
		const struct pd_cpu_list *cpus;

		process(st, c);
		cpus = rd_stat_cpus_of(st, c);
		for (uint32_t t = 0; t < st->threads.nr; t++)
			for (uint32_t ci = 0; ci < c->nr_cpus; ci++) {
				const struct rd_stat_values *v = &c->now[(size_t)ci * st->threads.nr + t];

				rd_out_printf(o, "%3d %8d %15" PRIu64 " %15" PRIu64 " %15" PRIu64
					      " %15" PRIu64 " %s\n", cpus->cpus[ci],
					      st->threads.pids[t], v->val, v->ena, v->run, rd->time,
					      r->evsels[e].name ? r->evsels[e].name : "");
			}
	}
	return 0;
}

void rd_stat_script_init(struct rd_stat_script *sc)
{
	memset(sc, 0, sizeof(*sc));
	rd_stat_counts_init(&sc->counts, on_round, sc);
}

bool rd_stat_script_wants(uint32_t type)
{
	return rd_stat_counts_wants(type);
}

int rd_stat_script_record(struct rd_stat_script *sc, const struct pd_reader *r,
			  const struct pd_record *rec, struct rd_out *o, struct pc_error *err)
{
	sc->o = o;
	return rd_stat_counts_record(&sc->counts, r, rec, err);
}

void rd_stat_script_free(struct rd_stat_script *sc)
{
	rd_stat_counts_free(&sc->counts);
	memset(sc, 0, sizeof(*sc));
}
