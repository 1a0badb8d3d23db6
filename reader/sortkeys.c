// SPDX-License-Identifier: GPL-2.0
/*
 * Sort keys of perfcheck report.  Order of rows of equal overhead, as perf
 * 6.1 gives it: by the keys in turn, commands and objects by name
 * ascending (frames without an object last), symbols by name ascending,
 * then unresolved ones by address ascending; pid, tid and cpu by number.
 * Each key part below is built so that comparing the bytes gives that
 * order: the part, '\x1f', the shown text, '\x1e'.
 */
#include "reader/sortkeys.h"
#include "reader/out.h"
#include "uapi/perf_compat.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[SK_NR] = {
	[SK_COMM] = "comm", [SK_DSO] = "dso", [SK_SYM] = "sym", [SK_PID] = "pid",
	[SK_TID] = "tid", [SK_CPU] = "cpu", [SK_SRCLINE] = "srcline", [SK_SYMOFF] = "symoff",
	[SK_TRACE] = "trace", [SK_CGROUP] = "cgroup", [SK_SRCFILE] = "srcfile", [SK_TIME] = "time",
	[SK_PARALLELISM] = "parallelism", [SK_TRANSACTION] = "transaction", [SK_PARENT] = "parent",
	[SK_DSO_FROM] = "dso_from", [SK_DSO_TO] = "dso_to",
	[SK_SYM_FROM] = "symbol_from", [SK_SYM_TO] = "symbol_to", [SK_CYCLES] = "cycles",
};

static const char *const titles[SK_NR] = {
	[SK_COMM] = "Command", [SK_DSO] = "Shared Object", [SK_SYM] = "Symbol",
	[SK_PID] = "    Pid:Command", [SK_TID] = "    Tid:Command", [SK_CPU] = "CPU",
	[SK_SRCLINE] = "Source:Line", [SK_SYMOFF] = "Symbol", [SK_TRACE] = "Trace output",
	[SK_CGROUP] = "Cgroup", [SK_SRCFILE] = "Source File", [SK_TIME] = "Time",
	[SK_PARALLELISM] = "Parallelism", [SK_TRANSACTION] = "Transaction                ",
	[SK_PARENT] = "Parent symbol",
	[SK_DSO_FROM] = "Source Shared Object", [SK_DSO_TO] = "Target Shared Object",
	[SK_SYM_FROM] = "Source Symbol", [SK_SYM_TO] = "Target Symbol",
	[SK_CYCLES] = "Basic Block Cycles",
};

const char *sk_names(void)
{
	return "comm,dso,sym,pid,tid,cpu,srcline,srcfile,symoff,trace,cgroup,time,parallelism,"
	       "transaction,parent,"
	       "overhead,period,sample; "
	       "in branch mode also dso_from,dso_to,symbol_from,symbol_to,cycles";
}

const char *sk_name(enum sk_key k)
{
	return names[k];
}

const char *sk_title(enum sk_key k)
{
	return titles[k];
}

bool sk_pad_last(enum sk_key k)
{
	return k != SK_SYM && k != SK_SRCLINE && k != SK_SYMOFF && k != SK_TRACE &&
	       k != SK_SYM_FROM && k != SK_SYM_TO && k != SK_CGROUP && k != SK_SRCFILE &&
	       k != SK_TIME;
}

int sk_parse(struct sk_list *l, const char *spec, char *bad, size_t bad_size)
{
	char *copy = strdup(spec), *save = NULL, *tok;
	int ret = 0;

	if (!copy) {
		snprintf(bad, bad_size, "(out of memory)");
		return -1;
	}
	memset(l, 0, sizeof(*l));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k;

		if (!strcmp(tok, "overhead")) {
			l->overhead_at = (int8_t)l->nr;
			l->overhead_named = true;
			continue;
		}
		if (!strcmp(tok, "period")) {
			l->period_first = !l->samples;
			l->period = true;
			l->period_at = (int8_t)l->nr;
			continue;
		}
		if (!strcmp(tok, "sample")) {
			l->samples = true;
			l->samples_at = (int8_t)l->nr;
			continue;
		}
		if (!strcmp(tok, "symbol"))
			tok = "sym";
		for (k = 0; k < SK_NR; k++)
			if (!strcmp(tok, names[k]))
				break;
		if (k == SK_NR || l->nr == SK_MAX_KEYS) {
			snprintf(bad, bad_size, "%s", tok);
			ret = -1;
			break;
		}
		l->keys[l->nr++] = (enum sk_key)k;
		l->past_symbol |= k == SK_CPU || k == SK_SRCLINE || k == SK_SYMOFF ||
				  k == SK_SRCFILE;
		l->branch_keys |= k >= SK_DSO_FROM;
	}
	free(copy);
	return ret;
}

