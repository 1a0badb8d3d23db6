// SPDX-License-Identifier: GPL-2.0
/*
 * One sample: "comm tid [cpu] time: period event: " then either one ip on
 * the same line or, with a callchain, one "\t%16lx sym+0xoff (dso)" line
 * per frame and a blank line.  Widths follow perf script: 6.1 prints pids
 * in 5 columns and user frames as map-relative addresses; 7.2 prints 7
 * columns and the addresses as sampled.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "reader/a2l_answer.h"
#include "reader/print.h"
#include "reader/tod.h"

#define RD_MAX_STACK 127	/* perf script's default --max-stack */

static int max_stack(const struct rd_printer *p)
{
	return p->max_stack > 0 && p->max_stack < RD_MAX_STACK ? p->max_stack : RD_MAX_STACK;
}

unsigned int rd_print_fields(const struct rd_printer *p, const struct pd_evsel *e)
{
	enum rd_output_type ot = e ? rd_output_type(e->attr.attr.type) : RD_OT_HW;
	const struct rd_type_fields *tf = &p->fields.type[ot];
	unsigned int f = tf->user ? tf->mask : rd_fields_default(ot);
	uint64_t st = e ? e->attr.attr.sample_type : 0;
	bool tp = ot == RD_OT_TRACE;

	/*
	 * Each type of event has perf's default (tracepoints: the fields, no
	 * ip); "+a,-b" edits that default, a list replaces it.  trace is for
	 * tracepoints alone (perf warns and leaves it out elsewhere).
	 */
	if (!tf->user || tf->edit) {
		f = rd_fields_default(ot);
		/*
		 * perf's tracepoint default shows the callchain (ip, sym, symoff,
		 * dso) when the events have one, unless -F edits it or -G hides
		 * chains.  perf decides it once for all tracepoints, from the first
		 * with a callchain; here each event decides for itself, which
		 * differs only when some tracepoints of a file have chains and
		 * others not.
		 */
		if (tp && !tf->edit && !p->hide_chain && (st & PERF_SAMPLE_CALLCHAIN))
			f |= RF_IP | RF_SYM | RF_SYMOFF | RF_DSO;
		if (st & PERF_SAMPLE_CPU)
			f |= RF_CPU;
		/* a default field the samples cannot give is left out, quietly */
		for (const unsigned int *b = rd_field_order; e && *b; b++) {
			const char *name;
			uint64_t need = rd_field_needs(*b, &name);

			if ((f & *b) && need && !(st & need) && !(tf->add & *b))
				f &= ~*b;
		}
		if (tf->edit)
			f = (f | tf->add) & ~tf->del;
	}
	if (!tp)
		f &= ~RF_TRACE;
	if (!(st & PERF_SAMPLE_CPU))
		f &= ~RF_CPU;
	if (!(st & PERF_SAMPLE_TIME))
		f &= ~RF_TIME;
	if (!(st & PERF_SAMPLE_ADDR))
		f &= ~RF_ADDR;
	return f;
}

static int name_width(struct rd_printer *p, struct rd_session *s)
{
	if (p->name_width_evsels != s->r.nr_evsels) {
		p->name_width = 0;
		for (uint32_t i = 0; i < s->r.nr_evsels; i++) {
			const char *n = s->r.evsels[i].name;
			int len = n ? (int)strlen(n) : 9;

			if (len > p->name_width)
				p->name_width = len;
		}
		p->name_width_evsels = s->r.nr_evsels;
	}
	return p->name_width;
}

/* the seconds of the last time printed, as digits */
struct rd_sec_text {
	uint64_t sec;
	uint8_t len;
	char text[24];
};

static struct rd_sec_text *sec_cache(struct rd_printer *p);

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* "%5lu.%06lu: " (or %09lu with --ns), relative to the first or previous sample if asked */
static void print_time(struct rd_printer *p, uint64_t t)
{
	struct rd_sec_text *c = sec_cache(p);
	char b[48], *end = b + sizeof(b), *q = end;
	uint64_t shown = t, sec, frac;
	int digits = p->time.ns ? 9 : 6, width = p->time.ns ? 15 : 12, n;

	if (p->time.mode == RD_TIME_REL) {
		if (!p->time.first)
			p->time.first = t;
		shown = t - p->time.first;
	} else if (p->time.mode == RD_TIME_DELTA) {
		shown = p->time.prev ? t - p->time.prev : 0;
		p->time.prev = t;
	}
	sec = shown / 1000000000ULL;
	frac = shown % 1000000000ULL;
	if (!p->time.ns)
		frac /= 1000;
	*--q = ' ';
	*--q = ':';
	/* two digits a division, from a table: this runs for every sample */
	for (; digits >= 2; digits -= 2) {
		unsigned d = (unsigned)(frac % 100);

		frac /= 100;
		q -= 2;
		memcpy(q, &digit_pairs[2 * d], 2);
	}
	if (digits)
		*--q = (char)('0' + frac % 10);
	*--q = '.';
	/* the seconds: the same as the sample before, mostly */
	if (c && c->len && c->sec == sec) {
		q -= c->len;
		memcpy(q, c->text, c->len);
	} else {
		char *dot = q;
		uint64_t whole = sec;

		while (sec >= 10) {
			unsigned d = (unsigned)(sec % 100);

			sec /= 100;
			q -= 2;
			memcpy(q, &digit_pairs[2 * d], 2);
		}
		if (sec || *q == '.')
			*--q = (char)('0' + sec);
		if (c && (size_t)(dot - q) <= sizeof(c->text)) {
			c->sec = whole;
			c->len = (uint8_t)(dot - q);
			memcpy(c->text, q, c->len);
		}
	}
	/* the number right-aligned in width, then ": " */
	n = (int)(end - q) - 2;
	while (n < width && q > b) {
		*--q = ' ';
		n++;
	}
	rd_out_mem(p->out, q, (size_t)(end - q));
}

