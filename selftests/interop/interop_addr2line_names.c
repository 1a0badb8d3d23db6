// SPDX-License-Identifier: GPL-2.0
/*
 * Names and source lines perf 6.1 takes from binutils' addr2line (2.40),
 * compared with perfcheck script --compat 6.1 on recordings perf makes
 * here of small programs built here:
 *
 * - assembly functions: gas gives each alias of a .S function a DIE of its
 *   own; addr2line names the last of the shortest (__GI_mprotect, not the
 *   symbol table's first __GI___mprotect; __memcpy_avx512_unaligned_erms,
 *   not __memmove_...), and perf shows it "(inlined)" over its own symbol;
 * - an inline entry named as the symbol itself (a recursive function
 *   inlined into itself) is the symbol's plain line wherever it comes;
 * - DWARF 5 line tables: addr2line names file 0 for the rows before a
 *   sequence's first set_file (glibc's libc-start.c where the table says
 *   libc_start_call_main.h);
 * - an address addr2line can name nothing at (stripped ls, no symbol at or
 *   below it): the srcline is "ls[address]".
 * - C++ operator templates keep their name ("std::operator< <char, ...>");
 * - an address without a line that addr2line names (a program built
 *   without -g): "FILE:0" from a static function's file symbol, "??:0"
 *   (left out, but for the entries of DWARF chains) for a global one.
 *
 * Only the lines holding the names concerned are compared: elsewhere perf
 * 6.1's unwinder stops earlier than ours in libc (interop_dwarf_script).
 * Each test skips, with the reason, where perf's own output shows that the
 * case is not there to compare (no libc6-dbg, a ls with symbols).
 */
#include <regex.h>

#include "lib/perfcmp.h"

PERFCMP_FIXTURE(a2l, "interop-a2l-names")

/*
 * perf script ARGS and ours on the recording; the lines holding what are
 * the same.  Skips (why) where perf has no line holding need and need_too.
 */
#define SAME_LINES(args, what, need, need_too, why)                                      \
	do {                                                                               \
		static char a_[1 << 17], b_[1 << 17];                                      \
		ASSERT_EQ(0, perfcmp_run(&self->c, "", "script", "--compat 6.1", "-i '%s' %s", \
					 self->c.path, args));                             \
		perfcmp_assert_ran(_metadata, &self->c);                                   \
		if (!perfcmp_lines_with(self->c.perf.out, need, need_too, a_, sizeof(a_))) \
			SKIP(return, "perf 6.1 shows no '%s' line here: %s", need, why);   \
		perfcmp_lines_with(self->c.perf.out, what, NULL, a_, sizeof(a_));          \
		perfcmp_lines_with(self->c.ours.out, what, NULL, b_, sizeof(b_));          \
		EXPECT_STREQ(a_, b_) TH_LOG("%s, lines with '%s'", self->c.label, what);   \
	} while (0)

#define CFLAGS "-O2 -g -fno-omit-frame-pointer"
#define DWARF_OPTS "--call-graph dwarf -e cpu-clock -c 1000000"

static const char mprotect_c[] =
	"#include <sys/mman.h>\n"
	"#include <unistd.h>\n"
	"int main(void)\n"
	"{\n"
	"\tlong pg = sysconf(_SC_PAGESIZE);\n"
	"\tchar *p = mmap(0, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);\n"
	"\tfor (int i = 0; i < 300000; i++)\n"
	"\t\tmprotect(p, pg, i & 1 ? PROT_READ : PROT_READ | PROT_WRITE);\n"
	"\treturn 0;\n"
	"}\n";

TEST_F(a2l, assembly_function_takes_addr2lines_alias)
{
	PERFCMP_BUILD_RECORD(&self->c, "mp", mprotect_c, CFLAGS, "", "", DWARF_OPTS);
	SAME_LINES("", "mprotect", "mprotect", "(inlined)",
		   "libc has no DWARF (libc6-dbg) for its mprotect stub");
}

static const char memcpy_c[] =
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"int main(void)\n"
	"{\n"
	"\tsize_t n = 1 << 20;\n"
	"\tchar *a = calloc(1, n), *b = calloc(1, n);\n"
	"\tfor (int i = 0; i < 3000; i++) {\n"
	"\t\tmemcpy(i & 1 ? a : b, i & 1 ? b : a, n);\n"
	"\t\t__asm__ volatile(\"\" : : \"r\"(a), \"r\"(b) : \"memory\");\n"
	"\t}\n"
	"\treturn a[7];\n"
	"}\n";

/* memcpy and memmove share their code: addr2line names the variant's memcpy DIE */
TEST_F(a2l, string_function_variant_takes_addr2lines_alias)
{
	PERFCMP_BUILD_RECORD(&self->c, "mc", memcpy_c, CFLAGS, "", "", DWARF_OPTS);
	SAME_LINES("", " __mem", " __mem", "(inlined)",
		   "libc has no DWARF (libc6-dbg) for its string functions");
}

