// SPDX-License-Identifier: GPL-2.0
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

const char *pc_test_bindir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX];
	ssize_t n;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return ".";
	exe[n] = '\0';
	snprintf(dir, sizeof(dir), "%s", dirname(exe));
	return dir;
}

const char *pc_test_srcdir(const char *rel)
{
	static char dir[PATH_MAX];
	const char *env = getenv("PERFCHECK_SRCDIR");
	static const char *const ups[] = { "/../..", "/../../.." };
	char path[2 * PATH_MAX];

	if (env && *env) {
		snprintf(path, sizeof(path), "%s/%s", env, rel);
		if (access(path, F_OK) == 0) {
			snprintf(dir, sizeof(dir), "%s", env);
			return dir;
		}
	}
	for (size_t i = 0; i < sizeof(ups) / sizeof(ups[0]); i++) {
		snprintf(dir, sizeof(dir), "%s%s", pc_test_bindir(), ups[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, rel);
		if (access(path, F_OK) == 0)
			return dir;
	}
	return NULL;
}

const char *pc_test_perfcheck(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("PERFCHECK_BIN");

	if (env && *env)
		return env;
	if (!path[0])
		snprintf(path, sizeof(path), "%s/../perfcheck", pc_test_bindir());
	return path;
}

static void append(char **buf, size_t *len, size_t *cap, const char *data, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t ncap = (*cap ? *cap * 2 : 4096);

		while (ncap < *len + n + 1)
			ncap *= 2;
		*buf = realloc(*buf, ncap);
		if (!*buf)
			abort();
		*cap = ncap;
	}
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = '\0';
}

int pc_test_run(struct pc_run *run, int timeout_s, char *const argv[])
{
	int outp[2], errp[2];
	size_t out_cap = 0, err_cap = 0;
	struct timespec start, now;
	pid_t pid;
	int open_fds = 2;

	memset(run, 0, sizeof(*run));
	if (pipe2(outp, O_CLOEXEC) || pipe2(errp, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		dup2(nul, 0);
		dup2(outp[1], 1);
		dup2(errp[1], 2);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(outp[1]);
	close(errp[1]);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (open_fds) {
		struct pollfd pfd[2] = { { outp[0], POLLIN, 0 }, { errp[0], POLLIN, 0 } };
		char buf[65536];
		int ret = poll(pfd, 2, 200);

		if (ret < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (pfd[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP)))
				continue;
			n = read(pfd[i].fd, buf, sizeof(buf));
			if (n <= 0) {
				close(i ? errp[0] : outp[0]);
				if (i)
					errp[0] = -1;
				else
					outp[0] = -1;
				open_fds--;
				continue;
			}
			if (i)
				append(&run->err, &run->err_len, &err_cap, buf, (size_t)n);
			else
				append(&run->out, &run->out_len, &out_cap, buf, (size_t)n);
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (timeout_s > 0 && now.tv_sec - start.tv_sec > timeout_s) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
	}
	if (outp[0] >= 0)
		close(outp[0]);
	if (errp[0] >= 0)
		close(errp[0]);
	while (waitpid(pid, &run->status, 0) < 0 && errno == EINTR)
		;
	if (!run->out)
		append(&run->out, &run->out_len, &out_cap, "", 0);
	if (!run->err)
		append(&run->err, &run->err_len, &err_cap, "", 0);
	run->exit_code = WIFEXITED(run->status) ? WEXITSTATUS(run->status)
						: 128 + WTERMSIG(run->status);
	return 0;
}

void pc_run_free(struct pc_run *run)
{
	free(run->out);
	free(run->err);
	memset(run, 0, sizeof(*run));
}

char *pc_test_mkdtemp(const char *tag)
{
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/perfcheck-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", tag);
	if (!mkdtemp(path))
		return NULL;
	return strdup(path);
}

void pc_test_rmdir(char *dir)
{
	char cmd[PATH_MAX + 16];

	if (!dir)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "# could not remove %s\n", dir);
	free(dir);
}

int pc_test_cpu_wide_allowed(void)
{
	long paranoid = 2;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");

	if (f) {
		if (fscanf(f, "%ld", &paranoid) != 1)
			paranoid = 2;
		fclose(f);
	}
	return geteuid() == 0 || paranoid <= 0;
}

int pc_test_have_program(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, name);
		if (access(buf, X_OK) == 0)
			return 1;
		path += n;
		if (*path)
			path++;
	}
	return 0;
}

char *pc_test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 65536 + 1 > cap) {
			char *b = realloc(buf, cap = (n + 65536) * 2);

			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		got = fread(buf + n, 1, 65536, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

void pc_strv_add(struct pc_strv *l, const char *s)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			abort();
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n] = strdup(s);
	if (!l->v[l->n])
		abort();
	l->n++;
}

int pc_strv_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void pc_strv_sort(struct pc_strv *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), pc_strv_cmp);
}

void pc_strv_free(struct pc_strv *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int pc_count_substr(const char *haystack, const char *needle)
{
	size_t len = strlen(needle), left = strlen(haystack);
	const char *p;
	int n = 0;

	if (!len)
		return 0;
	/* memmem on what is left: strstr would measure the haystack again each time */
	while ((p = memmem(haystack, left, needle, len))) {
		n++;
		left -= (size_t)(p - haystack) + len;
		haystack = p + len;
	}
	return n;
}

/*
 * Not instrumented by AddressSanitizer (make SAN=1): a checked store first
 * reads the shadow byte of its address, and the shadow of n fresh pages is
 * n/8 fresh pages more, each a fault of its own (3000 pages touched were
 * 3378 faults).  The workload touches n pages, whatever the build.
 */
__attribute__((no_sanitize_address))
int pc_test_touch_pages(int n)
{
	long pg = sysconf(_SC_PAGESIZE);
	volatile char *p;

	if (n <= 0)
		return 0;
	p = mmap(NULL, (size_t)n * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	madvise((void *)p, (size_t)n * pg, MADV_NOHUGEPAGE);
	for (int i = 0; i < n; i++)
		p[(size_t)i * pg] = 1;
	return 0;
}

long pc_test_tracepoint_id(const char *sys, const char *name)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[256];

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		FILE *f;
		long id = -1;

		snprintf(path, sizeof(path), "%s/events/%s/%s/id", roots[i], sys, name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%ld", &id) != 1)
			id = -1;
		fclose(f);
		if (id >= 0)
			return id;
	}
	return -1;
}
