/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader's session: records of a perf.data file delivered in time
 * order, with the thread state (comm, maps) they build, and samples with
 * deferred user callchains held until their PERF_RECORD_CALLCHAIN_DEFERRED
 * arrives.  Memory stays bounded: the time-order queue, the held samples
 * per thread and in all are capped; what overflows is released in order.
 */
#ifndef PERFCHECK_READER_SESSION_H
#define PERFCHECK_READER_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "symbols/symbols.h"
#include "util/error.h"

#define RD_COMM_LEN 32

struct rd_map {
	uint64_t start, end, pgoff;
	struct pc_dso *dso;
	bool identity;		/* JIT code: addresses are absolute (perf-PID.map) */
};

struct rd_maps {
	struct rd_map *v;
	size_t nr, cap;
};

struct rd_process {
	uint32_t pid;
	struct rd_maps maps;
	struct rd_process *next;
};

struct rd_thread {
	uint32_t pid, tid;
	char comm[RD_COMM_LEN];
	struct rd_process *proc;
	/* samples of this thread waiting for their deferred callchain */
	uint64_t *waiting;	/* queue sequence numbers, oldest first */
	uint32_t nr_waiting, cap_waiting;
	/* the last CALLCHAIN_DEFERRED seen, for late merges */
	bool have_last;
	uint64_t last_cookie, last_nr;
	const uint64_t *last_ips;
	void *last_copy;	/* owned copy holding last_ips, if any */
	struct rd_thread *next;
};

/* One record on its way out; data points into the reader's buffer or the arena. */
struct rd_item {
	const void *data;
	uint64_t offset;
	uint64_t seq;
	uint64_t time;		/* ordering key while in the time queue */
	uint64_t cookie;	/* of a waiting sample */
	bool waiting;
	bool late;		/* merged with a deferred record that came before it */
	uint64_t merge_nr;	/* > 0: deferred ips appended, cookie dropped */
	const uint64_t *merge_ips;
	struct rd_thread *thread;
	bool owned;		/* data is our copy of a misaligned record */
	bool merge_owned;	/* merge_ips is our copy too */
};

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
	/* CALLCHAIN_DEFERRED records (shown with --no-merge-callchains) */
	const struct pd_deferred *deferred;
};

struct rd_session;

struct rd_ops {
	int (*sample)(struct rd_session *s, const struct rd_event *ev, void *ctx);
	int (*deferred)(struct rd_session *s, const struct rd_event *ev, void *ctx);
	void *ctx;
};

struct rd_resolved {
	const struct pc_symbol *sym;	/* NULL when unknown */
	const char *dso;		/* NULL when no map */
	size_t dso_len;
	uint64_t addr;			/* as perf 6.1 prints it: map-relative for user maps */
	uint64_t off;			/* ip - symbol start */
};

struct rd_stats {
	uint64_t records, samples, deferred_records;
	uint64_t merged, merged_late, unmerged, forced;
	uint64_t unordered;
};

struct rd_session {
	struct pd_reader r;
	bool opened;
	struct rd_ops ops;
	bool merge;		/* hold deferred samples and merge (default) */
	bool merge_late;	/* also merge samples taken after their record */
	bool kernel_local;	/* the file was recorded on this kernel */
	/* threads and processes */
	struct rd_thread **threads;
	size_t nr_thread_buckets;
	struct rd_process **procs;
	size_t nr_proc_buckets;
	struct rd_maps kmaps;
	struct pc_dso_cache dsos;
	char buildid_dir[512];
	struct pc_kallsyms kallsyms;
	/* resolved ips, valid while maps_gen is unchanged */
	struct rd_rcache {
		uint64_t ip;
		const void *space;	/* the process, or the kernel */
		uint64_t gen;
		struct rd_resolved r;
	} *rcache;
	uint64_t maps_gen;
	/* events agree on where a sample's time is (session.c) */
	uint32_t lead_evsels;
	bool lead_uniform;
	/* some event asked for deferred callchains (deferred.c) */
	uint32_t defer_evsels;
	bool any_deferred;
	/* time order (order.c): sorted runs, and a heap for what fits none */
	struct rd_run {
		struct rd_item *v;
		size_t head, nr, cap;
	} runs[16];
	struct rd_item *heap;
	size_t heap_nr, heap_cap;
	size_t pending;		/* in runs and heap together */
	uint64_t next_seq;
	uint64_t round_flush;	/* flush up to here at the next FINISHED_ROUND */
	uint64_t max_time;
	uint64_t last_delivered;
	/* release order: a ring of items, head first */
	struct rd_item *ring;
	size_t ring_cap, ring_head, ring_nr;
	uint64_t ring_head_seq;
	/* copies of misaligned records, freed as they leave */
	struct rd_stats stats;
	int verbose;
};

int rd_session_open(struct rd_session *s, const char *path, struct pc_error *err);
/* Processes every record: ordering, state, merge, then ops callbacks. */
int rd_session_process(struct rd_session *s, struct pc_error *err);
void rd_session_close(struct rd_session *s);

/* Resolves one ip of thread t; kernel selects the kernel maps. */
void rd_resolve(struct rd_session *s, struct rd_thread *t, bool kernel, uint64_t ip,
		struct rd_resolved *out);
/* The thread a tid belongs to, created (comm ":TID") when unknown. */
struct rd_thread *rd_thread_get(struct rd_session *s, uint32_t pid, uint32_t tid);

/*
 * False when a context marker perf does not know comes before max frames:
 * perf then takes the chain as corrupt and shows none of it.
 */
bool rd_chain_valid(const struct rd_event *ev, int max);

/* order.c: the time-order queue */
int rd_order_push(struct rd_session *s, const struct rd_item *it);
/* The oldest pending item, if its time is <= limit: true and *out filled. */
bool rd_order_pop(struct rd_session *s, uint64_t limit, struct rd_item *out);
void rd_order_free(struct rd_session *s);

/* thread.c: state records */
int rd_state_record(struct rd_session *s, const struct pd_record *rec, struct pc_error *err);
void rd_threads_free(struct rd_session *s);

/* session.c: hands one released record to the state and the consumer */
int rd_deliver(struct rd_session *s, struct rd_item *it, struct pc_error *err);

#endif
