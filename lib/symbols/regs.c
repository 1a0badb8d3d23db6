// SPDX-License-Identifier: GPL-2.0
/*
 * perf register numbers (uapi asm/perf_regs.h) to DWARF register numbers
 * (the psABI of each arch).
 *
 * x86_64, perf: AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS = 0..15,
 *   R8..R15 = 16..23.  DWARF: rax rdx rcx rbx rsi rdi rbp rsp = 0..7,
 *   r8..r15 = 8..15, return address (rip) = 16.
 * aarch64, perf: X0..X30 = 0..30, SP = 31, PC = 32 (VG = 46 with SVE).
 *   DWARF: x0..x30 = 0..30, sp = 31; the pc has no DWARF column.
 */
#include "symbols/regs.h"

#include <elf.h>
#include <errno.h>
#include <string.h>

#define NONE -1

/* perf register -> DWARF register, NONE when DWARF has no column for it */
static const int x86_64_dwarf[24] = {
	[0] = 0,	/* AX */
	[1] = 3,	/* BX */
	[2] = 2,	/* CX */
	[3] = 1,	/* DX */
	[4] = 4,	/* SI */
	[5] = 5,	/* DI */
	[6] = 6,	/* BP */
	[7] = 7,	/* SP */
	[8] = 16,	/* IP */
	[9] = NONE, [10] = NONE, [11] = NONE, [12] = NONE, [13] = NONE,
	[14] = NONE, [15] = NONE,	/* FLAGS CS SS DS ES FS GS */
	[16] = 8, [17] = 9, [18] = 10, [19] = 11,
	[20] = 12, [21] = 13, [22] = 14, [23] = 15,	/* R8..R15 */
};

#define X86_64_IP 8
#define X86_64_SP 7
#define X86_64_VALID ((1ULL << 24) - 1)

#define ARM64_SP 31
#define ARM64_PC 32
#define ARM64_VG 46
#define ARM64_VALID (((1ULL << 33) - 1) | (1ULL << ARM64_VG))

enum pc_arch pc_arch_from_name(const char *m)
{
	if (!m)
		return PC_ARCH_UNKNOWN;
	if (!strcmp(m, "x86_64") || !strcmp(m, "amd64"))
		return PC_ARCH_X86_64;
	if (!strcmp(m, "aarch64") || !strcmp(m, "arm64"))
		return PC_ARCH_AARCH64;
	return PC_ARCH_UNKNOWN;
}

const char *pc_arch_name(enum pc_arch arch)
{
	switch (arch) {
	case PC_ARCH_X86_64: return "x86_64";
	case PC_ARCH_AARCH64: return "aarch64";
	default: return "unknown";
	}
}

