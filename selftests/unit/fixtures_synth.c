// SPDX-License-Identifier: GPL-2.0
/*
 * The synthesized callchain fixtures (fixtures/callchain/synth-*): the
 * deferred-callchain edge cases no kernel produces on demand, written with
 * selftests/lib/synth.c against the real pcwork binary's symbols, so that
 * their replay prints pcwork's function names.
 *
 *   fixtures_synth --write DIR PCWORK   writes DIR/synth-NAME/ (perf.data,
 *                                       meta, symfs/perfcheck/pcwork)
 *
 * As a test it regenerates each case from the pcwork copy the fixture ships
 * and checks that the fixture's records are exactly what this file says
 * (the header differs: it names the machine that wrote it).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/synth.h"
#include "lib/testutil.h"
#include "symbols/symbols.h"

#define PCWORK_PATH "/perfcheck/pcwork"
#define PID 100
#define KBASE 0xffffffff81000000ULL

struct syms {
	struct pc_dso_cache cache;
	struct pc_dso *dso;
};

static int syms_open(struct syms *s, const char *pcwork)
{
	char abs[PATH_MAX];

	pc_dso_cache_init(&s->cache);
	if (!realpath(pcwork, abs))
		return -errno;
	s->dso = pc_dso_cache_get(&s->cache, abs);
	if (!s->dso)
		return -ENOMEM;
	pc_dso_load(&s->cache, s->dso);
	return s->dso->found && s->dso->tab.nr ? 0 : -ENOENT;
}

/* name+off in pcwork, or 0 when pcwork has no such function */
static uint64_t sym(struct syms *s, const char *name, uint64_t off)
{
	for (size_t i = 0; i < s->dso->tab.nr; i++)
		if (!strcmp(s->dso->tab.syms[i].name, name))
			return s->dso->tab.syms[i].start + off;
	return 0;
}

/* The user stack of `pcwork syscalls`: sys, syscall_loop, deep x9, main, _start */
static uint64_t user_stack(struct syms *s, uint64_t *ips, int depth)
{
	uint64_t n = 0;

	ips[n++] = sym(s, "sys", 0x11);
	ips[n++] = sym(s, "syscall_loop", 0x39);
	ips[n++] = sym(s, "deep", 0x10);
	for (int i = 0; i < depth; i++)
		ips[n++] = sym(s, "deep", 0x2c);
	ips[n++] = sym(s, "pcwork_main", 0x16d);
	ips[n++] = sym(s, "_start", 0xe);
	return n;
}

struct gen {
	union pc_attr a;
	struct synth data;
	struct syms *s;
	uint64_t time;
};

static void gen_init(struct gen *g, struct syms *s)
{
	memset(g, 0, sizeof(*g));
	g->s = s;
	g->time = 1000000000ULL;
	g->a.attr.size = PERF_ATTR_SIZE_VER7;
	g->a.attr.type = PERF_TYPE_SOFTWARE;
	g->a.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	g->a.attr.sample_period = 5000000;
	g->a.attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	g->a.attr.sample_id_all = 1;
	g->a.attr.mmap = 1;
	g->a.attr.mmap2 = 1;
	g->a.attr.comm = 1;
	g->a.attr.task = 1;
	pc_attr_set(&g->a.attr, PC_ATTR_defer_callchain, true);
	pc_attr_set(&g->a.attr, PC_ATTR_defer_output, true);
}

static struct pd_sample id_of(struct gen *g, uint32_t tid)
{
	struct pd_sample v = { .id = 1, .pid = PID, .tid = tid, .time = g->time };

	return v;
}

static void gen_thread(struct gen *g, uint32_t tid)
{
	struct pd_sample v = id_of(g, tid);

	synth_comm(&g->data, &g->a.attr, PID, tid, "pcwork", &v);
	if (tid == PID)
		synth_mmap2(&g->data, &g->a.attr, PID, tid, 0x401000, 0x1000, 0x1000,
			    PCWORK_PATH, &v);
	else
		synth_fork(&g->data, &g->a.attr, PERF_RECORD_FORK, PID, PID, tid, PID, g->time,
			   &v);
	g->time += 1000;
}

/* A sample in a system call: kernel frames, then the deferred marker and cookie. */
static void gen_sample(struct gen *g, uint32_t tid, uint64_t cookie, int kdepth)
{
	struct pd_sample v = id_of(g, tid);
	uint64_t chain[16];
	uint64_t n = 0;

	chain[n++] = PERF_CONTEXT_KERNEL;
	for (int i = 0; i < kdepth; i++)
		chain[n++] = KBASE + 0x1000 * (kdepth - i) + 0x42;
	chain[n++] = PC_CONTEXT_USER_DEFERRED;
	chain[n++] = cookie;
	v.ip = chain[1];
	v.period = g->a.attr.sample_period;
	v.chain.nr = n;
	v.chain.ips = chain;
	synth_sample(&g->data, &g->a.attr, &v);
	g->time += 5000000;
}