/* comm and pid/tid as the fields ask */
static void print_ids(struct rd_printer *p, const struct rd_event *ev, unsigned int f, bool chain)
{
	struct rd_out *o = p->out;
	const struct pd_sample *smp = ev->sample;
	int w = p->compat == RD_COMPAT_6_1 ? 5 : 7;

	if (f & RF_COMM) {
		rd_out_pad(o, ev->thread->comm, chain ? 0 : 16);
		rd_out_char(o, ' ');
	}
	if ((f & RF_PID) && (f & RF_TID)) {
		rd_out_s64(o, (int32_t)smp->pid, w);
		rd_out_char(o, '/');
		/* "%-5d": left-aligned */
		{
			char b[24];
			struct rd_out tmp = { .buf = b, .cap = sizeof(b) };

			rd_out_s64(&tmp, (int32_t)smp->tid, 0);
			b[tmp.len] = '\0';
			rd_out_pad(o, b, -w);
		}
		rd_out_char(o, ' ');
	} else if (f & (RF_PID | RF_TID)) {
		rd_out_s64(o, (int32_t)((f & RF_PID) ? smp->pid : smp->tid), w);
		rd_out_char(o, ' ');
	}
}

/*
 * "comm pid/tid " is the same for every sample of a thread: kept per
 * thread, with the comm it was made with (a COMM record changes it).
 */
#define HEAD_CACHE 1024

struct rd_head {
	const struct rd_thread *thread;
	uint32_t pid, tid;
	unsigned int fields;
	bool chain;
	uint8_t len;
	char comm[RD_COMM_LEN];
	char text[96];
};

/* "%10lu event: " of the last sample, kept while period and event repeat */
struct rd_period_event {
	uint64_t period;
	const struct pd_evsel *evsel;
	int width;
	unsigned int fields;
	uint16_t len;
	char name[64];		/* the event's name it was made with */
	char text[128];
};

/* the fields of the last sample's event (rd_print_fields runs through every field) */
struct rd_fields_of {
	const struct pd_evsel *evsel;
	uint32_t nr_evsels;	/* when it was kept: a pipe's new attr moves the evsels */
	unsigned int fields;
};

struct rd_print_cache {
	struct rd_head heads[HEAD_CACHE];
	struct rd_period_event pe;
	struct rd_sec_text sec;
	struct rd_fields_of fields_of;
};

static struct rd_print_cache *print_cache(struct rd_printer *p)
{
	if (!p->cache)
		p->cache = calloc(1, sizeof(*p->cache));
	return p->cache;
}

static struct rd_sec_text *sec_cache(struct rd_printer *p)
{
	struct rd_print_cache *c = print_cache(p);

	return c ? &c->sec : NULL;
}

static void print_ids_cached(struct rd_printer *p, const struct rd_event *ev, unsigned int f,
			     bool chain)
{
	struct rd_print_cache *c = print_cache(p);
	const struct pd_sample *smp = ev->sample;
	const struct rd_thread *t = ev->thread;
	unsigned int fields = f & (RF_COMM | RF_PID | RF_TID);
	struct rd_out *o = p->out;
	struct rd_head *h;
	size_t start;
	char *buf;

	if (!c) {
		print_ids(p, ev, f, chain);
		return;
	}
	h = &c->heads[((uintptr_t)t >> 4) * 0x9E3779B97F4A7C15ULL >> 54];
	/* the whole array: a comm written without zeroes after it only costs a miss */
	if (h->len && h->thread == t && h->pid == smp->pid && h->tid == smp->tid &&
	    h->fields == fields && h->chain == chain && !memcmp(h->comm, t->comm, sizeof(h->comm))) {
		rd_out_mem(o, h->text, h->len);
		return;
	}
	if (o->len + sizeof(h->text) > o->cap)
		rd_out_flush(o);
	buf = o->buf;
	start = o->len;
	print_ids(p, ev, f, chain);
	h->len = 0;
	if (o->buf != buf || o->len < start || o->len - start > sizeof(h->text) ||
	    strlen(t->comm) >= sizeof(h->comm))
		return;
	memcpy(h->text, o->buf + start, o->len - start);
	h->len = (uint8_t)(o->len - start);
	h->thread = t;
	h->pid = smp->pid;
	h->tid = smp->tid;
	h->fields = fields;
	h->chain = chain;
	memcpy(h->comm, t->comm, sizeof(h->comm));
}