static const char *short_name(const char *dso, size_t dso_len, const char *dso_short,
			      size_t short_len, size_t *len)
{
	const char *slash;

	if (!dso) {
		*len = 9;
		return "[unknown]";
	}
	if (dso_short) {
		*len = short_len;
		return dso_short;
	}
	slash = memrchr(dso, '/', dso_len);
	if (slash && dso[0] == '/') {
		*len = dso_len - (size_t)(slash + 1 - dso);
		return slash + 1;
	}
	*len = dso_len;
	return dso;
}

static const char *short_dso(const struct sk_frame *f, size_t *len)
{
	return short_name(f->dso, f->dso_len, f->dso_short, f->dso_short_len, len);
}

struct kb {
	char *buf;
	size_t size, len;
	bool full;
};

static void put(struct kb *b, const char *s, size_t n)
{
	if (b->full || b->len + n > b->size) {
		b->full = true;
		return;
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

static void putf(struct kb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void putf(struct kb *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		b->full = true;
		return;
	}
	put(b, tmp, (size_t)n);
}

/*
 * "%0*llx" without vsnprintf: a row's key is made for every frame the row
 * cache has not seen, and vsnprintf was most of the cost of making one.
 */
static void put_hex(struct kb *b, uint64_t v, int width)
{
	char t[16];
	struct rd_out o = { .buf = t, .cap = sizeof(t) };

	rd_out_hexz(&o, v, width);
	put(b, t, o.len);
}

/* perf's "%-#.*llx": a zero shows no 0x */
static void put_addr(struct kb *b, uint64_t a)
{
	if (a) {
		put(b, "0x", 2);
		put_hex(b, a, 16);
	} else {
		put(b, "0000000000000000", 16);
	}
}

/* The level ([k] or [.]) is not part of a row's identity: a placeholder, see sk_text. */
static void sym_text(struct kb *b, const struct sk_frame *f, bool with_off)
{
	put(b, "[\x01] ", 4);
	if (f->sym) {
		put(b, f->sym->name, f->sym->name_len);
		if (with_off) {
			put(b, "+0x", 3);
			put_hex(b, f->off, 0);
		}
	} else {
		put_addr(b, f->addr);
	}
}

/* A branch end's object: its name, none marked (hist_order.c orders them) */
static void end_dso(struct kb *b, const char *d, size_t dl, bool mapped)
{
	put(b, mapped ? "\x01" : "\x02", 1);
	put(b, d, dl);
	put(b, "\x1f", 1);
	put(b, d, dl);
}

/*
 * A branch end's symbol: the symbol, or the address when none (rows of one
 * symbol merge, unresolved ones stay apart by address); shown with the
 * end's own level
 */
static void end_sym(struct kb *b, char level, const struct pc_symbol *sym, uint64_t addr,
		    uint64_t shown)
{
	char lv[4] = { '[', level, ']', ' ' };

	if (sym) {
		put(b, "\x01", 1);
		put(b, sym->name, sym->name_len);
		put(b, "\x01", 1);
		put_hex(b, sym->start, 16);
	} else {
		put(b, "\x02", 1);
		put_hex(b, addr, 16);
	}
	put(b, "\x1f", 1);
	put(b, lv, 4);
	if (sym) {
		put(b, sym->name, sym->name_len);
	} else {
		put(b, "0x", 2);
		put_hex(b, shown, 16);
	}
}

/*
 * What tells a srcline or srcfile row apart in perf 6.3 and later: the
 * address perf compares and the object (sort__srcline_cmp, which srcfile's
 * comparison is too); the text after it is marked as no part of it
 * (sk_ident)
 */
static void line_row_part(struct kb *b, const struct sk_frame *f)
{
	const char *d;
	size_t dl = 0;

	put_hex(b, f->addr, 16);
	if (f->dso) {
		d = short_dso(f, &dl);
		put(b, "\x03", 1);
		put(b, d, dl);
	}
	put(b, "\x1f\x04", 2);
}

/*
 * srcfile: the file of the row's line, the text before its ':' ("" where
 * the lookup gave sym+OFFSET or object[address], as perf asks for no
 * symbol's name).  perf 6.1 compares the file's text from the start and
 * takes addr2line's "??:0" for no file; 6.3 and later make a row per
 * address and object merged by file in the collapse tree, and show "??"
 * (perf compares the answer with its own unknown line, not addr2line's)
 */
static void srcfile_part(struct kb *b, const struct sk_frame *f, bool by_address)
{
	const char *line = f->unmapped ? NULL : f->srcline;
	const char *colon = line ? strchr(line, ':') : NULL;
	size_t n = colon ? (size_t)(colon - line) : 0;

	if (!by_address && colon && !strcmp(line, "??:0"))
		n = 0;
	if (by_address) {
		line_row_part(b, f);
	} else {
		/* perf 6.1: rows by the file, shown as it is */
		put(b, line ? line : "", n);
		put(b, "\x1f", 1);
	}
	put(b, line ? line : "", n);
}

/*
 * srcline: perf makes a row per address and object (its input tree's
 * comparison) and merges the rows of one line only in its collapse tree,
 * so the order part is the address perf compares and the object; the text
 * is the line ("file.c:LINE", else sym+OFFSET, object[address] or ??:0).
 * perf looks a row's line up at that address: a callchain row's is
 * unmapped, so its offset into the symbol and its object address are too
 */
static void srcline_part(struct kb *b, const struct sk_frame *f, bool by_address)
{
	const char *d = NULL;
	size_t dl = 0;
	/* perf 6.1 looks an address up as the object's (the old rows' text) */
	uint64_t at = by_address ? f->addr : f->rel;
	size_t text;

	if (f->dso)
		d = short_dso(f, &dl);
	if (by_address)
		line_row_part(b, f);
	text = b->len;
	if (f->srcline)
		putf(b, "%s", f->srcline);
	else if (f->sym)
		putf(b, "%s+%llu", f->sym->name, (unsigned long long)(f->off + (at - f->rel)));
	else if (f->dso)
		putf(b, "%.*s[%llx]", (int)dl, d, (unsigned long long)at);
	else
		put(b, "??:0", 4);
	/* perf 6.1: rows by the text, shown as it is */
	if (!by_address && !b->full) {
		size_t n = b->len - text;
		char copy[1024];

		if (n >= sizeof(copy))
			n = sizeof(copy) - 1;
		memcpy(copy, b->buf + text, n);
		put(b, "\x1f", 1);
		put(b, copy, n);
	}
}

size_t sk_ident(const char *key, size_t len, char *out, size_t size)
{
	const char *p = key, *end = key + len;
	size_t n = 0;

	while (p < end) {
		const char *m = p;
		size_t span;

		while (m + 1 < end && !(m[0] == '\x1f' && m[1] == '\x04'))
			m++;
		if (m + 1 >= end)
			m = end;
		span = (size_t)(m - p);
		if (n + span > size)
			return 0;
		memcpy(out + n, p, span);
		n += span;
		p = m < end ? memchr(m, '\x1e', (size_t)(end - m)) : end;
		p = p ? p : end;
	}
	return n;
}

/* The address a srcline key's order part starts with (srcline_part) */
uint64_t sk_srcline_addr(const char *key, size_t len, int col)
{
	const char *p = key, *end = key + len, *rs;
	uint64_t a = 0;

	for (int i = 0; i < col && p < end; i++) {
		rs = memchr(p, '\x1e', (size_t)(end - p));
		p = rs ? rs + 1 : end;
	}
	for (int i = 0; i < 16 && p < end && isxdigit((unsigned char)*p); i++, p++)
		a = a << 4 | (uint64_t)(isdigit((unsigned char)*p) ? *p - '0' :
					(tolower((unsigned char)*p) - 'a' + 10));
	return a;
}

/*
 * perf's text of a transaction word: a name per flag (ELISION "EL ",
 * TRANSACTION "TX ", SYNC, ASYNC, RETRY, CONFLICT "CON ", CAPACITY_WRITE
 * "CAP-WRITE ", CAPACITY_READ "CAP-READ "), "NEITHER " for a word with
 * neither SYNC nor ASYNC, then ":" and the abort code in hex where it has one
 */
static void transaction_text(struct kb *b, uint64_t t)
{
	static const char *const flags[] = { "EL ", "TX ", "SYNC ", "ASYNC ", "RETRY ", "CON ",
					     "CAP-WRITE ", "CAP-READ " };

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (t & (1ULL << i))
			put(b, flags[i], strlen(flags[i]));
	if (t && !(t & (PERF_TXN_SYNC | PERF_TXN_ASYNC)))
		put(b, "NEITHER ", 8);
	if (t >> PERF_TXN_ABORT_SHIFT)
		putf(b, ":%llx", (unsigned long long)(t >> PERF_TXN_ABORT_SHIFT));
}

uint64_t sk_key_word(const char *key, size_t len, int col)
{
	const char *p = key, *end = key + len, *rs;

	for (int i = 0; i < col && p < end; i++) {
		rs = memchr(p, '\x1e', (size_t)(end - p));
		p = rs ? rs + 1 : end;
	}
	char hex[17] = "";

	if (end - p >= 16)
		memcpy(hex, p, 16);
	return strtoull(hex, NULL, 16);
}

size_t sk_key(const struct sk_list *l, const struct sk_frame *f, char *buf, size_t size)
{
	struct kb b = { .buf = buf, .size = size };
	const char *d;
	size_t dl;

	for (int i = 0; i < l->nr; i++) {
		switch (l->keys[i]) {
		case SK_COMM:
			put(&b, f->comm, strlen(f->comm));
			put(&b, "\x1f", 1);
			put(&b, f->comm, strlen(f->comm));
			break;
		case SK_DSO:
			d = short_dso(f, &dl);
			put(&b, f->dso ? "\x01" : "\x02", 1);
			put(&b, d, dl);
			put(&b, "\x1f", 1);
			put(&b, d, dl);
			break;
		case SK_SYM:
		case SK_SYMOFF:
			if (f->sym) {
				put(&b, "\x01", 1);
				put(&b, f->sym->name, f->sym->name_len);
				/* distinct symbols of one name stay distinct rows */
				put(&b, "\x01", 1);
				put_hex(&b, f->sym->start, 16);
			} else {
				put(&b, "\x02", 1);
				put_hex(&b, f->addr, 16);
			}
			if (l->keys[i] == SK_SYMOFF && f->sym)
				put_hex(&b, f->off, 16);
			/*
			 * perf compares the objects of symbols too (one symbol of two
			 * objects is two rows), but two unresolved addresses by address
			 * alone: one offset into two objects is one row where no
			 * object key keeps them apart
			 */
			if (f->sym) {
				d = short_dso(f, &dl);
				put(&b, "\x03", 1);
				put(&b, d, dl);
			}
			put(&b, "\x1f", 1);
			sym_text(&b, f, l->keys[i] == SK_SYMOFF);
			break;
		case SK_PID:
		case SK_TID:
			/* the command shown is the thread's last (sk_text's caller fills it) */
			putf(&b, "%010u\x1f%7d:\x02", f->tid, (int)f->tid);
			break;
		case SK_CPU:
			putf(&b, "%011lld\x1f%*.*d", (long long)f->cpu + 1, 3, 3, (int)f->cpu);
			break;
		case SK_SRCLINE:
			srcline_part(&b, f, l->lines_by_address);
			break;
		case SK_DSO_FROM:
			if (!f->br)
				break;
			d = short_name(f->br->dso, f->br->dso_len, f->br->dso_short,
				       f->br->dso_short_len, &dl);
			end_dso(&b, d, dl, f->br->dso != NULL);
			break;
		case SK_DSO_TO:
			d = short_dso(f, &dl);
			end_dso(&b, d, dl, f->dso != NULL);
			break;
		case SK_SYM_FROM:
			if (f->br)
				end_sym(&b, f->br->level, f->br->sym, f->br->addr, f->br->shown);
			break;
		case SK_SYM_TO:
			end_sym(&b, f->level, f->sym, f->addr, f->rel);
			break;
		case SK_CYCLES:
			/* perf prints them as a signed short */
			if (!f->br)
				break;
			put_hex(&b, f->br->cycles, 4);
			if (f->br->cycles)
				putf(&b, "\x1f%hd", (short)f->br->cycles);
			else
				put(&b, "\x1f-", 2);
			break;
		case SK_SRCFILE:
			srcfile_part(&b, f, l->lines_by_address);
			break;
		case SK_PARALLELISM:
			/* perf's "%*d" in its column of 11 */
			putf(&b, "%010u\x1f%11u", f->when.parallelism, f->when.parallelism);
			break;
		case SK_TIME:
			/* seconds and microseconds, as perf's Time */
			put_hex(&b, f->when.time, 16);
			putf(&b, "\x1f%llu.%06llu", (unsigned long long)(f->when.time / 1000000000ULL),
			     (unsigned long long)(f->when.time % 1000000000ULL / 1000));
			break;
		case SK_CGROUP:
			/* by id; shown by path, "unknown" when no record named it, "N/A" without */
			put_hex(&b, f->cgroup.id, 16);
			put(&b, "\x1f", 1);
			d = !f->cgroup.id ? "N/A" : f->cgroup.path ? f->cgroup.path : "unknown";
			put(&b, d, strlen(d));
			break;
		case SK_TRANSACTION:
			/* by the word; shown as its flags and abort code */
			put_hex(&b, f->data.transaction, 16);
			put(&b, "\x1f", 1);
			transaction_text(&b, f->data.transaction);
			break;
		case SK_PARENT:
			/* the name perf compares (hist_order.c), "[other]" where none matched */
			d = f->data.parent ? f->data.parent->name : "[other]";
			put(&b, "\x1f", 1);
			put(&b, d, strlen(d));
			break;
		case SK_TRACE:
			/* perf compares the texts (other events' samples: all one "N/A" row) */
			if (f->data.trace) {
				put(&b, f->data.trace, f->data.trace_len);
				put(&b, "\x1f", 1);
				put(&b, f->data.trace, f->data.trace_len);
			} else {
				put(&b, "N/A\x1fN/A", 7);
			}
			break;
		default:
			break;
		}
		put(&b, "\x1e", 1);
	}
	return b.full ? 0 : b.len;
}

const char *sk_text(const char *key, size_t len, int col, char level, const char *comm,
		    char *buf, size_t size)
{
	char *ph;

	const char *p = key, *end = key + len, *us, *rs;

	for (int i = 0; i < col && p < end; i++) {
		rs = memchr(p, '\x1e', (size_t)(end - p));
		p = rs ? rs + 1 : end;
	}
	rs = memchr(p, '\x1e', (size_t)(end - p));
	if (!rs)
		rs = end;
	us = memchr(p, '\x1f', (size_t)(rs - p));
	us = us ? us + 1 : p;
	/* a srcline's text is marked (srcline_part) */
	if (us < rs && *us == '\x04')
		us++;
	snprintf(buf, size, "%.*s", (int)(rs - us), us);
	ph = strchr(buf, '\x01');
	if (ph)
		*ph = level;
	ph = strchr(buf, '\x02');
	if (ph)
		snprintf(ph, size - (size_t)(ph - buf), "%s", comm);
	return buf;
}

const char *sk_cell(const char *key, size_t len, int col, enum sk_key k, char level,
		    const char *comm, int width, const char *sep, char *buf, size_t size)
{
	sk_text(key, len, col, level, comm, buf, size);
	if (k == SK_COMM && width >= 0 && (size_t)width < size)
		buf[width] = '\0';
	for (char *c = sep ? buf : NULL; c && (c = strchr(c, sep[0]));)
		*c = '.';
	return buf;
}
