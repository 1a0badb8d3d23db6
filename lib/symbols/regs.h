/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User registers of a sample (PERF_SAMPLE_REGS_USER) for DWARF unwinding:
 * the architecture of the recorded machine (from the file, never the
 * host), the perf register numbering of each (the kernel's
 * arch/{x86,arm64}/include/uapi/asm/perf_regs.h) and its DWARF numbering.
 */
#ifndef PERFCHECK_SYMBOLS_REGS_H
#define PERFCHECK_SYMBOLS_REGS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

enum pc_arch {
	PC_ARCH_UNKNOWN = 0,
	PC_ARCH_X86_64,
	PC_ARCH_AARCH64,
};

/* The arch of a uname machine string (the ARCH header feature): "x86_64",
 * "aarch64" or "arm64"; PC_ARCH_UNKNOWN for anything else. */
enum pc_arch pc_arch_from_name(const char *machine);
const char *pc_arch_name(enum pc_arch arch);
/* perf's name of a register by its bit in a sample_regs mask ("AX", "XMM0", "lr"; "unknown"). */
const char *pc_reg_name(enum pc_arch arch, unsigned int bit);
/* The ELF e_machine of the arch (EM_X86_64, EM_AARCH64). */
unsigned pc_arch_elf_machine(enum pc_arch arch);

/* Highest DWARF register number set by pc_regs_to_dwarf, plus one. */
#define PC_DWARF_REGS_MAX 33

/* A sample's user registers, decoded against its attr. */
struct pc_user_regs {
	enum pc_arch arch;
	uint64_t ip, sp;
	/* DWARF register number -> value, valid where the bit is set */
	uint64_t dwarf[PC_DWARF_REGS_MAX];
	uint64_t dwarf_valid;	/* bit n: dwarf[n] holds a value */
};

/* PERF_SAMPLE_REGS_ABI_* of a sample */
#define PC_REGS_ABI_NONE 0
#define PC_REGS_ABI_32	 1
#define PC_REGS_ABI_64	 2

/*
 * Decodes regs (nr values, in the order of the set bits of mask, as the
 * kernel writes them) for arch.  -EINVAL with err set when nr is not
 * popcount(mask), when the mask has bits the arch does not define (regs of
 * another arch), or lacks the instruction or stack pointer; -ENOTSUP for
 * ABI_32 (a compat task) and -ENODATA for ABI_NONE (no user regs: a kernel
 * thread).
 */
int pc_regs_decode(enum pc_arch arch, uint64_t abi, uint64_t mask, const uint64_t *regs,
		   uint64_t nr, struct pc_user_regs *out, struct pc_error *err);

/*
 * The same in two steps, for many samples of one attr: the plan checks the
 * mask once (the errors of pc_regs_decode but the count and the ABI), the
 * apply maps one sample's values (checking their count and ABI).
 */
struct pc_regs_plan {
	enum pc_arch arch;
	uint64_t mask;
	uint32_t nr;			/* popcount(mask) */
	uint32_t ip_at, sp_at;		/* their index in a sample's values */
	int8_t dwarf_of[64];		/* value i -> DWARF register, -1 for none */
	uint64_t dwarf_valid;
};

int pc_regs_plan(enum pc_arch arch, uint64_t mask, struct pc_regs_plan *plan,
		 struct pc_error *err);
int pc_regs_apply(const struct pc_regs_plan *plan, uint64_t abi, const uint64_t *regs,
		  uint64_t nr, struct pc_user_regs *out, struct pc_error *err);

/* The sample_regs_user mask perf records for --call-graph dwarf on arch. */
uint64_t pc_regs_dwarf_mask(enum pc_arch arch);

#endif