/* comm, pid/tid, cpu, time: what starts every line perf script prints */
static void print_start(struct rd_printer *p, const struct rd_event *ev, unsigned int f,
			bool chain)
{
	struct rd_out *o = p->out;
	const struct pd_sample *smp = ev->sample;

	print_ids_cached(p, ev, f, chain);
	if (f & RF_CPU) {
		rd_out_char(o, '[');
		rd_out_u64z(o, smp->cpu, 3);
		rd_out_mem(o, "] ", 2);
	}
	if (f & RF_MISC)
		rd_sample_fields_misc(o, ev->rec);
	if (f & RF_TOD) {
		char tod[64];

		/* a pipe without CLOCK_DATA (a file without it is refused): perf's word */
		rd_out_str(o, p->time.have_clock ?
			      rd_tod_text(rd_tod_of(&p->time.clock, smp->time), tod, sizeof(tod)) :
			      "disabled");
		rd_out_char(o, ' ');
	}
	if (f & RF_TIME)
		print_time(p, smp->time);
}

/* " sym+0xoff (dso)" of one resolved frame, as the fields ask */
static void frame_text(struct rd_out *o, unsigned int f, const struct rd_resolved *r,
		       bool cookie)
{
	if (f & RF_SYM) {
		rd_out_char(o, ' ');
		if (cookie) {
			rd_out_str(o, "(cookie)");
		} else if (r->sym) {
			rd_out_mem(o, r->sym->name, r->sym->name_len);
			if (f & RF_SYMOFF) {
				rd_out_mem(o, "+0x", 3);
				rd_out_hex(o, r->off, 0);
			}
		} else {
			rd_out_mem(o, "[unknown]", 9);
		}
	}
	if (f & (RF_DSO | RF_DSOFF)) {
		rd_out_mem(o, " (", 2);
		if (r->dso)
			rd_out_mem(o, r->dso, r->dso_len);
		else
			rd_out_mem(o, "[unknown]", 9);
		/* dsoff: the offset in an object file (not the kernel's, a JIT's or none) */
		if ((f & RF_DSOFF) && r->obj) {
			rd_out_mem(o, "+0x", 3);
			rd_out_hex(o, r->addr, 0);
		}
		rd_out_char(o, ')');
	}
}

/*
 * The inline frames at a chain's user frame: perf 6.1 adds them to
 * DWARF-unwound frames only, perf 7.2 to every frame (frame pointers too).
 */
#define RF_INLINES (1u << 31)
#define RD_INLINE_MAX 16

/* The file of r's object as the session reads it (under its root) */
static void object_path(const struct rd_session *s, const struct rd_resolved *r, char *buf,
			size_t size)
{
	snprintf(buf, size, "%s%.*s", s->dsos.root ? s->dsos.root : "", (int)r->dso_len, r->dso);
}

/* The DWARF frames at a resolved user address, innermost first; 0 when none. */
static uint32_t src_frames(struct rd_printer *p, struct rd_session *s, const struct rd_resolved *r,
			   struct pc_src_frame *fr)
{
	char path[4096];
	uint32_t nr = 0;

	if (!r->sym || !r->dso || r->dso[0] != '/')
		return 0;
	if (!rd_srcline_cache(&p->src, s, NULL, p->compat != RD_COMPAT_6_1))
		return 0;
	object_path(s, r, path, sizeof(path));
	if (pc_srcline_frames(p->src, path, r->sym->start + r->off, fr, RD_INLINE_MAX, &nr))
		return 0;
	return nr;
}

/*
 * Whether perf 7.2 takes r's frames and line from addr2line, not libdw
 * (srcline.h); never for perf 6.1, which reads lines with addr2line alone
 */
static bool a2l_answers(struct rd_printer *p, struct rd_session *s, const struct rd_resolved *r)
{
	char path[4096];

	if (p->compat == RD_COMPAT_6_1 || !p->src || !r->sym || !r->dso || r->dso[0] != '/')
		return false;
	object_path(s, r, path, sizeof(path));
	return pc_srcline_a2l_answers(p->src, path, r->sym->start + r->off);
}

/*
 * src_frames as perf's inline entries see them.  *a2l: perf 7.2 takes
 * them from addr2line (asked only where the answer matters: no frames, or
 * an outer function not named as the symbol); then where DWARF has none,
 * addr2line's name from the symbol table is the one frame.
 */
