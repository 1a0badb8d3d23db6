// SPDX-License-Identifier: GPL-2.0
/*
 * The finding table: perf commands whose options ask for features the
 * matrix's kernels differ in, each under every kernel model.  The
 * reference is the same command under the newest model (nothing refused
 * by the emulation): the features each event asks for there.  Under an
 * older model, the features an event ends up without are either ones that
 * kernel lacks (the ladder's job) or ones it has: perf's ladder switches
 * features off newest first, one per refusal, without asking whether the
 * kernel lacks that one, so a refusal caused by an older feature costs
 * the newer ones the kernel would have taken.
 *
 * An event is known by type:config; its final features are those of its
 * last open that went on to the kernel (or, when none did, of its last
 * open: what perf had come down to when it gave up).  Opens without a
 * sample period (but perf's dummy tracking event) are perf's capability
 * probes (perf_api_probe, the missing-feature probes of perf 6.12 and
 * later): counted, not events.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emulate/emulate.h"

#define REPORT_EVENTS	16
#define REPORT_ARGS	24

struct report_event {
	uint32_t type;
	uint64_t config;
	uint64_t final;		/* features of the last accepted open (else of the last open) */
	bool accepted;
};

struct tally {
	const struct pc_kernel_model *model;
	int opens, refused;
	uint64_t lacked;	/* features of refused event opens that the model lacks */
	uint64_t probes;	/* features of refused capability probes (no period) */
	uint64_t stop;		/* the last probe accepted after an event was refused */
	bool event_refused;
	char errnos[64];	/* "E2BIG,EINVAL" as refused, each once */
	struct report_event ev[REPORT_EVENTS];
	int nev;
};

static struct report_event *event_of(struct tally *t, uint32_t type, uint64_t config)
{
	for (int i = 0; i < t->nev; i++)
		if (t->ev[i].type == type && t->ev[i].config == config)
			return &t->ev[i];
	if (t->nev == REPORT_EVENTS)
		return NULL;
	t->ev[t->nev] = (struct report_event){ .type = type, .config = config };
	return &t->ev[t->nev++];
}

/* perf's capability probes: no sample period; its dummy tracking event is an event */
static bool is_probe(const struct emu_call *call)
{
	return !call->period &&
	       !(call->type == PERF_TYPE_SOFTWARE && call->config == PERF_COUNT_SW_DUMMY);
}

static void count_call(const struct emu_call *call, void *ctx)
{
	struct tally *t = ctx;
	struct report_event *e = is_probe(call) ? NULL : event_of(t, call->type, call->config);
	const char *name = pc_errno_name(call->verdict);
	size_t len = strlen(t->errnos);

	t->opens++;
	if (is_probe(call) && !call->verdict && t->event_refused && call->features)
		t->stop = call->features;
	if (e && (!call->verdict || !e->accepted)) {
		e->final = call->features;
		e->accepted |= !call->verdict;
	}
	if (!call->verdict)
		return;
	t->refused++;
	t->event_refused |= !is_probe(call);
	if (!is_probe(call))
		t->lacked |= call->features & ~t->model->features;
	else
		t->probes |= call->features & ~t->model->features;
	if (!name)
		name = "?";
	if (len + strlen(name) + 2 < sizeof(t->errnos) && !strstr(t->errnos, name))
		snprintf(t->errnos + len, sizeof(t->errnos) - len, "%s%s", len ? "," : "", name);
}

/*
 * The features the reference's events have and this run's lack; an event
 * this run never opened (perf gave up before it) has nothing to compare.
 */
static uint64_t dropped(const struct tally *ref, const struct tally *t)
{
	uint64_t d = 0;

	for (int i = 0; i < ref->nev; i++) {
		const struct report_event *r = &ref->ev[i];

		for (int j = 0; r->accepted && j < t->nev; j++)
			if (t->ev[j].type == r->type && t->ev[j].config == r->config)
				d |= r->final & ~t->ev[j].final;
	}
	return d;
}

static const char *const report_cmds[][12] = {
	{ "record", "-e", "cpu-clock", "-c", "500000" },
	{ "record", "-e", "cpu-clock", "-c", "500000", "-g" },
	{ "record", "-e", "cpu-clock", "-c", "500000", "-k", "mono", "--namespaces",
	  "--all-cgroups", "--switch-events" },
	{ "record", "-e", "cpu-clock", "-c", "500000", "--data-page-size", "--code-page-size" },
	{ "record", "-e", "cpu-clock", "-c", "500000", "--buildid-mmap" },
	{ "record", "-c", "500000", "-e", "{cpu-clock,task-clock}:S" },
	{ "record", "-e", "cpu-clock", "-c", "500000", "--call-graph", "fp,defer" },
};

