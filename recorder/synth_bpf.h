/* SPDX-License-Identifier: GPL-2.0 */
/* The BPF programs loaded before the recording, as perf record synthesizes them. */
#ifndef PERFCHECK_RECORDER_SYNTH_BPF_H
#define PERFCHECK_RECORDER_SYNTH_BPF_H

#include <stdint.h>

#include "perfdata/perfdata.h"
#include "util/error.h"

struct rec_synth_bpf {
	const struct perf_event_attr *attr;	/* the tracking event's (sample_id layout) */
	uint64_t id;				/* its id, in each trailer */
	/* where the records go (whole records), 0 or -errno */
	int (*write)(void *ctx, const void *recs, size_t len);
	void *ctx;
	struct pd_writer *w;			/* the features go here; NULL: none */
	const char *kallsyms;			/* NULL: /proc/kallsyms */
};

/*
 * KSYMBOL and BPF_EVENT records for every loaded program, KSYMBOL for the
 * BPF trampolines and dispatchers, and the BPF_PROG_INFO and BPF_BTF
 * features.  What bpf() refuses (EPERM without CAP_SYS_ADMIN) is said at
 * -v and leaves the records out, as perf; 0 or -errno with err set.
 */
int rec_synth_bpf(const struct rec_synth_bpf *in, struct pc_error *err);
/* The two features with no program, as perf writes them in a pipe. */
int rec_bpf_empty_features(struct pd_writer *w);

#endif
