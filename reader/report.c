// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck report: perf report --stdio.  Samples are grouped per event by
 * the sort keys (comm, dso, sym by default); "Self" charges a sample's
 * period to its own ip, "Children" to every distinct entry of its
 * callchain once, as perf does when callchains exist.  Each entry keeps
 * the tree of its samples' chains (callgraph.c), printed under its row:
 * for a Self entry the whole chain, for a Children entry the part from
 * its frame to the leaf (caller order, perf's default with children) or
 * from its frame to the root (callee order, the default without).
 */
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "reader/a2l_answer.h"
#include "reader/branch_at.h"
#include "reader/callgraph.h"
#include "reader/filter.h"
#include "reader/hist.h"
#include "reader/hist_input.h"
#include "reader/inline_syms.h"
#include "reader/latency.h"
#include "reader/out.h"
#include "reader/perf_header.h"
#include "reader/report_fields.h"
#include "reader/report_hierarchy.h"
#include "reader/report_stats.h"
#include "reader/report_tasks.h"
#include "reader/report_threads.h"
#include "reader/session.h"
#include "reader/sortkeys.h"
#include "reader/tracefmt.h"
#include "symbols/srcline.h"
#include "util/log.h"

#define MAX_STACK 127	/* perf report's default --max-stack */

struct table {
	const struct pd_evsel *evsel;
	struct entry **buckets;
	size_t nr_buckets, nr;
	uint64_t samples, total;
	uint64_t lat_total;	/* the samples' latency */
	uint64_t lat_base;	/* of the Latency percentages: lat_total, or with --percentage
				 * relative the latency of the rows shown (print_table) */
	struct hist_input in;	/* perf's input tree of these rows, and its twins */
};

/*
 * Direct-mapped caches of rows (by thread, address, context) and resolved
 * frames (by space and address).  A file of a million samples has some
 * 100k rows' keys: at 4096 slots every fifth row was made again from its
 * key (snprintf), a third of the run; 65536 slots (4 and 5.5 MB,
 * touched as used) miss a quarter as often, and more slots only add
 * cache misses.
 */
#define ECACHE_BITS 16
#define FCACHE_BITS 16

struct fcache {
	uint64_t ip, gen;
	const void *space;
	struct rd_resolved r;
	uint32_t cg;
	bool kernel, valid;
};

struct ecache {
	uint64_t ip, gen;	/* gen: of space, where the frame was resolved */
	const void *space;
	const struct table *t;
	struct entry *e;
	const struct pc_symbol *sym;	/* e's */
	uint32_t tid;
	uint32_t comm_gen;	/* the thread's when e was found: e has its comm */
	int32_t cpu;
	uint8_t flags;
};

/*
 * The last chain of a thread, with the row and tree node each of its frames
 * charged: a thread often repeats its chain, and then each row's node only
 * takes the period (the walk down each row's tree is what costs).  The
 * maps need not be the same: rows are compared, and the same frames below
 * the same row are the same path down its tree.
 */
#define MEMO_SLOTS 64

struct memo {
	uint32_t tid, n;
	const struct table *t;
	const struct rd_thread *thread;
	uint32_t comm_gen;	/* the thread's: the rows' comm */
	uint64_t in_gen;	/* the table's input tree (hist_input.gen): searches answer alike */
	/*
	 * the Self row's key (its entry before the search): a frame of that
	 * key is the sample's row again, not charged twice (perf's he_cache)
	 */
	const struct entry *self_key;
	bool valid, caller;
	bool rows;		/* row[1..n] all set by the last sample (a NULL: a repeated row) */
	uint32_t cg[MAX_STACK];
	bool kernel[MAX_STACK];
	struct entry *row[MAX_STACK + 1];	/* [0] the Self row, [k + 1] frame k's, or NULL */
	uint32_t node[MAX_STACK + 1];
};

/* One frame of a sample: resolved once, then its row and its call-graph frame. */
struct frame {
	struct rd_resolved r;
	uint64_t ip;
	bool kernel;
	uint32_t cg;
};

/* A sample's frames as perf resolves them, for chain_match (each a stack's worth) */
struct chain_groups {
	struct frame real[MAX_STACK];	/* each frame as resolved (its ELF symbol) */
	int16_t start[MAX_STACK], end[MAX_STACK];	/* its entries in fr[] */
	int nr;
};

struct report {
	struct sk_list keys;
	int children;		/* -1: when callchains exist */
	struct cg_params cg;
	struct rp_view {
		bool show_nr;	/* -n */
		bool show_period;	/* --show-total-period */
		/*
		 * --group 1, --no-group 0, else -1: when the file has groups;
		 * -2: -F without either (never viewed, no group made)
		 */
		int8_t group;
		bool relative;	/* --percentage relative: of the rows shown */
		/* -C, --time leave samples out; --comms, --pid, --tid, --dsos, --symbols hide rows */
		const struct rd_filter *flt;
		const char *time_str;	/* --time as given, for the Samples line */
		bool no_inline;		/* --no-inline: no inlined callchain entries */
		bool full_source_path;	/* --full-source-path: srclines' files whole */
		bool branch;		/* branch mode: rows of the samples' branch stacks */
		bool quiet;		/* -q: the rows alone, no warnings */
		bool cgroups;		/* sorted by cgroup: each sample's is looked up */
		uint64_t quantum;	/* sorted by time: --time-quantum (ns), else 0 */
		bool hide_unresolved;	/* -U: samples and frames of no known symbol left out */
		const char *sep;	/* -t: columns apart by this, not by two spaces */
		const struct rf_list *fields;	/* -F: the columns (NULL: perf's default) */
		bool hierarchy;		/* --hierarchy: a level per key (report_hierarchy.c) */
		/* --symbol-filter, or the one argument left (as perf), else NULL */
		const char *symbol_filter;
		double percent_limit;	/* --percent-limit: rows (and branches) below hidden */
	} view;
	bool compat_6_1;
	bool sort_sym_first;	/* -s given and starting with "sym" */
	bool pipe;		/* the input is in pipe format */
	int max_stack;
	struct table *tables;	/* one per evsel, indexed like the reader's */
	uint32_t nr_tables;
	uint64_t stamp;
	uint64_t nr_entries;
	struct cg_forest forest;
	struct rp_caches {
		struct ecache *ecache;	/* rows of recent frames (NULL: none) */
		struct memo *memo;	/* MEMO_SLOTS by tid (NULL: none) */
		struct fcache *fcache;	/* resolved frames (NULL: none) */
	} cache;
	/* -s trace: the sample's tracepoint text, formatted once per sample */
	/* the chain's symbols perf matches (chain_match) */
	struct rp_match {
		const regex_t *parent;		/* -p's, or perf's default */
		bool parent_key;		/* sorted by parent: the match is looked for */
		bool exclude_other;		/* -x: rows of samples without one hidden */
		const regex_t *ignore_callees;	/* --ignore-callees, else NULL */
		const struct pc_symbol *sample_parent;	/* the sample's, as its rows are made */
		struct chain_groups groups;	/* the sample's frames (a stack's worth) */
	} match;
	struct rp_trace {
		bool on;		/* sorted by trace: each sample's text is formatted */
		struct rd_trace fmt;
		const char *text;
		size_t len;
	} trace;
	struct pc_srcline_cache *src;	/* line tables (NULL until used) */
	struct rd_isyms isyms;		/* symbols of inlined callchain entries */
	struct rp_threads *threads;	/* -T: the READ records' counts (NULL: not asked) */
	/* perf 6.15+'s latency (reader/latency.h) */
	struct rp_latency {
		struct rd_latency count;	/* how many threads run, by the switch records */
		bool keys;		/* its keys sort the rows */
		bool cols;		/* its Latency columns are shown */
		bool prefer;		/* --latency: Latency first, the rows by it */
		uint64_t samples, alone;	/* samples, those that ran alone */
		uint32_t parallelism;	/* the sample's (rd_latency_parallelism) */
		bool parallelism_key;	/* -s parallelism */
		int64_t levels[RD_FILTER_MAX];	/* --parallelism: the levels shown */
		size_t nr_levels;
	} lat;
};

static size_t hash_mem(const char *p, size_t n)
{
	size_t h = 1469598103934665603ULL;

	while (n--)
		h = (h ^ (unsigned char)*p++) * 1099511628211ULL;
	return h;
}

/* a key with a srcline's text, which tells no rows apart (sk_ident) */
static bool has_line_text(const char *key, size_t len)
{
	return memchr(key, '\x04', len) != NULL;
}

/* The bucket hash of a row key: of the bytes that tell rows apart */
static size_t key_hash(const char *key, size_t len)
{
	char id[2048];
	size_t n;

	if (!has_line_text(key, len))
		return hash_mem(key, len);
	n = sk_ident(key, len, id, sizeof(id));
	return n ? hash_mem(id, n) : hash_mem(key, len);
}

/* Whether row e's key is key: the same bytes where they tell rows apart */
static bool key_is(const struct entry *e, const char *key, size_t len)
{
	char a[2048], b[2048];
	size_t na, nb;

	if (!has_line_text(key, len))
		return e->key_len == len && !memcmp(e->key, key, len);
	na = sk_ident(e->key, e->key_len, a, sizeof(a));
	nb = sk_ident(key, len, b, sizeof(b));
	return na == nb && !memcmp(a, b, na);
}

static int table_grow(struct table *t)
{
	size_t n = t->nr_buckets ? 4 * t->nr_buckets : 4096;
	struct entry **b = calloc(n, sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_buckets; i++) {
		struct entry *e = t->buckets[i], *next;

		for (; e; e = next) {
			size_t h = key_hash(e->key, e->key_len) & (n - 1);

			next = e->next;
			e->next = b[h];
			b[h] = e;
		}
	}
	free(t->buckets);
	t->buckets = b;
	t->nr_buckets = n;
	return 0;
}

static struct entry *table_get(struct table *t, const char *key, size_t len)
{
	size_t b;
	struct entry *e;

	if ((t->nr + 1) * 2 > t->nr_buckets && table_grow(t))
		return NULL;
	b = key_hash(key, len) & (t->nr_buckets - 1);
	for (e = t->buckets[b]; e; e = e->next)
		if (key_is(e, key, len))
			return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->key = malloc(len);
	if (!e->key) {
		free(e);
		return NULL;
	}
	memcpy(e->key, key, len);
	e->key_len = len;
	e->next = t->buckets[b];
	t->buckets[b] = e;
	t->nr++;
	return e;
}

static void entry_free(struct entry *e)
{
	free(e->comm);
	free(e->key);
	free(e->branch);
	free(e);
}

/*
 * Adds row from's period, samples and call graph into row into, as perf's
 * collapse does (from's graph is then into's).  perf 6.5 and later merge
 * the chains without their symbols (cg_tree_merge's bare): not perf 6.1.
 * A twin's depth is not into's (collapse): perf merges the trees and keeps
 * the depth of the row it kept, the one the depth rule of the row order
 * then compares; rows perf never split (!collapse) have the deeper one.
 */
static int entry_add(struct report *rp, struct entry *into, const struct entry *from,
		     bool collapse)
{
	bool bare = !rp->compat_6_1;

	into->self += from->self;
	into->children += from->children;
	into->nr_samples += from->nr_samples;
	into->lat.self += from->lat.self;
	into->lat.children += from->lat.children;
	if (from->graph.tree && !into->graph.tree && !bare) {
		into->graph = from->graph;
	} else if (from->graph.tree) {
		if (!into->graph.tree)
			into->graph.tree = cg_tree_new(&rp->forest);
		if (!into->graph.tree ||
		    cg_tree_merge(&rp->forest, into->graph.tree, from->graph.tree, bare))
			return -ENOMEM;
		if (!collapse && into->graph.max_depth < from->graph.max_depth)
			into->graph.max_depth = from->graph.max_depth;
	}
	return 0;
}

/*
 * A copy of row e under key (key_len bytes): what the keys compare, and
 * with period its period, samples and call graph (else none); NULL on ENOMEM
 */
static struct entry *entry_dup(const struct entry *e, const char *key, size_t key_len, bool period)
{
	struct entry *d = malloc(sizeof(*d));

	if (!d)
		return NULL;
	*d = *e;
	d->next = NULL;
	d->key = malloc(key_len ? key_len : 1);
	d->key_len = key_len;
	d->comm = strdup(e->comm);
	d->branch = e->branch ? malloc(sizeof(*d->branch)) : NULL;
	if (!d->key || !d->comm || (e->branch && !d->branch)) {
		entry_free(d);
		return NULL;
	}
	memcpy(d->key, key, key_len);
	if (e->branch)
		*d->branch = *e->branch;
	if (!period) {
		d->self = d->children = d->nr_samples = d->stamp = 0;
		d->lat.self = d->lat.children = 0;
		d->graph = (struct entry_graph){ 0 };
	}
	return d;
}

static struct entry *table_find(const struct table *t, const char *key, size_t len)
{
	struct entry *e;

	if (!t->nr_buckets)
		return NULL;
	for (e = t->buckets[key_hash(key, len) & (t->nr_buckets - 1)]; e; e = e->next)
		if (key_is(e, key, len))
			return e;
	return NULL;
}


/* The sample's cpu, -1 when its event's samples carry none */
static int32_t sample_cpu(const struct pd_sample *smp)
{
	return smp->evsel && (smp->evsel->attr.attr.sample_type & PERF_SAMPLE_CPU) ?
	       (int32_t)smp->cpu : -1;
}

static void to_sk(const struct rd_event *ev, const struct frame *f, bool chain,
		  struct sk_frame *k)
{
	const struct pd_sample *smp = ev->sample;

	memset(k, 0, sizeof(*k));
	k->comm = ev->thread->comm;
	k->pid = smp->pid;
	k->tid = smp->tid;
	k->cpu = sample_cpu(smp);
	k->kernel = f->kernel;
	k->sym = f->r.sym;
	k->dso = f->r.dso;
	k->dso_len = f->r.dso_len;
	if (f->r.obj) {
		k->dso_short = f->r.obj->short_name;
		k->dso_short_len = f->r.obj->short_len;
	}
	/*
	 * perf (6.1 and 7.2) shows an unresolved callchain frame at its sampled
	 * address, a sample's own at its object's: two rows for one address
	 */
	k->addr = chain ? f->ip : f->r.addr;
	k->off = f->r.off;
	k->rel = f->r.addr;
	k->unmapped = chain;
}

static bool all_tracepoints(const struct pd_reader *r)
{
	for (uint32_t i = 0; i < r->nr_evsels; i++)
		if (r->evsels[i].attr.attr.type != PERF_TYPE_TRACEPOINT)
			return false;
	return r->nr_evsels > 0;
}

static bool sorts_by(const struct report *rp, enum sk_key key)
{
	for (int i = 0; i < rp->keys.nr; i++)
		if (rp->keys.keys[i] == key)
			return true;
	return false;
}

/* a key made of the frame's source line: srcline, srcfile */
static bool sorts_by_srcline(const struct report *rp)
{
	return sorts_by(rp, SK_SRCLINE) || sorts_by(rp, SK_SRCFILE);
}

/*
 * Which of the frames the line table places at an address names a row's
 * line.  A sample's own row is perf's lookup of the address (the
 * innermost), made with or without a symbol there (LINE_SAMPLE).  A
 * callchain row takes the line perf's inline expansion gave
 * its entry: each function at the line it is at there (inlined ones where
 * they call inward).  perf charges a callchain address once per sample
 * where only the address and object tell rows apart (-s srcline), and that
 * row shows the real function's line; with a symbol key each entry is a
 * row of its own.
 */
enum line_pick { LINE_SAMPLE, LINE_INNER, LINE_OUTER, LINE_OWN };

/* The index in fr[0..nr) of the frame pick names for frame f */
static uint32_t picked_frame(struct report *rp, const struct frame *f,
			     const struct pc_src_frame *fr, uint32_t nr, enum line_pick pick)
{
	const struct pc_symbol *base;

	if (pick == LINE_SAMPLE || pick == LINE_INNER)
		return 0;
	base = rd_isym_base(f->r.sym);
	if (pick == LINE_OWN && f->r.sym != base)
		for (uint32_t j = 0; j + 1 < nr; j++)
			if (fr[j].func && rd_isym_get(&rp->isyms, base, fr[j].func) == f->r.sym)
				return j;
	return nr - 1;
}

/*
 * --sort srcline of a user frame, as perf: "file.c:LINE" (the file's base
 * name, or whole with --full-source-path) from the line table of its
 * object (or separate debug file) at the frame's address, of the frame
 * pick names there; a sample's own frame with or without a symbol (perf
 * looks the line up in the map's object).  NULL when the object has no
 * DWARF there (sortkeys.c then shows sym+off, dso[addr] or ??:0 as perf
 * does).
 */
static const char *srcline_of(struct report *rp, struct rd_session *s, const struct frame *f,
			      enum line_pick pick, char *buf, size_t size)
{
	struct pc_src_frame fr[16];
	char path[4096], file_buf[4096];
	const char *file;
	uint32_t nr = 0, at;
	uint64_t vaddr;
	bool binutils;

	if (f->kernel || !f->r.dso || f->r.dso[0] != '/')
		return NULL;
	if (!rd_srcline_cache(&rp->src, s, s->dsos.debug_dir, !rp->compat_6_1))
		return NULL;
	snprintf(path, sizeof(path), "%s%.*s", s->dsos.root ? s->dsos.root : "",
		 (int)f->r.dso_len, f->r.dso);
	vaddr = f->r.sym ? f->r.sym->start + f->r.off : rd_a2l_addr(&f->r);
	if ((!f->r.sym && pick != LINE_SAMPLE) ||
	    pc_srcline_frames(rp->src, path, vaddr, fr, 16, &nr) || !nr) {
		/* no line: "FILE:0" or "??:0" where addr2line names the function */
		if (rd_a2l_no_line(rp->src, s, &f->r, path, &file) <= 0)
			return NULL;
		/*
		 * perf 7.2 runs addr2line only on an object with a line table:
		 * elsewhere no line, even where a file symbol would name one
		 */
		if (!rp->compat_6_1 && !pc_srcline_a2l_runs(rp->src, path))
			return NULL;
		snprintf(buf, size, "%s:0", file ? pc_srcline_shown(file, rp->view.full_source_path) :
			 "??");
		return buf;
	}
	at = picked_frame(rp, f, fr, nr, pick);
	/* composed as addr2line does by perf 6.1, and by perf 7.2 where it asks addr2line */
	binutils = rp->compat_6_1 ||
		   (rp->view.full_source_path &&
		    pc_srcline_a2l_answers(rp->src, path, vaddr));
	snprintf(buf, size, "%s:%u", fr[at].file && fr[at].line ?
		 pc_srcline_frame_file(&fr[at], rp->view.full_source_path, binutils, file_buf,
				       sizeof(file_buf)) : "",
		 fr[at].file ? fr[at].line : 0);
	return buf;
}

/*
 * A callchain frame's srcline row as perf 7.2 keys it: the line its
 * inline expansion gave the entry (line_pick); a frame without a symbol
 * has no expansion, and perf's own lookup at the callchain's unmapped
 * address finds no line (dso[address] then).
 */
static const char *chain_srcline_of(struct report *rp, struct rd_session *s,
				    const struct frame *f, char *buf, size_t size)
{
	if (!f->r.sym)
		return NULL;
	return srcline_of(rp, s, f,
			  sorts_by(rp, SK_SYM) || sorts_by(rp, SK_SYMOFF) ? LINE_OWN : LINE_OUTER,
			  buf, size);
}

/*
 * The row of key k, made on its first sample: the comm and what the keys
 * compare are that sample's.  perf 7.2 keeps a filtered sample's period out
 * of the rows of samples shown (a mark past the keys, shown by none, keeps
 * the rows apart; perf's trees compare it first: hist_cmp), where perf 6.1
 * lets a row's first sample decide for all.
 */
static size_t row_key(const struct report *rp, const struct sk_frame *k, uint8_t hidden,
		      char *key, size_t size)
{
	size_t len = sk_key(&rp->keys, k, key, size);

	if (hidden && !rp->compat_6_1 && len + 2 <= size) {
		key[len++] = '\x1e';
		key[len++] = '\x7f';
	}
	return len;
}

/* The object a row of frame k shows: perf's short name, else the name after its last '/' */
static void shown_dso(const struct sk_frame *k, struct row_at *at)
{
	const char *slash = k->dso ? memrchr(k->dso, '/', k->dso_len) : NULL;

	at->dso = k->dso;
	at->dso_len = k->dso_len;
	if (k->dso_short) {
		at->dso = k->dso_short;
		at->dso_len = k->dso_short_len;
	} else if (slash && k->dso[0] == '/') {
		at->dso = slash + 1;
		at->dso_len = k->dso_len - (size_t)(slash + 1 - k->dso);
	}
}

/* The object a row of frame f shows (shown_dso) */
static void frame_dso(const struct frame *f, struct row_at *at)
{
	struct sk_frame k = { .dso = f->r.dso, .dso_len = f->r.dso_len };

	if (f->r.obj) {
		k.dso_short = f->r.obj->short_name;
		k.dso_short_len = f->r.obj->short_len;
	}
	shown_dso(&k, at);
}

static struct entry *row_of_key(struct report *rp, struct table *t, const struct rd_event *ev,
				const struct sk_frame *k, uint8_t hidden, bool *made)
{
	char key[2048];
	size_t len = row_key(rp, k, hidden, key, sizeof(key));
	struct entry *e;
	const char *slash;

	e = table_get(t, key, len);
	if (!e || e->comm)
		return e;
	e->comm = strdup(k->comm);
	if (!e->comm)
		return NULL;
	*made = true;
	e->thread_comm = ev->thread->comm;
	e->seq = rp->nr_entries++;
	e->filtered = hidden;
	e->comm_placeholder = !ev->thread->comm_set;
	e->tid = k->tid;
	e->cpu = k->cpu;
	e->cgroup = k->cgroup.id;
	e->time = k->when.time;
	e->lat.parallelism = k->when.parallelism;
	/* perf's he->level is the sample's, in branch mode too (Symbol, not Target Symbol) */
	e->at.level = k->kernel ? 'k' : '.';
	e->at.sym = k->sym;
	e->at.ip = k->addr;
	shown_dso(k, &e->at);
	if (k->br) {
		const struct sk_branch *b = k->br;

		e->branch = calloc(1, sizeof(*e->branch));
		if (!e->branch)
			return NULL;
		e->branch->cycles = b->cycles;
		e->branch->from = (struct row_at){ .level = b->level, .sym = b->sym, .ip = b->addr };
		if (b->dso) {
			e->branch->from.dso = b->dso_short ? b->dso_short : b->dso;
			e->branch->from.dso_len = b->dso_short ? b->dso_short_len : b->dso_len;
			slash = b->dso_short ? NULL : memrchr(b->dso, '/', b->dso_len);
			if (slash && b->dso[0] == '/') {
				e->branch->from.dso = slash + 1;
				e->branch->from.dso_len = b->dso_len - (size_t)(slash + 1 - b->dso);
			}
		}
	}
	return e;
}

/* What the keys of frame f's row say (src: room for its source line) */
static void frame_sk(struct report *rp, struct rd_session *s, const struct rd_event *ev,
		     const struct frame *f, bool chain, bool level, struct sk_frame *k,
		     char *src, size_t src_size)
{
	to_sk(ev, f, chain, k);
	k->kernel = level;
	k->data.trace = rp->trace.text;
	k->data.trace_len = rp->trace.len;
	k->data.transaction = ev->sample->mem.transaction;
	k->data.parent = rp->match.sample_parent;
	if (rp->view.cgroups) {
		k->cgroup.id = ev->sample->cgroup;
		k->cgroup.path = rd_cgroups_path(&s->machine.cgroups, k->cgroup.id);
	}
	if (rp->view.quantum)
		k->when.time = ev->sample->time - ev->sample->time % rp->view.quantum;
	k->when.parallelism = rp->lat.parallelism;
	/*
	 * perf looks up a callchain frame's line at its unmapped address, as if
	 * it were the object's: no line, so no source file (perf 6.1's srcfile)
	 */
	if (sorts_by_srcline(rp) && !(chain && !sorts_by(rp, SK_SRCLINE)))
		k->srcline = !chain ? srcline_of(rp, s, f, LINE_SAMPLE, src, src_size) :
			     !rp->compat_6_1 ? chain_srcline_of(rp, s, f, src, src_size) :
			     srcline_of(rp, s, f, LINE_INNER, src, src_size);
}

/*
 * The row of one frame: from the cache when this thread, address, context
 * and the maps of the frame's address space (their generation) gave it
 * before (and the command is the same), else by its key.
 */
static struct entry *entry_of(struct report *rp, struct rd_session *s, struct table *t,
			      const struct rd_event *ev, const struct frame *f, bool chain,
			      bool level, uint8_t hidden, bool *made)
{
	struct sk_frame k;
	struct entry *e;
	char src[512];
	uint8_t flags = (uint8_t)(chain | f->kernel << 1 | level << 2 | (hidden != 0) << 3);
	int32_t cpu = sample_cpu(ev->sample);
	struct ecache *c = NULL;
	const void *space = f->kernel ? (const void *)s : (const void *)ev->thread->proc;
	uint64_t gen = rd_resolve_gen(s, ev->thread, f->kernel);

	if (rp->cache.ecache) {
		uint64_t h = (f->ip ^ ((uint64_t)ev->sample->tid << 40) ^ ((uint64_t)flags << 56) ^
			      (uint64_t)(uint32_t)cpu << 20) * 0x9E3779B97F4A7C15ULL;

		c = &rp->cache.ecache[h >> (64 - ECACHE_BITS)];
		/* the symbol too: inlined entries share their frame's address */
		/* one thread per tid: its comm unchanged is the entry's comm */
		if (c->e && c->ip == f->ip && c->tid == ev->sample->tid && c->flags == flags &&
		    c->cpu == cpu && c->gen == gen && c->space == space && c->t == t &&
		    c->sym == f->r.sym && c->comm_gen == ev->thread->comm_gen)
			return c->e;
	}
	frame_sk(rp, s, ev, f, chain, level, &k, src, sizeof(src));
	e = row_of_key(rp, t, ev, &k, hidden, made);
	if (e && *made)
		e->at.map = f->r.map;
	if (c && e) {
		c->e = e;
		c->sym = e->at.sym;
		c->ip = f->ip;
		c->tid = ev->sample->tid;
		c->comm_gen = ev->thread->comm_gen;
		c->flags = flags;
		c->cpu = cpu;
		c->gen = gen;
		c->space = space;
		c->t = t;
	}
	return e;
}

/* a reference to a row: the frame and its key's context (perf's new row takes its level and map) */
struct twin_ref {
	struct report *rp;
	struct rd_session *s;
	struct table *t;
	const struct rd_event *ev;
	const struct frame *f;
	bool chain, kernel;
	uint8_t hidden;
};

/*
 * A twin of row e (hist_input.h): its key and what the keys compare,
 * nothing charged yet; perf's new row is the reference's, so its thread,
 * cpu, level and object are (where the keys leave them out, they differ)
 */
static struct entry *make_twin(void *ctx, const struct entry *e)
{
	const struct twin_ref *ref = ctx;
	struct entry *twin = entry_dup(e, e->key, e->key_len, false);

	if (!twin)
		return NULL;
	/* a twin of a renamed row's old key (retired) is a live row */
	twin->filtered &= (uint8_t)~(ENTRY_MERGED | ENTRY_RETIRED);
	twin->tid = ref->ev->sample->tid;
	twin->cpu = sample_cpu(ref->ev->sample);
	twin->thread_comm = ref->ev->thread->comm;
	twin->comm_placeholder = !ref->ev->thread->comm_set;
	twin->at.level = ref->kernel ? 'k' : '.';
	twin->at.map = ref->f->r.map;
	frame_dso(ref->f, &twin->at);
	twin->seq = ref->rp->nr_entries++;
	return twin;
}

/*
 * Row, renamed as perf renames it: its inlined entry's symbol looked up
 * again at its start, its outer function; the copy takes its place, its
 * period and graph, and row stays (retired) to find its key by.
 */
static struct entry *renamed_row(const struct twin_ref *ref, struct entry *row)
{
	struct report *rp = ref->rp;
	struct sk_frame k;
	char src[512], key[2048];
	size_t len;
	struct entry *r;

	frame_sk(rp, ref->s, ref->ev, ref->f, ref->chain, ref->kernel, &k, src, sizeof(src));
	k.sym = rd_isym_base(row->at.sym);
	len = row_key(rp, &k, row->filtered & ~(ENTRY_MERGED | ENTRY_RETIRED), key, sizeof(key));
	r = len ? entry_dup(row, key, len, true) : NULL;
	if (!r)
		return NULL;
	r->at.sym = k.sym;
	r->at.map = ref->f->r.map;
	/*
	 * perf's he_cache now holds a row of the outer function: its key's
	 * frames later in this sample's chain are not charged again
	 */
	{
		struct entry *outer = table_find(ref->t, key, len);

		if (outer)
			outer->stamp = rp->stamp;
	}
	row->self = row->children = row->nr_samples = 0;
	row->lat.self = row->lat.children = 0;
	row->graph = (struct entry_graph){ 0 };
	row->filtered |= ENTRY_RETIRED;
	return r;
}

/*
 * perf's search found row: found through another map than its last (a
 * row of a key another process charged too), it takes that map, and
 * where the keys name a symbol its symbol is looked up again there
 */
static struct entry *found_row(void *ctx, struct entry *row)
{
	const struct twin_ref *ref = ctx;

	if (row->at.map == ref->f->r.map || !sorts_by(ref->rp, SK_SYM))
		return row;
	row->at.map = ref->f->r.map;
	if (!row->at.sym || !row->at.sym->inlined)
		return row;
	return renamed_row(ref, row);
}

/*
 * The row a reference to row e's key charges (frame f, kernel: its
 * level): e, its twin where perf's search misses e, or a renamed row
 */
static struct entry *charged_row(struct report *rp, struct rd_session *s, struct table *t,
				 const struct rd_event *ev, const struct frame *f, bool chain,
				 bool kernel, uint8_t hidden, struct entry *e, bool made)
{
	struct twin_ref ref = { rp, s, t, ev, f, chain, kernel, hidden };
	struct hist_ref_ops ops = { make_twin, found_row, &ref };
	struct entry seen;

	/*
	 * perf searches with this reference's object, which the key of an
	 * unresolved row leaves out (sortkeys.c): one offset into two objects
	 * is one key, but the search goes its own way from each
	 */
	if (!made && !e->at.sym && t->in.searched) {
		seen = *e;
		frame_dso(f, &seen.at);
		seen.at.map = f->r.map;
		return hist_input_ref(&t->in, e, &seen, made, &rp->keys, &ops);
	}
	return hist_input_ref(&t->in, e, NULL, made, &rp->keys, &ops);
}

/*
 * -g ...,address: a frame is its symbol and its line, as perf's callchain
 * srcline ("file.c:LINE" from the line table, else "+OFFSET" in decimal);
 * an inlined entry's line goes before its " (inlined)"
 */
static size_t address_name(struct report *rp, struct rd_session *s, const struct frame *f,
			   char *buf, size_t size)
{
	const char *name = f->r.sym->name, *line;
	size_t len = f->r.sym->name_len, tail = 0;
	char src[4096];
	int n;

	if (len > 10 && !memcmp(name + len - 10, " (inlined)", 10)) {
		len -= 10;
		tail = 10;
	}
	line = srcline_of(rp, s, f, LINE_INNER, src, sizeof(src));
	/* perf 7.2's libdw lookup has no addr2line answer "FILE:0" to fall back on */
	if (line && !rp->compat_6_1 && strlen(line) >= 2 && !strcmp(line + strlen(line) - 2, ":0"))
		line = NULL;
	if (line)
		n = snprintf(buf, size, "%.*s %s%s", (int)len, name, line, tail ? " (inlined)" : "");
	else
		n = snprintf(buf, size, "%.*s +%llu%s", (int)len, name, (unsigned long long)f->r.off,
			     tail ? " (inlined)" : "");
	return n < 0 ? 0 : (size_t)n >= size ? size - 1 : (size_t)n;
}

static int cg_index(struct report *rp, struct rd_session *s, struct frame *f)
{
	struct cg_frame_key k = { .sym = f->r.sym, .dso = f->r.dso, .dso_rank = f->r.dso_rank,
				  .ip = f->ip, .by_address = rp->cg.by_address };
	char name[4200];
	int64_t i;

	if (f->r.sym && rp->cg.by_address) {
		k.name_len = address_name(rp, s, f, name, sizeof(name));
		k.name = name;
	} else if (f->r.sym) {
		k.name = f->r.sym->name;
		k.name_len = f->r.sym->name_len;
		k.by_name = !rp->compat_6_1 && k.name_len > 10 &&
			    !memcmp(k.name + k.name_len - 10, " (inlined)", 10);
	} else {
		k.name_len = (size_t)snprintf(name, sizeof(name), f->ip ? "%#llx" : "0",
					      (unsigned long long)f->ip);
		k.name = name;
	}
	i = cg_frame(&rp->forest, &k);
	if (i < 0)
		return (int)i;
	f->cg = (uint32_t)i;
	return 0;
}

static int append_period(struct report *rp, struct entry *e, const struct frame *fr, int from,
			 int to, uint64_t period)
{
	uint32_t idx[MAX_STACK];
	uint64_t ips[MAX_STACK];
	size_t n = 0;
	int step = from <= to ? 1 : -1;

	if (!e->graph.tree) {
		e->graph.tree = cg_tree_new(&rp->forest);
		if (!e->graph.tree)
			return -ENOMEM;
	}
	if (from >= 0)
		for (int i = from;; i += step) {
			ips[n] = fr[i].ip;
			idx[n++] = fr[i].cg;
			if (i == to)
				break;
		}
	if (n > e->graph.max_depth)
		e->graph.max_depth = (uint32_t)n;
	return cg_tree_add(&rp->forest, e->graph.tree, idx, ips, n, period, &e->graph.last) ? -ENOMEM : 0;
}

static struct table *table_of(struct report *rp, struct rd_session *s, const struct pd_evsel *e)
{
	uint32_t idx = e ? (uint32_t)(e - s->r.evsels) : 0;

	if (idx >= rp->nr_tables) {
		struct table *v = realloc(rp->tables, (idx + 1) * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + rp->nr_tables, 0, (idx + 1 - rp->nr_tables) * sizeof(*v));
		rp->tables = v;
		rp->nr_tables = idx + 1;
	}
	rp->tables[idx].evsel = e;
	return &rp->tables[idx];
}

static bool has_chains(const struct pd_evsel *e)
{
	return e && (e->attr.attr.sample_type & PERF_SAMPLE_CALLCHAIN);
}

static bool any_chains(const struct pd_reader *r)
{
	for (uint32_t i = 0; i < r->nr_evsels; i++)
		if (has_chains(&r->evsels[i]))
			return true;
	return false;
}

/*
 * perf's default: Children when samples have callchains, then caller order.
 * From a pipe perf 6.1 decides before it has seen the events: no Children,
 * but still caller order.
 */
static bool children_asked(const struct report *rp, const struct pd_evsel *e)
{
	if (rp->children < 0)
		return !rp->pipe && has_chains(e);
	return rp->children;
}

/* perf's --hierarchy turns Children off after the graphs' order was chosen by them */
static bool children_on(const struct report *rp, const struct pd_evsel *e)
{
	return !rp->view.hierarchy && children_asked(rp, e);
}

static enum cg_order order_of(const struct report *rp, const struct pd_evsel *e)
{
	if (rp->cg.order_set)
		return rp->cg.order;
	if (rp->children < 0 && rp->pipe)
		return CG_CALLER;
	return children_asked(rp, e) ? CG_CALLER : CG_CALLEE;
}

/*
 * One frame resolved, with its call-graph frame: from the cache when this
 * address space, address and maps gave it before.
 */
static int resolve_frame(struct report *rp, struct rd_session *s, struct rd_thread *t,
			 bool graphs, struct frame *f)
{
	const void *space = f->kernel ? (const void *)s : (const void *)t->proc;
	uint64_t gen = rd_resolve_gen(s, t, f->kernel);
	struct fcache *c = NULL;

	if (rp->cache.fcache && graphs) {
		uint64_t h = (f->ip ^ (uint64_t)(uintptr_t)space ^ f->kernel) * 0x9E3779B97F4A7C15ULL;

		c = &rp->cache.fcache[h >> (64 - FCACHE_BITS)];
		if (c->valid && c->ip == f->ip && c->space == space && c->kernel == f->kernel &&
		    c->gen == gen) {
			f->r = c->r;
			f->cg = c->cg;
			return 0;
		}
	}
	rd_resolve(s, t, f->kernel, f->ip, &f->r);
	if (graphs && cg_index(rp, s, f))
		return -ENOMEM;
	if (c) {
		c->valid = true;
		c->ip = f->ip;
		c->space = space;
		c->kernel = f->kernel;
		c->gen = gen;
		c->r = f->r;
		c->cg = f->cg;
	}
	return 0;
}

/*
 * A user frame of a DWARF-unwound callchain as perf 6.1 appends it (its
 * unwinder's entries only; frame-pointer chains are not expanded): one
 * entry per function the line table places at its address, innermost
 * first, each named by DWARF, "NAME (inlined)" when that is not the ELF
 * symbol's name (rd_isym_get); the outer (real) function is the ELF symbol
 * except to perf 6.1 (as script's, print.c); the frame as it is when its
 * object has no DWARF there.  As script's chains (print.c).  Fills fr[0..) up to room; returns how many (>= 1), -ENOMEM.
 */
static int inline_frames(struct report *rp, struct rd_session *s, bool graphs, struct frame *fr,
			 int room)
{
	struct pc_src_frame src[16];
	const struct pc_symbol *base = fr[0].r.sym, *syms[16];
	const struct rd_iexp *kept;
	struct frame orig;
	char path[4096];
	uint32_t nr, all = 0;
	bool a2l;

	if (fr[0].kernel || !base || !fr[0].r.dso || fr[0].r.dso[0] != '/')
		return 1;
	kept = rd_iexp_find(&rp->isyms, base, fr[0].r.off);
	if (kept) {
		all = kept->nr;
		memcpy(syms, kept->syms, all * sizeof(*syms));
	} else {
		if (!rd_srcline_cache(&rp->src, s, s->dsos.debug_dir, !rp->compat_6_1))
			return 1;
		snprintf(path, sizeof(path), "%s%.*s", s->dsos.root ? s->dsos.root : "",
			 (int)fr[0].r.dso_len, fr[0].r.dso);
		if (pc_srcline_frames(rp->src, path, base->start + fr[0].r.off, src, 16, &all))
			all = 0;
		/*
		 * perf 7.2 takes the frames from libdw, the real function being
		 * the symbol; where libdw does not answer (srcline.h) it asks
		 * addr2line, whose outer function is the symbol only when the
		 * names agree (else "NAME (inlined)", as perf 6.1), and which
		 * names one from the symbol table where DWARF has no line
		 */
		a2l = !rp->compat_6_1 &&
		      pc_srcline_a2l_answers(rp->src, path, base->start + fr[0].r.off);
		if (!all && a2l) {
			src[0].func = pc_srcline_a2l_func(rp->src, path, base->start + fr[0].r.off);
			all = src[0].func ? 1 : 0;
		}
		for (uint32_t j = 0; j < all; j++) {
			syms[j] = j == all - 1 && !rp->compat_6_1 && !a2l ? base :
				  rd_isym_get(&rp->isyms, base, src[j].func);
			if (!syms[j])
				return -ENOMEM;
		}
		if (rd_iexp_keep(&rp->isyms, base, fr[0].r.off, syms, all))
			return -ENOMEM;
	}
	if (!all)
		return 1;
	nr = (int)all > room ? (uint32_t)room : all;
	orig = fr[0];
	for (uint32_t j = 0; j < nr; j++) {
		fr[j] = orig;
		fr[j].r.sym = syms[j];
		if (graphs && syms[j] != base && cg_index(rp, s, &fr[j]))
			return -ENOMEM;
	}
	return (int)nr;
}

/*
 * perf matches the symbols of a chain as it resolves it, in the report's
 * order: the first that -p's expression matches is the sample's parent
 * (where -s parent is asked), and at each later one that --ignore-callees'
 * matches the entries before it are forgotten and that frame becomes the
 * sample's own location (its filter marks with it: a frame's are clear).
 * So the cut is at the last match in that order: nearest the root in
 * callee order, nearest the leaf in caller order, where the entries
 * forgotten are the callers.
 */

struct chain_match {
	const struct pc_symbol *parent;	/* -s parent's, NULL: "[other]" */
	int cut;			/* the group --ignore-callees cuts at, -1: none */
};

static bool symbol_matches(const regex_t *re, const struct pc_symbol *sym)
{
	return re && sym && !regexec(re, sym->name, 0, NULL, 0);
}

static struct chain_match chain_match(const struct report *rp, const struct chain_groups *g,
				      bool caller)
{
	struct chain_match m = { NULL, -1 };

	for (int i = 0; i < g->nr; i++) {
		int at = caller ? g->nr - 1 - i : i;

		const struct pc_symbol *sym = g->real[at].r.sym;

		if (rp->match.parent_key && !m.parent && symbol_matches(rp->match.parent, sym))
			m.parent = sym;
		else if (symbol_matches(rp->match.ignore_callees, sym))
			m.cut = at;
	}
	return m;
}

/* The frames perf keeps of fr[0..n) (leaf first), the cut's frame in *self; returns how many */
static int chain_cut(const struct chain_groups *g, int cut, bool caller, struct frame *fr, int n,
		     struct frame *self)
{
	*self = g->real[cut];
	if (caller)
		return g->end[cut];
	memmove(fr, fr + g->start[cut], (size_t)(n - g->start[cut]) * sizeof(*fr));
	return n - g->start[cut];
}

/* Frames of ips past the first max (context markers aside): what caller order leaves out at the leaf. */
static uint64_t chain_excess(const uint64_t *ips, uint64_t nr, int max)
{
	uint64_t frames = 0;

	for (uint64_t i = 0; i < nr; i++)
		frames += !pc_is_context(ips[i]);
	return frames > (uint64_t)max ? frames - (uint64_t)max : 0;
}

/* The chain a memo slot now holds (its rows and nodes were set on the way). */
static int remember(struct memo *mm, const struct rd_event *ev, int n, const struct table *t,
		    bool caller, const struct frame *fr, bool rows, uint64_t in_gen,
		    const struct entry *self_key)
{
	if (!mm)
		return 0;
	mm->tid = ev->sample->tid;
	mm->thread = ev->thread;
	mm->comm_gen = ev->thread->comm_gen;
	mm->in_gen = in_gen;
	mm->self_key = self_key;
	mm->n = (uint32_t)n;
	mm->t = t;
	mm->caller = caller;
	for (int i = 0; i < n; i++) {
		mm->cg[i] = fr[i].cg;
		mm->kernel[i] = fr[i].kernel;
	}
	mm->valid = true;
	mm->rows = rows;
	return 0;
}

/*
 * The rows of a chain the memo holds, again: the same thread (and comm),
 * table, order and frames (by call-graph frame and context) make the same
 * rows when no sort key looks at more than the frame's symbol (cpu,
 * srcline and symoff do), so that the rows' lookups are left out.
 */
static bool memo_rows_hold(const struct report *rp, const struct memo *mm,
			   const struct rd_event *ev, const struct entry *self,
			   const struct entry *self_key, const struct frame *fr, bool searched)
{
	if (!mm->rows || mm->row[0] != self || mm->self_key != self_key || mm->thread != ev->thread ||
	    mm->comm_gen != ev->thread->comm_gen || rp->keys.past_symbol)
		return false;
	/*
	 * where perf searches the input tree, a search found each row (the
	 * tree unchanged since: the same answer), and found_row would take
	 * the frame's map: only where each row has it already is that nothing
	 */
	for (uint32_t k = 0; searched && k < mm->n; k++) {
		const struct entry *row = mm->row[k + 1];
		const struct frame *f = &fr[mm->caller ? mm->n - 1 - k : k];

		if (row && row->at.map != f->r.map && sorts_by(rp, SK_SYM))
			return false;
	}
	return true;
}

/* The node a chain of row's tree that the memo holds ends at, or 0 where it is searched again. */
static uint32_t memo_node(const struct report *rp, const struct memo *mm, const struct entry *row,
			  uint32_t k)
{
	return cg_tree_searched(&rp->forest, row->graph.tree) ? 0 : mm->node[k];
}

/*
 * The chain from frame i (to the root or the leaf, by order) into row's
 * graph: the memo's node of slot again where reuse says it is row's and
 * memo_node holds it, else added, the memo (if any) then holding it
 */
static int chain_to_row(struct report *rp, struct memo *mm, uint32_t slot, bool reuse,
			struct entry *row, const struct frame *fr, int i, int n, bool caller,
			uint64_t period)
{
	int ret;

	if (reuse && memo_node(rp, mm, row, slot)) {
		cg_hit(&rp->forest, mm->node[slot], period);
		return 0;
	}
	ret = caller ? append_period(rp, row, fr, i, 0, period) :
		       append_period(rp, row, fr, i, n - 1, period);
	if (!ret && mm) {
		mm->row[slot] = row;
		mm->node[slot] = row->graph.last;
	}
	return ret;
}

/*
 * perf marks a sample's rows filtered by its thread (--comms, --pid,
 * --tid) and by its own object and symbol (--dsos, --symbols): the rows of
 * its callchain take the sample's mark, not their frames'.
 */
static uint8_t row_hidden(const struct rd_filter *f, const struct rd_event *ev,
			  const struct rd_resolved *own, uint64_t ip)
{
	const struct pd_sample *smp = ev->sample;

	if (!f)
		return 0;
	/* each filter apart: --hierarchy applies each at its own level */
	return (rd_filter_thread_ok(f, ev->thread->comm, (int32_t)smp->pid, (int32_t)smp->tid) ?
		0 : ENTRY_HIDDEN_THREAD) |
	       (rd_filter_dso_ok(f, own) ? 0 : ENTRY_HIDDEN_DSO) |
	       (rd_filter_sym_ok(f, own, ip) ? 0 : ENTRY_HIDDEN_SYM);
}

static bool cpumode_kernel(const struct rd_event *ev)
{
	uint16_t m = ev->rec->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return m == PERF_RECORD_MISC_KERNEL || m == PERF_RECORD_MISC_GUEST_KERNEL;
}

/*
 * perf report's branch mode: a row per branch of the sample's stack, by its
 * source and target, each of period 1 (perf shows shares of the branches
 * taken, not of the events sampled); keys that are not a branch's (sym,
 * dso) and the filters see its target.  perf 6.1 counts each branch as a
 * sample, perf 7.2 each sample that has one.
 */
static int on_branches(struct report *rp, struct rd_session *s, const struct rd_event *ev,
		       struct table *t)
{
	const struct pd_sample_branch *bs = &ev->sample->branch;

	for (uint64_t i = 0; i < bs->nr; i++) {
		const uint64_t *w = &bs->entries[3 * i];
		struct rd_resolved from;
		struct frame to = { .ip = w[1] };
		struct sk_branch br;
		struct sk_frame k;
		struct entry *e;
		char level;
		bool made = false;

		br.level = rd_branch_at(s, ev->thread, w[0], &from);
		level = rd_branch_at(s, ev->thread, w[1], &to.r);
		to_sk(ev, &to, false, &k);
		k.kernel = cpumode_kernel(ev);
		k.level = level;
		k.addr = w[1];
		k.rel = to.r.addr;
		br.sym = from.sym;
		br.dso = from.dso;
		br.dso_len = from.dso_len;
		br.dso_short = from.obj ? from.obj->short_name : NULL;
		br.dso_short_len = from.obj ? from.obj->short_len : 0;
		br.addr = w[0];
		br.shown = from.addr;
		br.cycles = pd_branch_flags(w[2]).cycles;
		k.br = &br;
		/*
		 * found by key, perf's input tree not searched: its branch rows'
		 * unresolved ends compare by wrapped address too, but their
		 * twins are not reproduced
		 */
		e = row_of_key(rp, t, ev, &k, row_hidden(rp->view.flt, ev, &to.r, to.ip), &made);
		if (!e)
			return -ENOMEM;
		if (!e->nr_samples) {
			rd_branch_sym_bounds(&from, &e->branch->from.sym_start,
					     &e->branch->from.sym_end);
			rd_branch_sym_bounds(&to.r, &e->at.sym_start, &e->at.sym_end);
		}
		e->self++;
		e->children++;
		e->nr_samples++;
		t->total++;
		if (rp->compat_6_1)
			t->samples++;
	}
	if (!rp->compat_6_1 && bs->nr)
		t->samples++;
	return 0;
}

/*
 * What asks for perf 6.15's latency or parallelism (perf's
 * is_latency_requested: the options, or the words in -s or -F), NULL for
 * nothing.  perf 6.1 knows none of it.
 */
static const char *latency_asked(const struct report *rp, const char *fields, const char *sort)
{
	return rp->lat.prefer ? "option --latency" :
	       rp->lat.nr_levels ? "option --parallelism" :
	       (fields && strstr(fields, "latency")) ? "field latency" :
	       (fields && strstr(fields, "parallelism")) ? "field parallelism" :
	       (sort && strstr(sort, "latency")) ? "sort key latency" :
	       (sort && strstr(sort, "parallelism")) ? "sort key parallelism" : NULL;
}

/* --parallelism's levels: from 1 (perf's bound is its most cpus) */
static bool parallelism_levels_ok(const int64_t *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (v[i] < 1 || v[i] > 4096)
			return false;
	return true;
}

/* the records that tell how many threads run, for the samples' latency */
static int on_other(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct report *rp = ctx;

	(void)s;
	rd_latency_record(&rp->lat.count, ev->rec);
	return 0;
}

static int on_sample(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct report *rp = ctx;
	const struct pd_sample *smp = ev->sample;
	const struct pd_evsel *e = smp->evsel;
	struct table *t = table_of(rp, s, e);
	struct frame fr[MAX_STACK], self, first = { 0 };
	struct chain_groups *groups = &rp->match.groups;
	struct chain_match match = { NULL, -1 };
	/* -s parent or --ignore-callees: the frames are kept for chain_match */
	bool matching = rp->match.parent_key || rp->match.ignore_callees;
	int added;
	bool graphs = rp->cg.mode != CG_NONE, children = children_on(rp, e);
	bool caller = order_of(rp, e) == CG_CALLER, level;
	uint16_t m = ev->rec->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct entry *en;
	struct memo *mm = NULL;
	const struct rd_filter *f = rp->view.flt;
	bool made = false;
	bool same = false, got_first = false;
	uint8_t hidden;
	uint64_t lat, rows_gen;
	const struct entry *self_key;
	int n = 0, ret;

	if (!t)
		return -ENOMEM;
	if (f && f->nr_cpus && !rd_filter_in_numbers(f->cpus, f->nr_cpus, smp->cpu))
		return 0;
	if (f && !rd_filter_time_ok(f, smp->time))
		return 0;
	if (rp->trace.on) {
		ret = rd_trace_text(&rp->trace.fmt, s, ev, &rp->trace.text);
		if (ret < 0)
			return ret;
		/* a row key holds 2 KiB: longer texts compare by their start */
		rp->trace.len = (size_t)ret < 1536 ? (size_t)ret : 1536;
	}
	if (rp->view.branch)
		return on_branches(rp, s, ev, t);
	groups->nr = 0;
	/* the chain, leaf first */
	if (has_chains(e) && (caller ? rd_chain_valid_caller(ev, rp->max_stack) :
				       rd_chain_valid(ev, rp->max_stack))) {
		bool kernel = false;

		for (int part = 0; part < 2; part++) {
			const uint64_t *ips = part ? ev->extra : ev->base;
			uint64_t nr = part ? ev->extra_nr : ev->base_nr, skip = 0;
			int taken = 0;

			/*
			 * perf takes max-stack frames of the sample's chain from the
			 * root end in caller order, and as many again from its
			 * unwinder (innermost, inline entries not counted).
			 */
			if (part == 1 && !ev->unwound)
				taken = n;
			if (caller && part == 0)
				skip = chain_excess(ips, nr, rp->max_stack);
			for (uint64_t i = 0; i < nr && taken < rp->max_stack && n < MAX_STACK; i++) {
				if (rd_chain_context(ev, part, i, ips[i])) {
					kernel = ips[i] == PC_CONTEXT_KERNEL ||
						 ips[i] == PC_CONTEXT_GUEST_KERNEL;
					continue;
				}
				if (skip) {
					skip--;
					continue;
				}
				taken++;
				fr[n].ip = ips[i];
				fr[n].kernel = kernel;
				if (resolve_frame(rp, s, ev->thread, graphs, &fr[n]))
					return -ENOMEM;
				if (!got_first) {
					first = fr[n];
					got_first = true;
				}
				/* -U: perf leaves unresolved frames out of the chains */
				if (rp->view.hide_unresolved && !fr[n].r.sym)
					continue;
				if (matching && groups->nr < MAX_STACK)
					groups->real[groups->nr] = fr[n];
				/* perf 6.1 expands unwound frames only, perf 7.2 every frame */
				added = !rp->view.no_inline &&
					((part && ev->unwound) || !rp->compat_6_1) ?
					inline_frames(rp, s, graphs, &fr[n], MAX_STACK - n) : 1;
				if (added < 0)
					return added;
				if (matching && groups->nr < MAX_STACK) {
					groups->start[groups->nr] = (int16_t)n;
					groups->end[groups->nr++] = (int16_t)(n + added);
				}
				n += added;
			}
		}
	}
	/*
	 * The sample's own row: its ip in the record's cpumode, as perf finds
	 * it; the chain's first frame when that is the same ip in the same
	 * context (its real symbol), the usual case
	 */
	self.kernel = m == PERF_RECORD_MISC_KERNEL || m == PERF_RECORD_MISC_GUEST_KERNEL;
	if (matching)
		match = chain_match(rp, groups, caller);
	rp->match.sample_parent = match.parent;
	if (match.cut >= 0) {
		n = chain_cut(groups, match.cut, caller, fr, n, &self);
	} else if (n && first.ip == smp->ip && first.kernel == self.kernel) {
		self = first;
	} else {
		self.ip = smp->ip;
		rd_resolve(s, ev->thread, self.kernel, smp->ip, &self.r);
	}
	/* -U: a sample of no known symbol is left out, its period with it */
	if (rp->view.hide_unresolved && !self.r.sym)
		return 0;
	t->samples++;
	t->total += smp->period;
	rp->lat.parallelism = rd_latency_parallelism(&rp->lat.count, &s->r);
	lat = rd_latency_of(smp->period, rp->lat.parallelism);
	t->lat_total += lat;
	/* perf shows Latency columns unless 99% of the samples ran alone */
	rp->lat.samples++;
	if (rp->lat.parallelism == 1)
		rp->lat.alone++;
	rp->stamp++;
	if (graphs && n && rp->cache.memo) {
		mm = &rp->cache.memo[(smp->tid * 0x9E3779B1u) >> 26];
		same = mm->valid && mm->tid == smp->tid && mm->n == (uint32_t)n &&
		       mm->t == t && mm->caller == caller;
		for (int i = 0; i < n && same; i++)
			same = mm->cg[i] == fr[i].cg && mm->kernel[i] == fr[i].kernel;
	}
	hidden = match.cut >= 0 ? 0 : row_hidden(f, ev, &self.r, self.ip);
	/* -x: perf hides the rows of a sample whose chain has no parent */
	if (rp->match.exclude_other && !match.parent)
		hidden |= ENTRY_HIDDEN_PARENT;
	if (rp->lat.nr_levels && match.cut < 0 &&
	    !rd_filter_in_numbers(rp->lat.levels, rp->lat.nr_levels, rp->lat.parallelism))
		hidden |= ENTRY_HIDDEN_PARALLELISM;
	en = entry_of(rp, s, t, ev, &self, false, self.kernel, hidden, &made);
	if (!en)
		return -ENOMEM;
	/* perf's he_cache: the keys this sample charged, by key (a twin is its key's) */
	en->stamp = rp->stamp;
	self_key = en;
	en = charged_row(rp, s, t, ev, &self, false, self.kernel, hidden, en, made);
	if (!en)
		return -ENOMEM;
	/*
	 * the rows remembered were found by searches the tree answers alike:
	 * the tree as it was when the frames' rows were searched for, and not
	 * changed by those searches (rows_gen: the generation they start at)
	 */
	rows_gen = t->in.gen;
	if (same && t->in.searched && mm->in_gen != rows_gen)
		same = false;
	en->self += smp->period;
	en->nr_samples++;
	en->children += smp->period;
	en->lat.self += lat;
	en->lat.children += lat;
	if (graphs && n) {
		ret = chain_to_row(rp, mm, 0, same && mm->row[0] == en, en, fr, caller ? n - 1 : 0,
				   n, caller, smp->period);
		if (ret)
			return ret;
	}
	if (!children)
		return remember(mm, ev, n, t, caller, fr, false, rows_gen, self_key);
	if (same && memo_rows_hold(rp, mm, ev, en, self_key, fr, t->in.searched)) {
		for (int k = 0; k < n; k++) {
			int i = caller ? n - 1 - k : k;

			en = mm->row[k + 1];
			if (!en)
				continue;
			en->stamp = rp->stamp;
			en->children += smp->period;
			en->lat.children += lat;
			ret = chain_to_row(rp, mm, (uint32_t)k + 1, true, en, fr, i, n, caller,
					   smp->period);
			if (ret)
				return ret;
		}
		return 0;
	}
	/*
	 * perf fills one location per frame, and a frame without a map leaves
	 * the previous one's level ([k] or [.]): the sample's to begin with.
	 * perf 7.2 gives every frame it fills "." (its kernel frames' maps are
	 * not found to be the kernel's): a kernel row first made by a caller's
	 * frame shows [.], one first made by its own sample [k] (seen with perf
	 * 7.2.13 on the host and in the 7.2 guest).
	 */
	level = self.kernel;
	for (int k = 0; k < n; k++) {
		int i = caller ? n - 1 - k : k;

		if (fr[i].r.dso)
			level = rp->compat_6_1 && fr[i].kernel;
		made = false;
		en = entry_of(rp, s, t, ev, &fr[i], true, level, hidden, &made);
		if (!en)
			return -ENOMEM;
		/*
		 * perf's he_cache compares a frame's row as its sort keys would,
		 * the parallelism it never fills in too: sorted by it, no frame
		 * is found charged, each adds to its row again
		 */
		if (en->stamp == rp->stamp && !rp->lat.parallelism_key) {
			if (mm)
				mm->row[k + 1] = NULL;
			continue;
		}
		en->stamp = rp->stamp;
		en = charged_row(rp, s, t, ev, &fr[i], true, level, hidden, en, made);
		if (!en)
			return -ENOMEM;
		en->children += smp->period;
		en->lat.children += lat;
		if (!graphs)
			continue;
		ret = chain_to_row(rp, mm, (uint32_t)k + 1, same && mm->row[k + 1] == en, en, fr, i,
				   n, caller, smp->period);
		if (ret)
			return ret;
	}
	return remember(mm, ev, n, t, caller, fr, true, rows_gen, self_key);
}

static void samples_line(struct rd_out *o, uint64_t n, const char *name, bool group,
			 const char *time_str)
{
	char unit = ' ';

	if (n > 1000000000ULL) {
		n /= 1000000000ULL;
		unit = 'G';
	} else if (n > 1000000) {
		n /= 1000000;
		unit = 'M';
	} else if (n > 1000) {
		n /= 1000;
		unit = 'K';
	}
	rd_out_printf(o, "# Samples: %llu%c of event%s '%s'", (unsigned long long)n, unit,
		      group ? "s" : "", name);
	if (time_str)
		rd_out_printf(o, " (time slices: %s)", time_str);
	rd_out_char(o, '\n');
}

static void dots(struct rd_out *o, int w)
{
	rd_out_str(o, "  ");
	for (int i = 0; i < w; i++)
		rd_out_char(o, '.');
}

/*
 * perf's group view (an event group, as leader sampling {a,b}:S records
 * it): one table, the leader's rows with a column per member, each
 * member's share of its own event's total; rows only a member has join
 * the leader's with 0.  Children and Self each get a column per event; the
 * call graph under a row is the leader's (none under a member-only row).
 */
struct group_view {
	struct table *members[8];
	uint32_t nr;
	char name[512];		/* "anon group { a, b }", "a, b" for --group's own group */
};

/* The member's row of the leader's row e (NULL: none). */
static const struct entry *member_row(const struct group_view *g, uint32_t j,
				      const struct entry *e)
{
	return table_find(g->members[j], e->key, e->key_len);
}

/* member_row() for report_hierarchy.c: ctx is the group_view */
static const struct entry *group_member_row(const void *ctx, uint32_t j, const struct entry *e)
{
	return member_row(ctx, j, e);
}

/* g's members as the columns report_fields.c and report_hierarchy.c print (nr 0: none) */
static struct hist_group group_columns(const struct group_view *g)
{
	struct hist_group hg = { .nr = g ? g->nr : 0, .row = group_member_row, .ctx = g };

	for (uint32_t j = 0; j < hg.nr; j++)
		hg.total[j] = g->members[j]->total;
	return hg;
}

/* a row joined from a member meets no row of its key: nothing to rename or make */
static struct entry *joined_row(void *ctx, struct entry *row)
{
	(void)ctx;
	return row;
}

/* Rows only members have become the leader's, with 0 of the leader's period. */
static int group_join(struct report *rp, struct table *t, const struct group_view *g)
{
	const struct hist_ref_ops joined = { NULL, joined_row, NULL };

	for (uint32_t j = 0; j < g->nr; j++) {
		const struct table *m = g->members[j];

		for (size_t b = 0; b < m->nr_buckets; b++)
			for (struct entry *em = m->buckets[b]; em; em = em->next) {
				struct entry *e;

				if (table_find(t, em->key, em->key_len))
					continue;
				e = table_get(t, em->key, em->key_len);
				if (!e || !(e->comm = strdup(em->comm)))
					return -ENOMEM;
				e->thread_comm = em->thread_comm;
				e->tid = em->tid;
				e->cpu = em->cpu;
				e->lat.parallelism = em->lat.parallelism;
				e->at = em->at;
				if (em->branch) {
					e->branch = malloc(sizeof(*e->branch));
					if (!e->branch)
						return -ENOMEM;
					*e->branch = *em->branch;
				}
				e->seq = rp->nr_entries++;
				/* perf adds it to the leader's tree after the samples */
				if (!hist_input_ref(&t->in, e, NULL, true, &rp->keys, &joined))
					return -ENOMEM;
			}
	}
	return 0;
}

/* perf's group sort after the leader's Self (samples): each member's, in order */
static int members_cmp(const struct entry *a, const struct entry *b, bool samples,
		       const void *ctx)
{
	const struct group_view *g = ctx;

	for (uint32_t j = 0; j < g->nr; j++) {
		const struct entry *ma = member_row(g, j, a), *mb = member_row(g, j, b);
		uint64_t va = !ma ? 0 : samples ? ma->nr_samples : ma->self;
		uint64_t vb = !mb ? 0 : samples ? mb->nr_samples : mb->self;

		if (va != vb)
			return va > vb ? 1 : -1;
	}
	return 0;
}

static uint64_t group_sum(const struct table *t, const struct group_view *g, bool total)
{
	uint64_t sum = total ? t->total : t->samples;

	for (uint32_t j = 0; g && j < g->nr; j++)
		sum += total ? g->members[j]->total : g->members[j]->samples;
	return sum;
}

/* leads: the event leads a group of several (perf then says "events", viewed or not) */
/* A group's row: the leader's share, then each member's of its own total (Children, then Self) */
static void group_values(struct rd_out *o, const struct group_view *g, const struct entry *e,
			 double total, bool children)
{
	for (int col = children ? 0 : 1; col < 2; col++) {
		bool self = col == 1;

		rd_out_printf(o, self && children ? "  %7.2f%%" : "%9.2f%%",
			      100.0 * (double)(self ? e->self : e->children) / total);
		for (uint32_t j = 0; j < g->nr; j++) {
			const struct entry *me = member_row(g, j, e);
			double mt = g->members[j]->total ? (double)g->members[j]->total : 1.0;

			rd_out_printf(o, " %6.2f%%",
				      me ? 100.0 * (double)(self ? me->self : me->children) / mt : 0.0);
		}
	}
}

/* The filter list of a sort key's column (NULL: none filters it). */
static const struct rd_list *key_filter(const struct report *rp, int k)
{
	const struct rd_filter *f = rp->view.flt;

	if (!f)
		return NULL;
	switch (rp->keys.keys[k]) {
	case SK_COMM:
		return &f->comms;
	case SK_DSO:
		return &f->dsos;
	case SK_SYM:
		return &f->syms;
	default:
		return NULL;
	}
}

/*
 * perf leaves out the column of a sort key filtered to one value, and says
 * the value above the report ("# comm: ls"), unless every column would go:
 * then all stay (the lines are said all the same).
 */
static bool key_elided(const struct report *rp, int k)
{
	const struct rd_list *l = key_filter(rp, k);

	if (!l || l->nr != 1)
		return false;
	for (int j = 0; j < rp->keys.nr; j++) {
		l = key_filter(rp, j);
		if (!l || l->nr != 1)
			return true;
	}
	return false;
}

static void elided_lines(const struct report *rp, struct rd_out *o)
{
	static const char *const what[] = { [SK_COMM] = "comm", [SK_DSO] = "dso",
					    [SK_SYM] = "symbol" };

	for (int k = 0; k < rp->keys.nr; k++) {
		const struct rd_list *l = key_filter(rp, k);

		if (l && l->nr == 1)
			rd_out_printf(o, "# %s: %s\n", what[rp->keys.keys[k]], l->v[0]);
	}
}

/*
 * --percentage relative: the sums of the rows shown.  perf counts samples
 * (and the period its call graphs are cut at a share of) as they come,
 * before the symbol filter hides rows; the period of the percentages is
 * of the rows left after it.
 */
struct shown_sums {
	uint64_t samples, period, lat;
	uint64_t chain_period;	/* the period before the symbol filter */
};

static void add_shown(const struct entry *e, struct shown_sums *sum)
{
	if (!(e->filtered & ~ENTRY_HIDDEN_SYMBOL_FILTER)) {
		sum->samples += e->nr_samples;
		sum->chain_period += e->self;
	}
	if (e->filtered)
		return;
	sum->period += e->self;
	sum->lat += e->lat.self;
}

static void shown_sums(const struct table *t, struct shown_sums *sum)
{
	*sum = (struct shown_sums){ 0 };
	for (size_t b = 0; b < t->nr_buckets; b++)
		for (const struct entry *e = t->buckets[b]; e; e = e->next)
			add_shown(e, sum);
	for (size_t i = 0; i < t->in.nr_twins; i++)
		add_shown(t->in.twins[i], sum);
}

/*
 * perf applies --symbol-filter as it collapses the first event's rows,
 * which it does only where a key collapses (hist_keys_collapse): other
 * sort lists show every row, as perf's do.  A row is hidden unless its
 * symbol's name holds the text.
 */

static void symbol_filter_mark(struct entry *e, const char *text)
{
	/* perf's name of an inlined entry is its function's, " (inlined)" is printed after it */
	if (!e->at.sym || !memmem(e->at.sym->name, hist_func_len(e->at.sym), text, strlen(text)))
		e->filtered |= ENTRY_HIDDEN_SYMBOL_FILTER;
}

/* Before the collapse is replayed (merge_twins): perf hides rows as they enter that tree */
static void apply_symbol_filter(const struct report *rp)
{
	const char *text = rp->view.symbol_filter;
	struct table *t = rp->tables;

	if (!text || !rp->nr_tables || !hist_keys_collapse(&rp->keys))
		return;
	for (size_t b = 0; b < t->nr_buckets; b++)
		for (struct entry *e = t->buckets[b]; e; e = e->next)
			symbol_filter_mark(e, text);
	for (size_t i = 0; i < t->in.nr_twins; i++)
		symbol_filter_mark(t->in.twins[i], text);
}

static size_t drop_filtered(struct entry **v, size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++)
		if (!v[i]->filtered)
			v[kept++] = v[i];
	return kept;
}

