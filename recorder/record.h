/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcheck record: the pieces of the recorder and the state they share.
 *
 * Flow (record.c): options -> events -> workload held -> open (evlist.c)
 * -> file begun -> synthesis -> workload released -> poll loop draining the
 * rings into the writer (drain.c, or the snapshot ring) -> finish, summary.
 */
#ifndef PERFCHECK_RECORDER_RECORD_H
#define PERFCHECK_RECORDER_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "perfdata/perfdata.h"
#include "probes/probe.h"
#include "recorder/output_opts.h"
#include "util/error.h"

/* ------------------------------------------------------------ options */

enum rec_callgraph {
	REC_CALLGRAPH_NONE,
	REC_CALLGRAPH_FP,
	REC_CALLGRAPH_FP_DEFER,
};

/* One -e entry, parsed; the attr is completed by rec_events_config(). */
struct rec_event {
	union pc_attr attr;
	char name[256];
	bool tracepoint;
	bool has_modifier;
	uint64_t requested, cleared;	/* 1ULL << enum pc_feature: asked for, cleared at open */
	char tp_sys[64], tp_name[128];	/* SYS:NAME of a tracepoint */
};

struct rec_opts {
	struct rec_event *events;
	int nr_events;
	uint64_t period;		/* -c */
	unsigned int freq;		/* -F */
	bool period_set, freq_set;
	enum rec_callgraph callgraph;
	const char *output;
	pid_t *pids;			/* -p or -t */
	int nr_pids;
	bool pids_are_tids;		/* -t */
	bool system_wide;		/* -a */
	const char *cpu_list;		/* -C */
	bool no_inherit;
	bool inherit_stat;		/* -s */
	unsigned int mmap_pages;
	bool switch_events;
	size_t snapshot_size;		/* -M bytes, 0 = off */
	struct rec_output_opts out;	/* output and modes (output_opts.h) */
	int argc;			/* the workload */
	char **argv;
};

/* Returns 0, 1 when --help was printed, or -errno with err set. */
int rec_opts_parse(struct rec_opts *opts, int argc, char **argv, struct pc_error *err);
void rec_opts_free(struct rec_opts *opts);
void rec_usage(FILE *out);

/* ------------------------------------------------------------ events */

/* Appends the comma-separated events of spec ("cpu-clock:u,sched:sched_switch"). */
int rec_events_parse(struct rec_opts *opts, const char *spec, struct pc_error *err);
/* Fills sampling, sample_type and tracking bits from the options. */
void rec_events_config(struct rec_opts *opts);
/* -F against kernel.perf_event_max_sample_rate: error if explicit, else lowered. */
int rec_events_check_freq(struct rec_opts *opts, struct pc_error *err);
/* The smallest PERF_ATTR_SIZE_VER* that holds the fields attr uses. */
uint32_t rec_attr_min_size(const union pc_attr *attr);

/* ------------------------------------------------------------ cpus */

/* "0-3,6" -> sorted unique list; NULL spec = online cpus. */
int rec_cpus_parse(const char *spec, int **cpus, int *nr, struct pc_error *err);

/* ------------------------------------------------------------ workload */

struct rec_workload {
	pid_t pid;
	int go_fd;			/* write end: one byte releases the child */
	int err_fd;			/* read end: errno of a failed exec, EOF on success */
	bool exited;
	int status;			/* wait status once exited */
};

int rec_workload_prepare(struct rec_workload *wl, char **argv, struct pc_error *err);
/* Releases the child; returns -errno (err set) if its exec failed. */
int rec_workload_start(struct rec_workload *wl, char **argv, struct pc_error *err);
/* Non-blocking reap; true once it has exited. */
bool rec_workload_reap(struct rec_workload *wl, bool block);
void rec_workload_kill(struct rec_workload *wl, int sig);

/* ------------------------------------------------------------ rings */

struct rec_ring {
	int fd;				/* the event whose buffer this is */
	int cpu;
	void *base;			/* control page, then data */
	uint8_t *data;
	uint64_t size;			/* data bytes, a power of two */
	uint64_t mask;
	size_t map_len;
	bool overwrite;			/* write_backward, mapped read-only */
};

/*
 * Hands the unread part of a ring to sink as spans of whole records (at
 * most three: before the wrap, the record straddling it copied into
 * bounce, after the wrap), then releases it to the kernel.  Returns bytes
 * consumed, or the sink's negative error.
 */
typedef int (*rec_sink_fn)(void *ctx, const void *buf, size_t len);
ssize_t rec_ring_drain(struct rec_ring *ring, uint8_t *bounce, rec_sink_fn sink,
		       void *ctx, struct pc_error *err);
/* Bytes the kernel wrote that are not drained yet (--mmap-flush). */
uint64_t rec_ring_pending(const struct rec_ring *ring);
/* overwrite: mapped read-only, so that the kernel overwrites the oldest
 * records of its write_backward buffer (--overwrite) */
int rec_ring_map(struct rec_ring *ring, int fd, int cpu, unsigned int pages, bool overwrite,
		 struct pc_error *err);
