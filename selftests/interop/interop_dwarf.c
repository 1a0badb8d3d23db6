// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF unwinding against perf: the system perf records a workload built
 * here at -O2 without frame pointers (main -> a -> b -> c, and d with an
 * always-inlined function) with `--call-graph dwarf`; the samples are read
 * with lib/perfdata and unwound with lib/symbols/unwind, and each chain
 * must equal perf script's for the same sample: map-relative addresses and
 * symbol+offset of every user frame; then the inline frames and source
 * lines (lib/symbols/srcline) equal perf's `(inlined)` entries and
 * `-F +srcline` lines in the workload's frames.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kselftest_harness.h"

#include "interop_tools.h"
#include "lib/pdmaps.h"
#include "lib/testutil.h"
#include "perfdata/perfdata.h"
#include "symbols/srcline.h"
#include "symbols/unwind.h"

static const char workload_src[] =
	"#include <stdlib.h>\n"
	"volatile unsigned long sink;\n"
	"__attribute__((noinline)) void c(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 3; }\n"
	"__attribute__((noinline)) void b(unsigned long n) { c(n); sink++; }\n"
	"__attribute__((noinline)) void a(unsigned long n) { b(n); sink++; }\n"
	"static inline __attribute__((always_inline)) void inl(unsigned long n)\n"
	"{ for (unsigned long i = 0; i < n; i++) sink ^= i; }\n"
	"__attribute__((noinline)) void d(unsigned long n) { inl(n); sink++; }\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 20000000;\n"
	"	for (int k = 0; k < 3; k++) { a(n); d(n); }\n"
	"	return 0;\n"
	"}\n";

/* One user entry of a chain as perf script printed it. */
struct entry {
	uint64_t rel;
	char sym[160];		/* "name+0xoff" */
	char src[160];		/* "file.c:12", "" without srcline */
	char dso[256];		/* "" for an inlined entry */
	int inlined;
};

struct psample {
	char key[48];		/* "tid time" as perf prints them */
	struct entry *e;
	size_t nr;
};

struct pscript {
	struct psample *s;
	size_t nr;
};

static void pscript_free(struct pscript *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->s[i].e);
	free(p->s);
}

/*
 * Parses `perf script -F tid,time,ip,sym,symoff,dso[,srcline]`: a header
 * line "TID TIME:", then one line per entry ("\tADDR SYM+OFF (DSO)"), and
 * with srcline one "  FILE:LINE[ (inlined)]" line after each entry.
 * Kernel entries are left out.
 */
static int pscript_parse(char *text, struct pscript *p)
{
	struct psample *cur = NULL;
	char *save, *line;
	size_t cap = 0;

	memset(p, 0, sizeof(*p));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned tid;
		char tm[32], colon = 0;

		/* "TID TIME:", the tid right-aligned in 5 columns */
		if (line[0] != '\t' &&
		    sscanf(line, "%u %31[0-9.]%c", &tid, tm, &colon) == 3 && colon == ':') {
			if (p->nr == cap) {
				cap = cap ? 2 * cap : 256;
				p->s = realloc(p->s, cap * sizeof(*p->s));
				if (!p->s)
					return -ENOMEM;
			}
			cur = &p->s[p->nr++];
			memset(cur, 0, sizeof(*cur));
			snprintf(cur->key, sizeof(cur->key), "%u %s", tid, tm);
			continue;
		}
		if (!cur)
			continue;
		if (line[0] == ' ' && line[1] == ' ') {	/* srcline of the entry before */
			if (cur->nr) {
				struct entry *e = &cur->e[cur->nr - 1];

				snprintf(e->src, sizeof(e->src), "%s", line + 2);
				if (strstr(e->src, " (inlined)")) {
					*strstr(e->src, " (inlined)") = '\0';
					e->inlined = 1;
				}
			}
			continue;
		}
		if (line[0] == '\t') {
			struct entry e = { 0 };
			char *dso;

			if (sscanf(line, " %" SCNx64 " %159s", &e.rel, e.sym) != 2)
				continue;
			if (e.rel >= 0xffff800000000000ULL)
				continue;	/* kernel part of the chain */
			dso = strrchr(line, '(');
			if (dso && !strcmp(dso, "(inlined)"))
				e.inlined = 1;
			else if (dso)
				snprintf(e.dso, sizeof(e.dso), "%.*s", (int)strlen(dso) - 2, dso + 1);
			cur->e = realloc(cur->e, (cur->nr + 1) * sizeof(*cur->e));
			if (!cur->e)
				return -ENOMEM;
			cur->e[cur->nr++] = e;
		}
	}
	return 0;
}

