// SPDX-License-Identifier: GPL-2.0
/*
 * script -D, in perf script -D's shape: each record as perf delivers it
 * (header records as they are read, the others in time order through the
 * session's stages), with its offset, size and raw bytes, the time stamp
 * perf prints, the type and its fields; a sample also with the thread and
 * object of its ip and its perf script line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/codec.h"
#include "reader/dump.h"
#include "reader/dump_sample.h"
#include "reader/recfmt.h"
#include "reader/stat_script.h"

struct dump {
	struct rd_out *o;
	struct rd_printer *pr;		/* the script line of each sample, NULL: none */
	const char *path;		/* "pipe" for pipe input, as perf */
	uint64_t base;			/* offsets shown from here (the pipe's header) */
	uint64_t sample_type;		/* of all events together */
	enum pc_arch arch;
	bool named_contexts;		/* perf 7.2's chain lines: markers named */
	const void *last;		/* the sample record dumped last (group reads) */
	uint64_t last_offset;
	struct pc_error err;
	struct rd_stat_script stat;	/* perf stat record files: script's table at each round */
};

static void hexdump(struct rd_out *o, const uint8_t *p, size_t n)
{
	rd_out_printf(o, ".\n. ... raw event: size %zu bytes\n", n);
	for (size_t i = 0; i < n; i += 16) {
		char ascii[17];
		size_t j;

		rd_out_printf(o, ".  %04zx: ", i);
		for (j = 0; j < 16; j++) {
			if (i + j < n) {
				rd_out_printf(o, " %02x", p[i + j]);
				ascii[j] = isprint(p[i + j]) ? (char)p[i + j] : '.';
			} else {
				rd_out_str(o, "   ");
				ascii[j] = ' ';
			}
		}
		ascii[16] = '\0';
		rd_out_printf(o, "  %s\n", ascii);
	}
	rd_out_char(o, '\n');
}

static uint64_t combined_sample_type(const struct pd_reader *r)
{
	uint64_t st = 0;

	for (uint32_t i = 0; i < r->nr_evsels; i++)
		st |= r->evsels[i].attr.attr.sample_type;
	return st;
}

/*
 * "\nOFF@PATH [SIZE]: event: TYPE", the raw bytes, then "[CPU ][TIME ]OFF
 * [SIZE]: PERF_RECORD_NAME" (perf: "-1 -1 " for a record without sample_id).
 */
static void event_line(struct dump *d, struct rd_session *s, const struct pd_record *rec,
		       const struct pd_sample *smp)
{
	struct rd_out *o = d->o;
	const char *name = pd_record_name(rec->header.type);
	uint64_t off = rec->offset - d->base;
	bool id_all = s->r.sample_id_all;
	/* a directory's data.N records: that file and the offset in it */
	const char *path = s->r.dir ? pd_reader_where(&s->r, rec->offset, &off) : d->path;

	d->sample_type = combined_sample_type(&s->r);
	/* a pipe's ATTR is shown as perf sees it: before its event joins the list */
	if (rec->header.type == PC_RECORD_HEADER_ATTR && s->r.nr_evsels <= 1)
		id_all = false;
	rd_out_printf(o, "\n%#llx@%s [%#x]: event: %u\n", (unsigned long long)off, path,
		      rec->header.size, rec->header.type);
	hexdump(o, rec->data, rec->header.size);
	if (rec->header.type != PERF_RECORD_SAMPLE && !id_all) {
		rd_out_str(o, "-1 -1 ");
	} else {
		if (d->sample_type & PERF_SAMPLE_CPU)
			rd_out_printf(o, "%u ", smp ? smp->cpu : 0);
		if (d->sample_type & PERF_SAMPLE_TIME)
			rd_out_printf(o, "%llu ", (unsigned long long)(smp ? smp->time : 0));
	}
	rd_out_printf(o, "%#llx [%#x]: PERF_RECORD_%s", (unsigned long long)off, rec->header.size,
		      name ? name : "UNKNOWN");
}

static uint64_t u64_at(const struct pd_record *rec, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)rec->data + off, 8);
	return v;
}

static int too_short(struct rd_session *s, const struct pd_record *rec,
		     size_t need, struct pc_error *err)
{
	return pd_record_too_short(s->r.path, rec, need, err);
}

/* "0-3,5": perf's cpu list */
static void cpu_list(struct rd_out *o, const int32_t *cpus, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		rd_out_printf(o, "%s%d", i ? "," : "", cpus[i]);
		if (j > i)
			rd_out_printf(o, "-%d", cpus[j]);
		i = j + 1;
	}
}

/*
 * The cpu map at off of rec after prefix: CPU_MAP's (": 0-3", at 8) or an
 * EVENT_UPDATE's CPUS ("... 0-3", at 24), as perf prints them
 */
