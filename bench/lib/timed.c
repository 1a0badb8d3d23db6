// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/lib/timed.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int bench_run(char *const argv[], struct bench_time *t, bench_digest_fn digest, void *ctx)
{
	static char buf[1 << 16];
	struct rusage ru;
	int fds[2], status;
	double t0 = now_s();
	pid_t pid;
	ssize_t n;

	memset(t, 0, sizeof(*t));
	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		return -e;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(digest ? fds[1] : null, 1);
		dup2(null, 2);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && digest)
			digest(ctx, buf, (size_t)n);
	close(fds[0]);
	if (wait4(pid, &status, 0, &ru) < 0)
		return -errno;
	t->wall = now_s() - t0;
	t->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	t->rss_kb = ru.ru_maxrss;
	t->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return 0;
}

int bench_best_of(char *const argv[], int n, struct bench_time *best, bench_digest_fn digest,
		  void *ctx)
{
	struct bench_time d;

	if (n < 1)
		n = 1;
	for (int i = 0; i < n; i++) {
		struct bench_time t;

		if (bench_run(argv, &t, NULL, NULL))
			return -1;
		if (t.status)
			return t.status;
		if (!i) {
			*best = t;
			continue;
		}
		if (t.wall < best->wall)
			best->wall = t.wall;
		if (t.cpu < best->cpu)
			best->cpu = t.cpu;
		if (t.rss_kb < best->rss_kb)
			best->rss_kb = t.rss_kb;
	}
	if (bench_run(argv, &d, digest, ctx))
		return -1;
	return d.status;
}

bool bench_recorded(const char *file, int status)
{
	struct stat st;

	if (status == 128 + SIGTERM && !stat(file, &st) && st.st_size > 0) {
		fprintf(stderr, "%s: the size cap stopped the recording\n", file);
		return true;
	}
	return !status;
}
