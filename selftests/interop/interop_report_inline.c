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
 * Function names as perf 6.1 takes them from addr2line: the DWARF linkage
 * name (glibc's write is __GI___libc_write, its DW_AT_name __libc_write;
 * C++ ns::C::mix, not mix), and for assembly the alias addr2line
 * picks (__GI_getxattr (inlined), where perf's own symbol is getxattr):
 * gas gives each alias a DIE, addr2line names the last (interop_addr2line_names).
 *
 * Not compared on purpose: --sort srcline with Children (perf 6.1 looks the
 * callchain entries up at unmapped addresses and shows ??:0 or
 * symbol+huge offsets; we show their lines).
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
	/* perf's closing tip is random: some hold what ("--sample 10") */
	perfcmp_cut_tip(self->c.perf.out);
	EXPECT_LE(min, perfcmp_lines_with(self->c.perf.out, what, NULL, a, sizeof(a)))
		TH_LOG("perf: %s", self->c.perf.out);
	perfcmp_lines_with(self->c.ours.out, what, NULL, b, sizeof(b));
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

/* a program spending its time in libc's write and getxattr (an assembly syscall stub) */
static const char libc_c[] =
	"#include <fcntl.h>\n"
	"#include <unistd.h>\n"
	"#include <sys/xattr.h>\n"
	"int main(void)\n"
	"{\n"
	"\tint fd = open(\"/dev/null\", O_WRONLY);\n"
	"\tchar b[64] = { 0 };\n"
	"\tfor (int i = 0; i < 200000; i++) {\n"
	"\t\tif (write(fd, b, sizeof(b)) < 0)\n"
	"\t\t\treturn 1;\n"
	"\t\tgetxattr(\"/\", \"user.perfcheck\", b, sizeof(b));\n"
	"\t}\n"
	"\treturn 0;\n"
	"}\n";

static const char cxx_cc[] =
	"#include <cstdio>\n"
	"namespace ns {\n"
	"struct C {\n"
	"\tunsigned long v;\n"
	"\t__attribute__((always_inline)) inline unsigned long mix(unsigned long x)\n"
	"\t{ for (int i = 0; i < 64; i++) x = x * 6364136223846793005UL + v; return x; }\n"
	"\t__attribute__((noinline)) unsigned long spin(unsigned long n)\n"
	"\t{ unsigned long a = 0; for (unsigned long i = 0; i < n; i++) a += mix(i); return a; }\n"
	"};\n"
	"}\n"
	"template <typename T> __attribute__((noinline)) T twice(T x)\n"
	"{ ns::C c{x}; return c.spin(1500000) + x; }\n"
	"int main() { std::printf(\"%lu\\n\", twice<unsigned long>(3)); return 0; }\n";

/* writes src as NAME in the test's folder, builds it with CC into work, records it */
#define RECORD_SRC(cc, name, text, opts)                                                   \
	do {                                                                               \
		char why_[300], cmd_[1200], src_[700];                                     \
		struct pc_run r_;                                                          \
		FILE *f_;                                                                  \
		if (!pc_test_have_program(cc))                                             \
			SKIP(return, "no %s compiler on this machine to build the workload", cc); \
		snprintf(src_, sizeof(src_), "%s/%s", self->c.dir, name);                    \
		f_ = fopen(src_, "w");                                                     \
		ASSERT_NE(NULL, f_);                                                       \
		fputs(text, f_);                                                           \
		fclose(f_);                                                                \
		ASSERT_EQ(0, perfcmp_sh(&r_, "cd '%s' && %s -O2 -g -fno-omit-frame-pointer -o work %s", \
					self->c.dir, cc, name));                             \
		ASSERT_EQ(0, r_.exit_code) TH_LOG("%s", r_.err);                           \
		pc_run_free(&r_);                                                          \
		snprintf(cmd_, sizeof(cmd_), "exec '%s' >/dev/null", self->prog);          \
		if (!perfcmp_record(self->c.path, opts, cmd_, why_, sizeof(why_)))           \
			SKIP(return, "%s", why_);                                          \
	} while (0)

/* perf's report shows what, else the reason it cannot be compared here */
#define NEED_IN_PERF(args, what, why)                                                      \
	do {                                                                               \
		struct pc_run p_;                                                          \
		bool has_;                                                                 \
		ASSERT_EQ(0, perfcmp_sh(&p_, "perf report -i '%s' --stdio %s", self->c.path, args)); \
		has_ = p_.out && strstr(p_.out, what);                                     \
		pc_run_free(&p_);                                                          \
		if (!has_)                                                                 \
			SKIP(return, "perf 6.1 shows no '%s' here: %s", what, why);        \
	} while (0)

/* write's DWARF linkage name __GI___libc_write is perf's symbol: a plain entry */
TEST_F(inl, linkage_names_name_the_function_as_perf)
{
	RECORD_SRC("cc", "libc.c", libc_c, "--call-graph dwarf -e cpu-clock -c 1000000");
	NEED_IN_PERF("--no-children", "__GI___libc_write",
		     "libc has no DWARF (libc6-dbg) or no sample landed in write");
	same_lines(_metadata, self, "--no-children", "__GI___libc_write", 1);
}

/* an assembly stub: addr2line's first symbol alias, shown (inlined) as perf does */
TEST_F(inl, assembly_functions_take_addr2lines_alias)
{
	RECORD_SRC("cc", "libc.c", libc_c, "--call-graph dwarf -e cpu-clock -c 1000000");
	NEED_IN_PERF("--no-children", "__GI_getxattr (inlined)",
		     "libc has no DWARF (libc6-dbg) or no sample landed in getxattr");
	same_lines(_metadata, self, "--no-children", "__GI_getxattr", 1);
}

/*
 * perf script's chain entries in libc as perf names them.  Only those lines:
 * perf 6.1's unwinder sometimes stops in libc (no main, no _start) for a
 * whole recording where ours goes on (interop_dwarf covers that).
 */
TEST_F(inl, libc_chain_entries_in_script_match_perf)
{
	static char a[65536], b[65536];

	RECORD_SRC("cc", "libc.c", libc_c, "--call-graph dwarf -e cpu-clock -c 1000000");
	NEED_IN_PERF("--no-children", "__GI_", "libc has no DWARF (libc6-dbg) here");
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf script -i '%s'", self->c.path));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' script --compat 6.1 -i '%s'",
				pc_test_perfcheck(), self->c.path));
	ASSERT_EQ(0, self->c.perf.exit_code) TH_LOG("%s", self->c.perf.err);
	/* every __GI_ line, ld.so's start in libc's assembly (mprotect, memcpy) included */
	EXPECT_LE(1, perfcmp_lines_with(self->c.perf.out, " __GI_", NULL, a, sizeof(a)));
	perfcmp_lines_with(self->c.ours.out, " __GI_", NULL, b, sizeof(b));
	EXPECT_STREQ(a, b);
}

