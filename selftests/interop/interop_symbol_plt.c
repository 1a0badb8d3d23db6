// SPDX-License-Identifier: GPL-2.0
/*
 * PLT entries named as the upstream perf names them (up_perf(): perf 6.1
 * on a Debian 12 host, PERFCHECK_PERF=... for another), in that perf's
 * layout (--compat 6.1 for 6.1, whose names differ from 6.3's on).  A
 * written file maps an object and samples every byte of its .plt,
 * .plt.sec and .plt.got (and a little around them); script prints each
 * sample's symbol.  The objects: libc (IRELATIVE slots out of PLT order,
 * a .plt.got), GLib when installed (.plt.got entries with names), and a
 * program built here calling an IFUNC of its own: with IBT (.plt.sec),
 * and static (a PLT without header, its relocations on .symtab; perf 6.1
 * makes no PLT symbols there and --compat 6.1 does: that test is 6.3+'s).
 * Skips where there is no perf, no cc, or perf cannot read the file.
 */
#include <gelf.h>
#include <fcntl.h>
#include <libelf.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/perfcmp.h"
#include "lib/interop_tools.h"
#include "lib/plt_prog.h"
#include "lib/reader_util.h"

#define BASE 0x7f0000000000ULL

FIXTURE(plt) {
	struct perfcmp c;
	struct up_version v;
};

FIXTURE_SETUP(plt)
{
	ASSERT_EQ(0, perfcmp_init(&self->c, "interop-symbol-plt"));
	if (!up_perf())
		SKIP(return, "no perf to compare with");
	ASSERT_EQ(0, up_perf_version(&self->v));
}

FIXTURE_TEARDOWN(plt)
{
	perfcmp_fini(&self->c);
}

/* A sample at each byte of path's section name (and 8 bytes either side); how many. */
static int sample_section(const char *path, const char *name, struct synth *d,
			  const union pc_attr *a, struct pd_sample *v)
{
	uint64_t addr, size;
	int n = 0;

	if (!plt_prog_section(path, name, &addr, &size))
		return 0;
	for (uint64_t at = addr - 8; at < addr + size + 8; at++, n++) {
		v->ip = BASE + at;
		v->time++;
		synth_sample(d, &a->attr, v);
	}
	return n;
}

/*
 * A file of one process that maps path's executable segment at BASE +
 * its address, then samples its PLT sections; false when path has none.
 */
static bool write_plt_samples(const char *out, const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *e = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	struct pd_sample v = rt_id(100, 100, RT_SEC);
	struct synth d = { 0 };
	union pc_attr a;
	size_t phnum = 0;
	int n = 0;

	rt_plain_attr(&a, 0);
	synth_comm(&d, &a.attr, 100, 100, "pltwork", &v);
	for (size_t i = 0; e && !elf_getphdrnum(e, &phnum) && i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		synth_mmap2(&d, &a.attr, 100, 100, BASE + (ph.p_vaddr & ~0xfffULL),
			    (ph.p_memsz + (ph.p_vaddr & 0xfff) + 0xfff) & ~0xfffULL,
			    ph.p_offset & ~0xfffULL, path, &v);
	}
	if (e) {
		elf_end(e);
		n += sample_section(path, ".plt", &d, &a, &v);
		n += sample_section(path, ".plt.sec", &d, &a, &v);
		n += sample_section(path, ".plt.got", &d, &a, &v);
	}
	if (fd >= 0)
		close(fd);
	if (n && rt_write(out, &a, &d))
		n = 0;
	synth_free(&d);
	return n > 0;
}

/*
 * perf script and perfcheck script in that perf's layout print the same
 * symbols; perf's hold what 16 times at least (a small PIE's PLT lies in
 * its stretched _init, which perf 6.1's tree finds first)
 */
static void same_plt_names(struct __test_metadata *_metadata, FIXTURE_DATA(plt) *self,
			   const char *path, const char *what)
{
	struct perfcmp *c = &self->c;
	char first[800];

	if (access(path, R_OK))
		SKIP(return, "no %s here", path);
	ASSERT_EQ(EV_NONE != elf_version(EV_CURRENT), true);
	ASSERT_TRUE(write_plt_samples(c->path, path)) TH_LOG("%s: no PLT", path);
	ASSERT_EQ(0, perfcmp_sh(&c->perf, "'%s' script -i '%s' -F ip,sym,symoff,dso",
				up_perf(), c->path));
	if (c->perf.exit_code)
		SKIP(return, "perf cannot read the written file: %.300s", c->perf.err);
	ASSERT_EQ(0, perfcmp_sh(&c->ours, "'%s' script --compat %s -i '%s' -F ip,sym,symoff,dso",
				pc_test_perfcheck(), up_compat(&self->v), c->path));
	ASSERT_EQ(0, c->ours.exit_code) TH_LOG("%s", c->ours.err);
	EXPECT_LE(16, pc_count_substr(c->perf.out, what)) TH_LOG("%.2000s", c->perf.out);
	EXPECT_TRUE(perfcmp_same(c->perf.out, c->ours.out, first, sizeof(first)))
		TH_LOG("%s (%s): first difference at %s", path, self->v.text, first);
}

TEST_F(plt, libc_plt_entries_are_named_as_perf)
{
	same_plt_names(_metadata, self, "/usr/lib/x86_64-linux-gnu/libc.so.6", "@plt+0x");
}

TEST_F(plt, glib_plt_got_entries_are_named_as_perf)
{
	same_plt_names(_metadata, self, "/usr/lib/x86_64-linux-gnu/libglib-2.0.so.0", "@plt+0x");
}

/* .plt.sec (IBT), an IFUNC of the program's own, .plt.got entries (labs's address taken) */
TEST_F(plt, ibt_plt_sec_and_own_ifunc_are_named_as_perf)
{
	char path[600];

	if (!plt_prog_build(self->c.dir, "ibt", "-fcf-protection=full -Wl,-z,ibtplt", path,
			    sizeof(path)))
		SKIP(return, "cc cannot build an IBT program here");
	same_plt_names(_metadata, self, path, "+0x");
}

TEST_F(plt, static_plt_without_header_is_named_as_perf)
{
	char path[600];

	if (!plt_prog_build(self->c.dir, "static", "-static", path, sizeof(path)))
		SKIP(return, "cc cannot build a static program here");
	/* perf 6.1 synthesizes no PLT names without a .dynsym: the bytes fall in _init and others */
	same_plt_names(_metadata, self, path, strcmp(up_compat(&self->v), "6.1") ? "@plt+0x" : "+0x");
}

TEST_HARNESS_MAIN