/* The CALLCHAIN_DEFERRED answering cookie on tid, at return to user space. */
static void gen_deferred(struct gen *g, uint32_t tid, uint64_t cookie, int depth)
{
	struct pd_sample v = id_of(g, tid);
	uint64_t ips[32];
	uint64_t n = user_stack(g->s, ips, depth);

	synth_deferred(&g->data, &g->a.attr, cookie, n, ips, &v);
	g->time += 1000;
}

struct scenario {
	const char *name;
	const char *what;
	void (*build)(struct gen *g);
};

/* one sample answered by its record, then one whose record carries another cookie */
static void build_cookie_mismatch(struct gen *g)
{
	gen_thread(g, PID);
	gen_sample(g, PID, 0x100000001ULL, 3);
	gen_deferred(g, PID, 0x100000001ULL, 8);
	gen_sample(g, PID, 0x200000001ULL, 3);
	gen_deferred(g, PID, 0x300000001ULL, 8);
	synth_finished_round(&g->data);
}

/* one sample answered, one never (the task exited before returning to user space) */
static void build_missing_deferred(struct gen *g)
{
	gen_thread(g, PID);
	gen_sample(g, PID, 0x100000001ULL, 3);
	gen_deferred(g, PID, 0x100000001ULL, 8);
	gen_sample(g, PID, 0x200000001ULL, 4);
	synth_finished_round(&g->data);
}

/*
 * Two threads with the same cookie values, their samples and records
 * interleaved, two samples sharing one record: each sample gets its own
 * thread's user stack (different depths tell them apart).
 */
static void build_interleaved(struct gen *g)
{
	gen_thread(g, PID);
	gen_thread(g, PID + 1);
	gen_sample(g, PID, 0x100000001ULL, 3);
	gen_sample(g, PID + 1, 0x100000001ULL, 2);
	gen_sample(g, PID, 0x100000001ULL, 4);
	gen_deferred(g, PID + 1, 0x100000001ULL, 2);
	gen_deferred(g, PID, 0x100000001ULL, 8);
	gen_sample(g, PID + 1, 0x200000001ULL, 3);
	gen_sample(g, PID, 0x200000001ULL, 3);
	gen_deferred(g, PID, 0x200000001ULL, 8);
	gen_deferred(g, PID + 1, 0x200000001ULL, 2);
	synth_finished_round(&g->data);
}

static const struct scenario scenarios[] = {
	{ "synth-cookie-mismatch", "a CALLCHAIN_DEFERRED whose cookie answers no sample",
	  build_cookie_mismatch },
	{ "synth-missing-deferred", "a sample whose CALLCHAIN_DEFERRED never comes",
	  build_missing_deferred },
	{ "synth-interleaved", "two threads, same cookies, records interleaved",
	  build_interleaved },
};

static int write_scenario(const struct scenario *sc, struct syms *s, const char *path)
{
	const struct perf_event_attr *attrs[1];
	static const char *const names[1] = { "cpu-clock" };
	uint64_t id = 1;
	struct gen g;
	int ret;

	gen_init(&g, s);
	sc->build(&g);
	attrs[0] = &g.a.attr;
	ret = synth_write_file(path, attrs, &id, names, 1, &g.data);
	synth_free(&g.data);
	return ret;
}

static int mkdir_p(const char *path)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(tmp, 0755) && errno != EEXIST ? -errno : 0;
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out = -1, ret = 0;
	ssize_t n;

	if (in >= 0)
		out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || out < 0)
		ret = -errno;
	while (!ret && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			ret = -EIO;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ret;
}

static int write_all(const char *dir, const char *pcwork)
{
	char path[PATH_MAX];
	struct syms s;

	if (syms_open(&s, pcwork)) {
		fprintf(stderr, "fixtures_synth: %s: no symbols\n", pcwork);
		return 1;
	}
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		const struct scenario *sc = &scenarios[i];
		FILE *m;

		snprintf(path, sizeof(path), "%s/%s/symfs/perfcheck", dir, sc->name);
		if (mkdir_p(path))
			return 1;
		snprintf(path, sizeof(path), "%s/%s/symfs%s", dir, sc->name, PCWORK_PATH);
		if (copy_file(pcwork, path))
			return 1;
		snprintf(path, sizeof(path), "%s/%s/perf.data", dir, sc->name);
		if (write_scenario(sc, &s, path)) {
			fprintf(stderr, "fixtures_synth: cannot write %s\n", path);
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s/meta", dir, sc->name);
		m = fopen(path, "w");
		if (!m)
			return 1;
		fprintf(m, "kernel: none (synthesized: %s)\n"
			   "command: fixtures_synth --write DIR PCWORK\n"
			   "expected-exit: 0\nexit: 0\nperfcheck: %s\n"
			   "expect script.out: script\n"
			   "expect script-no-merge.out: script --no-merge-callchains\n"
			   "expect report.out: report --stdio\n",
			sc->what, PERFCHECK_VERSION);
		fclose(m);
		printf("%s/%s\n", dir, sc->name);
	}
	pc_dso_cache_free(&s.cache);
	return 0;
}

