// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record against the system perf record, in one run, on the same
 * workloads: a two-thread CPU-bound program (-F 10000 -g: 20,000 samples/s
 * on two cpus) and a fork-heavy one.  For each recorder: its own CPU time
 * (its rusage minus the workload's, which the workload reports itself),
 * wall time, samples in the file, records lost, file size, and the ratios.
 * Goal (issue 4): less recorder CPU than perf, no lost samples at 20,000/s.
 * A third case records the two threads with --call-graph dwarf at 4 kHz
 * (8 KiB of user stack per sample): goal (issue 14) recorder CPU at most
 * 0.5x perf's, no loss where perf loses none; bytes written per second.
 * A fourth records the first with -z (issue 14): recorder CPU at most
 * 0.5x perf's, file size within 5% of perf's; the samples of a compressed
 * file are counted here by decompressing its COMPRESSED records (libzstd).
 *
 *   build/bench/record [--seconds S] [--reps N] [--freq F] [--perf PATH] [--perfcheck PATH]
 *                      [--only threads|forks|dwarf|z]
 *   (the workloads are modes of this binary: --workload threads|forks SECONDS)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <zstd.h>

#include "perfdata/perfdata.h"
#include "util/log.h"

/* ------------------------------------------------------------ workloads */

#define WL_FN __attribute__((noinline, optimize("no-omit-frame-pointer")))

static volatile unsigned long wl_sink;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

WL_FN static void wl_leaf(void)
{
	for (int i = 0; i < 2000; i++)
		wl_sink += (unsigned long)i * 7;
}

WL_FN static void wl_mid(void)
{
	wl_leaf();
	wl_sink++;
}

WL_FN static void wl_spin(double secs)
{
	double end = now_s() + secs;

	while (now_s() < end)
		for (int i = 0; i < 20; i++)
			wl_mid();
}

static void *wl_thread(void *arg)
{
	wl_spin(*(double *)arg);
	return NULL;
}

static double tv_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/* The workload's own CPU, children included, for the parent to subtract. */
static void wl_report(void)
{
	const char *path = getenv("BENCH_RUSAGE");
	struct rusage self, kids;
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	fprintf(f, "%.6f\n", tv_s(self.ru_utime) + tv_s(self.ru_stime) + tv_s(kids.ru_utime) +
		tv_s(kids.ru_stime));
	fclose(f);
}

static int wl_main(const char *mode, double secs)
{
	if (!strcmp(mode, "threads")) {
		pthread_t t;

		if (pthread_create(&t, NULL, wl_thread, &secs))
			return 1;
		wl_spin(secs);
		pthread_join(t, NULL);
	} else if (!strcmp(mode, "forks")) {
		double end = now_s() + secs;

		/* two forking loops, one per cpu, children doing a little work */
		pid_t other = fork();

		while (now_s() < end) {
			pid_t pid = fork();
			int status;

			if (pid == 0) {
				wl_spin(0.001);
				_exit(0);
			}
			if (pid > 0)
				waitpid(pid, &status, 0);
		}
		if (other == 0)
			_exit(0);
		if (other > 0) {
			int status;

			waitpid(other, &status, 0);
		}
	} else {
		return 2;
	}
	wl_report();
	return 0;
}

/* ------------------------------------------------------------ measuring */

struct result {
	bool ok;
	double cpu;		/* recorder's own user+sys seconds */
	double wall;
	double workload_cpu;
	uint64_t samples, lost, lost_samples;
	uint64_t size;
};

static void count_record(const struct perf_event_header *h, const uint64_t *u,
			 struct result *res)
{
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		res->samples++;
		break;
	case PERF_RECORD_LOST:
		if (h->size >= 24)
			res->lost += u[2];
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (h->size >= 16)
			res->lost_samples += u[1];
		break;
	}
}

/*
 * The records inside PERF_RECORD_COMPRESSED records: one zstd stream across
 * the file; a record may straddle two of them, so the tail is carried.
 */
struct decomp {
	ZSTD_DCtx *d;
	uint8_t *buf;
	size_t len, cap;
};