static uint32_t inline_src_frames(struct rd_printer *p, struct rd_session *s,
				  const struct rd_resolved *r, struct pc_src_frame *fr, bool *a2l)
{
	uint32_t nr = src_frames(p, s, r, fr);
	const char *outer = nr ? fr[nr - 1].func : NULL;
	char path[4096];

	*a2l = false;
	if (outer && strlen(outer) == r->sym->name_len &&
	    !memcmp(outer, r->sym->name, r->sym->name_len))
		return nr;
	*a2l = a2l_answers(p, s, r);
	if (!nr && *a2l) {
		object_path(s, r, path, sizeof(path));
		fr[0] = (struct pc_src_frame){
			.func = pc_srcline_a2l_func(p->src, path, r->sym->start + r->off) };
		nr = fr[0].func ? 1 : 0;
	}
	return nr;
}

/*
 * A user address libdw has no line for, in an object addr2line can read:
 * what addr2line answers there decides perf 6.1's srcline.  With no symbol
 * at or below the address either it answers "??:0", which perf takes as a
 * failure and shows "object[address]" (false here: srcline_text says so).
 * Else it names the function, with the source file of a file symbol or
 * "??" and line 0 (true, *file that name or NULL): perf's script leaves
 * "??:0" out, except for the entries of a DWARF-unwound chain it resolved
 * to a symbol; "FILE:0" it shows.  An object addr2line cannot read gets
 * "object[address]" too.
 */
static bool srcline_unknown(struct rd_printer *p, struct rd_session *s, bool kernel,
			    const struct rd_resolved *r, const char **file)
{
	struct pc_src_frame fr[RD_INLINE_MAX];
	char path[4096];

	*file = NULL;
	if (kernel || !r->dso || r->dso[0] != '/' || src_frames(p, s, r, fr))
		return false;
	/* perf 7.2 asks nothing at an address of no symbol: "object[address]" */
	if (!r->sym && p->compat != RD_COMPAT_6_1)
		return false;
	object_path(s, r, path, sizeof(path));
	if (!rd_srcline_cache(&p->src, s, NULL, p->compat != RD_COMPAT_6_1) ||
	    rd_a2l_no_line(p->src, s, r, path, file) <= 0)
		return false;
	/*
	 * perf 7.2 runs addr2line only on an object with a line table: a
	 * function without a file ("??:0") from one (a PIE's _start), no
	 * answer from another (a stripped ls)
	 */
	return *file || p->compat == RD_COMPAT_6_1 || pc_srcline_a2l_runs(p->src, path);
}

/* "FILE:0" for an address without a line that addr2line names (srcline_unknown) */
static void srcline_no_line(struct rd_out *o, const char *prefix, const char *file, bool full)
{
	rd_out_str(o, prefix);
	rd_out_str(o, file ? pc_srcline_shown(file, full) : "??");
	rd_out_mem(o, ":0", 2);
}

/*
 * Whether perf composes the line's file of r as addr2line does (with
 * --full-source-path: "./elf/./elf/rtld.c"): perf 6.1, and perf 7.2 where
 * libdw does not answer (srcline.h)
 */
static bool binutils_file(struct rd_printer *p, struct rd_session *s, const struct rd_resolved *r)
{
	return p->compat == RD_COMPAT_6_1 || (p->full_source_path && a2l_answers(p, s, r));
}

/*
 * The srcline perf shows for an address: "file.c:LINE" of the DWARF frame
 * given (innermost unless fr), else "dso[addr]" (the object's basename and
 * the map-relative address), "[kernel.kallsyms][ip]" for the kernel.
 */
static void srcline_text(struct rd_printer *p, struct rd_session *s, bool kernel, uint64_t ip,
			 const struct rd_resolved *r, const struct pc_src_frame *fr)
{
	struct pc_src_frame own[RD_INLINE_MAX];
	struct rd_out *o = p->out;
	const char *base;
	size_t base_len;

	if (!fr && !kernel && src_frames(p, s, r, own))
		fr = own;
	if (fr) {
		/* DWARF without a line for the address: perf's ":0" */
		char path[4096];

		if (fr->file && fr->line)
			rd_out_str(o, pc_srcline_frame_file(fr, p->full_source_path,
							    binutils_file(p, s, r), path,
							    sizeof(path)));
		rd_out_char(o, ':');
		rd_out_u64(o, fr->file ? fr->line : 0, 0);
		return;
	}
	if (!r->dso) {
		rd_out_mem(o, "??:0", 4);
		return;
	}
	base = r->dso;
	base_len = r->dso_len;
	for (size_t i = 0; i < r->dso_len; i++)
		if (r->dso[i] == '/') {
			base = r->dso + i + 1;
			base_len = r->dso_len - i - 1;
		}
	/* perf's short name ("[JIT] tid N" for a JIT's map) */
	if (r->obj) {
		base = r->obj->short_name;
		base_len = r->obj->short_len;
	}
	rd_out_mem(o, base, base_len);
	rd_out_char(o, '[');
	/*
	 * perf's objdump address: an ET_EXEC object's vaddr once perf loaded
	 * its symbols (their text offset), the map-relative address of one it
	 * found none in (a stripped static busybox: perf 7.2 in its guest)
	 */
	rd_out_hex(o, kernel ? ip : r->obj && r->obj->exec && !r->obj->has_symtab ? r->addr
										 : rd_a2l_addr(r), 0);
	rd_out_char(o, ']');
}