/* fixtures/ of the source tree, wherever the test binary runs (build/, build/static/, a guest) */
static const char *fixtures_dir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("PERFCHECK_FIXTURES");
	static const char *const up[] = { "/../fixtures", "/../../fixtures", "/../../../fixtures" };
	char probe[PATH_MAX + 64];

	if (env && *env)
		return env;
	for (size_t i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
		snprintf(dir, sizeof(dir), "%s%s", pc_test_bindir(), up[i]);
		snprintf(probe, sizeof(probe), "%s/generate", dir);
		if (!access(probe, F_OK))
			return dir;
	}
	return NULL;
}

/* The records of a file, without its header: what the generator decides. */
static int records_of(const char *path, struct synth *out, char *msg, size_t size)
{
	struct pc_error err = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	uint64_t pos = 0;
	int ret;

	if (pd_reader_open(&r, path, &err)) {
		snprintf(msg, size, "%s", err.msg);
		return -1;
	}
	while ((ret = pd_reader_next(&r, &pos, &rec, &err)) == 1)
		synth_put(out, rec.data, rec.header.size);
	if (ret < 0)
		snprintf(msg, size, "%s", err.msg);
	pd_reader_close(&r);
	return ret;
}

FIXTURE(synth)
{
	char *dir;
	const char *fixtures;
};

FIXTURE_SETUP(synth)
{
	self->fixtures = fixtures_dir();
	if (!self->fixtures)
		SKIP(return, "no fixtures/ directory near %s (set PERFCHECK_FIXTURES)",
		     pc_test_bindir());
	self->dir = pc_test_mkdtemp("fixtures-synth");
	ASSERT_NE(NULL, self->dir);
}

FIXTURE_TEARDOWN(synth)
{
	if (self->dir)
		pc_test_rmdir(self->dir);
}

static void check_scenario(struct __test_metadata *_metadata, const char *fixtures,
			   const char *tmpdir, const struct scenario *sc)
{
	char fixture[PATH_MAX], pcwork[PATH_MAX + 64], fresh[PATH_MAX + 64];
	char file[PATH_MAX + 64], msg[600];
	struct synth want = { 0 }, got = { 0 };
	struct syms s;

	snprintf(fixture, sizeof(fixture), "%s/callchain/%s", fixtures, sc->name);
	snprintf(pcwork, sizeof(pcwork), "%s/symfs%s", fixture, PCWORK_PATH);
	snprintf(file, sizeof(file), "%s/perf.data", fixture);
	snprintf(fresh, sizeof(fresh), "%s/%s.data", tmpdir, sc->name);
	ASSERT_EQ(0, syms_open(&s, pcwork)) TH_LOG("%s: no pcwork symbols", pcwork);
	ASSERT_EQ(0, write_scenario(sc, &s, fresh));
	ASSERT_EQ(0, records_of(file, &want, msg, sizeof(msg))) TH_LOG("%s: %s", file, msg);
	ASSERT_EQ(0, records_of(fresh, &got, msg, sizeof(msg))) TH_LOG("%s: %s", fresh, msg);
	EXPECT_EQ(want.len, got.len) TH_LOG("%s: regenerate with `make fixtures`", sc->name);
	if (want.len == got.len)
		EXPECT_EQ(0, memcmp(want.buf, got.buf, want.len))
			TH_LOG("%s: records differ; regenerate with `make fixtures`", sc->name);
	synth_free(&want);
	synth_free(&got);
	pc_dso_cache_free(&s.cache);
}

TEST_F(synth, cookie_mismatch_fixture_is_what_the_generator_writes)
{
	check_scenario(_metadata, self->fixtures, self->dir, &scenarios[0]);
}

TEST_F(synth, missing_deferred_fixture_is_what_the_generator_writes)
{
	check_scenario(_metadata, self->fixtures, self->dir, &scenarios[1]);
}

TEST_F(synth, interleaved_threads_fixture_is_what_the_generator_writes)
{
	check_scenario(_metadata, self->fixtures, self->dir, &scenarios[2]);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--write"))
		return write_all(argv[2], argv[3]);
	return test_harness_run(argc, argv);
}
