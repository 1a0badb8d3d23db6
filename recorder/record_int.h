/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcheck record's state, shared by record.c (the command: options,
 * open, poll loop, signals, control, exit status), record_file.c (the
 * output file: temporary name, header, switch, finish) and record_synth.c
 * (the records of the existing tasks).  record.c calls the other two, and
 * record_file.c calls record_synth.c: data flows one way.
 */
#ifndef PERFCHECK_RECORDER_RECORD_INT_H
#define PERFCHECK_RECORDER_RECORD_INT_H

#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "recorder/bpf_sideband.h"
#include "recorder/control.h"
#include "recorder/evlist.h"
#include "recorder/options.h"
#include "recorder/outfile.h"
#include "recorder/output.h"
#include "recorder/workload.h"

struct rec_rthreads;

#define EXIT_USAGE	129
#define EXIT_ERROR	255
#define EXIT_TIMEOUT	124
#define EXIT_NOEXEC	127

/* The modes of output_opts.h at run time: -D, --control, --switch-output. */
struct rec_modes {
	int delayfd;			/* -D: one-shot timerfd, -1 */
	int switchfd;			/* --switch-output=TIME: periodic timerfd, -1 */
	struct rec_control ctl;		/* --control */
	struct rec_outfile_ring files;	/* the files written (--switch-max-files) */
	bool switch_pending;
	bool synthesized_late;		/* -D: the tasks, at the first enable */
	int affinity_cpu;		/* --affinity: the ring cpu the recorder sits on, -1 */
	int cmd_argc;			/* our own command line, for each file's CMDLINE */
	char **cmd_argv;
};

/* The output file's name while it starts (record_file.c). */
struct rec_file_state {
	char tmp_path[PATH_MAX];	/* the file until its header is on disk */
	bool placed;			/* renamed into place (or a pipe) */
	int reserve_fd;			/* --threads: room for the header's end, -1 */
};

/* Why the loop stops. */
struct rec_stop {
	bool stopping, timed_out, dump_pending, size_limit;
	int got_signal;
};

/* Fixed slots of the poll set; the events follow. */
enum { PFD_SIG, PFD_TIMEOUT, PFD_DELAY, PFD_SWITCH, PFD_CONTROL, PFD_THREADS, PFD_EVENTS };

struct recorder {
	struct rec_opts opts;
	struct rec_evlist evl;
	struct rec_workload wl;
	bool have_workload;
	pid_t *user_pids;		/* -u: the user's processes at the start */
	int nr_user_pids;
	struct pd_writer w;
	struct rec_file_state file;
	struct rec_output out;
	int sigfd, timerfd;
	struct pollfd *pfds;
	int nr_pfds;
	int alive;			/* event fds not hung up */
	uint8_t *bounce;
	struct rec_stop why;
	struct rec_modes m;
	struct rec_bpf_sb *bpf_sb;	/* perf's BPF side band, NULL when not running */
	struct rec_rthreads *rt;	/* --threads: the reading threads, NULL without */
};

/* record_synth.c: the tasks at the start (the workload's pre-exec COMM)... */
int recorder_synthesize(struct recorder *r);
/* --tail-synthesize: that pre-exec COMM alone, at the start as perf writes it */
int recorder_synthesize_workload_comm(struct recorder *r);
/*
 * ...and as they are now: for a late enable (-D: the tasks only), a new
 * --switch-output file (ID_INDEX, the kernel map, THREAD_MAP and CPU_MAP,
 * the tasks, FINISHED_INIT) or --tail-synthesize (FINISHED_INIT first, then
 * the workload and the rest), in perf 6.1's order (FINISHED_INIT: --threads
 * only, see record_synth.c).
 */
enum rec_synth_when { REC_SYNTH_LATE_ENABLE, REC_SYNTH_NEW_FILE, REC_SYNTH_TAIL };
int recorder_synthesize_tasks(struct recorder *r, enum rec_synth_when when);

/* record_file.c: the first file, under a temporary name until its header is on disk. */
int recorder_start_file(struct recorder *r, struct pc_error *err);
/* --switch-output: this file ends at a round boundary, the next one begins. */
int recorder_switch_file(struct recorder *r, struct pc_error *err);
/* Finalizes the last file and prints the summary; -1 with *code set on error. */
int recorder_finish_file(struct recorder *r, int *code);

#endif
