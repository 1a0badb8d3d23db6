/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcheck emulate: any program under an old kernel's perf_event_open.
 * A seccomp filter in the program sends its perf_event_open calls (and only
 * those) to us as user notifications; a kernel model (probes/kmodel.h)
 * decides: a refusal is answered with that kernel's errno (and attr size on
 * E2BIG), everything else goes on to the real kernel (the notification's
 * CONTINUE flag).
 */
#ifndef PERFCHECK_EMULATE_EMULATE_H
#define PERFCHECK_EMULATE_EMULATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "probes/kmodel.h"
#include "util/error.h"

/* One perf_event_open the program made, and the answer it got. */
struct emu_call {
	pid_t tid;
	uint32_t type, size;
	uint64_t config;
	uint64_t period;		/* sample_period (or freq): 0 in perf's capability probes */
	uint64_t features;		/* (1ULL << enum pc_feature) the attr asks for */
	int verdict;			/* 0: passed to the real kernel; else the errno given */
	uint32_t answered_size;		/* E2BIG: the size written back */
};

typedef void (*emu_call_fn)(const struct emu_call *call, void *ctx);

/*
 * Runs argv under kernel model k until it exits.  Returns the program's exit status (its
 * code, 128+N for signal N, 127 when it cannot be run) or -errno with err.
 */
struct emu_opts {
	emu_call_fn on_call;		/* every perf_event_open, may be NULL */
	void *ctx;
	bool quiet;			/* the program's stdout and stderr to /dev/null */
};

int emu_run(const struct pc_kernel_model *k, char *const argv[], const struct emu_opts *opts,
	    struct pc_error *err);

/* The names of a feature set, comma-separated ("-" for none). */
void emu_feature_list(uint64_t set, char *out, size_t size);

/*
 * The finding table of `perfcheck emulate --report`, printed on stdout, for
 * the perf that perf (a NULL-terminated command prefix: "perf", or a
 * loader, its options and a perf binary) runs.
 */
int emu_report(char *const *perf, struct pc_error *err);

#endif
