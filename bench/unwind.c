// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF unwinding against perf script, in one run, on one perf.data file
 * recorded with `perf record --call-graph dwarf` (about 100k samples):
 * lib/symbols/unwind (and symbols for every frame, formatted as perf
 * prints them) against `perf script --no-inline` on the same file, and
 * with inline frames (lib/symbols/srcline) against perf script's default,
 * which shows them.  Wall and CPU time, samples, user frames, the ratio.
 * Goal (issue 13): at least 10x faster.
 *
 *   build/bench/unwind [--file F] [--samples N] [--period NS] [--perf PATH] [--keep]
 *
 * Without an existing --file (default build/bench/unwind.data) a workload
 * is built here (cc -O2 -g -fomit-frame-pointer: main -> a -> b -> c and an
 * inlined function) and recorded with cpu-clock every --period ns (default
 * 50000) for N * period of CPU time, so that the file holds about N samples
 * (--samples, default 100000); the recording is stopped after four times
 * that in wall time, whatever the machine's speed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfdata/perfdata.h"
#include "selftests/lib/pdmaps.h"
#include "symbols/srcline.h"
#include "symbols/unwind.h"

static const char workload_src[] =
	"#include <stdlib.h>\n"
	"#include <time.h>\n"
	"volatile unsigned long sink;\n"
	"__attribute__((noinline)) void c(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 3; }\n"
	"__attribute__((noinline)) void b(unsigned long n) { c(n); sink++; }\n"
	"__attribute__((noinline)) void a(unsigned long n) { b(n); sink++; }\n"
	"static inline __attribute__((always_inline)) void inl(unsigned long n)\n"
	"{ for (unsigned long i = 0; i < n; i++) sink ^= i; }\n"
	"__attribute__((noinline)) void d(unsigned long n) { inl(n); sink++; }\n"
	"static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);\n"
	"	return t.tv_sec + t.tv_nsec / 1e9; }\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	double secs = argc > 1 ? strtod(argv[1], 0) : 1;\n"
	"	while (cpu() < secs) { a(200000); d(200000); }\n"
	"	return 0;\n"
	"}\n";