/*
 * --overwrite: pauses the write_backward ring and hands its whole records,
 * newest first as the kernel left them, to sink (at most three spans, as
 * rec_ring_drain).  Returns bytes handed, or the sink's negative error.
 */
ssize_t rec_ring_read_backward(struct rec_ring *ring, uint8_t *bounce, rec_sink_fn sink,
			       void *ctx, struct pc_error *err);
void rec_ring_unmap(struct rec_ring *ring);

/* ------------------------------------------------------------ evlist */

/* Every fd opened, per event, cpu and thread. */
struct rec_evlist {
	int *cpus;
	int nr_cpus;
	pid_t *threads;			/* -1 alone for system-wide */
	int nr_threads;
	int nr_events;
	int *fds;			/* [event][cpu][thread] */
	uint64_t *ids;			/* same index */
	struct rec_ring *rings;		/* one per cpu */
	int nr_rings;
};

int rec_evlist_open(struct rec_evlist *evl, struct rec_opts *opts, pid_t workload,
		    struct pc_error *err);
int rec_evlist_enable(struct rec_evlist *evl, bool on);

/* PERFCHECK_OPEN: which attr features each event asked for and which the
 * open ladder cleared (open_features.c). */
void rec_open_features_requested(struct rec_opts *opts);
int rec_open_features_write(struct pd_writer *w, const struct rec_opts *opts);
void rec_evlist_close(struct rec_evlist *evl);
static inline int *rec_evlist_fd(struct rec_evlist *evl, int ev, int c, int t)
{
	return &evl->fds[((size_t)ev * evl->nr_cpus + c) * evl->nr_threads + t];
}

/* ------------------------------------------------------------ dsos (build ids) */

struct rec_dsos;
struct rec_dsos *rec_dsos_new(void);
void rec_dsos_free(struct rec_dsos *d);
void rec_dsos_mmap(struct rec_dsos *d, uint32_t pid, uint64_t start, uint64_t len,
		   const char *filename);
void rec_dsos_hit(struct rec_dsos *d, uint32_t pid, uint64_t ip, bool kernel);
/* Adds the build id of every DSO hit to the writer; returns how many. */
int rec_dsos_write_build_ids(struct rec_dsos *d, struct pd_writer *w);
/* Reads the GNU build id note of an ELF file with libelf. */
int rec_read_build_id(const char *path, uint8_t *id, size_t *id_size);

/* ------------------------------------------------------------ drain */

struct rec_stats {
	uint64_t samples;		/* written to the file */
	uint64_t records;
	uint64_t lost;			/* records the kernel dropped (LOST) */
	uint64_t lost_samples;		/* LOST_SAMPLES */
	uint64_t bytes;			/* data bytes handed to the writer */
	uint64_t wakeups;
	uint64_t dumps;			/* snapshots written (SIGUSR2) */
};

struct rec_snapshot;

/* Where drained records go: the writer, or samples to the snapshot ring. */
struct rec_output {
	struct pd_writer *w;
	struct rec_snapshot *snap;	/* NULL unless -M */
	struct rec_dsos *dsos;
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

/* ------------------------------------------------------------ snapshot */

struct rec_snapshot *rec_snapshot_new(size_t size);
void rec_snapshot_free(struct rec_snapshot *s);
/* Stores a whole record, dropping the oldest whole records to make room. */
void rec_snapshot_put(struct rec_snapshot *s, const void *rec, size_t len);
/* Hands the ring's records to sink, oldest first, in at most two spans of
 * whole records, and empties it. */
int rec_snapshot_dump(struct rec_snapshot *s, rec_sink_fn sink, void *ctx);
uint64_t rec_snapshot_records(const struct rec_snapshot *s);
uint64_t rec_snapshot_dropped(const struct rec_snapshot *s);
#define REC_SNAPSHOT_MIN 65536	/* one maximal record: header.size is a u16 */

/* ------------------------------------------------------------ synthesis */

struct rec_synth {
	struct rec_output *out;
	uint64_t sample_type;		/* of the tracking event */
	uint64_t id;			/* its id, put in each sample_id trailer */
};

int rec_synth_kernel_mmap(struct rec_synth *s);
int rec_synth_comm(struct rec_synth *s, pid_t pid, pid_t tid, const char *comm);
/* FORK, COMM and (for the leader) MMAP2 records of one process from /proc. */
int rec_synth_process(struct rec_synth *s, pid_t pid);
int rec_synth_all(struct rec_synth *s);

/* ------------------------------------------------------------ tracing data */

/* The TRACING_DATA feature perf needs to name and decode tracepoint samples. */
int rec_tracing_data(struct pd_writer *w, const struct rec_opts *opts, struct pc_error *err);

/* ------------------------------------------------------------ timeout */

int rec_timeout_create(uint64_t ms, struct pc_error *err);
bool rec_timeout_expired(int fd);

/* ------------------------------------------------------------ summary */

/* original_bytes: the records before -z compressed them (0 without -z) */
void rec_summary_print(const char *path, uint64_t file_bytes, uint64_t original_bytes,
		       const struct rec_stats *st);
/* Counts the samples of a finalized file (after a write error). */
void rec_summary_recount(const char *path, struct rec_stats *st);

#endif
