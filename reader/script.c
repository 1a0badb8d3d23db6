// SPDX-License-Identifier: GPL-2.0
/* perfcheck script: the samples of a perf.data file as perf script prints them. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "reader/dump.h"
#include "reader/event_dump.h"
#include "reader/filter.h"
#include "reader/perf_header.h"
#include "reader/print.h"
#include "reader/recfmt.h"
#include "reader/session.h"
#include "reader/stat_script.h"
#include "reader/tracefmt.h"
#include "util/log.h"

/* the field names, wrapped under the option's text */
static void field_names(FILE *f)
{
	const char *names = rd_fields_names();
	size_t col = 0;

	fputs("                            ", f);
	for (const char *p = names; *p; p++) {
		fputc(*p, f);
		col++;
		if (*p == ',' && col > 40) {
			fputs("\n                            ", f);
			col = 0;
		}
	}
	fputc('\n', f);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: perfcheck script [-i FILE] [-F FIELDS] [FILTERS] [--ns|--reltime|--deltatime]\n"
"                        [-G] [--max-stack N] [--header|--header-only]\n"
"                        [--no-merge-callchains] [--merge-late-deferred]\n"
"                        [--compat 6.1|6.12|7.2] [--symfs DIR] [-v]\n"
"       perfcheck script -D [--header] [-i FILE]\n"
"\n"
"Prints the samples of a perf.data file in perf script's layout.\n"
"\n"
"  -i, --input FILE          the file to read (default perf.data; - for stdin)\n"
"  -F, --fields LIST         fields to show (+f,-f edit the default); a field\n"
"                            the samples do not carry is an error:\n");
	field_names(f);
	fprintf(f,
"                            (cgroup and dsoff are perf 7.2's: not with\n"
"                            --compat 6.1)\n"
"      --comms LIST          only these commands\n"
"      --pid LIST            only these processes\n"
"      --tid LIST            only these threads\n"
"  -C, --cpu LIST            only these cpus (0-3,5)\n"
"      --dsos LIST           only samples whose ip is in these objects\n"
"      --addr-range N        with -S ADDRESS: samples within N bytes of the address too\n"
"  -S, --symbols LIST        only samples whose ip is in these symbols\n"
"      --time RANGE          START,END in seconds (either may be empty), or\n"
"                            percent slices: 10%%/2 (the second tenth),\n"
"                            0%%-10%%,50%%-60%%\n"
"      --show-task-events    also COMM, FORK and EXIT records\n"
"      --show-mmap-events    also MMAP and MMAP2 records\n"
"      --show-switch-events  also SWITCH and SWITCH_CPU_WIDE records\n"
"      --show-lost-events    also LOST records\n"
"      --show-bpf-events     also KSYMBOL and BPF_EVENT records\n"
"      --show-namespace-events  also NAMESPACES records\n"
"      --show-cgroup-events  also CGROUP records\n"
"      --show-round-events   also FINISHED_ROUND records; the records then come in\n"
"                            the file's order, not sorted by time (as perf)\n"
"      --show-text-poke-events  also TEXT_POKE records (record --kcore's) and KSYMBOL\n"
"      --ns                  times in nanoseconds\n"
"      --no-inline           callchains without their inlined entries (perf 7.2\n"
"                            adds them at every user frame, 6.1 at unwound ones)\n"
"      --inline              with them (the default)\n"
"      --full-source-path    srclines name their source files by the whole path\n"
"      --no-demangle         C++ names as the objects have them (--demangle: not)\n"
"  -f, --force               accepted as perf's (no ownership check to skip)\n"
"      --reltime             times from the first sample shown\n"
"      --deltatime           times from the previous sample shown\n"
"  -G, --hide-call-graph     the sample ip only, not its callchain\n"
"      --max-stack N         frames of a callchain shown (default 127)\n"
"      --header              the file's header (perf's layout) first\n"
"  -I, --show-info           the header's topology in full\n"
"      --header-only         only the header\n"
"      --per-event-dump      each event's lines into INPUT.EVENT.dump\n"
"      --no-merge-callchains deferred user callchains shown as their own records\n"
"      --merge-callchains    merge them into their samples (the default)\n"
"      --merge-late-deferred also merge samples taken after their deferred record\n"
"      --compat VERSION      layout of perf 7.2 (default) or 6.1 (5-column pids,\n"
"                            map-relative user addresses in callchains); 6.1\n"
"                            and 6.12 add arm64 leaf callers as those perfs do\n"
"      --kallsyms FILE       the kernel's symbols from FILE (a copy of a\n"
"                            machine's /proc/kallsyms), wherever recorded\n"
"      --symfs DIR           look DSOs up under DIR, never in this machine's\n"
"                            files, and leave kernel addresses unresolved\n"
"  -D, --dump-raw-trace      every record with its offset, size and fields\n"
"                            (with --header: the attrs and features, our layout)\n"
"      --dump-unsorted-raw-trace  the same with every record in the file's order\n"
"  -v, --verbose             merge statistics on stderr\n"
"  -h, --help                this help\n");
}