/*
 * perf's unwind entries: each function inlined at the address, innermost
 * first, is "name+off (inlined)"; the outer (real) function is its
 * ordinary line (symbol and object), but to perf 6.1 it is inlined too
 * when its DWARF name is not the symbol's (a clone, an alias: perf 7.2
 * shows "_Fork+0x23 (libc.so.6)" where 6.1 shows "__GI__Fork+0x23
 * (inlined)").  An entry with the symbol's own name is its ordinary line
 * wherever it is in the list, as perf reuses the symbol for it (ld.so's
 * call_init inlined into a copy of itself: two plain call_init lines).
 * False: no DWARF.
 */
static bool print_inlines(struct rd_printer *p, struct rd_session *s, unsigned int f,
			  uint64_t ip, const struct rd_resolved *r)
{
	struct pc_src_frame fr[RD_INLINE_MAX];
	uint32_t nr;
	struct rd_out *o = p->out;
	bool a2l;

	/* the entries are there whatever the fields: "ip (inlined)" without the symbol */
	nr = inline_src_frames(p, s, r, fr, &a2l);
	if (!nr)
		return false;
	for (uint32_t i = 0; i < nr; i++) {
		bool last = i == nr - 1;
		bool own = fr[i].func && strlen(fr[i].func) == r->sym->name_len &&
			   !memcmp(fr[i].func, r->sym->name, r->sym->name_len);

		/* perf 7.2's libdw lookup makes the real function the symbol */
		if (own || (last && (!fr[i].func || (p->compat != RD_COMPAT_6_1 && !a2l)))) {
			if (nr == 1)
				return false;	/* nothing inlined: the ordinary line */
			/* the real function: its ordinary line, at its call's line */
			if (f & RF_IP) {
				rd_out_char(o, '\t');
				rd_out_hex(o, p->compat == RD_COMPAT_6_1 ? r->addr : ip, 16);
			}
			frame_text(o, f, r, false);
			rd_out_char(o, '\n');
			if (f & RF_SRCLINE) {
				rd_out_mem(o, "  ", 2);
				srcline_text(p, s, false, ip, r, &fr[i]);
				rd_out_char(o, '\n');
			}
			if (last)
				return true;
			continue;
		}
		if (f & RF_IP) {
			rd_out_char(o, '\t');
			rd_out_hex(o, p->compat == RD_COMPAT_6_1 ? r->addr : ip, 16);
		}
		if (f & RF_SYM) {
			rd_out_char(o, ' ');
			rd_out_str(o, fr[i].func ? fr[i].func : "[unknown]");
			if (f & RF_SYMOFF) {
				rd_out_mem(o, "+0x", 3);
				rd_out_hex(o, r->off, 0);
			}
		}
		/* in the object's place, with or without it; after the srcline when shown */
		if (!(f & RF_SRCLINE))
			rd_out_mem(o, " (inlined)", 10);
		rd_out_char(o, '\n');
		if (f & RF_SRCLINE) {
			rd_out_mem(o, "  ", 2);
			srcline_text(p, s, false, ip, r, &fr[i]);
			rd_out_mem(o, " (inlined)\n", 11);
		}
	}
	return true;
}

static void print_frame(struct rd_printer *p, struct rd_session *s, const struct rd_event *ev,
			unsigned int f, bool kernel, uint64_t ip, bool cookie, bool oneline)
{
	struct rd_out *o = p->out;
	struct rd_resolved r;

	if (cookie) {
		memset(&r, 0, sizeof(r));
		r.addr = ip;
	} else {
		rd_resolve(s, ev->thread, kernel, ip, &r);
	}
	if ((f & RF_INLINES) && !oneline && !kernel && print_inlines(p, s, f, ip, &r))
		return;
	if (f & RF_IP) {
		rd_out_char(o, oneline ? ' ' : '\t');
		rd_out_hex(o, p->compat == RD_COMPAT_6_1 && !oneline ? r.addr : ip, 16);
	}
	frame_text(o, f, &r, cookie);
	if (!oneline)
		rd_out_char(o, '\n');
	/* in a chain each frame with a map has its srcline under it */
	if ((f & RF_SRCLINE) && !oneline && !cookie && r.dso) {
		const char *file;

		if (!srcline_unknown(p, s, kernel, &r, &file)) {
			rd_out_mem(o, "  ", 2);
			srcline_text(p, s, kernel, ip, &r, NULL);
			rd_out_char(o, '\n');
		} else if (file || ((f & RF_INLINES) && r.sym)) {
			srcline_no_line(o, "  ", file, p->full_source_path);
			rd_out_char(o, '\n');
		}
	}
}

/*
 * Callchain lines repeat the same few thousand frames: keep each one's
 * formatted line, keyed like the resolution (address space, ip, the
 * space's generation) plus the fields.  Sets of two (the newest first), so
 * that two hot frames seldom push each other out; each entry is two cache
 * lines, and a hit copies its text at a fixed size (no length-driven
 * copy), which the output's room allows.
 */
