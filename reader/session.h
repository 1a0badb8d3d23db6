/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader's session: the stages of reading wired together,
 *
 *   input (records, each with its time) -> order (time, rounds)
 *     -> parse (each record parsed once) -> defer (deferred callchains
 *     merged) -> machine (threads, maps) -> the consumer's callbacks
 *     (struct rd_ops)
 *
 * each stage its own struct and file (input.h, order.h, parse.h,
 * deferred.h, machine.h).  Memory stays bounded: the time-order queue, the held
 * samples per thread and in all are capped; what overflows is released in
 * order.
 */
#ifndef PERFCHECK_READER_SESSION_H
#define PERFCHECK_READER_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "perfdata/perfdata.h"
#include "reader/deferred.h"
#include "reader/expand.h"
#include "reader/input.h"
#include "reader/machine.h"
#include "reader/order.h"
#include "reader/parse.h"
#include "reader/sample_read.h"
#include "symbols/symbols.h"
#include "util/error.h"

/* A sample as handed to the consumer. */
struct rd_event {
	const struct pd_record *rec;
	const struct pd_sample *sample;
	struct rd_thread *thread;
	/* the callchain to show: base[0..base_nr) then extra[0..extra_nr) */
	const uint64_t *base;
	uint64_t base_nr;
	const uint64_t *extra;
	uint64_t extra_nr;
	bool merged;
	bool late;
	bool unanswered;	/* a cookie whose deferred record never came */
	bool unwound;		/* extra: user frames unwound from DWARF (perf adds inlines) */
	/* CALLCHAIN_DEFERRED records (shown with --no-merge-callchains) */
	const struct pd_deferred *deferred;
};

/*
 * Is ips[i] of a chain's part (0 base, 1 extra) a context marker?  In an
 * unwound part only the first entry is (PC_CONTEXT_USER): the frames after
 * it are addresses, perf 6.1's (u64)-1 end frame included.
 */
static inline bool rd_chain_context(const struct rd_event *ev, int part, uint64_t i, uint64_t ip)
{
	return pc_is_context(ip) && !(part && ev->unwound && i);
}

struct rd_session;

struct rd_ops {
	int (*sample)(struct rd_session *s, const struct rd_event *ev, void *ctx);
	int (*deferred)(struct rd_session *s, const struct rd_event *ev, void *ctx);
	/*
	 * Records other than samples and deferred callchains (MMAP, COMM,
	 * LOST_SAMPLES, ...), in time order, before the machine applies them:
	 * ev->rec, ev->sample (their sample_id, or NULL when none); no thread.
	 */
	int (*other)(struct rd_session *s, const struct rd_event *ev, void *ctx);
	/*
	 * Every record other than samples and deferred callchains (kernel
	 * types only), in time order, after the machine applied it (perf
	 * script's show-events order): ev->rec, ev->sample as for other.
	 */
	int (*record)(struct rd_session *s, const struct rd_event *ev, void *ctx);
	void *ctx;
};

struct rd_stats {
	uint64_t records, samples, deferred_records;
	uint64_t merged, merged_late, unmerged, forced;
	uint64_t unordered;
	uint64_t not_interpreted;	/* records of a type the reader cannot read */
};

struct rd_session {
	struct pd_reader r;
	bool opened;
	/* set by the consumer between open and process */
	struct rd_ops ops;
	bool merge;		/* hold deferred samples and merge (default) */
	bool merge_late;	/* also merge samples taken after their record */
	bool kernel_local;	/* the file was recorded on this kernel */
	bool local_pending;	/* a pipe whose features have not come yet */
	/* how the chains come out, per perf version */
	struct rd_chain_rules {
		bool leaf_lr;		/* perf 6.1's arm64 leaf caller (rd_unwind_set_leaf_lr) */
		bool zero_unreadable;	/* perf's unwinder memory (rd_unwind_set_zero_unreadable) */
		bool libunwind_ends;	/* perf 6.1's libunwind's ends (pc_unwinder_set_libunwind_ends) */
		bool lbr_first_target;	/* perf 6.1: an LBR chain's user part starts at its
					 * first branch's target, 7.2 at the sample's ip */
		bool sread_per_thread;	/* perf 6.12+: an inherited event's SAMPLE_READ
					 * values per thread (rd_sread) */
	} rules;
	struct pc_dso_cache dsos;
	const char *kallsyms;		/* --kallsyms FILE: the kernel's symbols from it */
	/* where files are looked for */
	struct rd_session_paths {
		char buildid_dir[512];
		char debug_dir[4096];		/* --symfs DIR's usr/lib/debug */
		char kcore_kallsyms[4096];	/* a perf.data directory's kcore_dir/kallsyms */
	} paths;
	struct rd_stats stats;
	/* the stages */
	struct rd_input in;
	struct rd_expand_zstd expand;	/* perf record -z payloads */
	struct rd_order order;
	struct rd_parse parse;
	struct rd_defer defer;
	struct rd_machine machine;
	struct rd_sread sread;		/* PERF_SAMPLE_READ: last value per id */
};

int rd_session_open(struct rd_session *s, const char *path, struct pc_error *err);
/* Processes every record: ordering, state, merge, then ops callbacks. */
int rd_session_process(struct rd_session *s, struct pc_error *err);
void rd_session_close(struct rd_session *s);
/*
 * After process: perf's warnings at the end of a session, to f, as perf
 * script and report print them: LOST records ("chunks" of the ring buffer;
 * not when the tool shows each, chunks false), LOST_SAMPLES above 5% of
 * the samples, and records that came after later ones had gone out (none
 * when an event was written backward).
 */
void rd_session_warn(const struct rd_session *s, bool chunks, FILE *f);
/*
 * After open: --symfs DIR (DSOs looked up under DIR, nothing of this
 * machine's files used: a replay reads the same anywhere) and --kallsyms
 * FILE (the kernel's symbols from it, wherever recorded); NULL for none.
 */
void rd_session_use_files(struct rd_session *s, const char *symfs, const char *kallsyms);
/*
 * Records to the consumer in file order, not time order, FINISHED_ROUND
 * among them (perf's ordered_events off); after rd_session_open
 */
void rd_session_unordered(struct rd_session *s);

/* Resolves one ip of thread t; kernel selects the kernel maps. */
void rd_resolve(struct rd_session *s, struct rd_thread *t, bool kernel, uint64_t ip,
		struct rd_resolved *out);
/*
 * A number that changes when what rd_resolve answers in the kernel's or
 * t's address space may: a cache of resolved ips keys on it and the space.
 */
static inline uint64_t rd_resolve_gen(const struct rd_session *s, const struct rd_thread *t,
				      bool kernel)
{
	return rd_machine_space_gen(&s->machine, t, kernel);
}
/* The thread a tid belongs to, created (comm ":TID") when unknown. */
struct rd_thread *rd_thread_get(struct rd_session *s, uint32_t pid, uint32_t tid);

/*
 * False when a context marker perf does not know comes before max frames:
 * perf then takes the chain as corrupt and shows none of it.
 */
bool rd_chain_valid(const struct rd_event *ev, int max);
/*
 * The same for a chain perf resolves from its root end (caller order):
 * perf reads each context where it meets the next one, looking back from
 * the root end first, so the context before the root end and the one
 * before each context met within max frames are read; an unknown one
 * drops the chain (0xfffffffffffffed0 at the end of a user chain, a
 * garbage word of a user stack: no chain in perf 6.1's caller-order report,
 * the frames up to max-stack in its callee order)
 */
bool rd_chain_valid_caller(const struct rd_event *ev, int max);

#endif