static const char recursive_c[] =
	"#include <stdio.h>\n"
	"static inline unsigned long walk(unsigned long n, unsigned long x)\n"
	"{\n"
	"\tif (n == 0)\n"
	"\t\treturn x;\n"
	"\tfor (int i = 0; i < 200; i++)\n"
	"\t\tx = x * 6364136223846793005UL + 1442695040888963407UL;\n"
	"\treturn walk(n - 1, x) ^ walk(n - 1, x + 1);\n"
	"}\n"
	"unsigned long (*volatile fp)(unsigned long, unsigned long) = walk;\n"
	"int main(void)\n"
	"{\n"
	"\tunsigned long s = 0;\n"
	"\tfor (int k = 0; k < 300; k++)\n"
	"\t\ts += fp(12, k);\n"
	"\tprintf(\"%lu\\n\", s);\n"
	"\treturn 0;\n"
	"}\n";

/* gcc inlines walk into walk: perf shows those entries as walk's own lines */
TEST_F(a2l, entry_named_as_its_symbol_is_a_plain_line)
{
	PERFCMP_BUILD_RECORD(&self->c, "walk", recursive_c,
			     CFLAGS " -fno-partial-inlining", "", ">/dev/null", DWARF_OPTS);
	SAME_LINES("", " walk", "walk+", "/walk)",
		   "gcc did not inline walk into itself with an entry at a sample");
}

static const char spin_c[] =
	"#include <stdio.h>\n"
	"__attribute__((noinline)) unsigned long spin(unsigned long n)\n"
	"{\n"
	"\tunsigned long acc = 0;\n"
	"\tfor (unsigned long i = 0; i < n; i++)\n"
	"\t\tacc += i * 6364136223846793005UL + (acc >> 7);\n"
	"\treturn acc;\n"
	"}\n"
	"int main(void)\n"
	"{\n"
	"\tprintf(\"%lu\\n\", spin(200000000));\n"
	"\treturn 0;\n"
	"}\n";

/* every chain passes __libc_start_call_main, whose lines are file 1 of a DWARF 5 table */
TEST_F(a2l, srcline_of_default_file_rows_is_addr2lines_file_0)
{
	PERFCMP_BUILD_RECORD(&self->c, "spin", spin_c, CFLAGS, "", ">/dev/null",
			     "-g -e cpu-clock -c 1000000");
	SAME_LINES("-F +srcline", "libc", "libc-start.c:", NULL,
		   "libc has no DWARF (libc6-dbg) for its start code");
}


/*
 * report -s srcfile: each row the file of its line (basename), "" where
 * none; dd's reads and writes in libc make rows of several files where
 * libc has its DWARF (libc6-dbg)
 */
/* (perf 6.1 runs addr2line per address: its -s srcfile,sym report alone took 25 s beside four guests) */
TEST_F_TIMEOUT(a2l, srcfile_rows_are_the_files_of_the_lines_as_perf, 300)
{
	PERFCMP_RECORD(self->c.path, "-g -e cpu-clock -c 100000",
		       "dd if=/dev/zero of=/dev/null bs=1 count=200000 2>/dev/null");
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "-s srcfile --no-children -g none");
	perfcmp_assert_ran(_metadata, &self->c);
	if (!strstr(self->c.perf.out, "read.c") && !strstr(self->c.perf.out, "write.c"))
		SKIP(return, "perf 6.1 shows no libc source file: libc has no DWARF (libc6-dbg)");
	perfcmp_expect_same_rows(_metadata, &self->c);
	/*
	 * Not compared here: "-s srcfile,sym" with call graphs and children.  In
	 * about 2 of 15 recordings of this dd its Children row of callchain
	 * frames at address 0 ("[.] 0000000000000000") has one sample more in
	 * ours than in perf 6.1's (0.24% against 0.23%, seen 2026-11-28): an
	 * open divergence of #13, not a property of srcfile rows.
	 */
}

static const char nodebug_c[] =
	"#include <stdio.h>\n"
	"static __attribute__((noinline)) unsigned long inner(unsigned long n)\n"
	"{\n"
	"\tunsigned long a = 0;\n"
	"\tfor (unsigned long i = 0; i < n; i++)\n"
	"\t\ta = a * 31 + i;\n"
	"\treturn a;\n"
	"}\n"
	"__attribute__((noinline)) unsigned long outer(unsigned long n)\n"
	"{\n"
	"\treturn inner(n) + 1;\n"
	"}\n"
	"int main(void)\n"
	"{\n"
	"\tprintf(\"%lu\\n\", outer(200000000));\n"
	"\treturn 0;\n"
	"}\n";

/*
 * A program built without -g: addr2line names the static inner with its
 * file symbol and no line ("nodebug.c:?", perf's "nodebug.c:0"), the global
 * outer with "??:?" (perf leaves that out of a sample's srcline).
 */
TEST_F(a2l, srcline_without_lines_is_the_file_symbols)
{
	PERFCMP_BUILD_RECORD(&self->c, "nodebug", nodebug_c, "-O2 -fno-omit-frame-pointer", "",
			     ">/dev/null", "-e cpu-clock -c 1000000");
	perfcmp_same_script(_metadata, &self->c, "--dsos nodebug -F ip,sym,dso,srcline",
			    "nodebug.c:0", 1);
}