static bool is_dso_key(enum sk_key k)
{
	return k == SK_DSO || k == SK_DSO_FROM || k == SK_DSO_TO;
}

/* The frame or branch end a key column shows, for the widths perf gives unresolved rows */
static const struct row_at *row_end(const struct entry *e, enum sk_key k)
{
	switch (k) {
	case SK_DSO:
	case SK_SYM:
	case SK_DSO_TO:
	case SK_SYM_TO:
		return &e->at;
	case SK_DSO_FROM:
	case SK_SYM_FROM:
		return e->branch ? &e->branch->from : NULL;
	default:
		return NULL;
	}
}

/*
 * The value columns perf puts among -s's keys, each where it was named
 * (-n's Samples and --show-total-period's Period after the overhead): the
 * columns (VC_SAMPLES, VC_PERIOD) before key k, k == nr after the last.
 */
enum { VC_SAMPLES = 1, VC_PERIOD = 2 };

static int values_at(const struct report *rp, int k, int out[2])
{
	int n = 0, s = rp->keys.samples ? rp->keys.samples_at : -1;
	int p = rp->keys.period ? rp->keys.period_at : -1;
	bool period_first = rp->keys.period_first && rp->keys.samples;

	/* -n and --show-total-period put theirs first, and -s's are not shown twice */
	if (rp->view.show_nr) {
		if (!k)
			out[n++] = VC_SAMPLES;
		s = -1;
	}
	if (rp->view.show_period) {
		if (!k)
			out[n++] = VC_PERIOD;
		p = -1;
	}
	if (p == k && period_first)
		out[n++] = VC_PERIOD;
	if (s == k)
		out[n++] = VC_SAMPLES;
	if (p == k && !period_first)
		out[n++] = VC_PERIOD;
	return n;
}