/* --full-source-path: the program's rows by source line name its file by the whole path */
TEST_F(inl, sort_srcline_full_source_path_names_the_whole_path)
{
	char what[700];

	RECORD("-g -e cpu-clock -c 1000000");
	snprintf(what, sizeof(what), "%s/work.c:", self->c.dir);
	same_lines(_metadata, self, "--no-children --sort srcline -g none --full-source-path",
		   what, 1);
}

/*
 * libc's units have a relative directory (Debian builds it with
 * -ffile-prefix-map): addr2line, and so perf 6.1, puts the unit's
 * DW_AT_comp_dir before the line table's relative path ("./misc/../sysdeps/
 * unix/syscall-template.S", where libdw says "../sysdeps/...").
 */
TEST_F(inl, full_source_path_of_relative_units_is_addr2lines)
{
	char first[800];

	RECORD_SRC("cc", "libc.c", libc_c, "--call-graph dwarf -e cpu-clock -c 1000000");
	NEED_IN_PERF("--no-children", "__GI_", "libc has no DWARF (libc6-dbg) here");
	/* -G: the samples' own lines, not perf 6.1's early stops in libc (above) */
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf,
				"perf script -G -F ip,sym,srcline --full-source-path -i '%s'",
				self->c.path));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours,
				"'%s' script --compat 6.1 -G -F ip,sym,srcline --full-source-path -i '%s'",
				pc_test_perfcheck(), self->c.path));
	ASSERT_EQ(0, self->c.perf.exit_code) TH_LOG("%s", self->c.perf.err);
	ASSERT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);
	/* libc's sources, "./DIR/../sysdeps/...", and the program's by its absolute path */
	EXPECT_LE(1, pc_count_substr(self->c.perf.out, "/../sysdeps/"))
		TH_LOG("perf: %.4000s", self->c.perf.out);
	EXPECT_LE(1, pc_count_substr(self->c.perf.out, "/libc.c:"))
		TH_LOG("perf: %.4000s", self->c.perf.out);
	EXPECT_TRUE(perfcmp_same(self->c.perf.out, self->c.ours.out, first, sizeof(first)))
		TH_LOG("first difference at %s", first);
}