/* in a DWARF-unwound chain perf shows outer's "??:0" too (it resolved the entry) */
TEST_F(a2l, dwarf_chain_srcline_without_lines_as_perf)
{
	PERFCMP_BUILD_RECORD(&self->c, "nodebug", nodebug_c, "-O2 -fno-omit-frame-pointer", "",
			     ">/dev/null", DWARF_OPTS);
	perfcmp_same_script(_metadata, &self->c,
			    "--dsos nodebug --max-stack 2 -F ip,sym,dso,srcline", "  ??:0", 1);
}

/* report --sort srcline: the same answers ("nodebug.c:0", not "inner+19") */
TEST_F(a2l, report_srcline_without_lines_as_perf)
{
	static char a[1 << 16], b[1 << 16];

	PERFCMP_BUILD_RECORD(&self->c, "nodebug", nodebug_c, "-O2 -fno-omit-frame-pointer", "",
			     ">/dev/null", "-e cpu-clock -c 1000000");
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1",
			   "--no-children --sort srcline -g none");
	EXPECT_LE(1, perfcmp_lines_with(self->c.perf.out, "nodebug.c:0", NULL, a, sizeof(a)))
		TH_LOG("perf: %s", self->c.perf.out);
	perfcmp_lines_with(self->c.ours.out, "nodebug.c:0", NULL, b, sizeof(b));
	EXPECT_STREQ(a, b);
	perfcmp_lines_with(self->c.perf.out, "inner+", NULL, a, sizeof(a));
	perfcmp_lines_with(self->c.ours.out, "inner+", NULL, b, sizeof(b));
	EXPECT_STREQ(a, b);
}

static const char strings_cc[] =
	"#include <algorithm>\n"
	"#include <cstdio>\n"
	"#include <string>\n"
	"#include <vector>\n"
	"int main()\n"
	"{\n"
	"\tstd::vector<std::string> v;\n"
	"\tfor (int i = 0; i < 200000; i++)\n"
	"\t\tv.push_back(std::to_string(i * 7919 % 100003));\n"
	"\tfor (int k = 0; k < 5; k++) {\n"
	"\t\tstd::sort(v.begin(), v.end());\n"
	"\t\tstd::reverse(v.begin(), v.end());\n"
	"\t}\n"
	"\tstd::printf(\"%s\\n\", v[0].c_str());\n"
	"\treturn 0;\n"
	"}\n";

/*
 * an operator template: "std::operator< <char, ...>", its space is not a
 * return type's.  perf's lines are compared one by one, not as a whole:
 * under load perf 6.1's addr2line answers late and some samples lose
 * their inline entries in perf's output (interop_report_inline's notes).
 */
TEST_F(a2l, cxx_operator_template_entries_keep_their_name)
{
	static char a[1 << 17];
	regex_t cut;
	int n;

	PERFCMP_BUILD_RECORD(&self->c, "strs", strings_cc, "-x c++ " CFLAGS, "-lstdc++",
			     ">/dev/null", DWARF_OPTS);
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "script", "--compat 6.1", "-i '%s'",
				 self->c.path));
	perfcmp_assert_ran(_metadata, &self->c);
	n = perfcmp_lines_with(self->c.perf.out, "std::operator< <", NULL, a, sizeof(a));
	if (!n)
		SKIP(return, "perf 6.1 shows no 'std::operator< <' line here: "
			     "no sample landed in an inlined std::string comparison");
	for (char *l = a, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		*nl = '\0';
		EXPECT_NE(NULL, strstr(self->c.ours.out, l)) TH_LOG("perf's '%s' is not ours", l);
	}
	/* no name cut at the operator's space, as before ("<char, ...>+0x1fa") */
	ASSERT_EQ(0, regcomp(&cut, "[0-9a-f] <char, std::char_traits", REG_NOSUB));
	EXPECT_NE(0, regexec(&cut, self->c.ours.out, 0, NULL, 0));
	regfree(&cut);
}

#define LS_WORK "ls -lR /usr/share/doc /usr/share/man >/dev/null 2>&1"

/* a sample in stripped ls code: no line, no symbol for addr2line either */
TEST_F(a2l, srcline_without_name_is_object_and_address)
{
	PERFCMP_RECORD(self->c.path, "-e cpu-clock -c 200000", LS_WORK);
	SAME_LINES("-F ip,sym,dso,srcline", "ls[", "ls[", NULL,
		   "ls has DWARF or symbols here, or no sample landed in its code");
}

/* the same for the entries of frame-pointer chains */
TEST_F(a2l, chain_srcline_without_name_is_object_and_address)
{
	PERFCMP_RECORD(self->c.path, "-g -e cpu-clock -c 200000", LS_WORK);
	SAME_LINES("-F ip,sym,dso,srcline", "ls[", "ls[", NULL,
		   "ls has DWARF or symbols here, or no chain passed its code");
}

TEST_HARNESS_MAIN