static const char *value_title(int vc)
{
	return vc == VC_SAMPLES ? "Samples" : "Period";
}

/* -t: one value in the field of its column's width, left-justified, as perf */
static void sep_field(struct rd_out *o, const char *sep, int width, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void sep_field(struct rd_out *o, const char *sep, int width, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (sep)
		rd_out_str(o, sep);
	rd_out_pad(o, buf, -width);
}

/* A row's count in a value column, a group's members after their leader */
static void value_text(struct rd_out *o, const struct group_view *g, const struct entry *e,
		       int vc, const char *sep, bool last)
{
	uint32_t nr = g ? g->nr : 0;
	char buf[256];
	size_t len = 0;

	for (uint32_t j = 0; j <= nr; j++) {
		const struct entry *me = j ? member_row(g, j - 1, e) : e;
		unsigned long long v = !me ? 0 : vc == VC_SAMPLES ? me->nr_samples : me->self;

		if (sep)	/* -t: perf's " %llu" at the least width, filling the column */
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, " %llu", v);
		else if (j)
			rd_out_printf(o, "%12llu", v);
		else
			rd_out_printf(o, "  %12llu", v);
		if (len >= sizeof(buf))
			break;
	}
	if (sep)	/* the last column unpadded, as perf */
		sep_field(o, sep, last ? 0 : 12 * (int)(nr + 1), "%s", buf);
}

