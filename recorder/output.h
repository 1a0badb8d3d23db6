/* SPDX-License-Identifier: GPL-2.0 */
/* Where drained records go (drain.c): the writer, or samples to the snapshot ring. */
#ifndef PERFCHECK_RECORDER_OUTPUT_H
#define PERFCHECK_RECORDER_OUTPUT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "recorder/dsos.h"
#include "recorder/snapshot.h"
#include "util/error.h"

struct rec_stats {
	uint64_t samples;		/* written to the file */
	uint64_t records;
	uint64_t lost;			/* records the kernel dropped (LOST) */
	uint64_t lost_samples;		/* LOST_SAMPLES */
	uint64_t bytes;			/* data bytes handed to the writer */
	uint64_t wakeups;
	uint64_t dumps;			/* snapshots written (SIGUSR2) */
	uint64_t first_time, last_time;	/* of the samples written (0: none) */
};

struct rec_bpf_info;

struct rec_output {
	struct pd_writer *w;
	struct rec_snapshot *snap;	/* NULL unless -M */
	struct rec_dsos *dsos;
	pthread_mutex_t *dsos_lock;	/* --threads: dsos is shared by the readers, NULL = not */
	struct rec_bpf_info *bpf;	/* BPF_PROG_INFO entries: loaded before, and meanwhile */
	struct rec_stats stats;
	struct pc_error err;
	int write_errno;		/* set when the writer failed (ENOSPC...) */
};

int rec_output_records(void *ctx, const void *buf, size_t len);
/* Synthesized records (already whole). */
int rec_output_write(struct rec_output *out, const void *rec, size_t len);
int rec_output_finished_round(struct rec_output *out);
/* Appends the snapshot ring to the file (SIGUSR2) and empties it. */
int rec_output_dump_snapshot(struct rec_output *out);

#endif
