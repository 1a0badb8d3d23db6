// SPDX-License-Identifier: GPL-2.0
/* The helpers declared in interop_tools.h, compiled once for every test. */
#include "interop_tools.h"

const char *up_perf(void)
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

int up_perf_version(struct up_version *v)
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

const char *up_compat(const struct up_version *v)
{
	int n = v->major * 1000 + v->minor;

	return n >= 6000 && n < 6012 ? "6.1" : n >= 6012 && n < 7000 ? "6.12" : "7.2";
}

const char *up_pcwork(void)
{
	static char path[PATH_MAX];
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", pc_test_perfcheck());
	snprintf(path, sizeof(path), "%s/pcwork", dirname(tmp));
	return access(path, X_OK) ? NULL : path;
}

bool up_kernel_has(enum pc_feature f)
{
	int e;

	return pc_feature_probe(f, &e) == PC_FEATURE_SUPPORTED;
}

const char *up_find_source(const char *env, const char *guest_rel,
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

const char *up_keep_dir(const char *name)
{
	static char path[PATH_MAX];
	const char *base = getenv("PERFCHECK_ARTIFACTS");

	if (!base || !*base)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", base, name);
	mkdir(path, 0755);
	return path;
}

int up_write_file(const char *path, const char *data, size_t len)
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

int up_copy_file(const char *from, const char *to)
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

void up_keep(const char *name, const char *file, const char *text,
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

int up_run(struct pc_run *run, int timeout_s, char **argv)
{
	if (pc_test_run(run, timeout_s, argv)) {
		memset(run, 0, sizeof(*run));
		run->exit_code = 127;
		return -1;
	}
	return 0;
}

bool up_perf_knows_defer(const char *dir)
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

/* TOOL record -vv OPTS [-p PID] -o FILE -- pcwork ...; returns its -vv text. */
char *up_record_vv(const char *tool, const char *const *opts, pid_t target, const char *out,
		   int *code)
{
	char *argv[32], pidbuf[16];
	struct pc_run run;
	int n = 0;
	char *text;

	argv[n++] = (char *)tool;
	argv[n++] = "record";
	argv[n++] = "-vv";
	for (; *opts; opts++)
		argv[n++] = (char *)*opts;
	if (target > 0) {
		snprintf(pidbuf, sizeof(pidbuf), "%d", (int)target);
		argv[n++] = "-p";
		argv[n++] = pidbuf;
	}
	argv[n++] = "-o";
	argv[n++] = (char *)out;
	/* attached, both tools stop when the target exits (perf 6.1 ends a
	 * -p recording that also runs a command with SIGTERM) */
	if (target <= 0) {
		argv[n++] = "--";
		argv[n++] = (char *)up_pcwork();
		argv[n++] = "spin";
		argv[n++] = "100";
	}
	argv[n] = NULL;
	up_run(&run, 300, argv);
	*code = run.exit_code;
	text = run.err;		/* -vv goes to stderr */
	run.err = NULL;
	pc_run_free(&run);
	return text;
}
