// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF unwinder without a kernel: register decoding for x86_64 and
 * aarch64, bad input (a register mask that does not match the registers
 * or the arch, a stack dump shorter than its dyn_size, an ip in an ELF
 * file of another machine) answered with an error and no crash, and an
 * aarch64 sample unwound on this host: fixtures/unwind/arm64 holds a
 * freestanding aarch64 binary (main -> a -> b -> c, -O2, no frame
 * pointers) and the registers and stack it dumped of itself in c under
 * QEMU's user-mode emulator (make-dump.sh).  Both are built into this test
 * (.incbin), so that it runs where there is no source tree (the guests).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <libelf.h>

#include "kselftest_harness.h"

#include "lib/testutil.h"
#include "symbols/regs.h"
#include "symbols/symbols.h"
#include "symbols/unwind.h"

/* ------------------------------------------------------------ registers */

TEST(x86_64_perf_registers_map_to_dwarf_numbers)
{
	uint64_t mask = pc_regs_dwarf_mask(PC_ARCH_X86_64), regs[24];
	struct pc_user_regs r;
	struct pc_error err = { 0 };
	int n = 0;

	/* perf records every general register but DS ES FS GS */
	ASSERT_EQ(0xff0fffULL, mask);
	for (int bit = 0; bit < 24; bit++)
		if (mask >> bit & 1)
			regs[n++] = 0x1000 + (uint64_t)bit;	/* value names its perf number */
	ASSERT_EQ(0, pc_regs_decode(PC_ARCH_X86_64, PC_REGS_ABI_64, mask, regs, (uint64_t)n, &r, &err));
	EXPECT_EQ(0x1008, r.ip);	/* PERF_REG_X86_IP */
	EXPECT_EQ(0x1007, r.sp);	/* PERF_REG_X86_SP */
	EXPECT_EQ(0x1000, r.dwarf[0]);	/* rax <- AX */
	EXPECT_EQ(0x1003, r.dwarf[1]);	/* rdx <- DX */
	EXPECT_EQ(0x1002, r.dwarf[2]);	/* rcx <- CX */
	EXPECT_EQ(0x1001, r.dwarf[3]);	/* rbx <- BX */
	EXPECT_EQ(0x1006, r.dwarf[6]);	/* rbp <- BP */
	EXPECT_EQ(0x1007, r.dwarf[7]);	/* rsp <- SP */
	EXPECT_EQ(0x1010, r.dwarf[8]);	/* r8 <- R8 (perf 16) */
	EXPECT_EQ(0x1017, r.dwarf[15]);	/* r15 <- R15 (perf 23) */
	EXPECT_EQ(0x1008, r.dwarf[16]);	/* return address column <- IP */
	EXPECT_EQ(0x1ffffULL, r.dwarf_valid);
}

TEST(aarch64_perf_registers_map_to_dwarf_numbers)
{
	uint64_t mask = pc_regs_dwarf_mask(PC_ARCH_AARCH64), regs[33];
	struct pc_user_regs r;
	struct pc_error err = { 0 };

	ASSERT_EQ((1ULL << 33) - 1, mask);
	for (int i = 0; i < 33; i++)
		regs[i] = 0x2000 + (uint64_t)i;
	ASSERT_EQ(0, pc_regs_decode(PC_ARCH_AARCH64, PC_REGS_ABI_64, mask, regs, 33, &r, &err));
	EXPECT_EQ(0x2020, r.ip);	/* PERF_REG_ARM64_PC = 32 */
	EXPECT_EQ(0x201f, r.sp);	/* PERF_REG_ARM64_SP = 31 */
	EXPECT_EQ(0x201e, r.dwarf[30]);	/* x30, the link register */
	EXPECT_EQ(0x201f, r.dwarf[31]);	/* sp */
	EXPECT_EQ(0xffffffffULL, r.dwarf_valid);
}

TEST(mask_that_does_not_match_the_register_count_is_an_error)
{
	uint64_t regs[24] = { 0 };
	struct pc_user_regs r;
	struct pc_error err = { 0 };

	EXPECT_EQ(-EINVAL, pc_regs_decode(PC_ARCH_X86_64, PC_REGS_ABI_64, 0xff0fff, regs, 19, &r, &err));
	EXPECT_NE(NULL, strstr(err.msg, "has 20 registers, the sample 19")) TH_LOG("%s", err.msg);
}