enum { OPT_NO_MERGE = 256, OPT_MERGE, OPT_LATE, OPT_COMPAT, OPT_HEADER, OPT_SYMFS, OPT_KALLSYMS, OPT_COMMS,
       OPT_PID, OPT_TID, OPT_DSOS, OPT_ADDR_RANGE, OPT_TIME, OPT_NS, OPT_RELTIME, OPT_DELTATIME, OPT_MAX_STACK,
       OPT_HEADER_ONLY, OPT_SHOW_TASK, OPT_SHOW_MMAP, OPT_SHOW_SWITCH, OPT_SHOW_LOST,
       OPT_SHOW_BPF, OPT_SHOW_NAMESPACE, OPT_SHOW_CGROUP, OPT_SHOW_TEXT_POKE, OPT_INLINE, OPT_NO_INLINE,
       OPT_DEMANGLE, OPT_NO_DEMANGLE, OPT_PER_EVENT_DUMP, OPT_FULL_SOURCE_PATH, OPT_SHOW_ROUND,
       OPT_DUMP_UNSORTED };

/* which non-sample records are shown */
enum { SHOW_TASK = 1, SHOW_MMAP = 2, SHOW_SWITCH = 4, SHOW_LOST = 8, SHOW_BPF = 16,
       SHOW_NAMESPACE = 32, SHOW_CGROUP = 64, SHOW_TEXT_POKE = 128, SHOW_ROUND = 256 };

static const struct option options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "fields", required_argument, NULL, 'F' },
	{ "no-merge-callchains", no_argument, NULL, OPT_NO_MERGE },
	{ "merge-callchains", no_argument, NULL, OPT_MERGE },
	{ "merge-late-deferred", no_argument, NULL, OPT_LATE },
	{ "compat", required_argument, NULL, OPT_COMPAT },
	{ "dump-raw-trace", no_argument, NULL, 'D' },
	{ "header", no_argument, NULL, OPT_HEADER },
	{ "show-info", no_argument, NULL, 'I' },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "comms", required_argument, NULL, OPT_COMMS },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "cpu", required_argument, NULL, 'C' },
	{ "dsos", required_argument, NULL, OPT_DSOS },
	{ "addr-range", required_argument, NULL, OPT_ADDR_RANGE },
	{ "symbols", required_argument, NULL, 'S' },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "ns", no_argument, NULL, OPT_NS },
	{ "inline", no_argument, NULL, OPT_INLINE },
	{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
	{ "full-source-path", no_argument, NULL, OPT_FULL_SOURCE_PATH },
	{ "demangle", no_argument, NULL, OPT_DEMANGLE },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "force", no_argument, NULL, 'f' },
	{ "reltime", no_argument, NULL, OPT_RELTIME },
	{ "deltatime", no_argument, NULL, OPT_DELTATIME },
	{ "hide-call-graph", no_argument, NULL, 'G' },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "header-only", no_argument, NULL, OPT_HEADER_ONLY },
	{ "show-task-events", no_argument, NULL, OPT_SHOW_TASK },
	{ "per-event-dump", no_argument, NULL, OPT_PER_EVENT_DUMP },
	{ "show-mmap-events", no_argument, NULL, OPT_SHOW_MMAP },
	{ "show-switch-events", no_argument, NULL, OPT_SHOW_SWITCH },
	{ "show-lost-events", no_argument, NULL, OPT_SHOW_LOST },
	{ "show-bpf-events", no_argument, NULL, OPT_SHOW_BPF },
	{ "show-namespace-events", no_argument, NULL, OPT_SHOW_NAMESPACE },
	{ "show-cgroup-events", no_argument, NULL, OPT_SHOW_CGROUP },
	{ "show-text-poke-events", no_argument, NULL, OPT_SHOW_TEXT_POKE },
	{ "show-round-events", no_argument, NULL, OPT_SHOW_ROUND },
	{ "dump-unsorted-raw-trace", no_argument, NULL, OPT_DUMP_UNSORTED },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct script {
	struct rd_printer pr;
	struct rd_filter flt;
	struct rd_trace tr;
	unsigned int show;	/* SHOW_* */
	struct pc_error err;	/* of a record that could not be shown */
	struct rd_session *s;
	struct rd_stat_script stat;	/* perf stat record files */
	struct rd_input_tap next_tap;	/* the header's, when --header reads a pipe */
	struct rd_event_dumps *dumps;	/* --per-event-dump, else NULL */
	struct rd_out *main_out;	/* stdout's */
};