#define LINE_SETS 16384
#define LINE_TEXT 96
#define LINES_SIZE (LINE_SETS * 2 * sizeof(struct rd_line))

struct rd_line {
	uint64_t ip;
	const void *space;
	uint64_t gen;
	unsigned int fields;
	uint16_t len;		/* 0: empty */
	char text[LINE_TEXT];	/* "\t%16lx sym+0xoff (dso)\n"; longer lines are not kept */
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct rd_line) == 128, "a line entry is two cache lines");

static bool line_is(const struct rd_line *l, uint64_t ip, const void *space, uint64_t gen,
		    unsigned int f)
{
	return l->len && l->ip == ip && l->space == space && l->gen == gen && l->fields == f;
}

static struct rd_line *line_set(const struct rd_printer *p, uint64_t ip, const void *space)
{
	return &p->lines[2 * (((ip >> 2) ^ ((uintptr_t)space >> 4)) * 0x9E3779B97F4A7C15ULL >> 50)];
}

/*
 * The sets of a chain's frames asked of memory all at once, before the
 * first is read: their misses overlap instead of coming one after another.
 */
static void prefetch_lines(const struct rd_printer *p, struct rd_session *s,
			   const struct rd_event *ev)
{
	bool kernel = false;

	if (!p->lines)
		return;
	for (int part = 0; part < 2; part++) {
		const uint64_t *ips = part ? ev->extra : ev->base;
		uint64_t nr = part ? ev->extra_nr : ev->base_nr;

		for (uint64_t i = 0; i < nr && i < 32; i++) {
			const struct rd_line *set;

			if (rd_chain_context(ev, part, i, ips[i])) {
				kernel = ips[i] == PC_CONTEXT_KERNEL || ips[i] == PC_CONTEXT_GUEST_KERNEL;
				continue;
			}
			set = line_set(p, ips[i],
				       kernel ? (const void *)s : (const void *)ev->thread->proc);
			__builtin_prefetch(set);
			__builtin_prefetch((const char *)set + 64);
		}
	}
}

static void chain_frame(struct rd_printer *p, struct rd_session *s, const struct rd_event *ev,
			unsigned int f, bool kernel, uint64_t ip)
{
	const void *space = kernel ? (const void *)s : (const void *)ev->thread->proc;
	struct rd_out *o = p->out;
	struct rd_line *set, *l;
	struct rd_out tmp;
	uint64_t gen;

	if (!p->lines) {
		/*
		 * Zeroed pages, all mapped at once: a set is read before it is
		 * written, and a page first touched by a read faults twice (the
		 * zero page, then its own).
		 */
		void *m = mmap(NULL, LINES_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (m == MAP_FAILED) {
			print_frame(p, s, ev, f, kernel, ip, false, false);
			return;
		}
		p->lines = m;
	}
	gen = rd_resolve_gen(s, ev->thread, kernel);
	set = line_set(p, ip, space);
	l = line_is(&set[0], ip, space, gen, f) ? &set[0] :
	    line_is(&set[1], ip, space, gen, f) ? &set[1] : NULL;
	if (l) {
		if (o->len + LINE_TEXT > o->cap)
			rd_out_flush(o);
		memcpy(o->buf + o->len, l->text, LINE_TEXT);
		o->len += l->len;
		return;
	}
	/* format into the output, then keep a copy if it fits */
	if (o->len + LINE_TEXT > o->cap)
		rd_out_flush(o);
	tmp = *o;
	print_frame(p, s, ev, f, kernel, ip, false, false);
	if (o->buf != tmp.buf || o->len < tmp.len || o->len - tmp.len > LINE_TEXT)
		return;
	set[1] = set[0];	/* the newest first */
	l = &set[0];
	l->len = (uint16_t)(o->len - tmp.len);
	memcpy(l->text, o->buf + tmp.len, l->len);
	l->ip = ip;
	l->space = space;
	l->gen = gen;
	l->fields = f;
}

/* "%16lx" of the sample's addr, then its symbol and object as the fields ask */
/* perf names the address's symbol only for page faults and BTS (branches, period 1) */
static bool addr_has_symbol(const struct pd_evsel *e)
{
	const struct perf_event_attr *a = e ? &e->attr.attr : NULL;

	if (!a)
		return false;
	if (a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_PAGE_FAULTS ||
					      a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
					      a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ))
		return true;
	return a->type == PERF_TYPE_HARDWARE && (a->config & PERF_COUNT_HW_BRANCH_INSTRUCTIONS) &&
	       a->sample_period == 1;
}

static void print_addr(struct rd_printer *p, struct rd_session *s, const struct rd_event *ev,
		       unsigned int f)
{
	struct rd_resolved r;
	uint64_t addr = ev->sample->addr;

	rd_out_hex(p->out, addr, 16);
	if (!(f & (RF_SYM | RF_DSO | RF_DSOFF)) || !addr_has_symbol(ev->sample->evsel))
		return;
	/* a data address: the kernel's half, else the thread's maps */
	rd_resolve(s, ev->thread, addr >= 0xffff800000000000ULL, addr, &r);
	frame_text(p->out, f, &r, false);
}