static int decompress(struct decomp *dc, const uint8_t *src, size_t len, struct result *res)
{
	ZSTD_inBuffer in = { src, len, 0 };

	while (in.pos < in.size) {
		ZSTD_outBuffer out;
		size_t ret, off = 0;

		if (dc->cap - dc->len < 65536) {
			uint8_t *b = realloc(dc->buf, dc->cap * 2 + 65536);

			if (!b)
				return -1;
			dc->buf = b;
			dc->cap = dc->cap * 2 + 65536;
		}
		out = (ZSTD_outBuffer){ dc->buf + dc->len, dc->cap - dc->len, 0 };
		ret = ZSTD_decompressStream(dc->d, &out, &in);
		if (ZSTD_isError(ret)) {
			fprintf(stderr, "bench/record: zstd: %s\n", ZSTD_getErrorName(ret));
			return -1;
		}
		dc->len += out.pos;
		while (dc->len - off >= sizeof(struct perf_event_header)) {
			struct perf_event_header h;
			uint64_t u[3] = { 0 };

			memcpy(&h, dc->buf + off, sizeof(h));
			if (h.size < sizeof(h))
				return -1;
			if (h.size > dc->len - off)
				break;
			memcpy(u, dc->buf + off, h.size < sizeof(u) ? h.size : sizeof(u));
			count_record(&h, u, res);
			off += h.size;
		}
		memmove(dc->buf, dc->buf + off, dc->len - off);
		dc->len -= off;
	}
	return 0;
}

static int read_file(const char *path, struct result *res)
{
	struct decomp dc = { ZSTD_createDCtx(), NULL, 0, 0 };
	struct pc_error err = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	uint64_t pos = 0;
	struct stat st;
	int ret;

	if (stat(path, &st))
		return -1;
	res->size = (uint64_t)st.st_size;
	if (pd_reader_open(&r, path, &err)) {
		fprintf(stderr, "bench/record: %s\n", err.msg);
		return -1;
	}
	while ((ret = pd_reader_next(&r, &pos, &rec, &err)) == 1) {
		if (rec.header.type == PC_RECORD_COMPRESSED) {
			if (!dc.d || decompress(&dc, (const uint8_t *)rec.data + 8,
						rec.header.size - 8, res)) {
				ret = -1;
				snprintf(err.msg, sizeof(err.msg), "cannot decompress the COMPRESSED "
					 "record at 0x%llx", (unsigned long long)rec.offset);
				break;
			}
			continue;
		}
		count_record(&rec.header, rec.data, res);
	}
	if (ret < 0)
		fprintf(stderr, "bench/record: %s\n", err.msg);
	ZSTD_freeDCtx(dc.d);
	free(dc.buf);
	pd_reader_close(&r);
	return ret < 0 ? -1 : 0;
}

struct bench_case {
	const char *name;		/* the row's title and file tag */
	const char *workload;		/* the mode of this binary */
	const char *callgraph;		/* --call-graph argument */
	unsigned int freq;		/* 0: the command line's */
	double cpu_goal;		/* recorder CPU at most this times perf's */
	bool z;				/* -z: file size per sample within 5% of perf's */
};

static int run_one(const char *recorder, const char *self, const struct bench_case *bc,
		   double secs, unsigned int freq, const char *dir, const char *tag,
		   struct result *res)
{
	const char *mode = bc->name;
	char out[PATH_MAX], rusage_path[PATH_MAX], freq_s[16], secs_s[32];
	struct rusage ru;
	int status;
	double t0;
	pid_t pid;
	FILE *f;

	memset(res, 0, sizeof(*res));
	snprintf(out, sizeof(out), "%s/%s-%s.data", dir, tag, mode);
	snprintf(rusage_path, sizeof(rusage_path), "%s/%s-%s.rusage", dir, tag, mode);
	snprintf(freq_s, sizeof(freq_s), "%u", bc->freq ? bc->freq : freq);
	snprintf(secs_s, sizeof(secs_s), "%g", secs);
	unlink(rusage_path);
	t0 = now_s();
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)recorder, "record", "-q", "-e", "cpu-clock", "-F", freq_s,
				 "--call-graph", (char *)bc->callgraph, "-o", out,
				 bc->z ? "-z" : "-q" /* a second -q: no option */, "--", (char *)self,
				 "--workload",
				 (char *)bc->workload, secs_s, NULL };
		int nul = open("/dev/null", O_RDWR);

		setenv("BENCH_RUSAGE", rusage_path, 1);
		dup2(nul, 0);
		dup2(nul, 1);
		execv(recorder, argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		return -1;
	res->wall = now_s() - t0;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench/record: %s exited with status 0x%x\n", recorder, status);
		return -1;
	}
	f = fopen(rusage_path, "r");
	if (!f || fscanf(f, "%lf", &res->workload_cpu) != 1) {
		if (f)
			fclose(f);
		fprintf(stderr, "bench/record: the workload did not report its CPU time\n");
		return -1;
	}
	fclose(f);
	/* wait4 counts the recorder and every descendant it reaped: the workload */
	res->cpu = tv_s(ru.ru_utime) + tv_s(ru.ru_stime) - res->workload_cpu;
	if (read_file(out, res))
		return -1;
	unlink(out);
	res->ok = true;
	return 0;
}

