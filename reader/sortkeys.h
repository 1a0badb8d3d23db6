/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf report's -s/--sort: the keys that group samples into rows (comm,
 * dso, sym, pid, tid, cpu, srcline, symoff, trace) and the value columns that may
 * be named among them (overhead, period, sample).  A row's key is a byte
 * string: per key, a part whose byte order is perf's order for rows of
 * equal overhead, then the text shown.
 */
#ifndef PERFCHECK_READER_SORTKEYS_H
#define PERFCHECK_READER_SORTKEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols/symbols.h"

enum sk_key { SK_COMM, SK_DSO, SK_SYM, SK_PID, SK_TID, SK_CPU, SK_SRCLINE, SK_SYMOFF,
	      SK_TRACE, SK_CGROUP, SK_SRCFILE, SK_TIME, SK_PARALLELISM, SK_TRANSACTION, SK_PARENT,
	      /* branch mode's (perf report of a file with branch stacks) */
	      SK_DSO_FROM, SK_DSO_TO, SK_SYM_FROM, SK_SYM_TO, SK_CYCLES, SK_NR };

#define SK_MAX_KEYS 8

struct sk_list {
	enum sk_key keys[SK_MAX_KEYS];
	int nr;
	bool period, samples;	/* value columns asked for with -s ... */
	int8_t period_at, samples_at;	/* ... before key N of keys[] (N == nr: after the last) */
	bool period_first;	/* both at one place: period named first */
	int8_t overhead_at;	/* "overhead" named before key N: rows sort by the keys before it
				 * first (perf prefixes it only when not named), 0 by default;
				 * -1: not sorted by it (report -F without it) */
	bool overhead_named;	/* -s named "overhead" (perf then adds no latency key) */
	/*
	 * report -F: the whole sort list in its order, value columns and keys
	 * (key: the index in keys[]); nr_order 0 otherwise, the positions above
	 * ruling
	 */
	struct sk_order {
		enum sk_value { SK_V_KEY, SK_V_OVERHEAD, SK_V_CHILDREN, SK_V_SAMPLES,
				SK_V_PERIOD, SK_V_LATENCY, SK_V_LAT_CHILDREN } value;
		int8_t key;
	} order[SK_MAX_KEYS + 4];
	uint8_t nr_order;
	bool past_symbol;	/* a key looks past a frame's symbol: cpu, srcline, symoff */
	/*
	 * srcline rows per address, merged by line in the collapse tree (perf
	 * 6.3 and later); else one row per line from the start (perf 6.1)
	 */
	bool lines_by_address;
	bool branch_keys;	/* a key of branch mode is among them */
	bool filtered_first;	/* perf 6.15+: rows hidden by a filter and shown ones compared
				 * before the keys (hist_cmp) */
	/*
	 * ENTRY_HIDDEN_* bits perf sets as a row enters its collapse tree
	 * (--symbol-filter): its input tree never sees them, nor a row's own
	 * descent into the collapse tree, only the rows already in it
	 */
	uint8_t filtered_late;
	/*
	 * bit i: keys[i] came from report -F alone, which perf before 7
	 * never collapses by (its fields do not join the sort keys' collapse)
	 */
	uint8_t fields_only;
};

/* "comm,dso,sym"; -1 with the unknown name in bad. */
int sk_parse(struct sk_list *l, const char *spec, char *bad, size_t bad_size);
const char *sk_names(void);
/* The name -s knows key k by */
const char *sk_name(enum sk_key k);
const char *sk_title(enum sk_key k);
/*
 * The text of key column col (key k) as a report's column of width shows
 * it: sk_text's, a command longer than the column cut, and with -t (sep
 * not NULL) the separator's first character turned into '.', as perf does
 */
const char *sk_cell(const char *key, size_t len, int col, enum sk_key k, char level,
		    const char *comm, int width, const char *sep, char *buf, size_t size);
