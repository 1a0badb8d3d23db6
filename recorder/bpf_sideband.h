/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf record's BPF side band: a dummy event asking for bpf_event records
 * (sample_id_all, a wakeup at every byte: watermark with wakeup_watermark
 * 1), opened on the recording's cpus for pid -1, or for each thread of
 * -p/-t/-u, once the file's header is written and before the loaded
 * programs are synthesized.  Its own rings are read by a thread of its
 * own: each program loaded meanwhile (BPF_EVENT PROG_LOAD) gets its
 * BPF_PROG_INFO entry and its BTF at once, while it is still loaded,
 * whoever loaded it.  Its records are not written to the file.
 *
 * --switch-output-event's events join it, as perf's side band evlist:
 * opened as parsed (a tracepoint samples each hit) on every cpu, each of
 * their records sends SIGUSR2 to the recording thread, which switches the
 * file as for --switch-output=signal.
 */
#ifndef PERFCHECK_RECORDER_BPF_SIDEBAND_H
#define PERFCHECK_RECORDER_BPF_SIDEBAND_H

#include "recorder/evlist.h"
#include "recorder/synth_bpf.h"
#include "util/error.h"

struct rec_bpf_sb;

/*
 * Opens the events where target says (its pids, cpus and --per-thread; the
 * workload is not a target of its own: pid -1) and starts the thread,
 * which adds to info (NULL: no BPF dummy, --no-bpf-event) and signals the
 * calling thread for each record of switch_events (NULL: none).  0 with
 * *out set, or -errno with err set (nothing left open): perf then records
 * on without it.
 */
int rec_bpf_sb_start(struct rec_bpf_sb **out, const struct rec_target *target,
		     struct rec_bpf_info *info, const char *switch_events, struct pc_error *err);
/* Reads what the rings still hold, ends the thread and closes the event; NULL is fine. */
void rec_bpf_sb_stop(struct rec_bpf_sb *sb);

#endif