static void print_row(const char *name, const struct result *r)
{
	printf("  %-10s %9.3f %8.2f %8.2f %10llu %9.0f %8llu %8llu %9.2f\n", name, r->cpu, r->wall,
	       r->workload_cpu, (unsigned long long)r->samples,
	       r->workload_cpu > 0 ? r->samples / r->workload_cpu : 0, (unsigned long long)r->lost,
	       (unsigned long long)r->lost_samples, r->size / 1048576.0);
}

static void add(struct result *sum, const struct result *r)
{
	sum->cpu += r->cpu;
	sum->wall += r->wall;
	sum->workload_cpu += r->workload_cpu;
	sum->samples += r->samples;
	sum->lost += r->lost;
	sum->lost_samples += r->lost_samples;
	sum->size += r->size;
}

static void scale(struct result *r, int n)
{
	r->cpu /= n;
	r->wall /= n;
	r->workload_cpu /= n;
	r->samples /= (uint64_t)n;
	r->size /= (uint64_t)n;
}

int main(int argc, char **argv)
{
	const char *perf = "/usr/bin/perf", *perfcheck = NULL, *only = NULL;
	static const struct bench_case modes[] = {
		{ "threads", "threads", "fp", 0, 1.0 },
		{ "forks", "forks", "fp", 0, 1.0 },
		{ "dwarf", "threads", "dwarf", 4000, 0.5 },
		{ "z", "threads", "fp", 0, 0.5, true },
	};
	char self[PATH_MAX], pcpath[PATH_MAX], dirt[] = "/tmp/perfcheck-bench-record-XXXXXX";
	double secs = 5;
	unsigned int freq = 10000;
	long max_rate = 0;
	int reps = 1, fails = 0;
	ssize_t n;

	if (argc >= 4 && !strcmp(argv[1], "--workload"))
		return wl_main(argv[2], atof(argv[3]));
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			secs = atof(argv[++i]);
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--freq") && i + 1 < argc)
			freq = (unsigned int)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--perf") && i + 1 < argc)
			perf = argv[++i];
		else if (!strcmp(argv[i], "--perfcheck") && i + 1 < argc)
			perfcheck = argv[++i];
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else {
			fprintf(stderr, "usage: %s [--seconds S] [--reps N] [--freq F] [--perf PATH] "
				"[--perfcheck PATH] [--only threads|forks|dwarf|z]\n", argv[0]);
			return 2;
		}
	}
	if (secs <= 0 || reps < 1 || !freq)
		return 2;
	pc_verbose = -1;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	if (!perfcheck) {
		/* build/bench/record -> build/perfcheck */
		snprintf(pcpath, sizeof(pcpath), "%s", self);
		*strrchr(pcpath, '/') = '\0';
		*strrchr(pcpath, '/') = '\0';
		strncat(pcpath, "/perfcheck", sizeof(pcpath) - strlen(pcpath) - 1);
		perfcheck = pcpath;
	}
	if (access(perf, X_OK) || access(perfcheck, X_OK)) {
		fprintf(stderr, "bench/record: needs %s and %s\n", perf, perfcheck);
		return 1;
	}
	FILE *mf = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");

	if (mf) {
		if (fscanf(mf, "%ld", &max_rate) != 1)
			max_rate = 0;
		fclose(mf);
	}
	if (max_rate > 0 && freq > max_rate) {
		printf("note: kernel.perf_event_max_sample_rate is %ld (the kernel lowers it when "
		       "sampling interrupts run long); using -F %ld instead of %u\n",
		       max_rate, max_rate, freq);
		freq = (unsigned int)max_rate;
	}
	if (!mkdtemp(dirt))
		return 1;

	printf("perf record vs perfcheck record: -e cpu-clock -F %u, %g s per run, %d run(s) "
	       "each, %ld cpus\n", freq, secs, reps, sysconf(_SC_NPROCESSORS_ONLN));
	printf("recorder CPU = the recorder's rusage minus the workload's own (self + children)\n");
	printf("wl-cpu = the workload's CPU seconds; smp/wl-s = samples per workload CPU second\n"
	       "(-F 10000: 10,000 per CPU second, 20,000/s of wall time while both threads have a cpu)\n");
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct result sum[2] = { { 0 } }, r;
		int ok[2] = { 0, 0 };

		if (only && strcmp(only, modes[m].name))
			continue;
		for (int rep = 0; rep < reps; rep++) {
			/* alternate, so that drifts hit both alike */
			for (int k = 0; k < 2; k++) {
				int who = (rep % 2) ? 1 - k : k;

				if (run_one(who ? perfcheck : perf, self, &modes[m], secs, freq, dirt,
					    who ? "perfcheck" : "perf", &r)) {
					fails++;
					continue;
				}
				add(&sum[who], &r);
				ok[who]++;
			}
		}
		printf("\nworkload: %s (%s; --call-graph %s%s)\n", modes[m].name,
		       strcmp(modes[m].workload, "forks") ? "two CPU-bound threads"
							   : "two loops of fork + 1 ms child + wait",
		       modes[m].callgraph, modes[m].freq ? ", -F 4000" : modes[m].z ? ", -z" : "");
		printf("  %-10s %9s %8s %8s %10s %9s %8s %8s %9s\n", "recorder", "cpu(s)", "wall(s)",
		       "wl-cpu(s)", "samples", "smp/wl-s", "lost", "lost_smp", "size(MB)");
		for (int who = 0; who < 2; who++) {
			if (!ok[who]) {
				printf("  %-10s (failed)\n", who ? "perfcheck" : "perf");
				continue;
			}
			scale(&sum[who], ok[who]);
			print_row(who ? "perfcheck" : "perf", &sum[who]);
		}
		if (ok[0] && ok[1])
			printf("  ratio perfcheck/perf: cpu %.2f, wall %.2f, samples %.2f, size %.2f\n",
			       sum[0].cpu > 0 ? sum[1].cpu / sum[0].cpu : 0,
			       sum[0].wall > 0 ? sum[1].wall / sum[0].wall : 0,
			       sum[0].samples ? (double)sum[1].samples / sum[0].samples : 0,
			       sum[0].size ? (double)sum[1].size / sum[0].size : 0);
		for (int who = 0; who < 2; who++)
			if (ok[who])
				printf("  %-10s writes %.2f MB/s of wall time\n",
				       who ? "perfcheck" : "perf",
				       sum[who].wall > 0 ? sum[who].size / 1048576.0 / sum[who].wall : 0);
		if (ok[1])
			printf("  goal: recorder cpu at most %.1fx perf's: %s; no lost records: %s\n",
			       modes[m].cpu_goal,
			       ok[0] && sum[1].cpu <= modes[m].cpu_goal * sum[0].cpu ? "yes" : "NO",
			       sum[1].lost + sum[1].lost_samples == 0 ? "yes" :
			       ok[0] && sum[0].lost + sum[0].lost_samples ? "no (perf lost too)" : "NO");
		if (ok[1] && modes[m].z) {
			/* the workloads got different cpu: compare the bytes per sample */
			double bp = sum[0].samples ? (double)sum[0].size / sum[0].samples : 0;
			double bc = sum[1].samples ? (double)sum[1].size / sum[1].samples : 0;
			double sr = ok[0] && bp > 0 ? bc / bp : 0;

			printf("  file bytes per sample: perf %.2f, perfcheck %.2f\n", bp, bc);
			printf("  goal: size (per sample) within 5%% of perf's: %s (%+.1f%%)\n",
			       sr >= 0.95 && sr <= 1.05 ? "yes" : sr < 0.95 && sr > 0 ?
			       "yes, smaller" : "NO", (sr - 1) * 100);
		}
	}
	rmdir(dirt);
	return fails ? 1 : 0;
}