/* --per-event-dump: the lines of the event's file; 0, or -errno with sc->err set */
static int to_dump(struct script *sc, struct rd_session *s, const struct pd_evsel *e,
		   bool sample)
{
	struct rd_out *o;

	if (!sc->dumps)
		return 0;
	o = rd_event_dump_out(sc->dumps, &s->r, e, sample, &sc->err);
	if (!o)
		return -(sc->err.code ? sc->err.code : EIO);
	sc->pr.out = o;
	return 0;
}

/* Every filter given must pass. */
static bool shown(struct rd_session *s, const struct rd_event *ev, const struct rd_filter *f)
{
	const struct pd_sample *smp = ev->sample;

	if (!f->any)
		return true;
	if (!rd_filter_thread_ok(f, ev->thread->comm, (int32_t)smp->pid, (int32_t)smp->tid))
		return false;
	if (f->nr_cpus && !rd_filter_in_numbers(f->cpus, f->nr_cpus, smp->cpu))
		return false;
	if (!rd_filter_time_ok(f, smp->time))
		return false;
	if ((f->dsos.nr || rd_filter_has_syms(f)) && !ev->deferred) {
		uint16_t m = ev->rec->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
		struct rd_resolved r;

		rd_resolve(s, ev->thread, m == PERF_RECORD_MISC_KERNEL ||
			   m == PERF_RECORD_MISC_GUEST_KERNEL, smp->ip, &r);
		if (!rd_filter_object_ok(f, &r, smp->ip))
			return false;
	}
	return true;
}

static int on_sample(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct script *sc = ctx;
	const struct pd_evsel *e = ev->sample->evsel;

	/* the first tracepoint sample: its section is read (a pipe's came as a record) */
	if (e && e->attr.attr.type == PERF_TYPE_TRACEPOINT && !sc->tr.tried && sc->pr.trace) {
		if (!rd_trace_open(&sc->tr, s) && rd_trace_name_events(&sc->tr, s))
			return -ENOMEM;
		sc->pr.name_width_evsels = 0;	/* names may have changed */
	}
	if (!shown(s, ev, &sc->flt))
		return 0;
	if (to_dump(sc, s, e, true))
		return -EIO;
	return rd_print_sample(s, ev, &sc->pr);
}

/* -F cgroup: the paths of PERF_RECORD_CGROUP, in time order before the samples that name them */
static int on_other(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct script *sc = ctx;
	struct rd_sample_fields *sf = rd_print_content(&sc->pr);

	if (!sf)
		return -ENOMEM;
	return rd_sample_fields_record(sf, s, ev->rec, &sc->err);
}

static int on_deferred(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct script *sc = ctx;

	if (!shown(s, ev, &sc->flt))
		return 0;
	if (to_dump(sc, s, ev->sample ? ev->sample->evsel : NULL, false))
		return -EIO;
	return rd_print_deferred(s, ev, &sc->pr);
}

/* The records of perf stat record (user types, in file order), then the tap before this one. */
static int on_user_record(void *ctx, const struct pd_record *rec, struct pc_error *err)
{
	struct script *sc = ctx;
	int ret;

	if (rd_stat_script_wants(rec->header.type)) {
		ret = rd_stat_script_record(&sc->stat, &sc->s->r, rec, sc->pr.out, err);
		if (ret)
			return ret;
	}
	return sc->next_tap.fn ? sc->next_tap.fn(sc->next_tap.ctx, rec, err) : 0;
}