static bool is_kernel_mode(uint16_t misc)
{
	uint16_t m = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return m == PERF_RECORD_MISC_KERNEL || m == PERF_RECORD_MISC_GUEST_KERNEL;
}

/* Frames of base then extra; context markers switch kernel/user and are not shown. */
static void print_chain(struct rd_printer *p, struct rd_session *s, const struct rd_event *ev,
			unsigned int f)
{
	bool kernel = false;
	int shown = 0, max = max_stack(p);

	prefetch_lines(p, s, ev);
	if (!rd_chain_valid(ev, RD_MAX_STACK))
		return;
	for (int part = 0; part < 2; part++) {
		const uint64_t *ips = part ? ev->extra : ev->base;
		uint64_t nr = part ? ev->extra_nr : ev->base_nr;

		/* perf takes up to max-stack frames of the sample's chain, and as many again from its unwinder */
		if (part && ev->unwound)
			shown = 0;
		for (uint64_t i = 0; i < nr && shown < max; i++) {
			uint64_t ip = ips[i];
			bool cookie = false;

			if (rd_chain_context(ev, part, i, ip)) {
				kernel = ip == PC_CONTEXT_KERNEL || ip == PC_CONTEXT_GUEST_KERNEL;
				continue;
			}
			/*
			 * perf 7.2 names the cookie where it merges nothing: with
			 * --no-merge-callchains, and for a sample whose record never came
			 */
			if ((!p->merge || ev->unanswered) && part == 0 && i == nr - 1 && i > 0 &&
			    ips[i - 1] == PC_CONTEXT_USER_DEFERRED)
				cookie = true;
			if (cookie)
				print_frame(p, s, ev, f, kernel, ip, true, false);
			else
				chain_frame(p, s, ev,
					    !p->no_inline &&
					    ((part && ev->unwound) || p->compat != RD_COMPAT_6_1) ?
					    f | RF_INLINES : f, kernel, ip);
			shown++;
		}
	}
}

static void period_event(struct rd_printer *p, struct rd_session *s, const struct pd_sample *smp,
			 unsigned int f)
{
	const struct pd_evsel *e = smp->evsel;
	struct rd_out *o = p->out;

	if (f & RF_PERIOD) {
		rd_out_u64(o, smp->period, 10);
		rd_out_char(o, ' ');
	}
	if (f & RF_EVENT) {
		rd_out_pad(o, e && e->name ? e->name : "[unknown]", name_width(p, s));
		rd_out_mem(o, ": ", 2);
	}
}

/* "period event: ", formatted again only when the period or the event changes */
static void print_period_event(struct rd_printer *p, struct rd_session *s,
			       const struct pd_sample *smp, unsigned int f)
{
	struct rd_print_cache *c = print_cache(p);
	struct rd_period_event *pe = c ? &c->pe : NULL;
	unsigned int fields = f & (RF_PERIOD | RF_EVENT);
	int width = (f & RF_EVENT) ? name_width(p, s) : 0;
	const char *name = smp->evsel && smp->evsel->name ? smp->evsel->name : "";
	struct rd_out *o = p->out;
	size_t start;
	char *buf;

	if (pe && pe->len && pe->period == smp->period && pe->evsel == smp->evsel &&
	    pe->width == width && pe->fields == fields && !strcmp(pe->name, name)) {
		rd_out_mem(o, pe->text, pe->len);
		return;
	}
	if (!pe) {
		period_event(p, s, smp, f);
		return;
	}
	if (o->len + sizeof(pe->text) > o->cap)
		rd_out_flush(o);
	buf = o->buf;
	start = o->len;
	period_event(p, s, smp, f);
	pe->len = 0;
	if (o->buf != buf || o->len < start || o->len - start > sizeof(pe->text) ||
	    strlen(name) >= sizeof(pe->name))
		return;
	strcpy(pe->name, name);
	memcpy(pe->text, o->buf + start, o->len - start);
	pe->len = (uint16_t)(o->len - start);
	pe->period = smp->period;
	pe->evsel = smp->evsel;
	pe->width = width;
	pe->fields = fields;
}

struct rd_sample_fields *rd_print_content(struct rd_printer *p)
{
	if (!p->content) {
		p->content = calloc(1, sizeof(*p->content));
		if (!p->content)
			return NULL;
		p->content->arch = -1;
		p->content->layout_7_2 = p->compat == RD_COMPAT_7_2;
	}
	return p->content;
}

/* rd_print_fields, kept while the samples' event stays the same */
static unsigned int fields_of(struct rd_printer *p, const struct rd_session *s,
			      const struct pd_evsel *e)
{
	struct rd_print_cache *c = print_cache(p);

	if (!c)
		return rd_print_fields(p, e);
	if (!c->fields_of.evsel || c->fields_of.evsel != e ||
	    c->fields_of.nr_evsels != s->r.nr_evsels) {
		c->fields_of.evsel = e;
		c->fields_of.nr_evsels = s->r.nr_evsels;
		c->fields_of.fields = rd_print_fields(p, e);
	}
	return c->fields_of.fields;
}