/* C++: the demangled linkage name (ns::C::mix), not DW_AT_name (mix) */
TEST_F(inl, cxx_inline_entries_are_demangled_linkage_names)
{
	RECORD_SRC("c++", "cxx.cc", cxx_cc, "--call-graph dwarf -e cpu-clock -c 1000000");
	same_lines(_metadata, self, "--no-children", "ns::C::", 1);
}

/* perf script and ours with args on the recording, byte for byte (what: in perf's output) */
static void same_script(struct __test_metadata *_metadata, FIXTURE_DATA(inl) *self,
			const char *args, const char *what)
{
	char first[800];

	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf script -i '%s' %s", self->c.path, args));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "'%s' script --compat 6.1 -i '%s' %s",
				pc_test_perfcheck(), self->c.path, args));
	ASSERT_EQ(0, self->c.perf.exit_code) TH_LOG("%s", self->c.perf.err);
	ASSERT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);
	EXPECT_NE(NULL, strstr(self->c.perf.out, what)) TH_LOG("perf: %s", self->c.perf.out);
	EXPECT_TRUE(perfcmp_same(self->c.perf.out, self->c.ours.out, first, sizeof(first)))
		TH_LOG("perf script %s: first difference at %s", args, first);
}

/*
 * An inline entry is there whatever the fields: "ip (inlined)" without the
 * symbol, "mix (inlined)" without the object.  --max-stack 1: one frame of
 * the kernel chain and one unwinder frame (its inline entries on top), so
 * perf 6.1's occasional early stop deeper in libc does not enter it.
 */
TEST_F(inl, script_inline_entries_without_symbol_or_object_match_perf)
{
	RECORD("--call-graph dwarf -e cpu-clock -c 1000000");
	/* every sample, those in libc's and ld.so's assembly functions included */
	same_script(_metadata, self, "--max-stack 1 -F ip", " (inlined)");
	same_script(_metadata, self, "--max-stack 1 -F ip,sym", "mix (inlined)");
}

/* the kernel's part and the unwinder's are capped apart */
TEST_F(inl, script_max_stack_caps_chain_and_unwinder_apart_as_perf)
{
	RECORD("--call-graph dwarf -e cpu-clock -c 1000000");
	same_script(_metadata, self, "--max-stack 1", "spin+0x");
}

/* in caller order (Children) perf keeps the root end of a long chain */
TEST_F(inl, report_max_stack_keeps_the_callers_in_caller_order)
{
	RECORD_SRC("cc", "libc.c", libc_c, "-g -e cpu-clock -c 1000000");
	same_lines(_metadata, self, "--children --max-stack 2 -g none", "%  ", 2);
	same_lines(_metadata, self, "--no-children --max-stack 2", "--", 1);
}

TEST_HARNESS_MAIN