static unsigned int show_bit(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return SHOW_TASK;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return SHOW_MMAP;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return SHOW_SWITCH;
	case PERF_RECORD_LOST:
		return SHOW_LOST;
	case PC_RECORD_KSYMBOL:
	case PC_RECORD_BPF_EVENT:
		return SHOW_BPF;
	case PERF_RECORD_NAMESPACES:
		return SHOW_NAMESPACE;
	case PERF_RECORD_CGROUP:
		return SHOW_CGROUP;
	case PC_RECORD_TEXT_POKE:
		return SHOW_TEXT_POKE;
	case PC_RECORD_FINISHED_ROUND:
		return SHOW_ROUND;
	default:
		return 0;
	}
}

/*
 * A non-sample record asked for with --show-*-events, as perf script
 * prints it: the line's start from the record's sample_id (or, without
 * sample_id_all, the record's own pid/tid, cpu 0, time 0 or FORK/EXIT's),
 * with the comm of the thread the record names; only -C filters it.
 * KSYMBOL and BPF_EVENT without sample_id: thread -1 (":-1"), time 0.
 */
/* whether --show-*-events asked for rec: --show-text-poke-events takes KSYMBOL too, as perf */
static bool record_shown(const struct script *sc, uint32_t type)
{
	return (sc->show & show_bit(type)) ||
	       (type == PC_RECORD_KSYMBOL && (sc->show & SHOW_TEXT_POKE));
}

static int on_record(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	static struct rd_thread none = { .pid = (uint32_t)-1, .tid = (uint32_t)-1, .comm = ":-1" };
	struct script *sc = ctx;
	const struct pd_record *rec = ev->rec;
	struct rd_event line = *ev;
	struct pd_sample smp = { 0 };
	int32_t pid, tid;
	size_t trailer = 0;

	if (!record_shown(sc, rec->header.type))
		return 0;
	/* perf prints the record's name alone, where it comes in the file */
	if (rec->header.type == PC_RECORD_FINISHED_ROUND) {
		rd_out_str(sc->pr.out, "PERF_RECORD_FINISHED_ROUND\n");
		return 0;
	}
	if (ev->sample) {
		smp = *ev->sample;
		trailer = smp.evsel->sample_id_size;
	} else if (s->r.nr_evsels) {
		/* no sample_id: perf takes the first event's fields */
		smp.evsel = &s->r.evsels[0];
	} else {
		return 0;
	}
	if (!rd_record_task(rec, &pid, &tid)) {
		pid = (int32_t)smp.pid;
		tid = (int32_t)smp.tid;
		/* perf's pid/tid of a KSYMBOL or BPF_EVENT without sample_id */
		if (!ev->sample && show_bit(rec->header.type) == SHOW_BPF)
			pid = tid = -1;
	}
	if (!ev->sample) {
		smp.pid = (uint32_t)pid;
		smp.tid = (uint32_t)tid;
		if ((rec->header.type == PERF_RECORD_FORK || rec->header.type == PERF_RECORD_EXIT) &&
		    rec->header.size >= sizeof(struct perf_event_header) + 24)
			memcpy(&smp.time, (const uint8_t *)rec->data + 24, 8);
	}
	if (sc->flt.nr_cpus && !rd_filter_in_numbers(sc->flt.cpus, sc->flt.nr_cpus, smp.cpu))
		return 0;
	line.sample = &smp;
	line.thread = tid == -1 ? &none : rd_thread_get(s, (uint32_t)pid, (uint32_t)tid);
	if (!line.thread)
		return -ENOMEM;
	/* perf prints the side band on stdout, --per-event-dump or not */
	sc->pr.out = sc->main_out;
	rd_print_record_start(&sc->pr, &line);
	return rd_recfmt_ksym(sc->pr.out, s->r.path, rec, trailer, rd_machine_ksym, &s->machine,
			      &sc->err);
}

/*
 * One event's fields asked for with -F, in perf 6.1's order of checks: a
 * field whose sample_type bits the event lacks is perf's error naming the
 * event and the field; symoff without sym, sym or dso without an address,
 * srcline without ip are perf's errors too.  Returns 0 or -1 (printed).
 */