/*
 * The share columns of a row without groups, in perf's order: Children and
 * Self (or Overhead), each followed by its Latency where perf shows them
 * (reader/latency.h), each Latency first with --latency.  perf's Latency
 * of Children is a column narrower than the others.
 */
enum share { SH_CHILDREN, SH_LAT_CHILDREN, SH_SELF, SH_LAT };

struct share_col {
	enum share what;
	const char *title;
	int width;
};

/* a share's column and its Latency's where shown, the Latency first with --latency */
static int share_pair(const struct report *rp, struct share_col *c, struct share_col share,
		      struct share_col lat)
{
	int n = 0;

	if (rp->lat.cols && rp->lat.prefer)
		c[n++] = lat;
	c[n++] = share;
	if (rp->lat.cols && !rp->lat.prefer)
		c[n++] = lat;
	return n;
}

static int share_cols(const struct report *rp, bool children, struct share_col *c)
{
	int n = 0;

	if (children)
		n = share_pair(rp, c, (struct share_col){ SH_CHILDREN, "Children", 8 },
			       (struct share_col){ SH_LAT_CHILDREN, "Latency", 7 });
	return n + share_pair(rp, c + n,
			      (struct share_col){ SH_SELF, children ? "Self" : "Overhead", 8 },
			      (struct share_col){ SH_LAT, "Latency", 8 });
}