/* The shown text of the last column is not padded (perf pads all but these). */
bool sk_pad_last(enum sk_key k);

/* A branch's source in branch mode (its target is the frame's own fields) */
struct sk_branch {
	char level;		/* '.', 'k', or 'H' in no map */
	const struct pc_symbol *sym;
	const char *dso, *dso_short;	/* as in sk_frame */
	size_t dso_len, dso_short_len;
	uint64_t addr;		/* the branch's address, ... */
	uint64_t shown;		/* ... and as an unresolved one is shown (map-relative) */
	uint16_t cycles;	/* of the branch (its basic block's) */
};

/* What one frame (or sample) contributes to a row key. */
struct sk_frame {
	const char *comm;
	uint32_t pid, tid;
	int32_t cpu;		/* -1 when samples carry no cpu */
	bool kernel;
	const struct pc_symbol *sym;
	const char *dso;	/* full name, NULL when no map */
	size_t dso_len;
	const char *dso_short;	/* perf's short name when known (user maps), else NULL */
	size_t dso_short_len;
	uint64_t addr;		/* shown for an unresolved symbol */
	uint64_t off;		/* ip - symbol start */
	uint64_t rel;		/* map-relative address (srcline of unresolved frames) */
	const char *srcline;	/* "file:line" from debug info, or NULL */
	/*
	 * a callchain entry: perf's srcfile looks its line up at the entry's
	 * unmapped address as if it were the object's, and finds none there
	 */
	bool unmapped;
	/* what the sample carries beside its addresses */
	struct sk_sample_data {
		const char *trace;	/* a tracepoint sample's text (trace_len bytes); NULL: "N/A" */
		size_t trace_len;
		uint64_t transaction;	/* PERF_SAMPLE_TRANSACTION's word, 0 without */
		const struct pc_symbol *parent;	/* report -p's match in its chain, NULL: none */
	} data;
	/* branch mode: the branch's source; the fields above are its target's
	 * (level: 'H' for a target in no map) */
	const struct sk_branch *br;
	char level;
	struct sk_cgroup {
		uint64_t id;		/* PERF_SAMPLE_CGROUP, 0 without */
		const char *path;	/* from the CGROUP records, NULL when none named it */
	} cgroup;
	/* the sample's moment */
	struct sk_moment {
		uint64_t time;		/* down to report's --time-quantum */
		uint32_t parallelism;	/* the threads running then (reader/latency.h) */
	} when;
};

/* The 16-hex-digit word that leads key column col (SK_TRANSACTION's), 0 when none. */
uint64_t sk_key_word(const char *key, size_t len, int col);
/* Builds the row key into buf; returns its length (0 when it does not fit). */
size_t sk_key(const struct sk_list *l, const struct sk_frame *f, char *buf, size_t size);
/*
 * A row key's bytes that tell rows apart, into out (its length; 0 when it
 * does not fit): all but a srcline column's text.  perf's input tree
 * compares a srcline row by address and object, so a row keeps the line
 * of the frame that made it, though a later frame there has another
 * (an inlined entry's row renamed to its outer function).
 */
size_t sk_ident(const char *key, size_t len, char *out, size_t size);
/*
 * Whether key k's rows are told apart by address and object, merged by
 * their text in the collapse tree: srcline and srcfile from perf 6.3 on
 */
static inline bool sk_by_address(const struct sk_list *l, enum sk_key k)
{
	/* inline: asked for every key of every comparison of perf's input tree */
	return l->lines_by_address && (k == SK_SRCLINE || k == SK_SRCFILE);
}
/* The address a srcline key (column col) orders by: its row's perf he->ip */
uint64_t sk_srcline_addr(const char *key, size_t len, int col);
/* The shown text of key column i of a row key (NUL-terminated in buf), with
 * the row's level ('k' or '.') in its symbol and its thread's command. */
const char *sk_text(const char *key, size_t len, int col, char level, const char *comm,
		    char *buf, size_t size);

#endif