TEST(registers_of_another_arch_are_an_error)
{
	uint64_t regs[33] = { 0 };
	struct pc_user_regs r;
	struct pc_error err = { 0 };

	/* an arm64 sample read as x86_64: bits 24..32 are no x86 registers */
	EXPECT_EQ(-EINVAL, pc_regs_decode(PC_ARCH_X86_64, PC_REGS_ABI_64, (1ULL << 33) - 1, regs,
					  33, &r, &err));
	EXPECT_NE(NULL, strstr(err.msg, "x86_64 does not have")) TH_LOG("%s", err.msg);
	/* an x86_64 sample read as arm64: no PC (bit 32) */
	pc_error_clear(&err);
	EXPECT_EQ(-EINVAL, pc_regs_decode(PC_ARCH_AARCH64, PC_REGS_ABI_64, 0xff0fff, regs, 20, &r, &err));
	EXPECT_NE(NULL, strstr(err.msg, "lacks the aarch64 instruction or stack pointer"))
		TH_LOG("%s", err.msg);
}

TEST(abi_none_and_abi_32_are_told_apart)
{
	uint64_t regs[20] = { 0 };
	struct pc_user_regs r;
	struct pc_error err = { 0 };

	EXPECT_EQ(-ENODATA, pc_regs_decode(PC_ARCH_X86_64, PC_REGS_ABI_NONE, 0xff0fff, regs, 20, &r, &err));
	EXPECT_EQ(-ENOTSUP, pc_regs_decode(PC_ARCH_X86_64, PC_REGS_ABI_32, 0xff0fff, regs, 20, &r, &err));
	EXPECT_EQ(-EINVAL, pc_regs_decode(PC_ARCH_X86_64, 7, 0xff0fff, regs, 20, &r, &err));
}

TEST(arch_names_of_the_arch_header)
{
	EXPECT_EQ(PC_ARCH_X86_64, pc_arch_from_name("x86_64"));
	EXPECT_EQ(PC_ARCH_AARCH64, pc_arch_from_name("aarch64"));
	EXPECT_EQ(PC_ARCH_AARCH64, pc_arch_from_name("arm64"));
	EXPECT_EQ(PC_ARCH_UNKNOWN, pc_arch_from_name("riscv64"));
	EXPECT_EQ(PC_ARCH_UNKNOWN, pc_arch_from_name(NULL));
}

/* ---------------------------------------------------------- the fixture */

/* the fixture's two files, in this binary (paths from the top of the tree, where make runs) */
#define HIDDEN __attribute__((visibility("hidden")))
extern HIDDEN const unsigned char arm64_work[], arm64_dump[];
/* sizes computed by the assembler: C may not subtract pointers to two objects */
extern HIDDEN const uint64_t arm64_work_size, arm64_dump_size;
/* global symbols (hidden): aarch64's GOT relocations lose a local symbol's section offset */
__asm__(".pushsection .rodata\n"
	".global arm64_work, arm64_dump, arm64_work_size, arm64_dump_size\n"
	".hidden arm64_work, arm64_dump, arm64_work_size, arm64_dump_size\n"
	".balign 16\n"
	"arm64_work: .incbin \"fixtures/unwind/arm64/work\"\n"
	"arm64_work_end:\n"
	".balign 16\n"
	"arm64_dump: .incbin \"fixtures/unwind/arm64/work.dump\"\n"
	"arm64_dump_end:\n"
	".balign 8\n"
	"arm64_work_size: .quad arm64_work_end - arm64_work\n"
	"arm64_dump_size: .quad arm64_dump_end - arm64_dump\n"
	".popsection\n");

struct arm64_dump {
	char magic[8];
	uint64_t mask;
	uint64_t regs[33];
	uint64_t size;
	uint8_t stack[2048];
};

FIXTURE(arm64) {
	char *dir;
	char bin[PATH_MAX + 64];
	struct arm64_dump d;
	struct pc_unwind_map map;
};

static int one_map(void *ctx, uint64_t addr, struct pc_unwind_map *m)
{
	const struct pc_unwind_map *only = ctx;

	if (addr < only->start || addr >= only->end)
		return -ENOENT;
	*m = *only;
	return 0;
}