FIXTURE(dwarf) {
	char *dir;
	char work[PATH_MAX + 16], data[PATH_MAX + 16];
	const char *perf;
};

FIXTURE_SETUP(dwarf)
{
	char src[PATH_MAX + 16], *cc_argv[12], *rec_argv[16];
	struct pc_run run;
	FILE *f;

	self->perf = up_perf();
	if (!self->perf)
		SKIP(return, "no perf to record and compare with (PERFCHECK_PERF, PATH)");
	if (!pc_test_have_program("cc"))
		SKIP(return, "no C compiler (cc) to build the DWARF workload");
	self->dir = pc_test_mkdtemp("interop-dwarf");
	ASSERT_NE(NULL, self->dir);
	snprintf(src, sizeof(src), "%s/w.c", self->dir);
	snprintf(self->work, sizeof(self->work), "%s/w", self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	f = fopen(src, "w");
	ASSERT_NE(NULL, f);
	fputs(workload_src, f);
	fclose(f);
	/* no frame pointers anywhere: only DWARF CFI can walk this stack */
	cc_argv[0] = "cc", cc_argv[1] = "-O2", cc_argv[2] = "-g",
	cc_argv[3] = "-fomit-frame-pointer", cc_argv[4] = "-o", cc_argv[5] = self->work,
	cc_argv[6] = src, cc_argv[7] = NULL;
	ASSERT_EQ(0, pc_test_run(&run, 120, cc_argv)) TH_LOG("cc: %s", run.err);
	ASSERT_EQ(0, run.exit_code) TH_LOG("cc: %s", run.err);
	pc_run_free(&run);
	rec_argv[0] = (char *)self->perf, rec_argv[1] = "record", rec_argv[2] = "-q",
	rec_argv[3] = "--call-graph", rec_argv[4] = "dwarf", rec_argv[5] = "-e",
	rec_argv[6] = "cpu-clock", rec_argv[7] = "-c", rec_argv[8] = "200000",
	rec_argv[9] = "-o", rec_argv[10] = self->data, rec_argv[11] = "--",
	rec_argv[12] = self->work, rec_argv[13] = NULL;
	ASSERT_EQ(0, pc_test_run(&run, 300, rec_argv));
	if (run.exit_code != 0) {
		static char why[256];

		snprintf(why, sizeof(why), "perf record --call-graph dwarf failed here: %.200s",
			 run.err ? run.err : "");
		pc_run_free(&run);
		SKIP(return, "%s", why);
	}
	pc_run_free(&run);
}

FIXTURE_TEARDOWN(dwarf)
{
	if (self->dir)
		pc_test_rmdir(self->dir);
}

static int perf_script(struct __test_metadata *_metadata, const char *perf, const char *data,
		       bool srcline, struct pscript *ps)
{
	char *argv[] = { (char *)perf, "script", "-i", (char *)data, "-F",
			 srcline ? "tid,time,ip,sym,symoff,dso,srcline" : "tid,time,ip,sym,symoff,dso",
			 srcline ? "--inline" : "--no-inline", NULL };
	struct pc_run run;
	int ret;

	if (pc_test_run(&run, 600, argv) || run.exit_code) {
		TH_LOG("perf script failed: %s", run.err ? run.err : "");
		pc_run_free(&run);
		return -1;
	}
	ret = pscript_parse(run.out, ps);
	pc_run_free(&run);
	return ret;
}

/* Our samples, in file order, each unwound; cb called per sample. */
struct ours {
	struct pd_reader r;
	struct pdmaps maps;
	struct pc_unwinder *u;
};

typedef void (*sample_fn)(struct __test_metadata *_metadata, struct ours *o,
			  const struct pd_sample *s, const uint64_t *ips, uint32_t nr, void *ctx);

struct ours_opts {
	bool slow_only;		/* every sample through libdwfl's unwinder */
	const char *debug_dir;	/* NULL: /usr/lib/debug */
	struct pc_unwind_stats *stats;	/* filled at the end if non-NULL */
	bool names_6_1;		/* PLT entries named as perf before 6.3 names them */
};

/* Unwinds every sample of data in file order. */
static void walk_opts(struct __test_metadata *_metadata, const char *data,
		      const struct ours_opts *opts, sample_fn fn, void *ctx)
{
	struct ours o;
	struct pc_error err = { 0 };
	struct pd_record rec;
	uint64_t pos = 0, ips[128];
	char arch[64];
	int ret;

	ASSERT_EQ(0, pd_reader_open(&o.r, data, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, pd_reader_feature_string(&o.r, PD_FEAT_ARCH, arch, sizeof(arch), &err));
	ASSERT_EQ(PC_ARCH_X86_64, pc_arch_from_name(arch)) TH_LOG("ARCH %s", arch);
	o.u = pc_unwinder_new(pc_arch_from_name(arch), opts->debug_dir);
	ASSERT_NE(NULL, o.u);
	pc_unwinder_set_fast(o.u, !opts->slow_only);
	pdmaps_init(&o.maps);
	o.maps.dsos.names_6_1 = opts->names_6_1;
	while ((ret = pd_reader_next(&o.r, &pos, &rec, &err)) == 1) {
		struct pd_sample s;
		struct pc_unwind_sample us;
		uint32_t nr;

		ASSERT_EQ(0, pdmaps_record(&o.maps, &rec));
		if (rec.header.type != PERF_RECORD_SAMPLE)
			continue;
		ASSERT_EQ(0, pd_parse_sample(&o.r, &rec, &s, &err)) TH_LOG("%s", err.msg);
		us = (struct pc_unwind_sample){
			.pid = s.pid, .tid = s.tid, .regs_abi = s.regs_user.abi,
			.regs_mask = s.evsel->attr.attr.sample_regs_user, .regs = s.regs_user.regs,
			.nr_regs = (uint64_t)__builtin_popcountll(s.evsel->attr.attr.sample_regs_user),
			.stack = s.stack_user.data, .stack_size = s.stack_user.size,
			.stack_dyn_size = s.stack_user.dyn_size,
			.find_map = pdmaps_find, .map_ctx = &o.maps,
			.maps_gen = pdmaps_gen(&o.maps, s.pid),
		};
		o.maps.cur_pid = s.pid;
		ASSERT_EQ(0, pc_unwind(o.u, &us, ips, 127, &nr, &err)) TH_LOG("%s", err.msg);
		fn(_metadata, &o, &s, ips, nr, ctx);
	}
	ASSERT_EQ(0, ret) TH_LOG("%s", err.msg);
	if (opts->stats)
		*opts->stats = *pc_unwinder_stats(o.u);
	pc_unwinder_free(o.u);
	pdmaps_free(&o.maps);
	pd_reader_close(&o.r);
}

static void walk(struct __test_metadata *_metadata, const char *data, sample_fn fn, void *ctx)
{
	struct ours_opts opts = { 0 };

	walk_opts(_metadata, data, &opts, fn, ctx);
}

static const struct psample *find_sample(const struct pscript *ps, const struct pd_sample *s)
{
	char key[48];

	snprintf(key, sizeof(key), "%u %" PRIu64 ".%06" PRIu64, s->tid, s->time / 1000000000,
		 s->time % 1000000000 / 1000);
	for (size_t i = 0; i < ps->nr; i++)
		if (!strcmp(ps->s[i].key, key))
			return &ps->s[i];
	return NULL;
}

struct chain_ctx {
	struct pscript ps;
	const char *work;
	size_t compared, abc;	/* samples compared; those in c() called from b, a, main */
	size_t perf_none;	/* of them, where perf shows no user frame and we do */
};

static void check_chain(struct __test_metadata *_metadata, struct ours *o,
			const struct pd_sample *s, const uint64_t *ips, uint32_t nr, void *vctx)
{
	struct chain_ctx *ctx = vctx;
	const struct psample *p = find_sample(&ctx->ps, s);
	char want[512], sym[160];

	ASSERT_NE(NULL, p) TH_LOG("sample %u %" PRIu64 " is not in perf script's output",
				  s->tid, s->time);
	/*
	 * No stack copied (dyn_size 0: the kernel could not copy the user
	 * stack, as in a page fault on a user copy; seen in the 6.1 guest):
	 * perf shows no user frame, nor does our reader (reader/unwind_stage.c),
	 * whatever the unwinder makes of the registers alone.
	 */
	if (!s->stack_user.dyn_size) {
		EXPECT_EQ(0, p->nr) TH_LOG("sample %s: no stack dump, and perf shows %zu user frames",
					   p->key, p->nr);
		ctx->compared++;
		return;
	}
	/*
	 * A difference named, not hidden: now and then (about one sample in a
	 * few hundred runs) perf 6.1 prints no user frame at all for a sample
	 * our unwinder starts at its ip; perf's libdw unwinder drops the whole
	 * chain when it cannot place the first pc in a module of the thread.
	 * Counted, logged, and held to a small share of the samples.
	 */
	if (!p->nr && nr) {
		uint64_t rel0;

		pdmaps_describe(&o->maps, s->pid, ips[0], &rel0, sym, sizeof(sym));
		TH_LOG("sample %s: perf shows no user frame, we unwind %u from %s", p->key, nr,
		       sym);
		ctx->perf_none++;
		ctx->compared++;
		return;
	}
	ASSERT_EQ(p->nr, nr) TH_LOG("sample %s: perf shows %zu user frames, we unwind %u",
				    p->key, p->nr, nr);
	for (uint32_t i = 0; i < nr; i++) {
		uint64_t rel;

		pdmaps_describe(&o->maps, s->pid, ips[i], &rel, sym, sizeof(sym));
		snprintf(want, sizeof(want), "%s", p->e[i].sym);
		EXPECT_EQ(p->e[i].rel, rel) TH_LOG("sample %s frame %u", p->key, i);
		EXPECT_STREQ(want, sym) TH_LOG("sample %s frame %u", p->key, i);
	}
	ctx->compared++;
	if (nr >= 4 && !strncmp(p->e[0].sym, "c+", 2) && !strncmp(p->e[1].sym, "b+", 2) &&
	    !strncmp(p->e[2].sym, "a+", 2) && !strncmp(p->e[3].sym, "main+", 5))
		ctx->abc++;
}

static void chains(struct __test_metadata *_metadata, FIXTURE_DATA(dwarf) *self, bool fast)
{
	struct chain_ctx ctx = { .work = self->work };
	struct pc_unwind_stats st;

	struct up_version v;

	ASSERT_EQ(0, perf_script(_metadata, self->perf, self->data, false, &ctx.ps));
	ASSERT_GT(ctx.ps.nr, 0);
	ASSERT_EQ(0, up_perf_version(&v));
	/* a sample in a PLT stub (one run in about twenty) is named as that perf names it */
	struct ours_opts opts = { .slow_only = !fast, .stats = &st,
				  .names_6_1 = v.major < 6 || (v.major == 6 && v.minor < 3) };

	walk_opts(_metadata, self->data, &opts, check_chain, &ctx);
	TH_LOG("%zu samples compared, %zu in c <- b <- a <- main; %llu from compiled CFI rows, %llu through libdwfl",
	       ctx.compared, ctx.abc, (unsigned long long)st.fast, (unsigned long long)st.slow);
	EXPECT_EQ(ctx.ps.nr, ctx.compared);
	EXPECT_LE(ctx.perf_none * 50, ctx.compared)
		TH_LOG("%zu samples where perf shows no user frame", ctx.perf_none);
	EXPECT_GT(ctx.abc, 10);
	if (fast) {	/* the fast path did the work, libdwfl only the odd sample */
		EXPECT_GT(st.fast, 9 * st.slow);
	} else {
		EXPECT_EQ(0, st.fast);
	}
	pscript_free(&ctx.ps);
}

/* Every sample: the same user frames as perf script, address and symbol. */
TEST_F(dwarf, chains_equal_perf_script)
{
	chains(_metadata, self, true);
}

/* The same with every sample through libdwfl's own unwinder (fast path off). */
TEST_F(dwarf, chains_equal_perf_script_libdwfl_only)
{
	chains(_metadata, self, false);
}

struct src_ctx {
	struct pscript ps;
	const char *work;
	struct pc_srcline_cache *sl;
	size_t frames, inlined;	/* workload frames compared; inlined ones among them */
};

/* Our entries for the leading frames in the workload, in perf's form. */
static void check_srclines(struct __test_metadata *_metadata, struct ours *o,
			   const struct pd_sample *s, const uint64_t *ips, uint32_t nr, void *vctx)
{
	struct src_ctx *ctx = vctx;
	const struct psample *p = find_sample(&ctx->ps, s);
	struct pc_unwind_map m;
	size_t at = 0;

	ASSERT_NE(NULL, p);
	o->maps.cur_pid = s->pid;
	for (uint32_t i = 0; i < nr; i++) {
		struct pc_src_frame fr[16];
		uint32_t nfr;
		uint64_t rel, vaddr;
		char sym[160], *plus;

		if (pdmaps_find(&o->maps, ips[i], &m) || !m.path || strcmp(m.path, ctx->work))
			break;	/* the workload's frames lead the chain; compare those */
		pdmaps_describe(&o->maps, s->pid, ips[i], &rel, sym, sizeof(sym));
		plus = strstr(sym, "+0x");
		ASSERT_NE(NULL, plus);
		/* PIE linked at 0: the ELF vaddr is the file offset for its text */
		vaddr = rel;
		ASSERT_EQ(0, pc_srcline_frames(ctx->sl, m.path, vaddr, fr, 16, &nfr));
		if (!nfr) {
			/*
			 * code of no compile unit (crt1's _start, sampled as the
			 * workload began): perf names the symbol and finds no line
			 * either (perf 6.1 prints addr2line's "??:0")
			 */
			ASSERT_LT(at, p->nr) TH_LOG("sample %s: perf has fewer entries", p->key);
			EXPECT_STREQ(p->e[at].sym, sym) TH_LOG("sample %s entry %zu", p->key, at);
			EXPECT_TRUE(!p->e[at].src[0] || !strcmp(p->e[at].src, "??:0"))
				TH_LOG("sample %s entry %zu: %s at %s", p->key, at, sym, p->e[at].src);
			at++;
			continue;
		}
		for (uint32_t k = 0; k < nfr; k++, at++) {
			char name[200], src[200];

			ASSERT_LT(at, p->nr) TH_LOG("sample %s: perf has fewer entries", p->key);
			snprintf(name, sizeof(name), "%s%s", fr[k].func ? fr[k].func : "??", plus);
			snprintf(src, sizeof(src), "%s:%u", pc_srcline_basename(fr[k].file),
				 fr[k].line);
			EXPECT_STREQ(p->e[at].sym, name) TH_LOG("sample %s entry %zu", p->key, at);
			EXPECT_STREQ(p->e[at].src, src) TH_LOG("sample %s entry %zu", p->key, at);
			/* every entry but the out-of-line function is an inlined one */
			EXPECT_EQ(k + 1 < nfr, p->e[at].inlined) TH_LOG("sample %s entry %zu",
									 p->key, at);
			ctx->frames++;
			ctx->inlined += k + 1 < nfr;
		}
	}
}

/* Inline frames and source lines of the workload's frames equal perf's. */
TEST_F(dwarf, inline_frames_and_srclines_equal_perf_script)
{
	struct src_ctx ctx = { .work = self->work };

	ASSERT_EQ(0, perf_script(_metadata, self->perf, self->data, true, &ctx.ps));
	ctx.sl = pc_srcline_new(NULL);
	ASSERT_NE(NULL, ctx.sl);
	walk(_metadata, self->data, check_srclines, &ctx);
	TH_LOG("%zu workload entries compared, %zu inlined", ctx.frames, ctx.inlined);
	EXPECT_GT(ctx.frames, 10);
	EXPECT_GT(ctx.inlined, 0);
	pc_srcline_free(ctx.sl);
	pscript_free(&ctx.ps);
}

struct garbage_ctx {
	struct pc_unwinder *u;
	uint64_t seed;
	size_t samples, frames;
};

/* Each real sample again with its stack (and then its registers) overwritten. */
static void unwind_garbage(struct __test_metadata *_metadata, struct ours *o,
			   const struct pd_sample *s, const uint64_t *ips, uint32_t nr, void *vctx)
{
	struct garbage_ctx *ctx = vctx;
	uint64_t regs[64], out[128];
	uint64_t nregs = (uint64_t)__builtin_popcountll(s->evsel->attr.attr.sample_regs_user);
	size_t words = s->stack_user.size / 8;
	uint64_t *stack = malloc(words * 8 + 8);
	struct pc_error err = { 0 };
	uint32_t got;

	ASSERT_NE(NULL, stack);
	ASSERT_GE(64, nregs);
	memcpy(regs, s->regs_user.regs, nregs * 8);
	for (int round = 0; round < 2; round++) {
		struct pc_unwind_sample us = {
			.pid = s->pid, .tid = s->tid, .regs_abi = s->regs_user.abi,
			.regs_mask = s->evsel->attr.attr.sample_regs_user, .regs = regs,
			.nr_regs = nregs, .stack = stack, .stack_size = s->stack_user.size,
			.stack_dyn_size = s->stack_user.dyn_size,
			.find_map = pdmaps_find, .map_ctx = &o->maps,
		};

		for (size_t i = 0; i < words; i++) {
			ctx->seed = ctx->seed * 6364136223846793005ULL + 1442695040888963407ULL;
			/* half the words point near the stack, where a frame would */
			stack[i] = (i & 1) ? ctx->seed : s->regs_user.regs[7] + (ctx->seed >> 52);
		}
		if (round)	/* registers too, but the ip and sp */
			for (uint64_t r = 0; r < nregs; r++)
				if (r != 7 && r != 8)
					regs[r] = ctx->seed ^ (r * 0x9e3779b97f4a7c15ULL);
		ASSERT_EQ(0, pc_unwind(ctx->u, &us, out, 127, &got, &err)) TH_LOG("%s", err.msg);
		ASSERT_GE(127, got);
		ctx->frames += got;
	}
	ctx->samples++;
	free(stack);
}

/* Garbage stacks and registers on real samples: chains end, nothing crashes or loops. */
TEST_F(dwarf, garbage_stacks_end_the_chain)
{
	struct garbage_ctx ctx = { .seed = 42 };

	ctx.u = pc_unwinder_new(PC_ARCH_X86_64, NULL);
	ASSERT_NE(NULL, ctx.u);
	walk(_metadata, self->data, unwind_garbage, &ctx);
	TH_LOG("%zu samples unwound on garbage, %zu frames", ctx.samples, ctx.frames);
	EXPECT_GT(ctx.samples, 10);
	pc_unwinder_free(ctx.u);
}

/*
 * Separate debug files: a workload built without .eh_frame for its own
 * functions (their CFI is in .debug_frame only), stripped, its debug file
 * under DIR/.build-id/xx/yyyy.debug.  The unwinder finds .debug_frame there
 * by build id; without the debug file the same samples stop in c.
 */
FIXTURE(debugfile) {
	char *dir;
	char work[PATH_MAX + 16], data[PATH_MAX + 16], debug_dir[PATH_MAX + 16];
};

static int run_ok(struct __test_metadata *_metadata, char **argv, char **out)
{
	struct pc_run run;
	int ok;

	if (pc_test_run(&run, 300, argv))
		return 0;
	ok = run.exit_code == 0;
	if (!ok)
		TH_LOG("%s: %s", argv[0], run.err ? run.err : "");
	if (out) {
		*out = run.out;
		run.out = NULL;
	}
	pc_run_free(&run);
	return ok;
}

FIXTURE_SETUP(debugfile)
{
	char src[PATH_MAX + 16], dbg[PATH_MAX + 16], id_dir[PATH_MAX + 64], id_file[PATH_MAX + 128];
	const char *perf = up_perf();
	char *notes = NULL, *id;
	FILE *f;

	if (!perf)
		SKIP(return, "no perf to record with (PERFCHECK_PERF, PATH)");
	if (!pc_test_have_program("cc") || !pc_test_have_program("objcopy") ||
	    !pc_test_have_program("readelf"))
		SKIP(return, "no cc, objcopy and readelf to build and split the workload");
	self->dir = pc_test_mkdtemp("interop-dwarf-debugfile");
	ASSERT_NE(NULL, self->dir);
	snprintf(src, sizeof(src), "%s/w.c", self->dir);
	snprintf(self->work, sizeof(self->work), "%s/w", self->dir);
	snprintf(dbg, sizeof(dbg), "%s/w.debug", self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	snprintf(self->debug_dir, sizeof(self->debug_dir), "%s/debug", self->dir);
	f = fopen(src, "w");
	ASSERT_NE(NULL, f);
	fputs(workload_src, f);
	fclose(f);
	{
		char *cc[] = { "cc", "-O2", "-g", "-fomit-frame-pointer", "-fno-asynchronous-unwind-tables",
			       "-fno-unwind-tables", "-Wl,--build-id", "-o", self->work, src, NULL };
		char *keep[] = { "objcopy", "--only-keep-debug", self->work, dbg, NULL };
		char *strip[] = { "objcopy", "--strip-debug", self->work, NULL };
		char *rn[] = { "readelf", "-n", self->work, NULL };

		ASSERT_TRUE(run_ok(_metadata, cc, NULL));
		ASSERT_TRUE(run_ok(_metadata, keep, NULL));
		ASSERT_TRUE(run_ok(_metadata, strip, NULL));
		ASSERT_TRUE(run_ok(_metadata, rn, &notes));
	}
	id = notes ? strstr(notes, "Build ID: ") : NULL;
	ASSERT_NE(NULL, id);
	id += strlen("Build ID: ");
	id[strspn(id, "0123456789abcdef")] = '\0';
	ASSERT_LT(2, strlen(id));
	snprintf(id_dir, sizeof(id_dir), "%s/.build-id", self->debug_dir);
	ASSERT_EQ(0, mkdir(self->debug_dir, 0755));
	ASSERT_EQ(0, mkdir(id_dir, 0755));
	snprintf(id_dir, sizeof(id_dir), "%s/.build-id/%.2s", self->debug_dir, id);
	ASSERT_EQ(0, mkdir(id_dir, 0755));
	snprintf(id_file, sizeof(id_file), "%s/%s.debug", id_dir, id + 2);
	ASSERT_EQ(0, rename(dbg, id_file));
	free(notes);
	{
		char *rec[] = { (char *)perf, "record", "-q", "--call-graph", "dwarf", "-e", "cpu-clock",
				"-c", "200000", "-o", self->data, "--", self->work, NULL };
		struct pc_run run;

		ASSERT_EQ(0, pc_test_run(&run, 300, rec));
		if (run.exit_code) {
			pc_run_free(&run);
			SKIP(return, "perf record --call-graph dwarf failed here");
		}
		pc_run_free(&run);
	}
}

FIXTURE_TEARDOWN(debugfile)
{
	if (self->dir)
		pc_test_rmdir(self->dir);
}

struct depth_ctx {
	const char *work;
	size_t in_c, full;	/* samples whose ip is in c; those unwound c <- b <- a <- main */
};

static void count_depth(struct __test_metadata *_metadata, struct ours *o,
			const struct pd_sample *s, const uint64_t *ips, uint32_t nr, void *vctx)
{
	struct depth_ctx *ctx = vctx;
	static const char *const want[] = { "c+", "b+", "a+", "main+" };
	char sym[160];
	uint64_t rel;
	uint32_t i;

	if (!nr)
		return;
	pdmaps_describe(&o->maps, s->pid, ips[0], &rel, sym, sizeof(sym));
	if (strncmp(sym, "c+", 2))
		return;
	ctx->in_c++;
	for (i = 1; i < 4 && i < nr; i++) {
		pdmaps_describe(&o->maps, s->pid, ips[i], &rel, sym, sizeof(sym));
		if (strncmp(sym, want[i], strlen(want[i])))
			break;
	}
	ctx->full += i == 4;
}

static void depths(struct __test_metadata *_metadata, const char *data, const char *debug_dir,
		   struct depth_ctx *ctx)
{
	struct ours_opts opts = { .debug_dir = debug_dir };

	walk_opts(_metadata, data, &opts, count_depth, ctx);
}

TEST_F(debugfile, debug_frame_from_the_build_id_debug_file)
{
	struct depth_ctx with = { .work = self->work }, without = { .work = self->work };
	char empty[PATH_MAX + 32];

	snprintf(empty, sizeof(empty), "%s/none", self->dir);
	depths(_metadata, self->data, self->debug_dir, &with);
	depths(_metadata, self->data, empty, &without);
	TH_LOG("samples in c: %zu; unwound to main with the debug file: %zu, without: %zu",
	       with.in_c, with.full, without.full);
	ASSERT_GT(with.in_c, 10);
	EXPECT_EQ(with.in_c, with.full);
	EXPECT_EQ(0, without.full);
}

TEST_HARNESS_MAIN
