/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output and mode options of perfcheck record (-o -, -z, --switch-output,
 * --max-size, --timeout, -D, --control, --overwrite, -N, -B, --mmap-flush),
 * parsed by output_opts.c from the grouped block of options.c.
 */
#ifndef PERFCHECK_RECORDER_OUTPUT_OPTS_H
#define PERFCHECK_RECORDER_OUTPUT_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

enum rec_switch_mode {
	REC_SWITCH_NONE,
	REC_SWITCH_SIGNAL,		/* --switch-output or =signal: on SIGUSR2 */
	REC_SWITCH_SIZE,		/* =SIZE: when the data passes SIZE bytes */
	REC_SWITCH_TIME,		/* =TIME: every TIME */
};

struct rec_output_opts {
	bool pipe;			/* -o -: pipe format on stdout */
	int comp_level;			/* -z / --compression-level: 0 = off */
	uint64_t mmap_flush;		/* --mmap-flush: bytes a ring holds before a drain */
	bool no_buildid;		/* -B: no BUILD_ID section */
	bool no_buildid_cache;		/* -N: accepted; perfcheck keeps no cache */
	bool buildid_all;		/* --buildid-all: every DSO mapped, not only those hit */
	uint64_t max_size;		/* --max-size bytes, 0 = none */
	uint64_t timeout_ms;		/* --timeout, 0 = none */
	long delay_ms;			/* -D: 0 none, -1 until --control enable */
	enum rec_switch_mode switch_mode;
	uint64_t switch_size;		/* bytes */
	uint64_t switch_time_ms;
	unsigned int switch_max_files;	/* 0 = keep all */
	bool timestamp_filename;
	const char *control;		/* --control fifo:CTL[,ACK] or fd:CTL[,ACK] */
	bool overwrite;			/* write_backward rings read at the end */
	bool tail_synthesize;
	int realtime_prio;		/* -r: SCHED_FIFO priority of the recorder, 0 = none */
	const char *switch_event;	/* --switch-output-event: its records switch the file */
	enum rec_affinity {
		REC_AFFINITY_SYS,	/* the recorder where the scheduler puts it */
		REC_AFFINITY_NODE,	/* --affinity=node: on the node of the ring it reads */
		REC_AFFINITY_CPU,	/* --affinity=cpu: on the cpu of the ring it reads */
	} affinity;
};

/* Option ids of the block (options.c hands them here). */
enum rec_output_opt_id {
	RO_FIRST = 400,
	RO_COMPRESS = RO_FIRST, RO_COMP_LEVEL, RO_MMAP_FLUSH, RO_NO_BUILDID,
	RO_NO_BUILDID_CACHE, RO_MAX_SIZE, RO_TIMEOUT, RO_DELAY, RO_SWITCH_OUTPUT,
	RO_SWITCH_MAX_FILES, RO_TIMESTAMP_FILENAME, RO_CONTROL, RO_OVERWRITE,
	RO_TAIL_SYNTH, RO_BUILDID_ALL, RO_REALTIME, RO_AFFINITY, RO_SWITCH_EVENT,
	RO_LAST,
};

int rec_output_opt_apply(struct rec_output_opts *o, int id, const char *val,
			 struct pc_error *err);
/* -m PAGES or -m SIZE with a B/K/M/G unit, rounded up to a power of two of pages. */
int rec_parse_mmap_pages(const char *val, unsigned int *pages, struct pc_error *err);
/* Options that cannot go together; snapshot = -M given, output the -o name. */
int rec_output_opts_check(struct rec_output_opts *o, bool snapshot, const char *output,
			  struct pc_error *err);

#endif
