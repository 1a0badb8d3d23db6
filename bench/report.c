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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/lib/timed.h"

struct result {
	struct bench_time t;
	uint64_t bytes, hash;
	unsigned long long samples;	/* from the "# Samples:" line */
	char unit;			/* its unit: K, M, G or ' ' */
};

/* The digest run's output, kept whole: perf's tip at its end is cut before hashing. */
struct whole {
	char *all;
	size_t len, cap;
	bool failed;
};

static void keep(void *ctx, const char *buf, size_t n)
{
	struct whole *w = ctx;

	if (w->failed)
		return;
	if (w->len + n + 1 > w->cap) {
		size_t nc = w->cap ? 2 * w->cap : (1 << 20);
		char *v;

		while (nc < w->len + n + 1)
			nc *= 2;
		v = realloc(w->all, nc);
		if (!v) {
			w->failed = true;
			return;
		}
		w->all = v;
		w->cap = nc;
	}
	memcpy(w->all + w->len, buf, n);
	w->len += n;
}

/* The tip perf prints last ("\n#\n# (Tip: ...)\n#\n") is random: stop hashing there. */
static const char tip[] = "\n#\n# (Tip:";

/* Size and FNV-1a up to perf's tip, and the sample count of the output. */
static void digest(struct result *res, struct whole *w)
{
	size_t len = w->len;
	char *cut, *s;

	res->hash = 1469598103934665603ULL;
	if (!w->all)
		return;
	w->all[len] = '\0';
	cut = strstr(w->all, tip);
	if (cut)
		len = (size_t)(cut - w->all) + 1;
	for (size_t i = 0; i < len; i++)
		res->hash = (res->hash ^ (unsigned char)w->all[i]) * 1099511628211ULL;
	res->bytes = len;
	s = strstr(w->all, "# Samples: ");
	if (s) {
		char *unit;

		/* perf's count: 391K is 391 thousand (rounded down) */
		res->samples = strtoull(s + 11, &unit, 10);
		res->unit = *unit == 'K' || *unit == 'M' || *unit == 'G' ? *unit : ' ';
	}
}

static int record(const char *perf, const char *pcwork, const char *file, int seconds,
		  unsigned long long max_samples)
{
	char cmd[1024], size[32], ms[32];
	char *argv[] = { (char *)perf, "record", "-q", "-e", "cpu-clock", "-c", "10000", "-g",
			 "--max-size", size, "-o", (char *)file, "--", "sh", "-c", cmd, NULL };
	struct bench_time r;

	snprintf(size, sizeof(size), "%lluK", max_samples * 512 / 1024 + 1);
	snprintf(ms, sizeof(ms), "%d", seconds * 1000);
	snprintf(cmd, sizeof(cmd),
		 "'%s' spin %s & '%s' syscalls %s & "
		 "timeout %d sh -c 'while :; do ls -l /usr/bin /usr/lib >/dev/null; done'; wait",
		 pcwork, ms, pcwork, ms, seconds);
	fprintf(stderr, "recording %s with %s for %d s (at most %llu samples)...\n", file, perf,
		seconds, max_samples);
	if (bench_run(argv, &r, NULL, NULL) || !bench_recorded(file, r.status))
		return -1;
	return 0;
}

static void row(const char *name, const struct result *r)
{
	printf("%-26s %9.2f %9.2f %12.1f %12llu  %016llx\n", name, r->t.wall, r->t.cpu,
	       (double)r->t.rss_kb / 1024.0, (unsigned long long)r->bytes,
	       (unsigned long long)r->hash);
}

/* The best of n timed runs, then the digest of one more. */
static int best_of(char *const argv[], int n, struct result *res)
{
	struct whole w = { 0 };
	int ret;

	memset(res, 0, sizeof(*res));
	ret = bench_best_of(argv, n, &res->t, keep, &w);
	if (!ret && w.failed)
		ret = -ENOMEM;
	if (!ret)
		digest(res, &w);
	free(w.all);
	return ret;
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
	       rp.t.wall / (rc.t.wall > 0 ? rc.t.wall : 1e-9),
	       rp.t.cpu / (rc.t.cpu > 0 ? rc.t.cpu : 1e-9),
	       rp.hash == rc.hash && rp.bytes == rc.bytes ? "yes" : "NO");
	return rp.hash == rc.hash && rp.bytes == rc.bytes ? 0 : 1;
}
