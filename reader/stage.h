/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What travels between the reader's stages: one record, its time, and what
 * the parse stage parsed from it, once.  Stages are joined by a sink, the
 * next stage's deliver function:
 *
 *   input -> order -> parse -> defer -> machine -> consumer
 *
 * Delivering an item hands it over: the receiver either keeps it (a queue
 * or a held sample) or is done with it and calls rd_item_release().
 */
#ifndef PERFCHECK_READER_STAGE_H
#define PERFCHECK_READER_STAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "util/error.h"

/* The parse of one record, made once by the parse stage. */
struct rd_parsed {
	struct pd_sample smp;	/* a SAMPLE, or the sample_id of another record */
	struct pd_deferred d;	/* PERF_RECORD_CALLCHAIN_DEFERRED */
};

struct rd_item {
	const void *data;	/* the whole record, 8-byte aligned, stable while the item lives */
	uint64_t offset;	/* in the file */
	uint64_t seq;		/* arrival order */
	uint64_t time;		/* valid when timed */
	const struct pd_evsel *evsel;	/* of a timed record, found by the input stage */
	struct rd_parsed *p;	/* parsed after ordering; NULL when the record carries no
				 * sample or sample_id */
	uint64_t merge_nr;	/* > 0: deferred ips to append, the cookie dropped */
	const uint64_t *merge_ips;
	uint64_t *unwound;	/* DWARF user frames (PC_CONTEXT_USER first), owned */
	uint64_t unwound_nr;
	/* arm64 frame-pointer chain with perf's leaf caller: unwound replaces the
	 * recorded chain from index fp_cut (its PC_CONTEXT_USER) on */
	uint64_t fp_cut;
	bool fp_leaf;
	uint16_t type;
	bool timed;
	bool unanswered;	/* its deferred callchain never came: perf 7.2 shows the cookie */
	bool late;		/* merged with a deferred record that came before it */
	bool owned;		/* data is our copy (rd_copy_alloc: a decompressed, piped or
				 * misaligned record) */
	bool merge_owned;	/* merge_ips is our copy */
};

struct rd_sink {
	int (*deliver)(void *ctx, struct rd_item *it, struct pc_error *err);
	void *ctx;
};

static inline int rd_sink_put(const struct rd_sink *s, struct rd_item *it, struct pc_error *err)
{
	return s->deliver(s->ctx, it, err);
}

/*
 * Memory for a parse (size bytes) and its return: small blocks are reused
 * rather than freed.  NULL on ENOMEM.
 */
void *rd_block_alloc(size_t size);
void rd_block_free(void *p, size_t size);

/* Frees what the item owns: its copy of the record, its parse, merged ips. */
void rd_item_release(struct rd_item *it);

#endif
