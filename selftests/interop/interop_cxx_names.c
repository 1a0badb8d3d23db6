// SPDX-License-Identifier: GPL-2.0
/*
 * C++ symbol names against the system perf 6.1 (--compat 6.1), stdout byte
 * for byte, on a C++ program it records here (templates, a namespace, an
 * overloaded function, a destructor): demangled without parameters or
 * return type as perf 6.1 shows them, and as the object has them with
 * --no-demangle, in script and report.  perf 7.2's whole signatures are
 * checked by unit_demangle (no perf 7.2 on this host).  Skips where no perf
 * or no C++ compiler is installed.
 */
#include "lib/perfcmp.h"

PERFCMP_FIXTURE(cxx, "interop-cxx-names")

static const char prog_cc[] =
	"#include <cstdio>\n"
	"namespace ns {\n"
	"template <typename T> struct Box {\n"
	"\tT v;\n"
	"\t__attribute__((noinline)) T spin(T n) { volatile T a = v; for (T i = 0; i < n; i++) a = a * 3 + i; return a; }\n"
	"\t__attribute__((noinline)) ~Box() { v = spin(2000000); }\n"
	"};\n"
	"__attribute__((noinline)) long twice(long n) { Box<long> b{1}; return b.spin(n) + b.spin(n / 2); }\n"
	"__attribute__((noinline)) double twice(double n) { Box<unsigned> b{2}; return b.spin((unsigned)n); }\n"
	"}\n"
	"int main()\n"
	"{\n"
	"\tlong s = 0;\n"
	"\tfor (int i = 0; i < 40; i++)\n"
	"\t\ts += ns::twice(3000000L) + (long)ns::twice(2000000.0);\n"
	"\tstd::printf(\"%ld\\n\", s);\n"
	"\treturn 0;\n"
	"}\n";

#define RECORD_CXX() PERFCMP_BUILD_RECORD(&self->c, "cxx", prog_cc, \
	"-x c++ -O1 -fno-omit-frame-pointer", "-lstdc++", ">/dev/null", \
	"-g -e cpu-clock -c 1000000")

TEST_F(cxx, names_demangled_without_signature_as_perf_6_1)
{
	RECORD_CXX();
	perfcmp_same_script(_metadata, &self->c, "", "ns::Box<long>::spin", 1);
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "--no-children");
	perfcmp_expect_perf_holds(_metadata, &self->c, "ns::twice", 1);
	perfcmp_expect_same(_metadata, &self->c);
}

TEST_F(cxx, no_demangle_shows_the_objects_names_as_perf)
{
	RECORD_CXX();
	perfcmp_same_script(_metadata, &self->c, "--no-demangle", "_ZN2ns3BoxIlE4spinEl", 1);
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "--no-demangle");
	perfcmp_expect_perf_holds(_metadata, &self->c, "_ZN2ns5twiceEl", 1);
	perfcmp_expect_same(_metadata, &self->c);
}

TEST_HARNESS_MAIN