FIXTURE_SETUP(arm64)
{
	size_t size = (size_t)arm64_work_size;
	int fd;

	ASSERT_EQ(sizeof(self->d), arm64_dump_size);
	memcpy(&self->d, arm64_dump, sizeof(self->d));
	ASSERT_EQ(0, memcmp(self->d.magic, "PCUWARM1", 8));
	ASSERT_EQ(sizeof(self->d.stack), self->d.size);
	/* the unwinder opens ELF files by path: the binary goes to a file */
	self->dir = pc_test_mkdtemp("unit-unwind");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->bin, sizeof(self->bin), "%s/work", self->dir);
	fd = open(self->bin, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)size, write(fd, arm64_work, size));
	close(fd);
	/* the static binary's one text segment: ET_EXEC at 0x400000, offset 0 */
	self->map = (struct pc_unwind_map){ 0x400000, 0x410000, 0, self->bin, NULL };
}

FIXTURE_TEARDOWN(arm64)
{
	if (self->dir)
		pc_test_rmdir(self->dir);
}

static struct pc_unwind_sample arm64_sample(FIXTURE_DATA(arm64) *self)
{
	return (struct pc_unwind_sample){
		.pid = 100, .tid = 100, .regs_abi = PC_REGS_ABI_64, .regs_mask = self->d.mask,
		.regs = self->d.regs, .nr_regs = 33, .stack = self->d.stack,
		.stack_size = self->d.size, .stack_dyn_size = self->d.size,
		.find_map = one_map, .map_ctx = &self->map,
	};
}

/* The function holding addr in the fixture binary, from its symbol table. */
static const char *sym_at(struct pc_dso_cache *c, const char *bin, uint64_t addr, uint64_t *start)
{
	struct pc_dso *dso = pc_dso_cache_get(c, bin);
	const struct pc_symbol *s;

	if (!dso)
		return "?";
	pc_dso_load(c, dso);
	s = pc_symtab_find(&dso->tab, addr);
	if (!s)
		return "?";
	*start = s->start;
	return s->name;
}

/* The instruction word at addr of the binary (ET_EXEC, file offset = addr - 0x400000). */
static uint32_t insn_at(const char *bin, uint64_t addr)
{
	uint32_t w = 0;
	int fd = open(bin, O_RDONLY);

	if (fd >= 0) {
		if (pread(fd, &w, 4, (off_t)(addr - 0x400000)) != 4)
			w = 0;
		close(fd);
	}
	return w;
}

