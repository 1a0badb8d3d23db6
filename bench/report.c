// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck report against the system perf report --stdio, in one run, on
 * a perf.data file with callchains (perf's default report: Children, caller
 * graphs): wall time, CPU time, peak RSS, output size, and whether the two
 * outputs are byte for byte the same (perf's closing tip line cut; perfcheck
 * runs with --compat 6.1).  Goal (issue 13): at least 5x faster.
 *
 *   build/bench/report [--file F] [--seconds S] [--max-samples N] [--runs N]
 *                      [--perf PATH] [--perfcheck PATH] [--pcwork PATH]
 *
 * Without an existing --file (default build/bench/report.data) the file is
 * recorded first with the system perf for S seconds (default 20): pcwork
 * spinning and making system calls from deep stacks, and ls in a loop, with
 * cpu-clock every 10 us and -g.  --max-samples (default 1000000) caps the
 * recording through perf record --max-size, at 512 bytes a sample.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct result {
	double wall, cpu;
	long rss_kb;
	uint64_t bytes, hash;
	unsigned long long samples;	/* from the "# Samples:" line */
	char unit;			/* its unit: K, M, G or ' ' */
	int status;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The tip perf prints last ("\n#\n# (Tip: ...)\n#\n") is random: stop hashing there. */
static const char tip[] = "\n#\n# (Tip:";

/*
 * Runs argv.  Timed runs write to /dev/null; the digest run pipes the output
 * here for its size and FNV-1a (up to perf's tip) and the sample count.
 */
static int run(char *const argv[], struct result *res, bool digest)
{
	static char buf[1 << 16];
	char *all = NULL;
	size_t len = 0, cap = 0;
	struct rusage ru;
	int fds[2], status;
	double t0 = now_s();
	pid_t pid;
	ssize_t n;

	memset(res, 0, sizeof(*res));
	res->hash = 1469598103934665603ULL;
	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
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
	while ((n = read(fds[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
		if (n <= 0)
			continue;
		if (len + (size_t)n + 1 > cap) {
			size_t nc = cap ? 2 * cap : (1 << 20);
			char *v;

			while (nc < len + (size_t)n + 1)
				nc *= 2;
			v = realloc(all, nc);
			if (!v)
				break;
			all = v;
			cap = nc;
		}
		memcpy(all + len, buf, (size_t)n);
		len += (size_t)n;
	}
	close(fds[0]);
	if (wait4(pid, &status, 0, &ru) < 0) {
		free(all);
		return -errno;
	}
	res->wall = now_s() - t0;
	res->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	res->rss_kb = ru.ru_maxrss;
	res->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (all) {
		char *cut, *s;

		all[len] = '\0';
		cut = strstr(all, tip);
		if (cut)
			len = (size_t)(cut - all) + 1;
		for (size_t i = 0; i < len; i++)
			res->hash = (res->hash ^ (unsigned char)all[i]) * 1099511628211ULL;
		res->bytes = len;
		s = strstr(all, "# Samples: ");
		if (s) {
			char *unit;

			/* perf's count: 391K is 391 thousand (rounded down) */
			res->samples = strtoull(s + 11, &unit, 10);
			res->unit = *unit == 'K' || *unit == 'M' || *unit == 'G' ? *unit : ' ';
		}
		free(all);
	}
	return 0;
}

/*
 * perf record's status: 0, or 143 when --max-size stopped it (it ends the
 * workload with SIGTERM and exits with the workload's status) and the
 * file is there.
 */
static bool recorded(const char *file, int status)
{
	struct stat st;

	if (status == 128 + SIGTERM && !stat(file, &st) && st.st_size > 0) {
		fprintf(stderr, "%s: the size cap stopped the recording\n", file);
		return true;
	}
	return !status;
}

static int record(const char *perf, const char *pcwork, const char *file, int seconds,
		  unsigned long long max_samples)
{
	char cmd[1024], size[32], ms[32];
	char *argv[] = { (char *)perf, "record", "-q", "-e", "cpu-clock", "-c", "10000", "-g",
			 "--max-size", size, "-o", (char *)file, "--", "sh", "-c", cmd, NULL };
	struct result r;

	snprintf(size, sizeof(size), "%lluK", max_samples * 512 / 1024 + 1);
	snprintf(ms, sizeof(ms), "%d", seconds * 1000);
	snprintf(cmd, sizeof(cmd),
		 "'%s' spin %s & '%s' syscalls %s & "
		 "timeout %d sh -c 'while :; do ls -l /usr/bin /usr/lib >/dev/null; done'; wait",
		 pcwork, ms, pcwork, ms, seconds);
	fprintf(stderr, "recording %s with %s for %d s (at most %llu samples)...\n", file, perf,
		seconds, max_samples);
	if (run(argv, &r, false) || !recorded(file, r.status))
		return -1;
	return 0;
}

static void row(const char *name, const struct result *r)
{
	printf("%-26s %9.2f %9.2f %12.1f %12llu  %016llx\n", name, r->wall, r->cpu,
	       (double)r->rss_kb / 1024.0, (unsigned long long)r->bytes,
	       (unsigned long long)r->hash);
}

/*
 * The best of n timed runs (the machine is shared): the least wall time and,
 * apart, the least CPU time and peak RSS; then the digest.
 */
static int best_of(char *const argv[], int n, struct result *best)
{
	struct result d;

	for (int i = 0; i < n; i++) {
		struct result r;

		if (run(argv, &r, false))
			return -1;
		if (r.status)
			return r.status;
		if (!i) {
			*best = r;
			continue;
		}
		if (r.wall < best->wall)
			best->wall = r.wall;
		if (r.cpu < best->cpu)
			best->cpu = r.cpu;
		if (r.rss_kb < best->rss_kb)
			best->rss_kb = r.rss_kb;
	}
	if (run(argv, &d, true))
		return -1;
	if (d.status)
		return d.status;
	best->bytes = d.bytes;
	best->hash = d.hash;
	best->samples = d.samples;
	best->unit = d.unit;
	return 0;
}

int main(int argc, char **argv)
{
	const char *file = "build/bench/report.data", *perf = "perf", *pc = "build/perfcheck";
	const char *pcwork = "build/pcwork";
	unsigned long long max_samples = 1000000;
	int runs = 1, seconds = 20;
	struct result rp, rc;
	struct stat st;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--file") && i + 1 < argc)
			file = argv[++i];
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--max-samples") && i + 1 < argc)
			max_samples = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--perf") && i + 1 < argc)
			perf = argv[++i];
		else if (!strcmp(argv[i], "--perfcheck") && i + 1 < argc)
			pc = argv[++i];
		else if (!strcmp(argv[i], "--pcwork") && i + 1 < argc)
			pcwork = argv[++i];
		else {
			fprintf(stderr, "usage: %s [--file F] [--seconds S] [--max-samples N] "
				"[--runs N] [--perf PATH] [--perfcheck PATH] [--pcwork PATH]\n",
				argv[0]);
			return 1;
		}
	}
	if (runs < 1)
		runs = 1;
	if (seconds < 1)
		seconds = 1;
	if (stat(file, &st) && record(perf, pcwork, file, seconds, max_samples)) {
		fprintf(stderr, "cannot record %s with %s\n", file, perf);
		return 1;
	}
	if (stat(file, &st)) {
		fprintf(stderr, "%s: %s\n", file, strerror(errno));
		return 1;
	}
	{
		char *pargv[] = { (char *)perf, "report", "--stdio", "-i", (char *)file, NULL };
		char *cargv[] = { (char *)pc, "report", "--stdio", "--compat", "6.1", "-i",
				  (char *)file, NULL };
		int ret;

		ret = best_of(pargv, runs, &rp);
		if (ret) {
			fprintf(stderr, "perf report failed (%d)\n", ret);
			return 1;
		}
		ret = best_of(cargv, runs, &rc);
		if (ret) {
			fprintf(stderr, "perfcheck report failed (%d)\n", ret);
			return 1;
		}
	}
	printf("file: %s, %.1f MB, %llu%c samples (perf's count), best of %d run%s each\n", file,
	       (double)st.st_size / 1048576.0, rp.samples, rp.unit, runs, runs > 1 ? "s" : "");
	printf("%-26s %9s %9s %12s %12s  %s\n", "tool", "wall s", "cpu s", "peak RSS MB",
	       "bytes out", "output FNV-1a");
	row("perf report --stdio", &rp);
	row("perfcheck report --stdio", &rc);
	printf("ratio perf/perfcheck: wall %.1fx, cpu %.1fx; same output: %s\n",
	       rp.wall / (rc.wall > 0 ? rc.wall : 1e-9), rp.cpu / (rc.cpu > 0 ? rc.cpu : 1e-9),
	       rp.hash == rc.hash && rp.bytes == rc.bytes ? "yes" : "NO");
	return rp.hash == rc.hash && rp.bytes == rc.bytes ? 0 : 1;
}