static int cpu_map(struct dump *d, struct rd_session *s, const struct pd_record *rec, size_t off,
		   const char *prefix, struct pc_error *err)
{
	struct pd_cpu_list l;
	size_t any;

	if (pd_decode_cpu_map(s->r.path, rec, off, &l, err))
		return -EINVAL;
	rd_out_str(d->o, prefix);
	any = l.nr && l.cpus[0] == -1 && l.nr > 1;
	if (any)
		rd_out_str(d->o, "-1,");
	cpu_list(d->o, l.cpus + any, l.nr - any);
	rd_out_char(d->o, '\n');
	free(l.cpus);
	return 0;
}

/* The fields of header records (ID_INDEX, THREAD_MAP, CPU_MAP, EVENT_UPDATE...) */
static int header_fields(struct dump *d, struct rd_session *s, const struct pd_record *rec,
			 struct pc_error *err)
{
	struct rd_out *o = d->o;
	size_t size = rec->header.size;
	uint64_t nr;

	switch (rec->header.type) {
	case PC_RECORD_ID_INDEX: {
		struct pd_id_entry *e;

		if (pd_decode_id_index(s->r.path, rec, &e, &nr, err))
			return -EINVAL;
		rd_out_printf(o, " nr: %llu\n", (unsigned long long)nr);
		for (uint64_t i = 0; i < nr; i++)
			rd_out_printf(o, " ... id: %llu  idx: %llu  cpu: %lld  tid: %lld\n",
				      (unsigned long long)e[i].id, (unsigned long long)e[i].idx,
				      (long long)e[i].cpu, (long long)e[i].tid);
		free(e);
		return 0;
	}
	case PC_RECORD_THREAD_MAP: {
		struct pd_thread_list t;

		if (pd_decode_thread_map(s->r.path, rec, &t, err))
			return -EINVAL;
		rd_out_printf(o, " nr: %u thread%s: ", t.nr, t.nr > 1 ? "s" : "");
		for (uint32_t i = 0; i < t.nr; i++)
			rd_out_printf(o, "%s%d", i ? ", " : "", t.pids[i]);
		rd_out_char(o, '\n');
		free(t.pids);
		free(t.comms);
		return 0;
	}
	case PC_RECORD_CPU_MAP:
		return cpu_map(d, s, rec, 8, ": ", err);
	case PC_RECORD_EVENT_UPDATE: {
		/* u64 type, u64 id, then unit / scale / name */
		struct pd_event_update u;
		int ret;

		if (size < 24)
			return too_short(s, rec, 24, err);
		/* the id's line first: the lines up to a bad field are printed */
		rd_out_printf(o, "\n... id:    %llu\n", (unsigned long long)u64_at(rec, 16));
		ret = pd_decode_event_update(s->r.path, rec, &u, err);
		if (ret)
			return ret;
		if (u.type == PD_EVENT_UPDATE_UNIT)
			rd_out_printf(o, "... unit:  %s\n", u.str);
		else if (u.type == PD_EVENT_UPDATE_SCALE)
			rd_out_printf(o, "... scale: %f\n", u.scale);
		else if (u.type == PD_EVENT_UPDATE_NAME)
			rd_out_printf(o, "... name:  %s\n", u.str);
		else if (u.type == PD_EVENT_UPDATE_CPUS)
			return cpu_map(d, s, rec, 24, "... ", err);
		else
			rd_out_str(o, "... unknown type\n");
		return 0;
	}
	case PC_RECORD_HEADER_ATTR:
	case PC_RECORD_HEADER_FEATURE:
		/* perf 6.1 ends the line of a pipe's ATTR and FEATURE records with nothing */
		return 0;
	case PC_RECORD_FINISHED_INIT:
		/* perf 6.1's script has no handler for it */
		rd_out_str(o, ": unhandled!\n");
		return 0;
	case PC_RECORD_FINISHED_ROUND:
		/* nor for a round where it orders nothing (--dump-unsorted-raw-trace) */
		rd_out_str(o, s->order.pass_through ? ": unhandled!\n" : "\n");
		return 0;
	case PC_RECORD_STAT_CONFIG:
	case PC_RECORD_STAT:
	case PC_RECORD_STAT_ROUND:
		/*
		 * perf ends none of these lines: the next record's blank line does,
		 * and at a round script's table of counts follows on the same line
		 */
		return rd_stat_script_record(&d->stat, &s->r, rec, o, err);
	default:
		rd_out_char(o, '\n');
		return 0;
	}
}

/* header records: shown as read */
static int on_header(void *ctx, const struct pd_record *rec, struct pc_error *err)
{
	struct rd_session *s = ctx;
	struct dump *d = s->ops.ctx;

	event_line(d, s, rec, NULL);
	/* the maps and an event's cpus, for the stat table of a round */
	if (rec->header.type == PC_RECORD_THREAD_MAP || rec->header.type == PC_RECORD_CPU_MAP ||
	    rec->header.type == PC_RECORD_EVENT_UPDATE) {
		int ret = rd_stat_script_record(&d->stat, &s->r, rec, d->o, err);

		if (ret)
			return ret;
	}
	return header_fields(d, s, rec, err);
}