static void check_arm64_chain(struct __test_metadata *_metadata, FIXTURE_DATA(arm64) *self,
			      bool fast)
{
	static const char *const want[] = { "c", "b", "a", "main", "_start" };
	struct pc_unwinder *u = pc_unwinder_new(PC_ARCH_AARCH64, NULL);
	struct pc_unwind_sample s = arm64_sample(self);
	struct pc_error err = { 0 };
	struct pc_dso_cache dsos;
	uint64_t ips[64], callee_start = 0;
	uint32_t nr;

	ASSERT_NE(NULL, u);
	pc_unwinder_set_fast(u, fast);
	pc_dso_cache_init(&dsos);
	ASSERT_EQ(0, pc_unwind(u, &s, ips, 64, &nr, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(5, nr);
	EXPECT_EQ(self->d.regs[32], ips[0]);	/* the sample's pc first */
	for (uint32_t i = 0; i < nr; i++) {
		uint64_t start = 0;
		const char *name = sym_at(&dsos, self->bin, ips[i], &start);

		EXPECT_STREQ(want[i], name) TH_LOG("frame %u at 0x%llx", i, (unsigned long long)ips[i]);
		if (i > 0 && i < 4) {
			/* a caller's frame is its return address - 1: the bl before it calls the callee */
			uint64_t bl = ips[i] + 1 - 4;
			uint32_t w = insn_at(self->bin, bl);
			int64_t imm = (int64_t)((uint64_t)(w & 0x3ffffff) << 38) >> 36;

			EXPECT_EQ(0x94000000u, w & 0xfc000000u) TH_LOG("frame %u: 0x%08x is no bl", i, w);
			EXPECT_EQ(callee_start, bl + (uint64_t)imm);
		}
		callee_start = start;
	}
	if (fast) {
		EXPECT_EQ(1, pc_unwinder_stats(u)->fast);
	} else {
		EXPECT_EQ(1, pc_unwinder_stats(u)->slow);
	}
	pc_dso_cache_free(&dsos);
	pc_unwinder_free(u);
}

/* aarch64 registers and stack, unwound with libdw on this host: c <- b <- a <- main <- _start */
TEST_F(arm64, unwinds_on_this_host)
{
	check_arm64_chain(_metadata, self, true);
}

TEST_F(arm64, unwinds_on_this_host_through_libdwfl_only)
{
	check_arm64_chain(_metadata, self, false);
}

TEST_F(arm64, stack_shorter_than_its_dyn_size_is_an_error)
{
	struct pc_unwinder *u = pc_unwinder_new(PC_ARCH_AARCH64, NULL);
	struct pc_unwind_sample s = arm64_sample(self);
	struct pc_error err = { 0 };
	uint64_t ips[64];
	uint32_t nr = 99;

	ASSERT_NE(NULL, u);
	s.stack_size = 1024;	/* dyn_size stays 2048 */
	EXPECT_EQ(-EINVAL, pc_unwind(u, &s, ips, 64, &nr, &err));
	EXPECT_EQ(0, nr);
	EXPECT_NE(NULL, strstr(err.msg, "dyn_size 2048 exceeds the dump's size 1024")) TH_LOG("%s", err.msg);
	pc_unwinder_free(u);
}

TEST_F(arm64, register_count_that_does_not_match_the_mask_is_an_error)
{
	struct pc_unwinder *u = pc_unwinder_new(PC_ARCH_AARCH64, NULL);
	struct pc_unwind_sample s = arm64_sample(self);
	struct pc_error err = { 0 };
	uint64_t ips[64];
	uint32_t nr;

	ASSERT_NE(NULL, u);
	s.nr_regs = 32;
	EXPECT_EQ(-EINVAL, pc_unwind(u, &s, ips, 64, &nr, &err));
	EXPECT_EQ(0, nr);
	pc_unwinder_free(u);
}

/* An x86_64 file whose ip lands in an aarch64 ELF: an error naming the file, not a chain. */
TEST_F(arm64, ip_in_an_elf_of_another_machine_is_an_error)
{
	struct pc_unwinder *u = pc_unwinder_new(PC_ARCH_X86_64, NULL);
	uint64_t regs[20] = { 0 }, ips[64];
	struct pc_unwind_sample s = {
		.pid = 1, .tid = 1, .regs_abi = PC_REGS_ABI_64, .regs_mask = 0xff0fff,
		.regs = regs, .nr_regs = 20, .find_map = one_map, .map_ctx = &self->map,
	};
	struct pc_error err = { 0 };
	uint32_t nr;

	ASSERT_NE(NULL, u);
	regs[8] = self->d.regs[32];	/* IP: c in the aarch64 binary */
	regs[7] = self->d.regs[31];	/* SP */
	EXPECT_EQ(-EINVAL, pc_unwind(u, &s, ips, 64, &nr, &err));
	EXPECT_NE(NULL, strstr(err.msg, "an ELF file for machine 183")) TH_LOG("%s", err.msg);
	pc_unwinder_free(u);
}

TEST_F(arm64, ip_in_no_map_gives_no_frames)
{
	struct pc_unwinder *u = pc_unwinder_new(PC_ARCH_AARCH64, NULL);
	struct pc_unwind_sample s = arm64_sample(self);
	uint64_t regs[33], ips[64];
	struct pc_error err = { 0 };
	uint32_t nr = 99;

	ASSERT_NE(NULL, u);
	memcpy(regs, self->d.regs, sizeof(regs));
	regs[32] = 0x7000000;	/* anonymous memory, as JIT code */
	s.regs = regs;
	EXPECT_EQ(0, pc_unwind(u, &s, ips, 64, &nr, &err));
	EXPECT_EQ(0, nr);
	EXPECT_EQ(1, pc_unwinder_stats(u)->no_map);
	pc_unwinder_free(u);
}

/* The fixture binary's own build id, hex. */
static void own_build_id(const char *path, char *hex, size_t size)
{
	const unsigned char *id;
	int fd = open(path, O_RDONLY);
	Elf *e;
	ssize_t n;

	hex[0] = '\0';
	elf_version(EV_CURRENT);
	e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	n = e ? dwelf_elf_gnu_build_id(e, (const void **)&id) : -1;
	for (ssize_t i = 0; i < n && (size_t)(2 * i + 3) <= size; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
}

/* A map whose recorded build id is not the file's (rebuilt since): the file is not used. */
TEST_F(arm64, file_with_another_build_id_is_not_used)
{
	struct pc_unwinder *u = pc_unwinder_new(PC_ARCH_AARCH64, NULL);
	struct pc_unwind_sample s = arm64_sample(self);
	struct pc_error err = { 0 };
	uint64_t ips[64];
	char right[129];
	uint32_t nr = 99;

	ASSERT_NE(NULL, u);
	own_build_id(self->bin, right, sizeof(right));
	ASSERT_EQ(40, strlen(right));
	self->map.build_id = "0123456789abcdef0123456789abcdef01234567";
	EXPECT_EQ(0, pc_unwind(u, &s, ips, 64, &nr, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, nr);
	EXPECT_EQ(1, pc_unwinder_stats(u)->build_id_mismatch);
	/* the recorded id, in either case: the whole chain */
	for (char *p = right; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'f' ? *p - 'a' + 'A' : *p);
	self->map.build_id = right;
	EXPECT_EQ(0, pc_unwind(u, &s, ips, 64, &nr, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(5, nr);
	EXPECT_EQ(1, pc_unwinder_stats(u)->build_id_mismatch);
	pc_unwinder_free(u);
}

/* Garbage on the stack or a dump cut short: a shorter chain, never a crash or a loop. */
TEST_F(arm64, garbage_or_truncated_stack_ends_the_chain)
{
	static const uint8_t fills[] = { 0x00, 0xff, 0x40, 0xa5 };
	struct pc_unwinder *u = pc_unwinder_new(PC_ARCH_AARCH64, NULL);
	struct pc_error err = { 0 };
	uint64_t ips[64];
	uint32_t nr;

	ASSERT_NE(NULL, u);
	for (size_t f = 0; f < sizeof(fills); f++) {
		struct pc_unwind_sample s = arm64_sample(self);
		uint8_t stack[2048];

		memset(stack, fills[f], sizeof(stack));
		s.stack = stack;
		EXPECT_EQ(0, pc_unwind(u, &s, ips, 64, &nr, &err)) TH_LOG("%s", err.msg);
		EXPECT_LE(1, nr);
		EXPECT_GE(64, nr);
		EXPECT_EQ(self->d.regs[32], ips[0]);
	}
	/*
	 * c is a leaf (its caller is in x30); b, a, main each keep x30 16
	 * bytes further up: the chain grows with the stack there is, from
	 * c <- b with none to the whole chain.
	 */
	for (uint64_t dyn = 0, last = 2; dyn <= 64; dyn += 8) {
		struct pc_unwind_sample s = arm64_sample(self);

		s.stack_dyn_size = dyn;
		EXPECT_EQ(0, pc_unwind(u, &s, ips, 64, &nr, &err)) TH_LOG("%s", err.msg);
		if (dyn == 0) {
			EXPECT_EQ(2, nr);
		}
		EXPECT_LE(last, nr) TH_LOG("dyn_size %llu", (unsigned long long)dyn);
		EXPECT_GE(5, nr) TH_LOG("dyn_size %llu", (unsigned long long)dyn);
		last = nr;
	}
	{
		struct pc_unwind_sample s = arm64_sample(self);

		s.stack_dyn_size = 64;
		EXPECT_EQ(0, pc_unwind(u, &s, ips, 64, &nr, &err));
		EXPECT_EQ(5, nr);
	}
	/* max bounds the chain */
	{
		struct pc_unwind_sample s = arm64_sample(self);

		EXPECT_EQ(0, pc_unwind(u, &s, ips, 2, &nr, &err));
		EXPECT_EQ(2, nr);
	}
	pc_unwinder_free(u);
}

TEST_HARNESS_MAIN
