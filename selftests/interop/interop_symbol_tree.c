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

FIXTURE(tree) {
	char *dir;
	char path[512];
	struct pc_run perf, ours;
};

FIXTURE_SETUP(tree)
{
	memset(&self->perf, 0, sizeof(self->perf));
	memset(&self->ours, 0, sizeof(self->ours));
	self->dir = pc_test_mkdtemp("interop-symbol-tree");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(tree)
{
	pc_run_free(&self->perf);
	pc_run_free(&self->ours);
	pc_test_rmdir(self->dir);
}

#define RECORD(opts)                                                                       \
	do {                                                                               \
		char why_[300], cmd_[1200], src_[700];                                     \
		struct pc_run r_;                                                          \
		FILE *f_;                                                                  \
		if (!pc_test_have_program("cc"))                                           \
			SKIP(return, "no C compiler (cc) on this machine to build the workload"); \
		snprintf(src_, sizeof(src_), "%s/plt.c", self->dir);                       \
		f_ = fopen(src_, "w");                                                     \
		ASSERT_NE(NULL, f_);                                                       \
		fputs(plt_c, f_);                                                          \
		fclose(f_);                                                                \
		ASSERT_EQ(0, perfcmp_sh(&r_, "cd '%s' && cc -O2 -fno-builtin -o plt plt.c",  \
					self->dir));                                       \
		ASSERT_EQ(0, r_.exit_code) TH_LOG("%s", r_.err);                           \
		pc_run_free(&r_);                                                          \
		snprintf(cmd_, sizeof(cmd_), "exec '%s/plt' >/dev/null", self->dir);       \
		if (!perfcmp_record(self->path, opts, cmd_, why_, sizeof(why_)))           \
			SKIP(return, "%s", why_);                                          \
	} while (0)

static void same(struct __test_metadata *_metadata, FIXTURE_DATA(tree) *self,
		 const char *cmd)
{
	char first[800];

	ASSERT_EQ(0, perfcmp_sh(&self->perf, "perf %s -i '%s'", cmd, self->path));
	ASSERT_EQ(0, perfcmp_sh(&self->ours, "'%s' %s --compat 6.1 -i '%s'", pc_test_perfcheck(),
				cmd, self->path));
	ASSERT_EQ(0, self->perf.exit_code) TH_LOG("%s", self->perf.err);
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	perfcmp_cut_tip(self->perf.out);
	if (!strstr(self->perf.out, " _init") && !strstr(self->perf.out, "@plt"))
		SKIP(return, "perf shows no sample in the PLT (_init or name@plt) this time");
	EXPECT_TRUE(perfcmp_same(self->perf.out, self->ours.out, first, sizeof(first)))
		TH_LOG("perf %s: first difference at %s", cmd, first);
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
