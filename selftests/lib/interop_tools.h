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
static inline const char *up_perf(void)
{
	static char path[PATH_MAX + 16];
	const char *env = getenv("PERFCHECK_PERF");
	char tmp[PATH_MAX];

	if (env && *env)
		return access(env, X_OK) ? NULL : env;
	snprintf(tmp, sizeof(tmp), "%s", pc_test_perfcheck());
	snprintf(path, sizeof(path), "%s/upstream/perf", dirname(tmp));
	if (!access(path, X_OK))
		return path;
	return pc_test_have_program("perf") ? "perf" : NULL;
}

struct up_version {
	int major, minor;
	char text[128];		/* "perf version 6.1.187" */
};

static inline int up_perf_version(struct up_version *v)
{
	char *argv[] = { (char *)up_perf(), "--version", NULL };
	struct pc_run run;
	const char *p;

	memset(v, 0, sizeof(*v));
	if (!argv[0] || pc_test_run(&run, 60, argv))
		return -1;
	snprintf(v->text, sizeof(v->text), "%.*s", (int)strcspn(run.out ? run.out : "", "\n"),
		 run.out ? run.out : "");
	p = strstr(v->text, "version ");
	if (p)
		sscanf(p + 8, "%d.%d", &v->major, &v->minor);
	pc_run_free(&run);
	return v->major ? 0 : -1;
}

/*
 * perf script's layout of that perf version, as perfcheck script names it:
 * Debian's perf 6.1 prints user callchain addresses map-relative, 5.10 and
 * 6.12 on absolute (measured with 5.10.223, 6.1.176, 6.1.187, 6.12.107 and
 * 7.2.13).
 */
static inline const char *up_compat(const struct up_version *v)
{
	int n = v->major * 1000 + v->minor;

	return n >= 6000 && n < 6012 ? "6.1" : "7.2";
}

/* pcwork next to perfcheck (build/pcwork, /perfcheck/pcwork in a guest). */
static inline const char *up_pcwork(void)
{
	static char path[PATH_MAX];
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", pc_test_perfcheck());
	snprintf(path, sizeof(path), "%s/pcwork", dirname(tmp));
	return access(path, X_OK) ? NULL : path;
}

static inline bool up_kernel_has(enum pc_feature f)
{
	int e;

	return pc_feature_probe(f, &e) == PC_FEATURE_SUPPORTED;
}

/*
 * A file that lives in the source tree (vm/upstream/..., fixtures/...):
 * $ENV (when env is not NULL), else next to perfcheck under a guest's
 * /perfcheck, else found by walking up from perfcheck's directory (build/,
 * build/static/).
 */
static inline const char *up_find_source(const char *env, const char *guest_rel,
					 const char *tree_rel)
{
	static char path[PATH_MAX + 512];
	char dir[PATH_MAX], tmp[PATH_MAX];
	const char *e = env ? getenv(env) : NULL;

	if (e && *e)
		return access(e, R_OK) ? NULL : e;
	snprintf(tmp, sizeof(tmp), "%s", pc_test_perfcheck());
	snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	snprintf(path, sizeof(path), "%s/%s", dir, guest_rel);
	if (!access(path, R_OK))
		return path;
	for (int up = 0; up < 4; up++) {
		size_t l = strlen(dir);

		snprintf(path, sizeof(path), "%s/%s", dir, tree_rel);
		if (!access(path, R_OK))
			return path;
		if (l + 3 >= sizeof(dir))
			break;
		strcat(dir, "/..");
	}
	return NULL;
}

/* Where a test keeps what it compared: $PERFCHECK_ARTIFACTS/NAME (guests),
 * else NULL (nothing kept on a host). */
static inline const char *up_keep_dir(const char *name)
{
	static char path[PATH_MAX];
	const char *base = getenv("PERFCHECK_ARTIFACTS");

	if (!base || !*base)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", base, name);
	mkdir(path, 0755);
	return path;
}

static inline int up_write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n = 0;

	if (fd < 0)
		return -errno;
	if (len)
		n = write(fd, data, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

static inline int up_copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;
	int ret = 0;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -errno;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			ret = -EIO;
			break;
		}
	close(in);
	close(out);
	return n < 0 ? -errno : ret;
}

/* Keeps a text and optionally a file under the test's artifact directory. */
static inline void up_keep(const char *name, const char *file, const char *text,
			   const char *copy_from)
{
	const char *dir = up_keep_dir(name);
	char path[PATH_MAX + 256];

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (copy_from)
		up_copy_file(copy_from, path);
	else
		up_write_file(path, text ? text : "", text ? strlen(text) : 0);
}

/* Runs argv; a run that could not start is reported as exit code 127. */
static inline int up_run(struct pc_run *run, int timeout_s, char **argv)
{
	if (pc_test_run(run, timeout_s, argv)) {
		memset(run, 0, sizeof(*run));
		run->exit_code = 127;
		return -1;
	}
	return 0;
}

/* Whether this perf accepts --call-graph fp,defer (perf 7.x): asked with a
 * recording that ends at once, on a kernel that has defer_callchain. */
static inline bool up_perf_knows_defer(const char *dir)
{
	char out[PATH_MAX];
	char *argv[] = { (char *)up_perf(), "record", "-q", "-e", "cpu-clock", "-c", UP_PERIOD,
			 "--call-graph", "fp,defer", "-o", out, "--", (char *)up_pcwork(),
			 "exit", "0", NULL };
	struct pc_run run;
	bool ok;

	snprintf(out, sizeof(out), "%s/defer-probe.data", dir);
	if (!argv[0] || !argv[12] || up_run(&run, 120, argv))
		return false;
	ok = run.exit_code == 0;
	pc_run_free(&run);
	unlink(out);
	return ok;
}

#endif