int rd_print_sample(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct rd_printer *p = ctx;
	struct rd_out *o = p->out;
	const struct pd_sample *smp = ev->sample;
	const struct pd_evsel *e = smp->evsel;
	unsigned int f = fields_of(p, s, e);
	bool chain = (f & RF_IP) && !p->hide_chain && e &&
		     (e->attr.attr.sample_type & PERF_SAMPLE_CALLCHAIN);

	/* no field left for this type (-F trace on other events): perf prints nothing */
	if (!f)
		return 0;
	/* a pipe's CLOCK_DATA comes as a record, before the samples */
	if ((f & RF_TOD) && !p->time.have_clock)
		p->time.have_clock = !pd_reader_clock_data(&s->r, &p->time.clock);
	print_start(p, ev, f, chain);
	if (f & (RF_PERIOD | RF_EVENT))
		print_period_event(p, s, smp, f);
	/* perf's "  %-21s " of the flags' names: no flags but an AUX trace's */
	if (f & RF_FLAGS)
		rd_out_pad(o, "", 24);
	if ((f & RF_TRACE) && p->trace) {
		int ret = p->trace(o, s, ev, p->trace_ctx);

		if (ret)
			return ret;
	}
	if (f & RF_ADDR)
		print_addr(p, s, ev, f);
	if ((f & (RF_BEFORE_IP | RF_AFTER_IP)) && !p->content && !rd_print_content(p))
		return -ENOMEM;
	if (f & RF_BEFORE_IP)
		rd_sample_fields_before_ip(p->content, o, smp, f);
	if (f & RF_IP) {
		if (chain) {
			rd_out_char(o, '\n');
			print_chain(p, s, ev, f);
		} else {
			print_frame(p, s, ev, f, is_kernel_mode(ev->rec->header.misc), smp->ip,
				    false, true);
		}
	}
	if ((f & RF_SRCLINE) && p->srcline)
		p->srcline(o, s, ev, p->hook_ctx);
	if (f & RF_AFTER_IP)
		rd_sample_fields_after_ip(p->content, o, s, ev, f);
	rd_out_char(o, '\n');
	return o->error ? -o->error : 0;
}

/* comm, pid/tid, cpu, time of a record other than a sample (--show-*-events) */
void rd_print_record_start(struct rd_printer *p, const struct rd_event *ev)
{
	const struct pd_evsel *e = ev->sample->evsel;
	unsigned int f = rd_print_fields(p, e);

	print_start(p, ev, f, (f & RF_IP) && !p->hide_chain && e &&
			      (e->attr.attr.sample_type & PERF_SAMPLE_CALLCHAIN));
}

/*
 * -F srcline: the innermost source line of the sample's ip (its basename),
 * else the object and map-relative address ("dso[addr]"), as perf 6.1.
 */
int rd_print_srcline(struct rd_out *o, struct rd_session *s, const struct rd_event *ev,
		     void *ctx)
{
	struct rd_printer *p = ctx;
	bool kernel = is_kernel_mode(ev->rec->header.misc);
	const char *file;
	struct rd_resolved r;

	/* with a callchain shown, each frame has its own (print_frame) */
	if (!p->hide_chain && ev->sample->evsel &&
	    (ev->sample->evsel->attr.attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		return 0;
	rd_resolve(s, ev->thread, kernel, ev->sample->ip, &r);
	if (srcline_unknown(p, s, kernel, &r, &file)) {
		if (file)
			srcline_no_line(o, "\n  ", file, p->full_source_path);
		return 0;
	}
	rd_out_mem(o, "\n  ", 3);
	srcline_text(p, s, kernel, ev->sample->ip, &r, NULL);
	return 0;
}

int rd_print_deferred(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct rd_printer *p = ctx;
	struct rd_out *o = p->out;
	const struct pd_evsel *e = ev->sample->evsel;
	unsigned int f = rd_print_fields(p, e);
	bool chain = (f & RF_IP) && e && (e->attr.attr.sample_type & PERF_SAMPLE_CALLCHAIN);

	print_start(p, ev, f, chain);
	rd_out_str(o, "DEFERRED CALLCHAIN [cookie: ");
	rd_out_hex(o, ev->deferred->cookie, 0);
	rd_out_char(o, ']');
	if (f & RF_IP) {
		rd_out_char(o, '\n');
		print_chain(p, s, ev, f);
	}
	rd_out_char(o, '\n');
	return o->error ? -o->error : 0;
}

void rd_printer_free(struct rd_printer *p)
{
	if (p->lines)
		munmap(p->lines, LINES_SIZE);
	p->lines = NULL;
	free(p->cache);
	p->cache = NULL;
	pc_srcline_free(p->src);
	p->src = NULL;
	rd_sample_fields_free(p->content);
	p->content = NULL;
}
