/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the interop_*.c selftests: the upstream perf beside perfcheck
 * (the system's on a host, the payload vm/upstream/stage puts in a guest),
 * its version, the workload, what the kernel and that perf support, and
 * where outputs are kept (the guest's artifact directory, from which
 * fixtures/upstream is harvested).
 */
#ifndef PERFCHECK_SELFTESTS_INTEROP_TOOLS_H
#define PERFCHECK_SELFTESTS_INTEROP_TOOLS_H

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/testutil.h"
#include "probes/probe.h"

/* Workload and sampling shared by both directions: about 300 samples with
 * kernel and user frames (system calls from a deep user stack). */
#define UP_PERIOD	"500000"
#define UP_WORK_MS	"500"

/*
 * The upstream perf: $PERFCHECK_PERF, else upstream/perf next to perfcheck
 * (a guest's /perfcheck/upstream/perf, staged by vm/upstream/stage), else
 * perf from PATH (a host's system perf); NULL when there is none.
 */
const char *up_perf(void);

struct up_version {
	int major, minor;
	char text[128];		/* "perf version 6.1.187" */
};

int up_perf_version(struct up_version *v);

/*
 * In a FIXTURE_SETUP: SKIP (return) where there is no upstream perf or no
 * pcwork beside perfcheck, each with its reason; then that perf's version
 * into *v.
 */
#define UP_REQUIRE_PERF_AND_PCWORK(v)                                                      \
	do {                                                                               \
		if (!up_perf())                                                            \
			SKIP(return, "no upstream perf here (guest without the upstream "  \
				     "payload: make matrix without --no-upstream)");       \
		if (!up_pcwork())                                                          \
			SKIP(return, "pcwork is not next to perfcheck (make)");            \
		ASSERT_EQ(0, up_perf_version(v));                                          \
	} while (0)

/*
 * perf script's layout of that perf version, as perfcheck script names it:
 * Debian's perf 6.1 prints user callchain addresses map-relative, 5.10 and
 * 6.12 on absolute (measured with 5.10.223, 6.1.176, 6.1.187, 6.12.107 and
 * 7.2.13).
 */
const char *up_compat(const struct up_version *v);

/* pcwork next to perfcheck (build/pcwork, /perfcheck/pcwork in a guest). */
const char *up_pcwork(void);

bool up_kernel_has(enum pc_feature f);

/*
 * A file that lives in the source tree (vm/upstream/..., fixtures/...):
 * $ENV (when env is not NULL), else next to perfcheck under a guest's
 * /perfcheck, else found by walking up from perfcheck's directory (build/,
 * build/static/).
 */
const char *up_find_source(const char *env, const char *guest_rel,
					 const char *tree_rel);

/* Where a test keeps what it compared: $PERFCHECK_ARTIFACTS/NAME (guests),
 * else NULL (nothing kept on a host). */
const char *up_keep_dir(const char *name);

int up_write_file(const char *path, const char *data, size_t len);

int up_copy_file(const char *from, const char *to);

/* Keeps a text and optionally a file under the test's artifact directory. */
void up_keep(const char *name, const char *file, const char *text,
			   const char *copy_from);

/* Runs argv; a run that could not start is reported as exit code 127. */
int up_run(struct pc_run *run, int timeout_s, char **argv);

/* Whether this perf accepts --call-graph fp,defer (perf 7.x): asked with a
 * recording that ends at once, on a kernel that has defer_callchain. */
bool up_perf_knows_defer(const char *dir);

/* TOOL record -vv OPTS [-p PID] -o FILE [-- pcwork spin 100]; returns its -vv text
 * (stderr), its exit code in *code. */
char *up_record_vv(const char *tool, const char *const *opts, pid_t target, const char *out,
		   int *code);

#endif