/* The two lines of column titles and dots (perf leaves them out with -q) */
/*
 * -t: the titles apart by the separator, each in its column's width (the
 * last too), and no line of dots
 */
static void sep_titles(const struct report *rp, struct rd_out *o, const struct group_view *g,
		       bool children, const int *width)
{
	const char *sep = rp->view.sep;
	int vw = 8 * (int)(g ? g->nr + 1 : 1), nw = 12 * (int)(g ? g->nr + 1 : 1);

	if (!g) {
		struct share_col c[4];
		int nc = share_cols(rp, children, c);

		for (int i = 0; i < nc; i++)
			rd_out_printf(o, "%s%*s", i ? sep : "# ", c[i].width, c[i].title);
	} else if (children) {
		rd_out_printf(o, "# %*s%s%*s", vw, "Children", sep, vw, "Self");
	} else {
		rd_out_printf(o, "# %*s", vw, "Overhead");
	}
	for (int k = 0; k <= rp->keys.nr; k++) {
		int vc[2], nv = values_at(rp, k, vc);

		for (int i = 0; i < nv; i++)
			rd_out_printf(o, "%s%*s", sep, nw, value_title(vc[i]));
		if (k < rp->keys.nr && !key_elided(rp, k))
			rd_out_printf(o, "%s%-*s", sep, width[k], sk_title(rp->keys.keys[k]));
	}
	rd_out_char(o, '\n');
}

/* row e's share in column c, in percent (total: of the shares, t: of the latencies) */
static double share_of(const struct share_col *c, const struct table *t, const struct entry *e,
		       double total)
{
	double lat_total = t->lat_base ? (double)t->lat_base : 1.0;

	switch (c->what) {
	case SH_CHILDREN:
		return 100.0 * (double)e->children / total;
	case SH_SELF:
		return 100.0 * (double)e->self / total;
	case SH_LAT:
		return 100.0 * (double)e->lat.self / lat_total;
	default:
		return 100.0 * (double)e->lat.children / lat_total;
	}
}

static void share_values(const struct report *rp, struct rd_out *o, const struct table *t,
			 const struct entry *e, double total, bool children)
{
	struct share_col c[4];
	int n = share_cols(rp, children, c);

	/* perf's " %*.2f%%" in the column's width: a wider value widens it */
	for (int i = 0; i < n; i++)
		rd_out_printf(o, "   %*.2f%%", c[i].width - 2, share_of(&c[i], t, e, total));
}

static void column_titles(const struct report *rp, struct rd_out *o, const struct group_view *g,
			  bool children, const int *width)
{
	struct share_col c[4];
	int nc = share_cols(rp, children, c);

	if (rp->view.sep) {
		sep_titles(rp, o, g, children, width);
		return;
	}
	if (g && children)
		rd_out_printf(o, "# %*s  %*s", 8 * (int)(g->nr + 1), "Children",
			      8 * (int)(g->nr + 1), "Self");
	else if (g)
		rd_out_printf(o, "# %*s", 8 * (int)(g->nr + 1), "Overhead");
	else
		for (int i = 0; i < nc; i++)
			rd_out_printf(o, "%s%*s", i ? "  " : "# ", c[i].width, c[i].title);
	for (int k = 0; k <= rp->keys.nr; k++) {
		int vc[2], nv = values_at(rp, k, vc);

		for (int i = 0; i < nv; i++)
			rd_out_printf(o, "  %*s", 12 * (int)(g ? g->nr + 1 : 1), value_title(vc[i]));
		if (k < rp->keys.nr && !key_elided(rp, k))
			rd_out_printf(o, "  %-*s", width[k], sk_title(rp->keys.keys[k]));
	}
	if (g) {
		rd_out_str(o, "\n# ");
		for (uint32_t j = 0; j < 8 * (g->nr + 1); j++)
			rd_out_char(o, '.');
		if (children)
			dots(o, 8 * (int)(g->nr + 1));
	} else {
		rd_out_str(o, "\n# ");
		for (int i = 0; i < nc; i++)
			for (int j = i ? -2 : 0; j < c[i].width; j++)
				rd_out_char(o, j < 0 ? ' ' : '.');
	}
	for (int k = 0; k <= rp->keys.nr; k++) {
		int vc[2], nv = values_at(rp, k, vc);

		for (int i = 0; i < nv; i++)
			dots(o, 12 * (int)(g ? g->nr + 1 : 1));
		if (k < rp->keys.nr && !key_elided(rp, k))
			dots(o, width[k]);
	}
	rd_out_str(o, "\n#\n");
}


/*
 * -t: a row's values, perf's formats at the least width (" %.2f%%",
 * " %llu"), each filling its column; a group's members follow their leader
 * in the column
 */
static void sep_values(const struct report *rp, struct rd_out *o, const struct group_view *g,
		       const struct table *t, const struct entry *e, double total, bool children)
{
	const char *sep = rp->view.sep;
	uint32_t nr = g ? g->nr : 0;
	char buf[256];
	size_t len;

	if (!g) {
		struct share_col c[4];
		int nc = share_cols(rp, children, c);

		for (int i = 0; i < nc; i++)
			sep_field(o, i ? sep : NULL, c[i].width, " %.2f%%",
				  share_of(&c[i], t, e, total));
		return;
	}

	/* the overhead's columns; the value columns come with the keys (value_text) */
	for (int col = children ? 0 : 1; col < 2; col++) {
		len = 0;
		for (uint32_t j = 0; j <= nr && len < sizeof(buf); j++) {
			const struct entry *me = j ? member_row(g, j - 1, e) : e;
			uint64_t v = !me ? 0 : col == 0 ? me->children : me->self;

			len += (size_t)snprintf(buf + len, sizeof(buf) - len, " %.2f%%",
						100.0 * (double)v / total);
		}
		sep_field(o, col == (children ? 0 : 1) ? NULL : sep, 8 * (int)(nr + 1), "%s", buf);
	}
}

/* Each key's column width over rows v[0..n), as perf sizes them */
static void key_widths(const struct report *rp, struct entry *const *v, size_t n, int *width)
{
	char text[1024];

	for (int k = 0; k < rp->keys.nr; k++)
		width[k] = (int)strlen(sk_title(rp->keys.keys[k]));
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < rp->keys.nr; k++) {
			int len = (int)strlen(sk_text(v[i]->key, v[i]->key_len, k, v[i]->at.level,
						      v[i]->thread_comm, text, sizeof(text)));

			/* perf sizes the command column by each thread's last command */
			if (rp->keys.keys[k] == SK_COMM)
				len = (int)strlen(v[i]->thread_comm);
			/* an inlined symbol by its name, its " (inlined)" overflows */
			const struct row_at *at = row_end(v[i], rp->keys.keys[k]);

			if (rp->keys.keys[k] == SK_SYM && v[i]->at.sym &&
			    v[i]->at.sym->name_len > 10 &&
			    !strcmp(v[i]->at.sym->name + v[i]->at.sym->name_len - 10, " (inlined)"))
				len -= 10;
			/* and the cpu column by its title; "-001" overflows it */
			if (len > width[k] && rp->keys.keys[k] != SK_CPU)
				width[k] = len;
			/*
			 * a row without a symbol widens perf's object column to an
			 * address's 16 (unless --dsos or -t is given), and its symbol
			 * column to the address and its "[.] " and 2 more; a branch's
			 * source or target its source or target columns
			 */
			if (at && is_dso_key(rp->keys.keys[k]) && !at->sym && width[k] < 16 &&
			    !rp->view.flt->dsos.nr && !rp->view.sep)
				width[k] = 16;
			if (at && !is_dso_key(rp->keys.keys[k]) && !at->sym && width[k] < 22)
				width[k] = 22;
			/* perf widens the transaction column to 32 for any row with a word */
			if (rp->keys.keys[k] == SK_TRANSACTION && len && width[k] < 32)
				width[k] = 32;
			/* perf's time column holds 12 at the least: a short uptime's "95.123456" too */
			if (rp->keys.keys[k] == SK_TIME && width[k] < 12)
				width[k] = 12;
		}
}

/* A row to order: not a retired key; a merged twin only for the replay (not in hierarchies) */
static bool row_to_order(const struct entry *e, bool all, bool children, bool hierarchy)
{
	if (e->filtered & ENTRY_RETIRED)
		return false;
	if (e->filtered & ENTRY_MERGED)
		return !hierarchy;
	return all || (children ? e->children : e->self);
}

/*
 * t's rows to order into v: the walk of perf's input tree where rows were
 * renamed in it (*walked; its order is no longer its keys'), else as made
 * (hist_order replays that tree); all: rows without a share too
 */
static int table_rows(const struct table *t, bool all, bool children, bool hierarchy,
		      struct entry **v, size_t *n, bool *walked)
{
	*n = 0;
	*walked = t->in.renamed && !t->in.stale && !hierarchy;
	if (*walked) {
		struct entry **w = malloc((t->in.tree.nr ? t->in.tree.nr : 1) * sizeof(*w));

		if (!w || hist_input_walk(&t->in, w)) {
			free(w);
			return -ENOMEM;
		}
		for (uint32_t i = 0; i < t->in.tree.nr; i++)
			if (row_to_order(w[i], all, children, hierarchy))
				v[(*n)++] = w[i];
		free(w);
		return 0;
	}
	for (size_t b = 0; b < t->nr_buckets; b++)
		for (struct entry *e = t->buckets[b]; e; e = e->next)
			if (row_to_order(e, all, children, hierarchy))
				v[(*n)++] = e;
	for (size_t i = 0; i < t->in.nr_twins; i++)
		if (row_to_order(t->in.twins[i], all, children, hierarchy))
			v[(*n)++] = t->in.twins[i];
	return 0;
}

/* perf's collapse adds a twin into the row its search finds: period, samples, call graph */
static int merge_twin(struct entry *into, struct entry *from, void *ctx)
{
	struct report *rp = ctx;

	if (entry_add(rp, into, from, true))
		return -ENOMEM;
	from->self = from->children = from->nr_samples = 0;
	from->lat.self = from->lat.children = 0;
	from->graph = (struct entry_graph){ 0 };
	from->filtered |= ENTRY_MERGED;
	return 0;
}

/* the same merges replayed when printing: what they moved has moved (merge_twins) */
static int drop_merged(struct entry *into, struct entry *from, void *ctx)
{
	(void)into;
	(void)ctx;
	from->filtered |= ENTRY_MERGED;
	return 0;
}

