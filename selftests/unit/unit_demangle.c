// SPDX-License-Identifier: GPL-2.0
/*
 * C++ names as each perf shows them: perf 6.1 (its libbfd without
 * DMGL_PARAMS) cuts the parameters and the return type; perf 6.4 and later
 * built without libbfd (Debian's 7.2) print __cxa_demangle's whole
 * signature.  Seen with both on the same files (libstdc++'s symbols in
 * perf report and perf script).  Skips where libstdc++ cannot be loaded.
 */
#include "kselftest_harness.h"
#include "symbols/symbols.h"

static bool demangler_here(void)
{
	char buf[256];
	const char *name = "_ZNSt8ios_base4InitD1Ev";

	return pc_demangle(name, true, buf, sizeof(buf)) != name;
}

static void both(struct __test_metadata *_metadata, const char *mangled, const char *as_6_1,
		 const char *whole)
{
	char buf[512];

	EXPECT_STREQ(as_6_1, pc_demangle(mangled, false, buf, sizeof(buf)));
	EXPECT_STREQ(whole, pc_demangle(mangled, true, buf, sizeof(buf)));
}

TEST(destructor_without_and_with_its_parameters)
{
	if (!demangler_here())
		SKIP(return, "no libstdc++.so.6 to demangle with");
	both(_metadata, "_ZNSt8ios_base4InitD1Ev", "std::ios_base::Init::~Init",
	     "std::ios_base::Init::~Init()");
}

TEST(plt_suffix_stays_after_the_signature)
{
	if (!demangler_here())
		SKIP(return, "no libstdc++.so.6 to demangle with");
	both(_metadata, "_ZSt18uncaught_exceptionv@plt", "std::uncaught_exception@plt",
	     "std::uncaught_exception()@plt");
}

TEST(template_return_type_shown_whole_only)
{
	if (!demangler_here())
		SKIP(return, "no libstdc++.so.6 to demangle with");
	both(_metadata, "_Z3maxIiET_S0_S0_", "max<int>", "int max<int>(int, int)");
}

TEST(plain_c_name_is_left_alone)
{
	char buf[64];
	const char *name = "main";

	EXPECT_EQ(name, pc_demangle(name, true, buf, sizeof(buf)));
	EXPECT_EQ(name, pc_demangle(name, false, buf, sizeof(buf)));
}

TEST_HARNESS_MAIN
