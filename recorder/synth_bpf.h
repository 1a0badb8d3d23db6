/* SPDX-License-Identifier: GPL-2.0 */
/* The BPF programs loaded before the recording, as perf record synthesizes them. */
#ifndef PERFCHECK_RECORDER_SYNTH_BPF_H
#define PERFCHECK_RECORDER_SYNTH_BPF_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"
#include "util/error.h"

struct rec_synth_bpf {
	const struct perf_event_attr *attr;	/* the tracking event's (sample_id layout) */
	uint64_t id;				/* its id, in each trailer */
	/* where the records go (whole records), 0 or -errno */
	int (*write)(void *ctx, const void *recs, size_t len);
	void *ctx;
	struct rec_bpf_info *info;		/* the programs' entries go here; NULL: none */
	const char *kallsyms;			/* NULL: /proc/kallsyms */
	/*
	 * as perf with --no-bpf-event or without its side band: the KSYMBOLs
	 * and the BTF objects only, no BPF_EVENT records, no program entries
	 */
	bool no_bpf_event;
};

/*
 * What the BPF_PROG_INFO and BPF_BTF features hold: each program once, each
 * BTF once.  Safe to share between the side-band thread and the main one.
 */
struct rec_bpf_info;

struct rec_bpf_info *rec_bpf_info_new(void);
void rec_bpf_info_free(struct rec_bpf_info *info);
/*
 * A program loaded during the recording (its BPF_EVENT PROG_LOAD), as
 * perf's side band adds it: 0, or -errno (-ENOENT: unloaded already).
 */
int rec_bpf_info_add(struct rec_bpf_info *info, uint32_t id);
/* Sets the two features of w from info. */
int rec_bpf_info_write(struct rec_bpf_info *info, struct pd_writer *w);

/*
 * KSYMBOL and BPF_EVENT records for every loaded program and KSYMBOL for
 * the BPF trampolines and dispatchers; each program's entries to in->info.
 * What bpf() refuses (EPERM without CAP_SYS_ADMIN) is said at -v and
 * leaves the records out, as perf; 0 or -errno with err set.
 */
int rec_synth_bpf(const struct rec_synth_bpf *in, struct pc_error *err);
/* The two features with no program, as perf writes them in a pipe. */
int rec_bpf_empty_features(struct pd_writer *w);

#endif
