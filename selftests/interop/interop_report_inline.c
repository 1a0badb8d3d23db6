// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck report --compat 6.1 against perf report --stdio (perf 6.1) on a
 * program built here with -O2 -g (and frame pointers: without them perf
 * 6.1's unwinder stops a frame earlier than ours in libc's start code,
 * which interop_dwarf covers) whose hot loop is an always_inline
 * function: with --call-graph dwarf, the inlined function is an entry of
 * the call graphs and a Children row "mix (inlined)"; --sort srcline names
 * work.c:LINE from the program's line table.  The lines of those entries
 * are compared byte for byte.  Skips where
 * no perf or no C compiler is installed, or perf may not record.
 *
 * Not compared on purpose: --sort srcline with Children (perf 6.1 looks the
 * callchain entries up at unmapped addresses and shows ??:0 or
 * symbol+huge offsets; we show their lines), and inline entries in chains
 * through libc, whose names perf 6.1 takes from addr2line's first symbol
 * alias (__GI_getxattr (inlined)) where we use DWARF's; line table file
 * names of code inlined from headers (perf 6.1's addr2line says
 * dl-get-cpu-features.c:327 where libdw says dl-cacheinfo.h:327).
 */
#include "lib/perfcmp.h"

static const char work_c[] =
	"#include <stdio.h>\n"
	"static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)\n"
	"{\n"
	"\tfor (int i = 0; i < 64; i++)\n"
	"\t\tx = x * 6364136223846793005UL + 1442695040888963407UL;\n"
	"\treturn x;\n"
	"}\n"
	"__attribute__((noinline)) unsigned long spin(unsigned long n)\n"
	"{\n"
	"\tunsigned long acc = 0;\n"
	"\tfor (unsigned long i = 0; i < n; i++)\n"
	"\t\tacc += mix(i);\n"
	"\treturn acc;\n"
	"}\n"
	"int main(void)\n"
	"{\n"
	"\tprintf(\"%lu\\n\", spin(3000000));\n"
	"\treturn 0;\n"
	"}\n";

FIXTURE(inl) {
	struct perfcmp c;
	char prog[600];
};

FIXTURE_SETUP(inl)
{
	char src[600];
	FILE *f;

	ASSERT_EQ(0, perfcmp_init(&self->c, "interop-report-inline"));
	snprintf(self->prog, sizeof(self->prog), "%s/work", self->c.dir);
	snprintf(src, sizeof(src), "%s/work.c", self->c.dir);
	f = fopen(src, "w");
	ASSERT_NE(NULL, f);
	fputs(work_c, f);
	fclose(f);
}

FIXTURE_TEARDOWN(inl)
{
	perfcmp_fini(&self->c);
}

/* builds work with cc, records it with perf OPTS (the shell execs it: no samples in sh) */
#define RECORD(opts)                                                                       \
	do {                                                                               \
		char why_[300], cmd_[1200];                                                \
		struct pc_run r_;                                                          \
		if (!pc_test_have_program("cc"))                                           \
			SKIP(return, "no C compiler (cc) on this machine to build the workload"); \
		ASSERT_EQ(0, perfcmp_sh(&r_, "cd '%s' && cc -O2 -g -fno-omit-frame-pointer -o work work.c", self->c.dir)); \
		ASSERT_EQ(0, r_.exit_code) TH_LOG("%s", r_.err);                           \
		pc_run_free(&r_);                                                          \
		snprintf(cmd_, sizeof(cmd_), "exec '%s' >/dev/null", self->prog);               \
		if (!perfcmp_record(self->c.path, opts, cmd_, why_, sizeof(why_)))         \
			SKIP(return, "%s", why_);                                          \
	} while (0)

/* The lines of text holding what, in order, trailing blanks cut (into buf). */
static int lines_with(const char *text, const char *what, char *buf, size_t size)
{
	size_t len = 0;
	int n = 0;

	buf[0] = '\0';
	for (const char *l = text; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t ll = nl ? (size_t)(nl - l) : strlen(l);

		if (memmem(l, ll, what, strlen(what))) {
			while (ll && l[ll - 1] == ' ')
				ll--;
			if (len + ll + 2 < size) {
				memcpy(buf + len, l, ll);
				len += ll;
				buf[len++] = '\n';
				buf[len] = '\0';
			}
			n++;
		}
		l = nl ? nl + 1 : NULL;
	}
	return n;
}

/*
 * perf report and ours with args: the lines holding what are the same
 * (perf has at least min).  Only those: other rows differ where libc and
 * ld.so are concerned (see above) and the columns are as wide as the
 * widest row of either.
 */
static void same_lines(struct __test_metadata *_metadata, FIXTURE_DATA(inl) *self,
		       const char *args, const char *what, int min)
{
	static char a[16384], b[16384];

	ASSERT_EQ(0, perfcmp_run(&self->c, "", "report", "--compat 6.1", "-i '%s' --stdio %s",
				 self->c.path, args));
	perfcmp_assert_ran(_metadata, &self->c);
	EXPECT_LE(min, lines_with(self->c.perf.out, what, a, sizeof(a))) TH_LOG("perf: %s",
									     self->c.perf.out);
	lines_with(self->c.ours.out, what, b, sizeof(b));
	EXPECT_STREQ(a, b) TH_LOG("perf report %s, lines with '%s'", args, what);
}

/* the inlined loop is the entry under spin, with spin's share of the samples */
TEST_F(inl, inlined_entries_in_call_graphs_match_perf)
{
	RECORD("--call-graph dwarf -e cpu-clock -c 1000000");
	same_lines(_metadata, self, "--no-children", "mix (inlined)", 1);
}

/* a Children row of its own for the inlined function */
TEST_F(inl, inlined_children_rows_match_perf)
{
	RECORD("--call-graph dwarf -e cpu-clock -c 1000000");
	same_lines(_metadata, self, "--children -g none", "[.] mix (inlined)", 1);
}

TEST_F(inl, callee_graphs_with_inlined_entries_match_perf)
{
	RECORD("--call-graph dwarf -e cpu-clock -c 1000000");
	same_lines(_metadata, self, "--no-children -g callee", "mix (inlined)", 1);
}

/* the program's rows by source line, frame-pointer chains */
TEST_F(inl, sort_srcline_names_the_source_lines)
{
	RECORD("-g -e cpu-clock -c 1000000");
	same_lines(_metadata, self, "--no-children --sort srcline -g none", "work.c:", 1);
}

TEST_F(inl, sort_srcline_of_dwarf_samples_matches_perf)
{
	RECORD("--call-graph dwarf -e cpu-clock -c 1000000");
	same_lines(_metadata, self, "--no-children --sort srcline -g none", "work.c:", 1);
}

TEST_HARNESS_MAIN