/* perf's names, by bit of sample_regs_user / sample_regs_intr */
const char *pc_reg_name(enum pc_arch arch, unsigned int bit)
{
	static const char *const x86[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static const char *const xmm[] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7", "XMM8",
		"XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};
	static const char *const arm64[] = {
		"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11",
		"x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22",
		"x23", "x24", "x25", "x26", "x27", "x28", "x29", "lr", "sp", "pc",
	};

	if (arch == PC_ARCH_X86_64 && bit < sizeof(x86) / sizeof(x86[0]))
		return x86[bit];
	/* XMM registers take two bits each, from bit 32 */
	if (arch == PC_ARCH_X86_64 && bit >= 32 && (bit - 32) / 2 < 16)
		return xmm[(bit - 32) / 2];
	if (arch == PC_ARCH_AARCH64 && bit < sizeof(arm64) / sizeof(arm64[0]))
		return arm64[bit];
	/* SVE's vector granule register */
	if (arch == PC_ARCH_AARCH64 && bit == 46)
		return "vg";
	return "unknown";
}

unsigned pc_arch_elf_machine(enum pc_arch arch)
{
	switch (arch) {
	case PC_ARCH_X86_64: return EM_X86_64;
	case PC_ARCH_AARCH64: return EM_AARCH64;
	default: return EM_NONE;
	}
}

uint64_t pc_regs_dwarf_mask(enum pc_arch arch)
{
	switch (arch) {
	/* every general register but the segment ones DS ES FS GS */
	case PC_ARCH_X86_64: return X86_64_VALID & ~(0xfULL << 12);
	case PC_ARCH_AARCH64: return (1ULL << 33) - 1;
	default: return 0;
	}
}

static int check_abi(uint64_t abi, struct pc_error *err)
{
	if (abi == PC_REGS_ABI_NONE)
		return pc_error_set(err, ENODATA, "no user registers (ABI_NONE)");
	if (abi == PC_REGS_ABI_32)
		return pc_error_set(err, ENOTSUP, "user registers of a 32-bit task (ABI_32) are not unwound");
	if (abi != PC_REGS_ABI_64)
		return pc_error_set(err, EINVAL, "user registers: unknown ABI %llu",
				    (unsigned long long)abi);
	return 0;
}

int pc_regs_plan(enum pc_arch arch, uint64_t mask, struct pc_regs_plan *plan,
		 struct pc_error *err)
{
	uint64_t valid, need, bits;
	unsigned ip_bit, sp_bit;
	uint32_t i = 0;

	memset(plan, 0, sizeof(*plan));
	plan->arch = arch;
	plan->mask = mask;
	switch (arch) {
	case PC_ARCH_X86_64:
		valid = X86_64_VALID, ip_bit = X86_64_IP, sp_bit = X86_64_SP;
		break;
	case PC_ARCH_AARCH64:
		valid = ARM64_VALID, ip_bit = ARM64_PC, sp_bit = ARM64_SP;
		break;
	default:
		return pc_error_set(err, ENOTSUP, "no DWARF register map for this architecture");
	}
	if (mask & ~valid)
		return pc_error_set(err, EINVAL,
				    "user registers: mask 0x%llx names registers %s does not have (0x%llx)",
				    (unsigned long long)mask, pc_arch_name(arch),
				    (unsigned long long)(mask & ~valid));
	need = (1ULL << ip_bit) | (1ULL << sp_bit);
	if ((mask & need) != need)
		return pc_error_set(err, EINVAL,
				    "user registers: mask 0x%llx lacks the %s instruction or stack pointer",
				    (unsigned long long)mask, pc_arch_name(arch));
	for (bits = mask; bits; bits &= bits - 1, i++) {
		unsigned r = (unsigned)__builtin_ctzll(bits);
		int dw = -1;

		if (r == ip_bit)
			plan->ip_at = i;
		if (r == sp_bit)
			plan->sp_at = i;
		if (arch == PC_ARCH_X86_64)
			dw = x86_64_dwarf[r];
		else if (r <= ARM64_SP)
			dw = (int)r;
		plan->dwarf_of[i] = (int8_t)dw;
		if (dw >= 0 && dw < PC_DWARF_REGS_MAX)
			plan->dwarf_valid |= 1ULL << dw;
		else
			plan->dwarf_of[i] = -1;
	}
	plan->nr = i;
	return 0;
}

int pc_regs_apply(const struct pc_regs_plan *plan, uint64_t abi, const uint64_t *regs,
		  uint64_t nr, struct pc_user_regs *out, struct pc_error *err)
{
	int ret = check_abi(abi, err);

	out->arch = plan->arch;
	out->dwarf_valid = 0;
	if (ret)
		return ret;
	if (nr != plan->nr)
		return pc_error_set(err, EINVAL,
				    "user registers: mask 0x%llx has %u registers, the sample %llu",
				    (unsigned long long)plan->mask, plan->nr, (unsigned long long)nr);
	for (uint32_t i = 0; i < plan->nr; i++)
		if (plan->dwarf_of[i] >= 0)
			out->dwarf[plan->dwarf_of[i]] = regs[i];
	out->ip = regs[plan->ip_at];
	out->sp = regs[plan->sp_at];
	out->dwarf_valid = plan->dwarf_valid;
	return 0;
}

int pc_regs_decode(enum pc_arch arch, uint64_t abi, uint64_t mask, const uint64_t *regs,
		   uint64_t nr, struct pc_user_regs *out, struct pc_error *err)
{
	struct pc_regs_plan plan;
	int ret;

	memset(out, 0, sizeof(*out));
	out->arch = arch;
	ret = check_abi(abi, err);
	if (ret)
		return ret;
	if ((uint64_t)__builtin_popcountll(mask) != nr)
		return pc_error_set(err, EINVAL,
				    "user registers: mask 0x%llx has %d registers, the sample %llu",
				    (unsigned long long)mask, __builtin_popcountll(mask),
				    (unsigned long long)nr);
	ret = pc_regs_plan(arch, mask, &plan, err);
	return ret ? ret : pc_regs_apply(&plan, abi, regs, nr, out, err);
}