static double now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run_wait(char *const argv[], int out_fd, double limit_s)
{
	double t0 = now_s(CLOCK_MONOTONIC);
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		if (out_fd >= 0)
			dup2(out_fd, 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (limit_s > 0 && now_s(CLOCK_MONOTONIC) - t0 > limit_s) {
			fprintf(stderr, "bench/unwind: %s ran past %.0f s, stopping it\n", argv[0], limit_s);
			kill(pid, SIGINT);
			limit_s = 0;
		}
		usleep(20000);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int record(const char *perf, const char *file, unsigned long samples, unsigned long period)
{
	char dir[4096], src[4200], work[4200], secs[32], per[32];
	double cpu_s = (double)samples * (double)period / 1e9;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", file);
	*(strrchr(dir, '/') ? strrchr(dir, '/') : dir) = '\0';
	snprintf(src, sizeof(src), "%s/unwind-work.c", dir[0] ? dir : ".");
	snprintf(work, sizeof(work), "%s/unwind-work", dir[0] ? dir : ".");
	f = fopen(src, "w");
	if (!f)
		return -errno;
	fputs(workload_src, f);
	fclose(f);
	{
		char *cc[] = { "cc", "-O2", "-g", "-fomit-frame-pointer", "-o", work, src, NULL };

		if (run_wait(cc, -1, 0))
			return -EINVAL;
	}
	snprintf(secs, sizeof(secs), "%.3f", cpu_s);
	snprintf(per, sizeof(per), "%lu", period);
	fprintf(stderr, "bench/unwind: recording %s (%s s of CPU, a sample every %s ns)\n", file,
		secs, per);
	{
		/* 2 KiB of stack per sample is more than this workload's chain needs */
		char *rec[] = { (char *)perf, "record", "-q", "--call-graph", "dwarf,2048", "-e",
				"cpu-clock", "-c", per, "-o", (char *)file, "--", work, secs, NULL };

		return run_wait(rec, -1, 4 * cpu_s + 30) ? -EINVAL : 0;
	}
}

/* Output as perf script's frame lines, without stdio's formatting per line. */
struct outbuf {
	FILE *f;
	size_t len;
	char b[1 << 16];
};

static void out_flush(struct outbuf *o)
{
	fwrite(o->b, 1, o->len, o->f);
	o->len = 0;
}

static void out_str(struct outbuf *o, const char *s)
{
	size_t n = strlen(s);

	if (o->len + n > sizeof(o->b))
		out_flush(o);
	if (n > sizeof(o->b))
		n = sizeof(o->b);
	memcpy(o->b + o->len, s, n);
	o->len += n;
}

/* "\t%16llx " */
static void out_addr(struct outbuf *o, uint64_t v)
{
	char t[20];
	int i = 17;

	t[18] = ' ', t[19] = '\0';
	do {
		t[i--] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v && i > 1);
	while (i > 1)
		t[i--] = ' ';
	t[0] = '\t', t[1] = ' ';
	out_str(o, t);
}

/*
 * "sym+0xoff" per (pid, ip), formatted once: a consumer prints the same
 * few thousand addresses again and again (the reader would keep them per
 * map; this keeps them per process).
 */
struct symcache_ent {
	uint64_t ip;
	uint32_t pid;
	uint64_t rel;
	struct symcache_ent *next;
	/* inline frames at ip, looked up once when asked (nr_inl < 0: not yet) */
	int nr_inl;
	const char *inl[8];
	char sym[];
};

#define SYMCACHE_BUCKETS 65536

static struct symcache_ent *symcache[SYMCACHE_BUCKETS];

static struct symcache_ent *describe(struct pdmaps *maps, uint32_t pid, uint64_t ip)
{
	size_t b = (size_t)((ip * 0x9e3779b97f4a7c15ULL) >> 48) % SYMCACHE_BUCKETS;
	struct symcache_ent *e;
	char sym[256];
	uint64_t rel;

	for (e = symcache[b]; e; e = e->next)
		if (e->ip == ip && e->pid == pid)
			return e;
	pdmaps_describe(maps, pid, ip, &rel, sym, sizeof(sym));
	e = malloc(sizeof(*e) + strlen(sym) + 1);
	if (!e)
		return NULL;
	e->ip = ip;
	e->pid = pid;
	e->rel = rel;
	e->nr_inl = -1;
	strcpy(e->sym, sym);
	e->next = symcache[b];
	symcache[b] = e;
	return e;
}

static void symcache_free(void)
{
	for (size_t b = 0; b < SYMCACHE_BUCKETS; b++) {
		struct symcache_ent *e = symcache[b], *n;

		for (; e; e = n) {
			n = e->next;
			free(e);
		}
		symcache[b] = NULL;
	}
}

struct result {
	double wall, cpu;
	uint64_t samples, frames;
	uint64_t fast, slow;	/* samples through compiled CFI rows, through libdwfl */
};

static double cpu_self(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

static double cpu_children(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

/* Reads, unwinds and formats every sample's user chain to out (perf's frame lines). */
static int ours(const char *file, bool inlines, FILE *f, struct result *res)
{
	static struct outbuf ob;
	struct outbuf *out = &ob;
	double w0 = now_s(CLOCK_MONOTONIC), c0 = cpu_self();
	struct pc_srcline_cache *sl = inlines ? pc_srcline_new(NULL) : NULL;
	struct pc_error err = { 0 };
	struct pc_unwinder *u;
	struct pd_reader r;
	struct pd_record rec;
	struct pdmaps maps;
	uint64_t pos = 0, ips[128];
	char arch[64] = "x86_64";
	int ret;

	memset(res, 0, sizeof(*res));
	ob.f = f;
	ob.len = 0;
	if (pd_reader_open(&r, file, &err)) {
		fprintf(stderr, "bench/unwind: %s\n", err.msg);
		return -1;
	}
	pd_reader_feature_string(&r, PD_FEAT_ARCH, arch, sizeof(arch), &err);
	u = pc_unwinder_new(pc_arch_from_name(arch), NULL);
	pdmaps_init(&maps);
	while ((ret = pd_reader_next(&r, &pos, &rec, &err)) == 1) {
		struct pd_sample s;
		struct pc_unwind_sample us;
		uint32_t nr;

		pdmaps_record(&maps, &rec);
		if (rec.header.type != PERF_RECORD_SAMPLE || pd_parse_sample(&r, &rec, &s, &err))
			continue;
		us = (struct pc_unwind_sample){
			.pid = s.pid, .tid = s.tid, .regs_abi = s.regs_user.abi,
			.regs_mask = s.evsel->attr.attr.sample_regs_user, .regs = s.regs_user.regs,
			.nr_regs = (uint64_t)__builtin_popcountll(s.evsel->attr.attr.sample_regs_user),
			.stack = s.stack_user.data, .stack_size = s.stack_user.size,
			.stack_dyn_size = s.stack_user.dyn_size,
			.find_map = pdmaps_find, .map_ctx = &maps,
			.maps_gen = pdmaps_gen(&maps, s.pid),
		};
		maps.cur_pid = s.pid;
		if (pc_unwind(u, &us, ips, 127, &nr, &err))
			nr = 0;
		res->samples++;
		res->frames += nr;
		if (!f)
			continue;	/* unwinding alone */
		{
			char head[64];

			snprintf(head, sizeof(head), "%u %" PRIu64 "\n", s.tid, s.time);
			out_str(out, head);
		}
		for (uint32_t i = 0; i < nr; i++) {
			struct pc_unwind_map m;
			struct pc_src_frame fr[16];
			uint32_t nfr = 0;
			struct symcache_ent *d = describe(&maps, s.pid, ips[i]);
			uint64_t rel = d ? d->rel : ips[i];
			const char *sym = d ? d->sym : "[unknown]";

			if (sl && d && d->nr_inl < 0) {
				d->nr_inl = 0;
				if (!pdmaps_find(&maps, ips[i], &m) && m.path &&
				    !pc_srcline_frames(sl, m.path, rel, fr, 16, &nfr))
					for (uint32_t k = 0; k + 1 < nfr && d->nr_inl < 8; k++)
						d->inl[d->nr_inl++] = fr[k].func ? fr[k].func : "??";
			}
			for (int k = 0; sl && d && k < d->nr_inl; k++) {
				out_addr(out, rel);
				out_str(out, d->inl[k]);
				out_str(out, " (inlined)\n");
			}
			out_addr(out, rel);
			out_str(out, sym);
			out_str(out, "\n");
		}
		out_str(out, "\n");
	}
	if (f)
		out_flush(out);
	symcache_free();
	res->fast = pc_unwinder_stats(u)->fast;
	res->slow = pc_unwinder_stats(u)->slow;
	pc_unwinder_free(u);
	pc_srcline_free(sl);
	pdmaps_free(&maps);
	pd_reader_close(&r);
	res->wall = now_s(CLOCK_MONOTONIC) - w0;
	res->cpu = cpu_self() - c0;
	return ret;
}

static int perf_script(const char *perf, const char *file, bool inlines, int null_fd,
		       struct result *res)
{
	char *argv[] = { (char *)perf, "script", "-i", (char *)file,
			 inlines ? "--inline" : "--no-inline", NULL };
	double w0 = now_s(CLOCK_MONOTONIC), c0 = cpu_children();
	int st = run_wait(argv, null_fd, 0);

	res->wall = now_s(CLOCK_MONOTONIC) - w0;
	res->cpu = cpu_children() - c0;
	return st;
}

int main(int argc, char **argv)
{
	const char *file = "build/bench/unwind.data", *perf = "perf";
	unsigned long samples = 100000, period = 50000;
	struct result o, p, oi, pi, ou;
	struct stat st;
	FILE *null;
	int null_fd;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--file") && i + 1 < argc)
			file = argv[++i];
		else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
			samples = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--period") && i + 1 < argc)
			period = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--perf") && i + 1 < argc)
			perf = argv[++i];
		else {
			fprintf(stderr, "usage: %s [--file F] [--samples N] [--period NS] [--perf PATH]\n",
				argv[0]);
			return 129;
		}
	}
	if (stat(file, &st) && record(perf, file, samples, period)) {
		fprintf(stderr, "bench/unwind: could not record %s with %s\n", file, perf);
		return 1;
	}
	null = fopen("/dev/null", "w");
	null_fd = null ? fileno(null) : -1;
	if (getenv("UNWIND_OURS_ONLY")) { ours(file, false, getenv("UNWIND_NO_OUTPUT") ? NULL : null, &o); printf("%.3f s, fast %" PRIu64 " slow %" PRIu64 "\n", o.wall, o.fast, o.slow); return 0; }
	if (!null || ours(file, false, NULL, &ou) || ours(file, false, null, &o) ||
	    ours(file, true, null, &oi))
		return 1;
	if (perf_script(perf, file, false, null_fd, &p) || perf_script(perf, file, true, null_fd, &pi)) {
		fprintf(stderr, "bench/unwind: %s script failed\n", perf);
		return 1;
	}
	printf("file %s: %" PRIu64 " samples, %" PRIu64 " user frames unwound (%.1f per sample)\n",
	       file, o.samples, o.frames, o.samples ? (double)o.frames / (double)o.samples : 0.0);
	printf("%-34s %9s %9s\n", "", "wall s", "cpu s");
	printf("%-34s %9.2f %9.2f\n", "perfcheck read + unwind only", ou.wall, ou.cpu);
	printf("%-34s %9.2f %9.2f\n", "perfcheck unwind + symbols", o.wall, o.cpu);
	printf("%-34s %9.2f %9.2f\n", "perf script --no-inline", p.wall, p.cpu);
	printf("%-34s %9.2f %9.2f\n", "perfcheck unwind + inline frames", oi.wall, oi.cpu);
	printf("%-34s %9.2f %9.2f\n", "perf script (inline frames)", pi.wall, pi.cpu);
	printf("perfcheck: %" PRIu64 " samples from compiled CFI rows, %" PRIu64 " through libdwfl's unwinder\n",
	       o.fast, o.slow);
	printf("ratio (perf / perfcheck), wall: %.1fx without inline frames, %.1fx with (goal: 10x)\n",
	       o.wall > 0 ? p.wall / o.wall : 0.0, oi.wall > 0 ? pi.wall / oi.wall : 0.0);
	printf("ratio (perf / perfcheck), cpu:  %.1fx without inline frames, %.1fx with\n",
	       o.cpu > 0 ? p.cpu / o.cpu : 0.0, oi.cpu > 0 ? pi.cpu / oi.cpu : 0.0);
	fclose(null);
	return 0;
}