static int check_event_fields(const struct pd_evsel *e, const struct rd_fields *fields)
{
	uint64_t st = e->attr.attr.sample_type;
	const struct rd_type_fields *fl = &fields->type[rd_output_type(e->attr.attr.type)];
	unsigned int asked = fl->mask;

	if (!fl->user)
		return 0;

	for (const unsigned int *b = rd_field_order; *b; b++) {
		const char *attr_name;
		uint64_t need = rd_field_needs(*b, &attr_name);

		if (!(asked & *b))
			continue;
		if (*b == RF_SYM && !(st & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
			fprintf(stderr, "Display of symbols requested but neither sample IP nor "
				"sample address\navailable. Hence, no addresses to convert to "
				"symbols.\n");
			return -1;
		}
		if (*b == RF_SYMOFF && !(asked & RF_SYM)) {
			/* sic: perf's message has no space there */
			fprintf(stderr, "Display of offsets requested but symbol is notselected.\n");
			return -1;
		}
		if (*b == RF_DSO && !(st & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
			fprintf(stderr, "Display of DSO requested but no address to convert.\n");
			return -1;
		}
		if (*b == RF_SRCLINE && !(asked & RF_IP)) {
			fprintf(stderr, "Display of source line number requested but sample IP is "
				"not\nselected. Hence, no address to lookup the source line "
				"number.\n");
			return -1;
		}
		if (need && (fl->user_set & *b) && !(st & need)) {
			fprintf(stderr, "Samples for '%s' event do not have %s attribute set. "
				"Cannot print '%s' field.\n", e->name ? e->name : "?",
				attr_name, rd_field_name(*b));
			if (*b == RF_CGROUP)
				fprintf(stderr, "Hint: run 'perf record --all-cgroups ...'\n");
			return -1;
		}
	}
	return 0;
}

/*
 * Fields asked for with -F that the samples cannot give: perf's errors
 * (check_event_fields); fields this reader does not print: an error of our
 * own; trace on events that are not tracepoints is ignored with a warning,
 * as perf does.
 * -1: perf's error (perf 6.1 exits 255 after it), -2: ours.
 */
static int check_fields(struct rd_session *s, struct rd_printer *pr)
{
	if (!pr->fields.user)
		return 0;
	/* perf warns for each type of event but tracepoints, present or not */
	if (pr->fields.wild_set & RF_TRACE) {
		static const char *const types[] = { "hardware", "software", "hardware-cache",
						     "unknown", "unknown", "unknown", "unknown" };

		for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++)
			fprintf(stderr, "'trace' not valid for %s events. Ignoring.\n", types[t]);
	}
	for (uint32_t i = 0; i < s->r.nr_evsels; i++) {
		const struct pd_evsel *e = &s->r.evsels[i];
		unsigned int f = rd_print_fields(pr, e);

		if (check_event_fields(e, &pr->fields))
			return -1;
		if ((f & RF_TRACE) && !pr->trace) {
			fprintf(stderr, "perfcheck script: 'trace' needs the tracepoint formatter, "
				"which this build does not have\n");
			return -2;
		}
		if ((f & RF_SRCLINE) && !(f & RF_IP)) {
			fprintf(stderr, "Display of source line number requested but sample IP is not\n"
				"selected. Hence, no address to lookup the source line number.\n");
			return -1;
		}
		if ((f & RF_TOD) && !pr->time.have_clock) {
			if (pd_reader_clock_data(&s->r, &pr->time.clock)) {
				fprintf(stderr, "Can't provide 'tod' time, missing clock data. Please "
					"record with -k/--clockid option.\n");
				return -1;
			}
			pr->time.have_clock = true;
		}
	}
	if (!pr->srcline) {
		pr->srcline = rd_print_srcline;
		pr->hook_ctx = pr;
	}
	if ((pr->fields.mask & RF_SRCLINE) && !pr->srcline) {
		fprintf(stderr, "perfcheck script: 'srcline' needs line information, "
			"which this build does not have\n");
		return -1;
	}
	return 0;
}

/* A file (not a pipe: its section comes later) whose tracepoint samples show `trace` */
static bool trace_shown(struct rd_session *s, const struct rd_printer *pr)
{
	const struct rd_type_fields *tp = &pr->fields.type[RD_OT_TRACE];

	if (s->r.pipe_format || (tp->user && !(tp->mask & RF_TRACE)))
		return false;
	for (uint32_t i = 0; i < s->r.nr_evsels; i++)
		if (s->r.evsels[i].attr.attr.type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

/* perf 7.2 keeps exited threads only for AUX area traces (its dump alike) */
static void forget_exited(struct rd_session *s, const struct rd_printer *prp)
{
	s->machine.forget_exited = prp->compat != RD_COMPAT_6_1 &&
				   !s->r.features[PD_FEAT_AUXTRACE].size;
}

int cmd_script(int argc, char **argv)
{
	struct script sc = { .pr = { .compat = RD_COMPAT_7_2, .merge = true } };
	struct rd_printer *prp = &sc.pr;
	struct rd_filter *flt = &sc.flt;
	struct rd_session *s;
	struct rd_out out;
	struct pc_error err = { 0 };
	const char *input = "perf.data", *symfs = NULL, *kallsyms = NULL;
	char *end;
	bool dump = false, header = false, header_only = false, late = false, show_info = false;
	bool per_event_dump = false;
	bool unsorted = false;	/* --dump-unsorted-raw-trace: -D in file order */
	struct rd_event_dumps dumps = { 0 };
	bool leaf_lr = false;	/* perf before 7.x: its arm64 leaf caller (unwind_stage.h) */
	bool mangled = false;	/* --no-demangle */
	struct rd_pipe_header ph;
	unsigned int header_how;
	char bad[64];
	int c, ret, usage_err = 0;

	rd_stat_script_init(&sc.stat);

	optind = 1;
	prp->trace = rd_trace_field;
	prp->trace_ctx = &sc.tr;
	while ((c = getopt_long(argc, argv, "i:F:C:S:GDvqhIf", options, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'F':
			if (rd_fields_parse(&prp->fields, optarg, bad, sizeof(bad))) {
				if (bad[0] && bad[strlen(bad) - 1] == ':')
					fprintf(stderr, "perfcheck script: unknown event type '%.*s' in "
						"-F (known: hw, sw, trace, raw, break, synth)\n",
						(int)strlen(bad) - 1, bad);
				else
					fprintf(stderr, "perfcheck script: unknown field '%s' (known: "
						"%s)\n", bad, rd_fields_names());
				return 1;
			}
			break;
		case OPT_NO_MERGE:
			prp->merge = false;
			break;
		case OPT_MERGE:
			prp->merge = true;
			break;
		case OPT_LATE:
			late = true;
			break;
		case OPT_COMPAT:
			/* 6.12: 7.2's layout, 6.1's arm64 leaf caller */
			leaf_lr = !strcmp(optarg, "6.1") || !strcmp(optarg, "6.12");
			if (!strcmp(optarg, "6.1")) {
				prp->compat = RD_COMPAT_6_1;
			} else if (!strcmp(optarg, "7.2") || !strcmp(optarg, "6.12")) {
				prp->compat = RD_COMPAT_7_2;
			} else {
				fprintf(stderr, "perfcheck script: --compat takes 6.1, 6.12 or 7.2\n");
				return 1;
			}
			break;
		case OPT_DUMP_UNSORTED:
			unsorted = true;
			/* fall through */
		case 'D':
			dump = true;
			break;
		case 'I':
			show_info = true;
			break;
		case OPT_HEADER:
			header = true;
			break;
		case OPT_HEADER_ONLY:
			header_only = true;
			break;
		case OPT_SYMFS:
			symfs = optarg;
			break;
		case OPT_KALLSYMS:
			kallsyms = optarg;
			break;
		case OPT_COMMS:
			flt->any = true;
			usage_err |= rd_filter_list(&flt->comms, optarg);
			break;
		case OPT_DSOS:
			flt->any = true;
			usage_err |= rd_filter_list(&flt->dsos, optarg);
			break;
		case OPT_ADDR_RANGE: {
			/* perf's integer option: the whole text a number */
			char *num_end;
			long v = strtol(optarg, &num_end, 0);

			usage_err |= *num_end || num_end == optarg || v < 0 ? -1 : 0;
			flt->addr_range = v > 0 ? (uint64_t)v : 0;
			break;
		}
		case 'S':
			flt->any = true;
			usage_err |= rd_filter_symbols(flt, optarg);
			break;
		case OPT_PID:
			flt->any = true;
			usage_err |= rd_filter_numbers(flt->pids, &flt->nr_pids, optarg, false);
			break;
		case OPT_TID:
			flt->any = true;
			usage_err |= rd_filter_numbers(flt->tids, &flt->nr_tids, optarg, false);
			break;
		case 'C':
			flt->any = true;
			usage_err |= rd_filter_numbers(flt->cpus, &flt->nr_cpus, optarg, true);
			break;
		case OPT_TIME:
			if (rd_filter_time(flt, optarg)) {
				fprintf(stderr, "perfcheck script: bad --time '%s'\n", optarg);
				rd_filter_free(flt);
				return 1;
			}
			break;
		case OPT_NS:
			prp->time.ns = true;
			break;
		case OPT_RELTIME:
			prp->time.mode = RD_TIME_REL;
			break;
		case OPT_DELTATIME:
			prp->time.mode = RD_TIME_DELTA;
			break;
		case 'G':
			prp->hide_chain = true;
			break;
		case OPT_INLINE:
		case OPT_NO_INLINE:
			prp->no_inline = c == OPT_NO_INLINE;
			break;
		case OPT_FULL_SOURCE_PATH:
			prp->full_source_path = true;
			break;
		case OPT_PER_EVENT_DUMP:
			per_event_dump = true;
			break;
		case OPT_DEMANGLE:
		case OPT_NO_DEMANGLE:
			mangled = c == OPT_NO_DEMANGLE;
			break;
		case 'f':
			/* perf's check that the file is the user's: none here to force */
			break;
		case OPT_MAX_STACK:
			prp->max_stack = (int)strtol(optarg, &end, 10);
			if (end == optarg || *end || prp->max_stack < 1) {
				fprintf(stderr, "perfcheck script: --max-stack takes a number > 0\n");
				rd_filter_free(flt);
				return 1;
			}
			break;
		case OPT_SHOW_TASK:
			sc.show |= SHOW_TASK;
			break;
		case OPT_SHOW_MMAP:
			sc.show |= SHOW_MMAP;
			break;
		case OPT_SHOW_SWITCH:
			sc.show |= SHOW_SWITCH;
			break;
		case OPT_SHOW_LOST:
			sc.show |= SHOW_LOST;
			break;
		case OPT_SHOW_BPF:
			sc.show |= SHOW_BPF;
			break;
		case OPT_SHOW_NAMESPACE:
			sc.show |= SHOW_NAMESPACE;
			break;
		case OPT_SHOW_CGROUP:
			sc.show |= SHOW_CGROUP;
			break;
		case OPT_SHOW_ROUND:
			sc.show |= SHOW_ROUND;
			break;
		case OPT_SHOW_TEXT_POKE:
			sc.show |= SHOW_TEXT_POKE;
			break;
		case 'v':
			pc_verbose++;
			break;
		case 'q':
			pc_verbose = -1;
			break;
		case 'h':
			usage(stdout);
			rd_filter_free(flt);
			return 0;
		default:
			usage(stderr);
			rd_filter_free(flt);
			return 1;
		}
	}
	if (prp->compat == RD_COMPAT_6_1 &&
	    ((prp->fields.user_set | prp->fields.del) & RF_NOT_IN_6_1)) {
		fprintf(stderr, "perfcheck script: unknown field '%s' (perf 6.1 has none; "
			"perf 7.2's layout has it)\n",
			((prp->fields.user_set | prp->fields.del) & RF_CGROUP) ? "cgroup" : "dsoff");
		rd_filter_free(flt);
		return 1;
	}
	if (usage_err) {
		fprintf(stderr, "perfcheck script: a filter list is empty or malformed\n");
		rd_filter_free(flt);
		return 1;
	}
	if (optind < argc) {
		fprintf(stderr, "perfcheck script: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		rd_filter_free(flt);
		return 1;
	}
	/* perf's words and status for a --kallsyms it cannot read */
	if (kallsyms && access(kallsyms, R_OK)) {
		fprintf(stderr, "Invalid file: %s\n", kallsyms);
		rd_filter_free(flt);
		return 255;
	}
	if (rd_out_init(&out, STDOUT_FILENO)) {
		fprintf(stderr, "perfcheck script: out of memory\n");
		rd_filter_free(flt);
		return 1;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "perfcheck script: out of memory\n");
		rd_out_free(&out);
		rd_filter_free(flt);
		return 1;
	}
	ret = rd_session_open(s, input, &err);
	/* perf 6.3 renamed PLT entries: --compat 6.1 keeps 6.1's names */
	s->dsos.names_6_1 = prp->compat == RD_COMPAT_6_1;
	s->dsos.mangled = mangled;
	if (!ret)
		rd_session_use_files(s, symfs, kallsyms);
	if (!ret && !dump && !header_only) {
		if ((usage_err = check_fields(s, prp))) {
			usage_err = usage_err == -1 ? 255 : 1;	/* perf's -1; ours */
		} else if (rd_filter_cpus_usable(flt, &s->r)) {
			usage_err = 255;	/* perf's -1 */
		} else if (trace_shown(s, prp) && rd_trace_open(&sc.tr, s)) {
		err = sc.tr.err;
		ret = -(err.code ? err.code : EINVAL);
		} else if (flt->has_percent) {
			ret = rd_filter_time_span(flt, &s->r, &err);
		}
	}
	header_how = (show_info ? RD_HDR_FULL : 0) | (prp->compat == RD_COMPAT_6_1 ? 0 : RD_HDR_7_2);
	if (usage_err) {
		/* nothing printed */
	} else if (!ret && dump) {
		prp->out = &out;
		forget_exited(s, prp);
		if (unsorted)
			rd_session_unordered(s);
		ret = rd_dump(s, &out, header, prp, &err);
	} else if (!ret && header_only) {
		ret = rd_perf_header(s, &out, header_how, &err);
	} else if (!ret) {
		prp->out = &out;
		s->merge = prp->merge;
		s->merge_late = late && prp->merge;
		s->rules.leaf_lr = leaf_lr;
		/*
		 * Debian's perf 6.1 and 7.2 alike (both measured here, 7.2 also in
		 * its guest): a word past the stack dump reads as 0
		 */
		s->rules.zero_unreadable = true;
		s->rules.libunwind_ends = prp->compat == RD_COMPAT_6_1;
		s->rules.lbr_first_target = prp->compat == RD_COMPAT_6_1;
		s->rules.sread_per_thread = prp->compat != RD_COMPAT_6_1;
		forget_exited(s, prp);
		s->ops.sample = on_sample;
		s->ops.deferred = on_deferred;
		if (sc.show)
			s->ops.record = on_record;
		if (sc.show & SHOW_ROUND)
			rd_session_unordered(s);
		if ((prp->fields.mask | prp->fields.add) & RF_CGROUP)
			s->ops.other = on_other;
		s->ops.ctx = &sc;
		/* like perf script --header: the header as comments, then the samples */
		if (header) {
			ret = rd_perf_header(s, &out, header_how, &err);
			rd_perf_header_pipe(s, &out, header_how, &ph);
		}
		sc.s = s;
		sc.main_out = &out;
		if (per_event_dump) {
			dumps.input = input;
			sc.dumps = &dumps;
		}
		sc.next_tap = s->in.tap;
		s->in.tap = (struct rd_input_tap){ on_user_record, &sc };
		if (!ret)
			ret = rd_session_process(s, &err);
	}
	rd_out_flush(&out);
	/* perf's session end: what was lost (LOST records not when each is shown) */
	if (!ret && !usage_err && !header_only)
		rd_session_warn(s, !(sc.show & SHOW_LOST), stderr);
	/* --per-event-dump: perf's line per file on stdout, after the lines there */
	if (sc.dumps && !ret) {
		ret = rd_event_dumps_finish(&dumps, &s->r, stdout, &err);
		fflush(stdout);
	}
	rd_event_dumps_free(&dumps);
	if (out.error && !ret)
		fprintf(stderr, "perfcheck script: writing output: %s\n", strerror(out.error));
	if (ret && !err.msg[0] && sc.tr.err.msg[0])
		err = sc.tr.err;
	if (ret && !err.msg[0] && sc.err.msg[0])
		err = sc.err;
	if (ret)
		fprintf(stderr, "%s\n", err.msg[0] ? err.msg : strerror(-ret));
	if (!ret && !usage_err && !dump && pc_verbose > 0)
		fprintf(stderr,
			"%llu samples; deferred callchains: %llu records, %llu merged, "
			"%llu merged late, %llu unmerged (%llu released at a bound); "
			"%llu records out of time order\n",
			(unsigned long long)s->stats.samples,
			(unsigned long long)s->stats.deferred_records,
			(unsigned long long)s->stats.merged,
			(unsigned long long)s->stats.merged_late,
			(unsigned long long)s->stats.unmerged,
			(unsigned long long)s->stats.forced,
			(unsigned long long)s->stats.unordered);
	rd_trace_free(&sc.tr);
	rd_stat_script_free(&sc.stat);
	rd_session_close(s);
	free(s);
	rd_printer_free(prp);
	rd_filter_free(flt);
	rd_out_free(&out);
	if (ret)
		return 2;
	if (usage_err)
		return usage_err;
	return out.error ? 1 : 0;
}