static int on_record(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct dump *d = ctx;
	size_t trailer = ev->sample ? ev->sample->evsel->sample_id_size : 0;
	uint16_t type = ev->rec->header.type;

	/* unordered, the round marker comes this far too: on_header showed it */
	if (type == PC_RECORD_FINISHED_ROUND)
		return 0;
	event_line(d, s, ev->rec, ev->sample);
	if (type == PERF_RECORD_LOST) {
		/* perf's -D wording (script --show-lost-events says " lost N") */
		if (ev->rec->header.size < 24)
			return too_short(s, ev->rec, 24, &d->err);
		rd_out_printf(d->o, ": id:%llu: lost:%llu\n", (unsigned long long)u64_at(ev->rec, 8),
			      (unsigned long long)u64_at(ev->rec, 16));
		return 0;
	}
	return rd_recfmt_fields_ksym(d->o, s->r.path, ev->rec, trailer, rd_machine_ksym,
				     &s->machine, &d->err);
}

static int on_sample(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct dump *d = ctx;
	const struct pd_sample *smp = ev->sample;
	uint16_t m = ev->rec->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct pd_sample orig;
	struct rd_resolved r;

	/* a group read comes once per member: the record is dumped once */
	if (ev->rec->data != d->last || ev->rec->offset != d->last_offset) {
		d->last = ev->rec->data;
		d->last_offset = ev->rec->offset;
		/* as recorded: a member's period is derived later */
		if (smp->evsel->attr.attr.sample_type & PERF_SAMPLE_READ) {
			if (pd_parse_sample(&s->r, ev->rec, &orig, &d->err))
				return -EINVAL;
			if (!(orig.evsel->attr.attr.sample_type & PERF_SAMPLE_PERIOD))
				orig.period = orig.evsel->attr.attr.sample_period;
			smp = &orig;
		}
		event_line(d, s, ev->rec, smp);
		rd_dump_sample(d->o, ev->rec, smp, d->arch, d->named_contexts);
		smp = ev->sample;
	}
	rd_out_printf(d->o, " ... thread: %s:%d\n", ev->thread->comm, (int)ev->thread->tid);
	rd_resolve(s, ev->thread, m == PERF_RECORD_MISC_KERNEL || m == PERF_RECORD_MISC_GUEST_KERNEL,
		   smp->ip, &r);
	if (r.dso)
		rd_out_printf(d->o, " ...... dso: %.*s\n", (int)r.dso_len, r.dso);
	else
		rd_out_str(d->o, " ...... dso: <not found>\n");
	return d->pr ? rd_print_sample(s, ev, d->pr) : 0;
}

static int on_deferred(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct dump *d = ctx;

	event_line(d, s, ev->rec, ev->sample);
	rd_out_printf(d->o, "(IP, %#x): %d/%d: %#llx\n", ev->rec->header.misc,
		      (int)ev->sample->pid, (int)ev->sample->tid,
		      (unsigned long long)ev->deferred->cookie);
	rd_dump_chain(d->o, ev->deferred->ips, ev->deferred->nr, false, d->named_contexts);
	return 0;
}

int rd_dump(struct rd_session *s, struct rd_out *o, bool header, struct rd_printer *pr,
	    struct pc_error *err)
{
	struct dump d = { .o = o, .pr = pr, .path = s->r.path,
			  .named_contexts = !pr || pr->compat != RD_COMPAT_6_1 };
	char arch[64];
	int ret;

	rd_stat_script_init(&d.stat);
	/*
	 * perf's dump says so first when the first event has no sample_id_all
	 * (a stat file), or when there is no event (stat record -n's file)
	 */
	if (!s->r.pipe_format && (!s->r.nr_evsels || !s->r.evsels[0].attr.attr.sample_id_all))
		rd_out_str(o, "WARNING: No sample_id_all support, falling back to unordered "
			      "processing\n");
	if (header) {
		ret = rd_dump_header(s, o, err);
		if (ret)
			return ret;
	}
	if (s->r.pipe_format) {
		d.path = "pipe";
		d.base = 16;
	}
	if (!pd_reader_feature_string(&s->r, PD_FEAT_ARCH, arch, sizeof(arch), NULL))
		d.arch = pc_arch_from_name(arch);
	else
		d.arch = PC_ARCH_X86_64;
	/* every record shown: deferred callchains too, as their own records */
	s->merge = false;
	s->ops = (struct rd_ops){ .sample = on_sample, .deferred = on_deferred,
				  .record = on_record, .ctx = &d };
	s->in.tap = (struct rd_input_tap){ on_header, s };
	ret = rd_session_process(s, err);
	if (ret && !err->msg[0] && d.err.msg[0])
		*err = d.err;
	rd_stat_script_free(&d.stat);
	return ret;
}