/* PERF... CMD [-o OUT] -- true */
static int build_argv(char **argv, char *const *perf, const char *const *cmd, char *out)
{
	int n = 0;

	for (; *perf && n < REPORT_ARGS - 16; perf++)
		argv[n++] = *perf;
	for (int i = 0; i < 12 && cmd[i]; i++)
		argv[n++] = (char *)cmd[i];
	if (!strcmp(cmd[0], "record")) {
		argv[n++] = "-o";
		argv[n++] = out;
	}
	argv[n++] = "--";
	argv[n++] = "true";
	argv[n] = NULL;
	return n;
}

static void cmd_line(const char *const *cmd, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < 12 && cmd[i] && len + 1 < size; i++) {
		if (!strcmp(cmd[i], "-c") || !strcmp(cmd[i], "500000"))
			continue;	/* the fixed period every record has */
		len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "", cmd[i]);
	}
}

static int run_tally(const struct pc_kernel_model *m, char **argv, struct tally *t,
		     int *code, struct pc_error *err)
{
	struct emu_opts opts = { count_call, t, true };

	memset(t, 0, sizeof(*t));
	t->model = m;
	*code = emu_run(m, argv, &opts, err);
	return *code < 0 ? *code : 0;
}

int emu_report(char *const *perf, struct pc_error *err)
{
	static const char *const kernels[] = { "5.10", "6.1", "6.12" };
	const struct pc_kernel_model *newest = pc_kernel_model_find("7.2");
	char dir[] = "/tmp/perfcheck-emulate-XXXXXX", out[sizeof(dir) + 16];
	int ret = 0, n = 0;

	while (perf[n + 1])
		n++;
	if (!mkdtemp(dir))
		return pc_error_set(err, errno, "mkdtemp: %s", strerror(errno));
	snprintf(out, sizeof(out), "%s/perf.data", dir);
	printf("# %s under each kernel model.  Reference: the same command under %s,\n"
	       "# where the emulation refuses nothing.\n"
	       "# probes refused: perf's capability opens (no sample period) refused, by feature;\n"
	       "# probes stop at: the probe that worked after an event was refused, where perf\n"
	       "#   (6.12 and later) stops probing and assumes every older feature;\n"
	       "# asked, the kernel lacks it: features refused, or dropped from the reference's attrs;\n"
	       "# given up although the kernel has it: dropped all the same (perf's ladder switches\n"
	       "#   off the newest feature asked, one per refusal, without asking which one).\n",
	       perf[n], newest->name);
	printf("%-6s %-44s %4s %5s %7s  %-7s %-32s %-14s %-36s %s\n", "kernel", "command", "exit",
	       "opens", "refused", "errnos", "perf's probes refused", "probes stop at",
	       "asked, the kernel lacks it", "given up although the kernel has it");
	for (size_t c = 0; c < sizeof(report_cmds) / sizeof(report_cmds[0]) && !ret; c++) {
		static struct tally ref, t;
		char *argv[REPORT_ARGS], line[160];
		int code;

		build_argv(argv, perf, report_cmds[c], out);
		cmd_line(report_cmds[c], line, sizeof(line));
		ret = run_tally(newest, argv, &ref, &code, err);
		if (ret)
			break;
		remove(out);
		if (code) {
			printf("%-6s %-44.44s %4d  (perf does not take these options: nothing to compare)\n",
			       newest->name, line, code);
			continue;
		}
		for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
			const struct pc_kernel_model *m = pc_kernel_model_find(kernels[k]);
			char lacked[512], given_up[512], probes[512], stop[512];
			uint64_t d;

			ret = run_tally(m, argv, &t, &code, err);
			remove(out);
			if (ret)
				break;
			d = dropped(&ref, &t);
			emu_feature_list((d | t.lacked) & ~m->features, lacked, sizeof(lacked));
			emu_feature_list(d & m->features, given_up, sizeof(given_up));
			emu_feature_list(t.probes, probes, sizeof(probes));
			emu_feature_list(t.stop, stop, sizeof(stop));
			printf("%-6s %-44.44s %4d %5d %7d  %-7s %-32s %-14s %-36s %s\n", m->name, line,
			       code, t.opens, t.refused, t.refused ? t.errnos : "-", probes, stop,
			       lacked, given_up);
		}
	}
	remove(out);
	rmdir(dir);
	return ret;
}
