// SPDX-License-Identifier: GPL-2.0
/*
 * Symbols that overlap, against the system perf 6.1.  perf adds a DSO's
 * PLT entries (name@plt) after it has stretched each zero-sized symbol to
 * the next one, so the PLT lies inside _init as well; it keeps data objects
 * in the same tree; and it finds an address by walking that red-black tree
 * from the root, taking the first symbol that holds it.  Which of _init and
 * a PLT entry is found depends on the tree's shape (with this program's
 * symbols: _init).  A program built here calls libc's labs through the PLT
 * in a loop; script and report are compared byte for byte.  Skips where no
 * perf or C compiler is installed, perf may not record, or no sample
 * landed in the PLT.
 */
#include "kselftest_harness.h"
#include "lib/perfcmp.h"

static const char plt_c[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"int main(void)\n"
	"{\n"
	"\tlong acc = 0;\n"
	"\tfor (long i = 0; i < 60000000; i++)\n"
	"\t\tacc += labs(i - 7);\n"
	"\tprintf(\"%ld\\n\", acc);\n"
	"\treturn 0;\n"
	"}\n";

PERFCMP_FIXTURE(tree, "interop-symbol-tree")

#define RECORD(opts)                                                                       \
	PERFCMP_BUILD_RECORD(&self->c, "plt", plt_c, "-O2 -fno-builtin", "", ">/dev/null", opts)

static void same(struct __test_metadata *_metadata, FIXTURE_DATA(tree) *self,
		 const char *cmd)
{
	perfcmp_run_on_file(_metadata, &self->c, cmd);
	if (!strstr(self->c.perf.out, " _init") && !strstr(self->c.perf.out, "@plt"))
		SKIP(return, "perf shows no sample in the PLT (_init or name@plt) this time");
	perfcmp_expect_same(_metadata, &self->c);
}

TEST_F(tree, plt_samples_are_named_as_perfs_tree_finds_them_in_report)
{
	RECORD("-e cpu-clock -c 100000");
	same(_metadata, self, "report --stdio --no-children");
}

TEST_F(tree, plt_samples_are_named_as_perfs_tree_finds_them_in_script)
{
	RECORD("-e cpu-clock -c 100000");
	same(_metadata, self, "script");
}

TEST_F(tree, plt_frames_of_callchains_match_perf)
{
	RECORD("-e cpu-clock -c 100000 -g");
	same(_metadata, self, "report --stdio --children");
}

TEST_HARNESS_MAIN
