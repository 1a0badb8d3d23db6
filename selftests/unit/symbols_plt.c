// SPDX-License-Identifier: GPL-2.0
/*
 * PLT symbols of a program built here, without perf: its .plt, .plt.sec
 * (IBT) and .plt.got named as perf 6.3+ names them (the default layout)
 * and as perf 6.1 does (--compat 6.1), the expected names taken from the
 * ELF facts: the IRELATIVE slot of the program's IFUNC "scaled" is
 * "scaled@plt" (6.1: "@plt"), the .plt header is ".plt" (6.1: none), the
 * .plt.got entries are named by their GOT relocation (6.1: none).  Skips
 * where cc cannot build such a program.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "plt_prog.h"
#include "testutil.h"
#include "symbols/symbols.h"

FIXTURE(plt) {
	char *dir;
	char path[600];
	uint64_t plt, plt_size, sec, sec_size, got, got_size;
};

FIXTURE_SETUP(plt)
{
	self->dir = pc_test_mkdtemp("symbols-plt");
	ASSERT_NE(NULL, self->dir);
	if (!plt_prog_build(self->dir, "prog", "-fcf-protection=full -Wl,-z,ibtplt", self->path,
			    sizeof(self->path)))
		SKIP(return, "cc cannot build an IBT program here");
	if (!plt_prog_section(self->path, ".plt", &self->plt, &self->plt_size) ||
	    !plt_prog_section(self->path, ".plt.sec", &self->sec, &self->sec_size) ||
	    !plt_prog_section(self->path, ".plt.got", &self->got, &self->got_size))
		SKIP(return, "the linker made no .plt, .plt.sec and .plt.got here");
}

FIXTURE_TEARDOWN(plt)
{
	pc_test_rmdir(self->dir);
}

/* the object's table, its PLTs named as perf 6.1 (as_6_1) or 6.3+ */
static struct pc_dso *load(struct pc_dso_cache *c, const char *path, bool as_6_1)
{
	struct pc_dso *d;

	pc_dso_cache_init(c);
	c->debug_dir = "/nonexistent";
	c->names_6_1 = as_6_1;
	d = pc_dso_cache_get(c, path);
	if (d)
		pc_dso_load(c, d);
	return d;
}

static const char *name_at(const struct pc_dso *d, uint64_t addr)
{
	const struct pc_symbol *s = pc_symtab_find(&d->tab, addr);

	return s ? s->name : "(none)";
}

/*
 * How many symbols of the table start in [start, start + size) and are
 * called name (lookups may find a stretched _init first, as perf's tree
 * does: interop_symbol_tree)
 */
static int slots_named(const struct pc_dso *d, uint64_t start, uint64_t size, const char *name)
{
	int n = 0;

	for (size_t i = 0; i < d->tab.nr; i++)
		n += d->tab.syms[i].start >= start && d->tab.syms[i].start < start + size &&
		     !strcmp(d->tab.syms[i].name, name);
	return n;
}

TEST_F(plt, default_layout_names_header_ifunc_slot_and_plt_got)
{
	struct pc_dso_cache c;
	struct pc_dso *d = load(&c, self->path, false);

	ASSERT_NE(NULL, d);
	ASSERT_TRUE(d->found);
	/* beside a .plt.sec the whole .plt is its header (and _init ends where it starts) */
	EXPECT_EQ(1, slots_named(d, self->plt, 1, ".plt"));
	EXPECT_STREQ(".plt", name_at(d, self->plt));
	EXPECT_STREQ(".plt", name_at(d, self->plt + self->plt_size - 1));
	EXPECT_EQ(1, slots_named(d, self->sec, self->sec_size, "scaled@plt"));
	EXPECT_EQ(1, slots_named(d, self->sec, self->sec_size, "puts@plt"));
	EXPECT_EQ(1, slots_named(d, self->sec, self->sec_size, "printf@plt"));
	EXPECT_EQ(0, slots_named(d, self->sec, self->sec_size, "@plt"));
	/* labs's address is taken: its GLOB_DAT slot is jumped through from .plt.got */
	EXPECT_EQ(1, slots_named(d, self->got, self->got_size, "labs@plt"));
	EXPECT_EQ(1, slots_named(d, self->got, self->got_size, "__cxa_finalize@plt"));
	pc_dso_cache_free(&c);
}

TEST_F(plt, compat_6_1_names_only_slots_and_the_ifunc_one_bare)
{
	struct pc_dso_cache c;
	struct pc_dso *d = load(&c, self->path, true);

	ASSERT_NE(NULL, d);
	ASSERT_TRUE(d->found);
	EXPECT_EQ(0, slots_named(d, self->plt, self->plt_size, ".plt"));
	EXPECT_EQ(1, slots_named(d, self->sec, self->sec_size, "@plt"));
	EXPECT_EQ(0, slots_named(d, self->sec, self->sec_size, "scaled@plt"));
	EXPECT_EQ(1, slots_named(d, self->sec, self->sec_size, "puts@plt"));
	EXPECT_EQ(0, slots_named(d, self->got, self->got_size, "labs@plt"));
	pc_dso_cache_free(&c);
}

/*
 * A stripped static aarch64 busybox (Debian's busybox-static, the arm64
 * guests' /bin/busybox, cached by vm/ as busybox-arm64): its .rela.plt links
 * no symbols and its IRELATIVE stubs fill .plt, one per relocation.  perf
 * 7.2 (seen in the 7.2-arm64 guest) names nothing there: no header.
 */
TEST(a_plt_of_one_stub_per_relocation_has_no_header_whatever_its_symbols)
{
	char cached[600];
	const char *home = getenv("HOME"), *path = NULL;
	const char *paths[2] = { cached, "/bin/busybox" };
	uint64_t plt = 0, size = 0, rel = 0, rel_size = 0;
	struct pc_dso_cache c;
	struct pc_dso *d;

	snprintf(cached, sizeof(cached), "%s/.cache/perfcheck/busybox-arm64", home ? home : "/root");
	for (int i = 0; i < 2 && !path; i++)
		if (plt_prog_machine(paths[i]) == EM_AARCH64 &&
		    plt_prog_section(paths[i], ".plt", &plt, &size) &&
		    plt_prog_section(paths[i], ".rela.plt", &rel, &rel_size) && size == rel_size / 24 * 16)
			path = paths[i];
	if (!path)
		SKIP(return, "no static aarch64 busybox whose .plt is one stub per relocation "
			     "(the arm64 guests' /bin/busybox, or vm/'s cached copy)");
	d = load(&c, path, false);
	ASSERT_NE(NULL, d);
	ASSERT_TRUE(d->found);
	EXPECT_STREQ("(none)", name_at(d, plt)) TH_LOG("%s", path);
	EXPECT_STREQ("(none)", name_at(d, plt + 8));
	pc_dso_cache_free(&c);
}

TEST_HARNESS_MAIN