/* Before the call graphs are finished: the twins perf's collapse merges, merged (hist_input.h). */
static int merge_twins(struct report *rp)
{
	for (uint32_t i = 0; i < rp->nr_tables; i++) {
		struct table *t = &rp->tables[i];
		struct hist_order ho = { .keys = &rp->keys, .merge = merge_twin, .merge_ctx = rp };
		struct entry **v;
		size_t n = 0;
		int ret;

		/* srcline (srcfile): rows of one line (file) at other addresses are twins */
		if (!t->in.nr_twins && !(sorts_by_srcline(rp) && rp->keys.lines_by_address))
			continue;
		v = malloc((t->nr + t->in.nr_twins) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		ret = table_rows(t, true, false, false, v, &n, &ho.input_walked);
		if (!ret)
			ret = hist_merge_twins(v, n, &ho);
		free(v);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * --hierarchy: the rows of the event's own samples (perf's hierarchy has
 * no Children), hidden ones too (their periods count in the levels above)
 */
static int print_hierarchy(struct report *rp, struct table *t, struct rd_out *o,
			   struct group_view *g, struct entry **v, size_t n, double total)
{
	int width[SK_MAX_KEYS];
	struct cg_params cg = rp->cg;
	struct hist_group hg = group_columns(g);
	const struct rd_filter *f = rp->view.flt;
	struct rh_view hv = { .keys = &rp->keys, .width = width, .sep = rp->view.sep,
			      .show_nr = rp->view.show_nr, .show_period = rp->view.show_period,
			      .quiet = rp->view.quiet, .total = total,
			      .percent_limit = rp->view.percent_limit, .cg = &cg,
			      .graph_total = t->total, .group = g ? &hg : NULL,
			      .latency = rp->lat.keys, .latency_col = rp->lat.cols && !g,
			      .latency_first = rp->lat.prefer, .lat_total = (double)t->lat_base };
	struct rh_plan plan = { 0 };
	struct entry **shown = malloc((n ? n : 1) * sizeof(*shown));
	int ret;

	if (rp->cg.mode != CG_NONE && has_chains(t->evsel))
		hv.forest = &rp->forest;
	if (rp->view.percent_limit > 0)
		cg.min_percent = rp->view.percent_limit;
	cg.rest_inlined = true;
	cg.skip_first = rp->sort_sym_first;
	cg.chains_once = true;
	cg.bare_addresses = !rp->compat_6_1;
	hv.filters = (f->comms.nr || f->nr_pids || f->nr_tids ? ENTRY_HIDDEN_THREAD : 0) |
		     (f->dsos.nr ? ENTRY_HIDDEN_DSO : 0) | (rd_filter_has_syms(f) ? ENTRY_HIDDEN_SYM : 0);
	for (int k = 0; k < rp->keys.nr; k++)
		if (key_elided(rp, k))
			hv.elided |= 1u << k;
	ret = shown ? rh_plan(&plan, v, n, &hv) : -ENOMEM;
	if (!ret) {
		/* perf sizes the columns by the rows its filters leave shown */
		key_widths(rp, shown, rh_shown_rows(&plan, shown), width);
		ret = rh_print(o, &plan, &hv);
	}
	if (!ret)
		rd_out_str(o, "\n\n");
	rh_plan_free(&plan);
	free(shown);
	return ret;
}

/* One event's table (a group's with g); -ENOMEM */
static int print_table(struct report *rp, struct table *t, struct rd_out *o, bool first,
		       struct group_view *g, bool leads)
{
	bool children = children_on(rp, t->evsel);
	bool graphs = rp->cg.mode != CG_NONE && has_chains(t->evsel);
	struct cg_params cg = rp->cg;
	struct entry **v;
	size_t n = 0;
	bool walked = false;
	int width[SK_MAX_KEYS];
	uint64_t nr_samples = group_sum(t, g, false), period = group_sum(t, g, true);
	uint64_t chain_period = period;
	double total = t->total ? (double)t->total : 1.0;
	char text[1024];
	struct hist_group fg = group_columns(g);
	struct rf_view fv = { .keys = &rp->keys, .width = width, .sep = rp->view.sep,
			      .children = children, .group = g ? &fg : NULL };

	/* perf's relative Latency too is of the latency of the rows shown */
	t->lat_base = t->lat_total;
	if (rp->view.relative && !g) {
		struct shown_sums sum;

		shown_sums(t, &sum);
		nr_samples = sum.samples;
		period = sum.period;
		chain_period = sum.chain_period;
		t->lat_base = sum.lat;
		total = period ? (double)period : 1.0;
	}
	/* perf separates the events by the two blank lines each table ends with */
	if (first && !rp->view.quiet)
		rd_out_str(o, "#\n");
	if (!rp->view.quiet) {
		samples_line(o, nr_samples,
			     g ? g->name : t->evsel && t->evsel->name ? t->evsel->name : "?",
			     leads, rp->view.time_str);
		rd_out_printf(o, "# Event count (approx.): %llu\n#\n",
			      (unsigned long long)period);
	}
	v = malloc((t->nr + t->in.nr_twins + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (table_rows(t, g != NULL, children, rp->view.hierarchy, v, &n, &walked)) {
		free(v);
		return -ENOMEM;
	}
	if (rp->view.hierarchy) {
		int ret = print_hierarchy(rp, t, o, g, v, n, total);

		free(v);
		return ret;
	}
	{
		/* -F: Children sorts where the fields name it, if they do */
		struct hist_order ho = { .keys = &rp->keys,
					 .children = children && !rp->view.fields,
					 .cumulate = children, .graphs = graphs,
					 .caller = order_of(rp, t->evsel) == CG_CALLER,
					 .members_cmp = g ? members_cmp : NULL, .members_ctx = g,
					 .latency = rp->lat.keys,
					 .latency_first = rp->lat.prefer };

		for (int k = 0; k < rp->keys.nr; k++)
			if (key_elided(rp, k))
				ho.elided |= 1u << k;

		/* filtered rows too: perf sorts them in, and equal rows keep that order */
		ho.merge = drop_merged;
		ho.input_walked = walked;
		if (hist_order(v, &n, &ho)) {
			free(v);
			return -ENOMEM;
		}
		n = drop_filtered(v, n);
	}
	key_widths(rp, v, n, width);
	fv.total = total;
	fv.lat_total = (double)t->lat_base;
	for (int k = 0; k < rp->keys.nr; k++)
		if (key_elided(rp, k))
			fv.elided |= 1u << k;
	if (rp->view.percent_limit > 0)
		cg.min_percent = rp->view.percent_limit;
	/*
	 * perf 7.2 reads that flag from memory it never set: " (inlined)" or
	 * not changes from run to run, "[...]" (the flag clear) is its intent
	 */
	cg.rest_inlined = !children && rp->compat_6_1;
	cg.skip_first = rp->sort_sym_first;
	if (!rp->view.quiet && rp->view.fields)
		rf_titles(o, rp->view.fields, &fv);
	else if (!rp->view.quiet)
		column_titles(rp, o, g, children, width);
	/*
	 * --percentage relative: perf cuts the call graphs at a share of the
	 * rows shown, and still prints each branch's share of all samples
	 */
	if (rp->view.relative && !g && t->total)
		cg.min_percent *= (double)chain_period / (double)t->total;
	for (size_t i = 0; i < n; i++) {
		struct entry *e = v[i];
		double shown = 100.0 * (double)(children ? e->children : e->self) / total;

		/* --latency: the limit is of the latency */
		if (rp->lat.prefer && rp->lat.cols)
			shown = share_of(&(struct share_col){ children ? SH_LAT_CHILDREN : SH_LAT },
					 t, e, total);

		if (shown < rp->view.percent_limit)
			continue;
		if (rp->view.fields) {
			rf_row(o, rp->view.fields, &fv, e);
		} else if (rp->view.sep) {
			sep_values(rp, o, g, t, e, total, children);
		} else if (g) {
			group_values(o, g, e, total, children);
		} else {
			share_values(rp, o, t, e, total, children);
		}
		for (int k = 0; k <= rp->keys.nr && !rp->view.fields; k++) {
			int vc[2], after[2], nv = values_at(rp, k, vc);
			/* as perf, the last column is the last key's, elided or not */
			bool last = k == rp->keys.nr - 1 && !values_at(rp, rp->keys.nr, after);

			for (int c = 0; c < nv; c++)
				value_text(o, g, e, vc[c], rp->view.sep,
					   k == rp->keys.nr && c == nv - 1);
			if (k == rp->keys.nr || key_elided(rp, k))
				continue;
			sk_cell(e->key, e->key_len, k, rp->keys.keys[k], e->at.level, e->thread_comm,
				width[k], rp->view.sep, text, sizeof(text));
			rd_out_str(o, rp->view.sep ? rp->view.sep : "  ");
			rd_out_pad(o, text, last && !sk_pad_last(rp->keys.keys[k]) ? 0 : -width[k]);
		}
		rd_out_char(o, '\n');
		if (graphs)
			cg_print(o, &rp->forest, e->graph.tree, &cg, t->total,
				 children ? e->children : e->self);
	}
	rd_out_str(o, "\n\n");
	free(v);
	return 0;
}

struct groups {
	struct report *rp;
	struct rd_session *s;
	int32_t *leader_of;	/* per evsel: its group's leader, -1 when alone */
	uint32_t *members;	/* per leader: events in its group */
	char **names;		/* per leader: the GROUP_DESC name */
	bool forced;		/* --group on a file without groups: all events are one */
};

static int note_group(const char *name, uint32_t leader, uint32_t nr, void *ctx)
{
	struct groups *gr = ctx;

	if (nr < 2 || leader + nr > gr->rp->nr_tables || nr > 9)
		return 0;
	for (uint32_t i = leader; i < leader + nr; i++)
		gr->leader_of[i] = (int32_t)leader;
	gr->members[leader] = nr;
	free(gr->names[leader]);
	gr->names[leader] = strdup(name);
	return gr->names[leader] ? 0 : -ENOMEM;
}

/* A group shows as perf's group view unless --no-group. */
static bool group_viewed(struct report *rp, struct groups *gr, uint32_t leader)
{
	return gr->members[leader] > 1 && (rp->view.group > 0 || rp->view.group == -1);
}

static void group_name(struct report *rp, struct groups *gr, uint32_t leader,
		       struct group_view *g)
{
	const char *n = gr->names[leader];
	size_t len;

	/* --group's own group of a file without any is named by its events alone */
	len = gr->forced ? 0 : (size_t)snprintf(g->name, sizeof(g->name), "%s { ",
			       !n || !*n || !strcmp(n, "{anon_group}") ? "anon group" : n);
	for (uint32_t i = leader; i < leader + gr->members[leader] && len < sizeof(g->name); i++) {
		const struct pd_evsel *e = rp->tables[i].evsel;

		len += (size_t)snprintf(g->name + len, sizeof(g->name) - len, "%s%s",
					i == leader ? "" : ", ", e && e->name ? e->name : "?");
	}
	if (len < sizeof(g->name) && !gr->forced)
		snprintf(g->name + len, sizeof(g->name) - len, " }");
}

/* Each event's table, a group's together (perf's group view) when it is one. */
/*
 * A row keyed by a thread's ":TID" placeholder, made before the thread's
 * first COMM (or FORK) came (a lossy file lost it): perf writes that first
 * comm over the placeholder in place, so at the end the row shows it, and
 * its collapse merges the row into one of the same keys.  The comm column
 * of the key is rewritten; a row of the new key takes this one's periods
 * and chains.
 */
struct placeholder_row {
	struct entry *e;
	const char *first;	/* its thread's first comm */
};

static int settle_placeholder(struct report *rp, struct table *t, int col,
			      struct placeholder_row pr)
{
	struct entry *e = pr.e;
	const char *first = pr.first;
	char key[2048];
	size_t len = 0, col_start = 0, ci = 0;
	struct entry **pp, *into;
	int ret;

	/* the key's columns are '\x1e'-ended: copy all but column col, rebuilt */
	for (size_t i = 0; i < e->key_len; i++) {
		if ((int)ci == col && col_start == i) {
			size_t n = strlen(first);

			if (len + 2 * n + 1 > sizeof(key))
				return 0;
			memcpy(key + len, first, n);
			key[len + n] = '\x1f';
			memcpy(key + len + n + 1, first, n);
			len += 2 * n + 1;
		}
		if ((int)ci != col) {
			if (len + 1 > sizeof(key))
				return 0;
			key[len++] = e->key[i];
		}
		if (e->key[i] == '\x1e') {
			if ((int)ci == col) {
				if (len + 1 > sizeof(key))
					return 0;
				key[len++] = '\x1e';
			}
			ci++;
			col_start = i + 1;
		}
	}
	/* out of its bucket */
	for (pp = &t->buckets[key_hash(e->key, e->key_len) & (t->nr_buckets - 1)]; *pp != e;
	     pp = &(*pp)->next)
		;
	*pp = e->next;
	t->nr--;
	into = table_get(t, key, len);
	if (!into)
		return -ENOMEM;
	if (!into->comm) {
		/* a new row: this one, renamed */
		char *k = into->key;
		struct entry *next = into->next;

		*into = *e;
		into->key = k;
		into->key_len = len;
		into->next = next;
		free(e->key);
		free(into->comm);
		into->comm = strdup(first);
		free(e);
		return into->comm ? 0 : -ENOMEM;
	}
	ret = entry_add(rp, into, e, false);
	entry_free(e);
	return ret;
}

static int settle_placeholders(struct report *rp, struct rd_session *s)
{
	int col = -1;

	for (int i = 0; i < rp->keys.nr; i++)
		if (rp->keys.keys[i] == SK_COMM)
			col = i;
	if (col < 0)
		return 0;
	for (uint32_t i = 0; i < rp->nr_tables; i++) {
		struct table *t = &rp->tables[i];
		struct placeholder_row *v;
		size_t n = 0;
		int ret = 0;

		if (!t->nr)
			continue;
		v = malloc(t->nr * sizeof(*v));
		if (!v)
			return -ENOMEM;
		/* collected first: settling moves rows between buckets */
		for (size_t b = 0; b < t->nr_buckets; b++)
			for (struct entry *e = t->buckets[b]; e; e = e->next) {
				const struct rd_thread *th;

				if (!e->comm_placeholder)
					continue;
				th = rd_thread_get(s, (uint32_t)-1, e->tid);
				if (th && th->comm_set)
					v[n++] = (struct placeholder_row){ e, th->first_comm };
			}
		/* re-keyed rows may merge and go: perf's input tree is replayed, not walked */
		if (n)
			t->in.stale = true;
		for (size_t j = 0; j < n && !ret; j++)
			ret = settle_placeholder(rp, t, col, v[j]);
		free(v);
		if (ret)
			return ret;
	}
	return 0;
}

/* -T: READ records, in time order; others have no part in the report */
static int on_record(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	struct report *rp = ctx;
	struct pc_error err;
	const struct pd_evsel *e;
	int ret;

	if (ev->rec->header.type != PERF_RECORD_READ || !s->r.nr_evsels)
		return 0;
	/* the evsel of its sample_id, or perf's first event without one */
	e = ev->sample && ev->sample->evsel ? ev->sample->evsel : &s->r.evsels[0];
	ret = rp_threads_read(rp->threads, s->r.path, ev->rec, e, &err);
	if (ret)
		fprintf(stderr, "%s\n", err.msg);
	return ret;
}

static int print_tables(struct report *rp, struct rd_session *s, struct rd_out *o,
			struct pc_error *err)
{
	uint32_t n = rp->nr_tables, shown = 0;
	struct groups gr = { rp, s, calloc(n ? n : 1, sizeof(int32_t)),
			     calloc(n ? n : 1, sizeof(uint32_t)), calloc(n ? n : 1, sizeof(char *)) };
	int ret = 0;

	if (!gr.leader_of || !gr.members || !gr.names) {
		ret = pc_error_set(err, ENOMEM, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < n; i++)
		gr.leader_of[i] = -1;
	if (s->r.features[PD_FEAT_GROUP_DESC].size)
		ret = pd_reader_groups(&s->r, note_group, &gr, err);
	/*
	 * perf's --group and --no-group (either, as perf 6.1 tests whether the
	 * option was given) make the events of a file without groups one
	 * group: viewed as one with --group, its leader's table "of events".
	 */
	if (!ret && rp->view.group >= 0 && n > 1 && n <= 9) {
		bool any = false;

		for (uint32_t i = 0; i < n; i++)
			any |= gr.leader_of[i] >= 0;
		if (!any) {
			for (uint32_t i = 0; i < n; i++)
				gr.leader_of[i] = 0;
			gr.members[0] = n;
			gr.forced = true;
		}
	}
	for (uint32_t i = 0; !ret && i < n; i++) {
		struct group_view g = { .nr = 0 };
		uint64_t samples = rp->tables[i].samples;
		bool view = gr.leader_of[i] == (int32_t)i && group_viewed(rp, &gr, i);

		if (gr.leader_of[i] >= 0 && gr.leader_of[i] != (int32_t)i &&
		    group_viewed(rp, &gr, (uint32_t)gr.leader_of[i]))
			continue;	/* shown in its leader's table */
		if (view) {
			g.nr = gr.members[i] - 1;
			for (uint32_t j = 0; j < g.nr; j++) {
				g.members[j] = &rp->tables[i + 1 + j];
				samples += g.members[j]->samples;
			}
			group_name(rp, &gr, i, &g);
			if (group_join(rp, &rp->tables[i], &g)) {
				ret = pc_error_set(err, ENOMEM, "out of memory");
				break;
			}
		}
		if (samples && print_table(rp, &rp->tables[i], o, !shown++, view ? &g : NULL,
					   gr.leader_of[i] == (int32_t)i && gr.members[i] > 1))
			ret = pc_error_set(err, ENOMEM, "perfcheck report: out of memory printing "
					   "the rows of %s", rp->tables[i].evsel &&
					   rp->tables[i].evsel->name ? rp->tables[i].evsel->name : "?");
	}
out:
	for (uint32_t i = 0; gr.names && i < n; i++)
		free(gr.names[i]);
	free(gr.leader_of);
	free(gr.members);
	free(gr.names);
	return ret;
}

static bool any_branch_stacks(const struct pd_reader *r)
{
	for (uint32_t i = 0; i < r->nr_evsels; i++)
		if (r->evsels[i].attr.attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
			return true;
	return false;
}

/*
 * Branch mode's keys: its default (perf's "comm,dso_from,symbol_from,
 * symbol_to,cycles") unless -s was given; a branch key outside it is not a
 * key (-1, said).  -b on a file without branch stacks ends the report as
 * perf's does, after its first lines (1).
 */
static int branch_mode_check(struct report *rp, struct rd_session *s, struct rd_out *o,
			     bool header, bool sort_given)
{
	char bad[64];

	if (!rp->view.branch) {
		if (!rp->keys.branch_keys)
			return 0;
		fprintf(stderr, "perfcheck report: the sort keys of branches (%s) need branch mode "
			"(-b, or a file recorded with -b or -j)\n", "dso_from,dso_to,symbol_from,symbol_to,cycles");
		return -1;
	}
	if (!s->r.pipe_format && !any_branch_stacks(&s->r)) {
		if (!header)
			rd_out_str(o, "# To display the perf.data header info, please use "
				      "--header/--header-only options.\n#\n");
		rd_out_flush(o);
		fprintf(stderr, "Error:\nSelected -b but no branch data. "
			"Did you call perf record without -b?\n");
		return 1;
	}
	if (!sort_given)
		sk_parse(&rp->keys, "comm,dso_from,symbol_from,symbol_to,cycles", bad, sizeof(bad));
	/* perf: no Children in branch mode */
	rp->children = 0;
	return 0;
}

/*
 * --hierarchy where it is not printed as perf does (report_hierarchy.c
 * says why; r: the open file, NULL before): said, 1
 */
static int hierarchy_refused(const struct report *rp, bool fields, const struct pd_reader *r)
{
	const struct rd_filter *f = rp->view.flt;
	struct rh_ask a = {
		.fields = fields,
		.filters = f->comms.nr || f->dsos.nr || rd_filter_has_syms(f) || f->nr_pids ||
			   f->nr_tids,
		.symbol_filter = rp->view.symbol_filter != NULL,
		.value_keys = rp->keys.period || rp->keys.samples || rp->keys.overhead_at != 0 ||
			      !rp->keys.nr,
		.compat_6_1 = rp->compat_6_1, .relative = rp->view.relative,
		.branch = r && rp->view.branch, .pipe = r && r->pipe_format,
		.chains_shown = r && any_chains(r) && rp->children,
	};
	const char *why = rh_refusal(&a);

	if (why)
		fprintf(stderr, "perfcheck report: %s\n", why);
	return why != NULL;
}

/* --time-quantum N[s|ms|us|ns] (no unit: ns), not 0: perf's rule */
static int parse_quantum(const char *arg, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t mul; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	char *end;
	unsigned long long v = strtoull(arg, &end, 0);

	if (end == arg || !v)
		return -1;
	while (*end == ' ')
		end++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*ns = v * units[i].mul;
			return 0;
		}
	return -1;
}

/* --tasks reads the samples for their threads alone */
static int no_sample(struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: perfcheck report [-i FILE] [--stdio] [--children|--no-children] [-s KEYS]\n"
"                        [-g MODE] [-n] [--percent-limit P] [--header|--header-only]\n"
"                        [SYMBOL-FILTER]\n"
"\n"
"Per-symbol overhead of a perf.data file, like perf report --stdio.\n"
"\n"
"  -i, --input FILE        the file to read (default perf.data; - for stdin)\n"
"      --stdio             text output (the only kind)\n"
"      --children          add a Children column: each callchain entry's share\n"
"                          (the default when samples have callchains)\n"
"      --no-children       only the samples' own ips\n"
"      --latency           each share's Latency first and the rows by it (a file\n"
"                          recorded with switch events: perf record --latency)\n"
"      --parallelism LIST  only the samples taken while so many threads ran (1-4,8)\n"
"  -s, --sort KEYS         group by %s\n"
"                          (default comm,dso,sym)\n"
"  -F, --fields FIELDS     the columns: keys of -s and overhead,\n"
"                          overhead_children, sample, period, latency,\n"
"                          latency_children, in their order;\n"
"                          rows sorted by -s, then by the fields -s lacks\n"
"  -g, --call-graph MODE   graph|fractal|flat|folded|none[,MIN%%][,caller|callee]\n"
"                          [,function][,percent|period|count] (the branches' values)\n"
"                          (default graph,0.5: caller with children, else callee)\n"
"  -G, --inverted          caller order (as -g caller)\n"
"  -n, --show-nr-samples   a Samples column\n"
"      --percent-limit P   hide rows (and call-graph branches) below P%%\n"
"      --percentage MODE   of all samples (absolute, the default) or of the rows\n"
"                          the filters below leave (relative)\n"
"      --max-stack N       frames of a callchain taken (default 127)\n"
"      --no-inline         callchains without their inlined entries\n"
"      --inline            with them (the default)\n"
"      --full-source-path  srclines name their source files by the whole path\n"
"      --no-demangle       C++ names as the objects have them (--demangle: not)\n"
"      --time-quantum T    -s time's slices (default 100ms; s, ms, us, ns)\n"
"      --show-total-period the Period column (as -s period)\n"
"      --hierarchy         a level per sort key, indented, each level's rows the\n"
"                          sums of those below, sorted within their parent; no\n"
"                          Children (as perf); not with -F\n"
"  -U, --hide-unresolved   leave out samples and callchain frames of no known symbol\n"
"      --tasks             the threads as a tree of parents and children, alone\n"
"      --mmaps             the same with each thread's maps\n"
"  -f, --force             accepted as perf's (no ownership check to skip)\n"
"      --stats             only the records by type and each event's samples\n"
"  -T, --threads           also the per-thread counts of READ records (record -s)\n"
"  -b, --branch-stack      rows of the samples' branches (source, target), each\n"
"                          counted once; the default for files recorded with -b/-j\n"
"      --no-branch-stack   rows of the samples of such a file\n"
"                          (perf's aggregated stats)\n"
"  -C, --cpu LIST          only samples of these cpus (0-3,5)\n"
"      --time RANGE        only samples in START,END (seconds) or percent slices\n"
"                          (10%%/2, 0%%-10%%,50%%-60%%), as perf script's\n"
"  -c, --comms LIST        only the rows of these commands,\n"
"      --pid LIST          of these processes,\n"
"      --tid LIST          of these threads,\n"
"  -d, --dsos LIST         of samples in these objects,\n"
"  -S, --symbols LIST      of samples in these symbols; the rest still counts in\n"
"                          the percentages (see --percentage); a key filtered to\n"
"                          one value loses its column\n"
"  -p, --parent REGEX      a sample's parent: the first entry of its chain (in\n"
"                          the report's order) whose symbol REGEX matches\n"
"                          (default ^sys_|^do_page_fault); adds -s parent\n"
"  -x, --exclude-other     hide the rows of samples without a parent\n"
"      --ignore-callees REGEX  a callchain's entries before the last one (in the\n"
"                          report's order) whose symbol REGEX matches are left\n"
"                          out, that entry taken for the sample's own, as perf\n"
"      --symbol-filter TEXT  hide the first event's rows whose symbol does not\n"
"                          hold TEXT, where the keys collapse as perf's (comm;\n"
"                          srcline, srcfile but --compat 6.1); the one argument\n"
"                          left after the options is taken for TEXT, as perf\n"
"  -I, --show-info         the header's topology in full (with --header)\n"
"      --group             an event group's members as columns of its leader's\n"
"                          rows (the default for groups); all events as one group\n"
"                          when the file has none\n"
"      --no-group          each event on its own\n"
"      --header            the file's header (perf's layout) before the report\n"
"      --header-only       only the header\n"
"      --compat VERSION    6.1: unresolved callchain frames at their sampled\n"
"                          address, as the perf of Debian 12 (default 7.2)\n"
"      --kallsyms FILE     the kernel's symbols from FILE (a copy of a machine's\n"
"                          /proc/kallsyms), wherever recorded\n"
"      --symfs DIR         look DSOs up under DIR, never in this machine's files,\n"
"                          and leave kernel addresses unresolved\n"
"  -q, --quiet             the rows alone: no titles, no warnings\n"
"  -t, --field-separator S columns apart by S (its first character in a name\n"
"                          becomes '.'), no line of dots\n"
"  -v, --verbose           more diagnostics\n"
"  -h, --help              this help\n", sk_names());
}

enum { OPT_STDIO = 256, OPT_CHILDREN, OPT_NO_CHILDREN, OPT_SYMFS, OPT_KALLSYMS, OPT_PLIMIT, OPT_PERCENTAGE,
       OPT_HEADER, OPT_HEADER_ONLY, OPT_COMPAT, OPT_MAX_STACK, OPT_GROUP, OPT_NO_GROUP,
       OPT_PID, OPT_TID, OPT_TIME, OPT_INLINE, OPT_NO_INLINE, OPT_STATS, OPT_NO_BRANCH,
       OPT_DEMANGLE, OPT_NO_DEMANGLE, OPT_TIME_QUANTUM, OPT_TOTAL_PERIOD, OPT_TASKS,
       OPT_MMAPS, OPT_HIERARCHY, OPT_FULL_SOURCE_PATH, OPT_LATENCY, OPT_PARALLELISM,
       OPT_SYMBOL_FILTER, OPT_IGNORE_CALLEES };

/* perf's parent pattern unless -p gives one */
static const char default_parent[] = "^sys_|^do_page_fault";

static const struct option options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "children", no_argument, NULL, OPT_CHILDREN },
	{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
	{ "latency", no_argument, NULL, OPT_LATENCY },
	{ "parallelism", required_argument, NULL, OPT_PARALLELISM },
	{ "sort", required_argument, NULL, 's' },
	{ "fields", required_argument, NULL, 'F' },
	{ "call-graph", optional_argument, NULL, 'g' },
	{ "inverted", no_argument, NULL, 'G' },
	{ "show-nr-samples", no_argument, NULL, 'n' },
	{ "percent-limit", required_argument, NULL, OPT_PLIMIT },
	{ "percentage", required_argument, NULL, OPT_PERCENTAGE },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "header", no_argument, NULL, OPT_HEADER },
	{ "group", no_argument, NULL, OPT_GROUP },
	{ "cpu", required_argument, NULL, 'C' },
	{ "comms", required_argument, NULL, 'c' },
	{ "dsos", required_argument, NULL, 'd' },
	{ "symbols", required_argument, NULL, 'S' },
	{ "symbol-filter", required_argument, NULL, OPT_SYMBOL_FILTER },
	{ "ignore-callees", required_argument, NULL, OPT_IGNORE_CALLEES },
	{ "parent", required_argument, NULL, 'p' },
	{ "exclude-other", no_argument, NULL, 'x' },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "inline", no_argument, NULL, OPT_INLINE },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "branch-stack", no_argument, NULL, 'b' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "field-separator", required_argument, NULL, 't' },
	{ "no-branch-stack", no_argument, NULL, OPT_NO_BRANCH },
	{ "threads", no_argument, NULL, 'T' },
	{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
	{ "full-source-path", no_argument, NULL, OPT_FULL_SOURCE_PATH },
	{ "demangle", no_argument, NULL, OPT_DEMANGLE },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "time-quantum", required_argument, NULL, OPT_TIME_QUANTUM },
	{ "show-total-period", no_argument, NULL, OPT_TOTAL_PERIOD },
	{ "hide-unresolved", no_argument, NULL, 'U' },
	{ "tasks", no_argument, NULL, OPT_TASKS },
	{ "mmaps", no_argument, NULL, OPT_MMAPS },
	{ "hierarchy", no_argument, NULL, OPT_HIERARCHY },
	{ "force", no_argument, NULL, 'f' },
	{ "show-info", no_argument, NULL, 'I' },
	{ "no-group", no_argument, NULL, OPT_NO_GROUP },
	{ "header-only", no_argument, NULL, OPT_HEADER_ONLY },
	{ "compat", required_argument, NULL, OPT_COMPAT },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void free_tables(struct report *rp)
{
	for (uint32_t i = 0; i < rp->nr_tables; i++) {
		struct table *t = &rp->tables[i];

		for (size_t b = 0; b < t->nr_buckets; b++) {
			struct entry *e = t->buckets[b], *n;

			for (; e; e = n) {
				n = e->next;
				entry_free(e);
			}
		}
		for (size_t j = 0; j < t->in.nr_twins; j++)
			entry_free(t->in.twins[j]);
		hist_input_free(&t->in);
		free(t->buckets);
	}
	free(rp->tables);
	free(rp->cache.ecache);
	free(rp->cache.memo);
	free(rp->cache.fcache);
	rd_trace_free(&rp->trace.fmt);
	if (rp->threads)
		rp_threads_free(rp->threads);
	free(rp->threads);
	cg_forest_free(&rp->forest);
	pc_srcline_free(rp->src);
	rd_isyms_free(&rp->isyms);
}

int cmd_report(int argc, char **argv)
{
	struct report rp = { .lat.count = RD_LATENCY_INIT, .children = -1, .max_stack = MAX_STACK,
			     .view.group = -1,
			     .view.quantum = 100000000ULL,	/* perf's: 100 ms */
			     .cg = { .mode = CG_GRAPH, .min_percent = 0.5 } };
	struct pc_error err = { 0 };
	const char *input = "perf.data", *symfs = NULL, *kallsyms = NULL;
	char bad[64], *end;
	bool header = false, header_only = false, g_given = false, show_info = false;
	bool stats = false, sort_given = false;
	const char *fields_spec = NULL, *sort_spec = NULL;
	struct rf_list fields, sort_fields, columns;
	int branch = -1;	/* -b 1, --no-branch-stack 0, else -1: when the file has branch stacks */
	bool mangled = false;	/* --no-demangle */
	bool total_period = false;	/* --show-total-period */
	int tasks = 0;			/* --tasks 1, --mmaps 2 */
	bool bad_keys = false;
	int status = 0;	/* perf's own exit status for a refusal, else 0 */
	const char *lat_asked;	/* what asks for latency or parallelism, or NULL */
	struct rd_pipe_header ph;
	struct rd_filter flt = { .nr_cpus = 0 };
	regex_t ignore_callees;		/* --ignore-callees, compiled */
	bool ignore_callees_set = false;
	const char *parent_pattern = default_parent;	/* -p */
	regex_t parent_re;
	bool parent_set = false;
	struct rd_session *s;
	struct rd_out out;
	int c, ret;

	sk_parse(&rp.keys, "comm,dso,sym", bad, sizeof(bad));
	optind = 1;
	rp.view.flt = &flt;
	while ((c = getopt_long(argc, argv, "i:s:F:g::GnvhC:Ic:d:S:fTbqt:Up:x", options, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case OPT_STDIO:
			break;
		case OPT_CHILDREN:
			rp.children = 1;
			break;
		case OPT_NO_CHILDREN:
			rp.children = 0;
			break;
		case OPT_LATENCY:
			rp.lat.prefer = true;
			break;
		case OPT_PARALLELISM:
			if (rd_filter_numbers(rp.lat.levels, &rp.lat.nr_levels, optarg, true) ||
			    !parallelism_levels_ok(rp.lat.levels, rp.lat.nr_levels)) {
				fprintf(stderr, "perfcheck report: bad --parallelism list '%s'\n",
					optarg);
				goto bad_filter;
			}
			break;
		case 'F':
			fields_spec = optarg;
			break;
		case 's':
			sort_given = true;
			sort_spec = optarg;
			rp.sort_sym_first = !strncmp(optarg, "sym", 3);
			/* "overhead" (or period, sample) alone: one row of every sample, as perf */
			if (sk_parse(&rp.keys, optarg, bad, sizeof(bad)) ||
			    (!rp.keys.nr && !strstr(optarg, "overhead") && !rp.keys.period &&
			     !rp.keys.samples)) {
				fprintf(stderr, "perfcheck report: unknown sort key '%s' (known: %s)\n",
					bad, sk_names());
				goto bad_filter;
			}
			break;
		case 'g': {
			/* as perf: the argument may follow apart; -g alone is "graph" */
			const char *arg = optarg;

			if (!arg && optind < argc && argv[optind][0] != '-')
				arg = argv[optind++];
			g_given = true;
			if (cg_parse(&rp.cg, arg ? arg : "graph")) {
				fprintf(stderr, "perfcheck report: bad --call-graph '%s'\n", arg);
				goto bad_filter;
			}
			break;
		}
		case 'G':
			rp.cg.order = CG_CALLER;
			rp.cg.order_set = true;
			break;
		case 'n':
			rp.view.show_nr = true;
			break;
		case OPT_PLIMIT:
			rp.view.percent_limit = strtod(optarg, &end);
			if (end == optarg || (*end && strcmp(end, "%")) || rp.view.percent_limit < 0) {
				fprintf(stderr, "perfcheck report: bad --percent-limit '%s'\n", optarg);
				goto bad_filter;
			}
			break;
		case OPT_PERCENTAGE:
			if (strcmp(optarg, "relative") && strcmp(optarg, "absolute")) {
				fprintf(stderr, "perfcheck report: --percentage takes relative or absolute\n");
				goto bad_filter;
			}
			rp.view.relative = !strcmp(optarg, "relative");
			break;
		case OPT_MAX_STACK:
			rp.max_stack = (int)strtol(optarg, &end, 10);
			if (end == optarg || *end || rp.max_stack < 0 || rp.max_stack > MAX_STACK) {
				fprintf(stderr, "perfcheck report: --max-stack takes 0..%d\n", MAX_STACK);
				goto bad_filter;
			}
			break;
		case OPT_HEADER:
			header = true;
			break;
		case 'I':
			show_info = true;
			break;
		case 'C':
			if (rd_filter_numbers(flt.cpus, &flt.nr_cpus, optarg, true)) {
				fprintf(stderr, "perfcheck report: bad --cpu list '%s'\n", optarg);
				goto bad_filter;
			}
			break;
		case 'c':
		case 'd':
		case 'S':
			if (c == 'S' ? rd_filter_symbols(&flt, optarg) :
			    rd_filter_list(c == 'c' ? &flt.comms : &flt.dsos, optarg))
				goto bad_filter;
			break;
		case OPT_PID:
		case OPT_TID:
			if (rd_filter_numbers(c == OPT_PID ? flt.pids : flt.tids,
					      c == OPT_PID ? &flt.nr_pids : &flt.nr_tids, optarg, false)) {
				fprintf(stderr, "perfcheck report: bad --%s list '%s'\n",
					c == OPT_PID ? "pid" : "tid", optarg);
				goto bad_filter;
			}
			break;
		case OPT_TIME:
			if (rd_filter_time(&flt, optarg)) {
				fprintf(stderr, "perfcheck report: bad --time '%s'\n", optarg);
				goto bad_filter;
			}
			rp.view.time_str = optarg;
			break;
		case OPT_GROUP:
			rp.view.group = 1;
			break;
		case OPT_INLINE:
		case OPT_NO_INLINE:
			rp.view.no_inline = c == OPT_NO_INLINE;
			break;
		case OPT_FULL_SOURCE_PATH:
			rp.view.full_source_path = true;
			break;
		case OPT_DEMANGLE:
		case OPT_NO_DEMANGLE:
			mangled = c == OPT_NO_DEMANGLE;
			break;
		case OPT_TOTAL_PERIOD:
			total_period = true;
			break;
		case OPT_HIERARCHY:
			rp.view.hierarchy = true;
			break;
		case OPT_SYMBOL_FILTER:
			rp.view.symbol_filter = optarg;
			break;
		case 'p':
			parent_pattern = optarg;
			break;
		case 'x':
			rp.match.exclude_other = true;
			break;
		case OPT_IGNORE_CALLEES:
			if (ignore_callees_set) {
				regfree(&ignore_callees);
				ignore_callees_set = false;
			}
			c = regcomp(&ignore_callees, optarg, REG_EXTENDED);
			if (c) {
				char why[128];

				regerror(c, &ignore_callees, why, sizeof(why));
				fprintf(stderr, "perfcheck report: --ignore-callees '%s': %s\n",
					optarg, why);
				goto bad_filter;
			}
			ignore_callees_set = true;
			rp.match.ignore_callees = &ignore_callees;
			break;
		case 'U':
			rp.view.hide_unresolved = true;
			break;
		case OPT_TASKS:
		case OPT_MMAPS:
			tasks = c == OPT_MMAPS ? 2 : tasks ? tasks : 1;
			break;
		case OPT_TIME_QUANTUM:
			if (parse_quantum(optarg, &rp.view.quantum)) {
				fprintf(stderr, "Cannot parse time quantum `%s'\n", optarg);
				goto bad_filter;
			}
			break;
		case 'f':
			/* perf's check that the file is the user's: none here to force */
			break;
		case OPT_STATS:
			stats = true;
			break;
		case 't':
			if (!*optarg) {
				fprintf(stderr, "perfcheck report: -t takes a separator\n");
				goto bad_filter;
			}
			rp.view.sep = optarg;
			break;
		case 'q':
			rp.view.quiet = true;
			pc_verbose = -1;
			break;
		case 'b':
		case OPT_NO_BRANCH:
			branch = c == 'b';
			break;
		case 'T':
			if (!rp.threads && !(rp.threads = calloc(1, sizeof(*rp.threads)))) {
				fprintf(stderr, "perfcheck report: out of memory\n");
				return 2;
			}
			break;
		case OPT_NO_GROUP:
			rp.view.group = 0;
			break;
		case OPT_HEADER_ONLY:
			header_only = true;
			break;
		case OPT_COMPAT:
			if (strcmp(optarg, "6.1") && strcmp(optarg, "7.2")) {
				fprintf(stderr, "perfcheck report: --compat takes 6.1 or 7.2\n");
				goto bad_filter;
			}
			rp.compat_6_1 = !strcmp(optarg, "6.1");
			break;
		case OPT_SYMFS:
			symfs = optarg;
			break;
		case OPT_KALLSYMS:
			kallsyms = optarg;
			break;
		case 'v':
			pc_verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			goto bad_filter;
		}
	}
	/* as perf: one argument left is the symbol filter */
	if (optind + 1 < argc) {
		fprintf(stderr, "perfcheck report: unexpected argument '%s'\n", argv[optind + 1]);
		goto bad_filter;
	}
	if (optind < argc)
		rp.view.symbol_filter = argv[optind];

	if (parent_pattern != default_parent && fields_spec) {
		fprintf(stderr, "perfcheck report: -p with -F is not supported\n");
		goto bad_filter;
	}
	/* perf compiles the parent's expression whether or not it sorts by it */
	c = regcomp(&parent_re, parent_pattern, REG_EXTENDED);
	if (c) {
		char why[128];

		regerror(c, &parent_re, why, sizeof(why));
		/* perf's words (it then exits 0; this, as for any bad option, 1) */
		fprintf(stderr, "Invalid regex: %s\n%s\n", parent_pattern, why);
		goto bad_filter;
	}
	parent_set = true;
	rp.match.parent = &parent_re;
	/* under --compat 6.1 each is unknown, as to perf 6.1 */
	lat_asked = latency_asked(&rp, fields_spec, sort_spec);
	if (rp.compat_6_1 && lat_asked) {
		fprintf(stderr, "perfcheck report: unknown %s (perf 6.15's, not --compat 6.1's)\n",
			lat_asked);
		goto bad_filter;
	}
	/* the Period column, whatever -s says */
	rp.view.show_period = total_period;
	if (rp.view.hierarchy && hierarchy_refused(&rp, fields_spec, NULL))
		goto bad_filter;
	/*
	 * -F: its columns, and the rows sorted by -s and then by the fields -s
	 * lacks (perf's -n and --show-total-period add none then)
	 */
	if (fields_spec) {
		int sort_keys = 0;	/* the keys -s names */

		if (rf_parse(&fields, fields_spec, bad, sizeof(bad)) ||
		    (sort_spec && rf_parse(&sort_fields, sort_spec, bad, sizeof(bad)))) {
			fprintf(stderr, "perfcheck report: unknown field '%s' (known: overhead, "
				"overhead_children, sample, period, latency, latency_children, %s)\n",
				bad, sk_names());
			goto bad_filter;
		}
		for (int i = 0; sort_spec && i < sort_fields.nr; i++)
			sort_keys += sort_fields.col[i].kind == RF_KEY;
		if (rf_merge(&fields, sort_spec ? &sort_fields : NULL, &sort_fields, &columns)) {
			fprintf(stderr, "perfcheck report: -F and -s name more than %d keys\n",
				SK_MAX_KEYS);
			goto bad_filter;
		}
		rf_sort_keys(&sort_fields, &rp.keys);
		/* -s's keys come first; perf 6.1 collapses by none of those -F adds */
		for (int k = sort_keys; rp.compat_6_1 && k < rp.keys.nr; k++)
			rp.keys.fields_only |= (uint8_t)(1u << k);
		rp.view.fields = &columns;
		rp.view.show_nr = rp.view.show_period = false;
		/* perf leaves a graph's first entry out under -s sym only without -F */
		rp.sort_sym_first = false;
	}
	/* perf's words and status for a --kallsyms it cannot read */
	if (kallsyms && access(kallsyms, R_OK)) {
		fprintf(stderr, "Invalid file: %s\n", kallsyms);
		if (ignore_callees_set)
			regfree(&ignore_callees);
		if (parent_set)
			regfree(&parent_re);
		rd_filter_free(&flt);
		return 255;
	}
	s = calloc(1, sizeof(*s));
	if (!s || rd_out_init(&out, STDOUT_FILENO)) {
		fprintf(stderr, "perfcheck report: out of memory\n");
		free(s);
		return 1;
	}
	ret = rd_session_open(s, input, &err);
	/* perf 6.3 renamed PLT entries: --compat 6.1 keeps 6.1's names */
	s->dsos.names_6_1 = rp.compat_6_1;
	s->dsos.mangled = mangled;
	s->rules.zero_unreadable = true;	/* as script: Debian's perf 6.1 and 7.2 alike */
	s->rules.libunwind_ends = rp.compat_6_1;
	s->rules.lbr_first_target = rp.compat_6_1;
	s->rules.sread_per_thread = !rp.compat_6_1;
	if (!ret)
		rd_session_use_files(s, symfs, kallsyms);
	if (!ret)
		rp.pipe = s->r.pipe_format;
	if (!ret && stats) {
		ret = rd_report_stats(s, &out, !rp.compat_6_1, &err);
		if (ret)
			fprintf(stderr, "%s\n", err.msg[0] ? err.msg : strerror(-ret));
		goto done;
	}
	/* --tasks: the threads' tree alone, after every record was read */
	if (!ret && tasks) {
		s->ops.sample = no_sample;
		ret = rd_session_process(s, &err);
		if (!ret)
			ret = rp_tasks_print(s, &out, !rp.compat_6_1, tasks > 1);
		if (ret)
			fprintf(stderr, "%s\n", err.msg[0] ? err.msg : strerror(-ret));
		goto done;
	}
	/* as perf: -g (not "none") on a file whose events have no callchain ends the report */
	if (!ret && !header_only && !s->r.pipe_format && g_given && rp.cg.mode != CG_NONE &&
	    !any_chains(&s->r)) {
		if (!header)
			rd_out_str(&out, "# To display the perf.data header info, please use "
					 "--header/--header-only options.\n#\n");
		rd_out_flush(&out);
		fprintf(stderr, "Error:\nSelected -g or --branch-history.\n"
			"But no callchain or branch data.\n"
			"Did you call 'perf record' without -g or -b?\n");
		goto done;
	}
	/*
	 * perf's branch mode: asked with -b, or by default for a file whose
	 * header says it has branch stacks; its default keys are the branches'
	 */
	if (!ret && !header_only) {
		rp.view.branch = branch == 1 ||
				 (branch == -1 && pd_reader_has_feature(&s->r, PD_FEAT_BRANCH_STACK));
		ret = branch_mode_check(&rp, s, &out, header, sort_given);
		/* refused as perf refuses it (exit 0), or keys this mode lacks (exit 1) */
		if (ret) {
			bad_keys = ret < 0;
			ret = 0;
			goto done;
		}
	}
	/*
	 * perf 6.15+: --latency needs the switch records of perf record
	 * --latency, looked for before the events are read: never in a pipe
	 */
	if (!ret && !header_only && lat_asked &&
	    (s->r.pipe_format || !rd_latency_in(&s->r))) {
		rd_out_flush(&out);
		fprintf(stderr, "Error:\nUse of latency profile or parallelism requires --latency "
				"flag during record.\n");
		status = 255;
		goto done;
	}
	if (!ret && !header_only && rp.view.hierarchy && hierarchy_refused(&rp, false, &s->r)) {
		bad_keys = true;
		goto done;
	}
	/* as perf: --children on a file without callchains is silently ignored */
	if (!ret && !s->r.pipe_format && rp.children > 0 && !any_chains(&s->r))
		rp.children = 0;
	/* as perf: -C the input cannot take ends the report after its first line, exit 0 */
	if (!ret && !header_only && rd_filter_cpus_usable(&flt, &s->r)) {
		if (!header)
			rd_out_str(&out, "# To display the perf.data header info, please use "
					 "--header/--header-only options.\n#\n");
		rd_out_flush(&out);
		fprintf(stderr, "Error:\nfailed to set cpu bitmap\n");
		goto done;
	}
	if (!ret && (header || header_only)) {
		unsigned int header_how = (show_info ? RD_HDR_FULL : 0) |
					  (rp.compat_6_1 ? 0 : RD_HDR_7_2);

		ret = rd_perf_header(s, &out, header_how, &err);
		rd_perf_header_pipe(s, &out, header_how, &ph);
	}
	/* perf reads a pipe whole for its features, and shows only them */
	if (!ret && header_only && s->r.pipe_format)
		ret = rd_session_process(s, &err);
	if (!ret && !header_only && flt.has_percent)
		ret = rd_filter_time_span(&flt, &s->r, &err);
	if (!ret && !header_only) {
		s->merge = true;
		/* perf's default for files of tracepoints alone: a row per trace text */
		if (!sort_given && all_tracepoints(&s->r))
			sk_parse(&rp.keys, "trace", bad, sizeof(bad));
		/* perf sorts by the parent last when -p names one */
		if (parent_pattern != default_parent && !sorts_by(&rp, SK_PARENT) &&
		    rp.keys.nr < SK_MAX_KEYS)
			rp.keys.keys[rp.keys.nr++] = SK_PARENT;
		rp.match.parent_key = sorts_by(&rp, SK_PARENT);
		rp.trace.on = sorts_by(&rp, SK_TRACE);
		rp.keys.lines_by_address = !rp.compat_6_1;
		rp.view.cgroups = sorts_by(&rp, SK_CGROUP);
		if (!sorts_by(&rp, SK_TIME))
			rp.view.quantum = 0;
		/* rows of one address differ by their text, cgroup, time or parallelism: no row caches then */
		rp.lat.parallelism_key = sorts_by(&rp, SK_PARALLELISM);
		rp.keys.filtered_first = !rp.compat_6_1;
		if (rp.view.symbol_filter)
			rp.keys.filtered_late = ENTRY_HIDDEN_SYMBOL_FILTER;
		if (!rp.trace.on && !rp.view.cgroups && !rp.view.quantum && !rp.lat.parallelism_key &&
		    !sorts_by(&rp, SK_TRANSACTION) && !sorts_by(&rp, SK_PARENT)) {
			rp.cache.ecache = calloc(1u << ECACHE_BITS, sizeof(*rp.cache.ecache));
			rp.cache.memo = calloc(MEMO_SLOTS, sizeof(*rp.cache.memo));
		}
		rp.cache.fcache = calloc(1u << FCACHE_BITS, sizeof(*rp.cache.fcache));
		s->ops.sample = on_sample;
		s->ops.other = on_other;
		if (rp.threads)
			s->ops.record = on_record;
		s->ops.ctx = &rp;
		ret = rd_session_process(s, &err);
		if (!ret)
			rd_session_warn(s, true, stderr);
		/*
		 * perf adds them where -s names neither overhead nor latency and
		 * -F is not given, to a file (a pipe's events come too late for
		 * it), and shows them where 1% of the samples or more
		 * ran beside another thread, or where asked
		 */
		rp.lat.keys = !rp.compat_6_1 && !rp.view.fields && !s->r.pipe_format &&
				  (rp.lat.prefer || !rp.keys.overhead_named) &&
				  rd_latency_in(&s->r);
		rp.lat.cols = rp.lat.keys &&
				  (rp.lat.prefer ||
				   (rp.lat.samples && rp.lat.alone * 100 / rp.lat.samples < 99));
		if (ret && !err.msg[0] && rp.trace.fmt.err.msg[0])
			err = rp.trace.fmt.err;
	}
	if (!ret && !header_only) {
		uint64_t samples = 0;

		for (uint32_t i = 0; i < rp.nr_tables; i++)
			samples += rp.tables[i].samples;
		if (!header && !rp.view.quiet)
			rd_out_str(&out, "# To display the perf.data header info, please use "
					 "--header/--header-only options.\n#\n");
		/* as perf: the lines above, then this on stderr, exit 0 */
		if (!samples) {
			rd_out_flush(&out);
			fprintf(stderr, "Error:\nThe %s data has no samples!\n", input);
			goto done;
		}
		if (!rp.view.quiet) {
			elided_lines(&rp, &out);
			rd_out_printf(&out, "#\n# Total Lost Samples: %llu\n",
				      (unsigned long long)s->in.lost_samples);
		}
		ret = settle_placeholders(&rp, s);
		apply_symbol_filter(&rp);
		if (!ret)
			ret = merge_twins(&rp);
		if (!ret)
			ret = cg_forest_finish(&rp.forest);
		if (!ret)
			ret = print_tables(&rp, s, &out, &err);
		/* -T: after the tables (and where perf prints its tip) */
		if (!ret && rp.threads)
			rp_threads_print(rp.threads, &out);
		if (ret)
			fprintf(stderr, "%s\n", err.msg[0] ? err.msg : strerror(-ret));
	} else if (ret) {
		fprintf(stderr, "%s\n", err.msg[0] ? err.msg : strerror(-ret));
	}
done:
	if (ignore_callees_set)
		regfree(&ignore_callees);
	if (parent_set)
		regfree(&parent_re);
	rd_filter_free(&flt);
	rd_out_flush(&out);
	free_tables(&rp);
	rd_session_close(s);
	free(s);
	rd_out_free(&out);
	return status ? status : bad_keys ? 1 : ret ? 2 : 0;
bad_filter:
	if (ignore_callees_set)
		regfree(&ignore_callees);
	if (parent_set)
		regfree(&parent_re);
	rd_filter_free(&flt);
	return 1;
}
