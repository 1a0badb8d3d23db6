/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CFI rows compiled for the unwinder's fast path: at one pc, how the
 * caller's CFA and registers follow from the callee's (the forms compilers
 * emit: CFA = reg + offset; a register undefined, unchanged, saved at
 * CFA + n, or equal to CFA + n).  A row with any other rule is marked
 * unusable and that sample goes through libdwfl's own unwinder.  Rows are
 * kept per ELF file (the unwinder's DSO), keyed by the lookup pc there.
 */
#ifndef PERFCHECK_SYMBOLS_CFIROW_H
#define PERFCHECK_SYMBOLS_CFIROW_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stdint.h>

#include "symbols/regs.h"

enum pc_cfi_rule { PC_CFI_UNDEF, PC_CFI_SAME, PC_CFI_AT_CFA, PC_CFI_VAL_CFA };

/* The rule of one register whose value follows from the CFA. */
struct pc_cfi_live {
	int64_t off;		/* PC_CFI_AT_CFA, PC_CFI_VAL_CFA: CFA + off */
	uint8_t reg;
	uint8_t kind;		/* enum pc_cfi_rule */
};

struct pc_cfi_row {
	uint64_t pc;		/* the lookup pc (absolute) */
	struct pc_cfi_row *next;
	int64_t cfa_off;
	uint64_t same;		/* the registers whose rule is "same value" (bit n: register n) */
	bool usable;
	bool signal;		/* the FDE's CIE has the 'S' augmentation */
	uint8_t cfa_reg;
	uint8_t ra_reg;
	uint8_t ra_kind;	/* the return address register's rule */
	uint8_t nr_live;
	/* the registers saved at CFA + n or equal to CFA + n, in register order
	 * (the others are undefined) */
	struct pc_cfi_live live[];
};

#define PC_CFI_BUCKETS 4096

struct pc_cfi_rows {
	struct pc_cfi_row **buckets;	/* allocated on first use */
	uint32_t nr;
};

/* Registers the fast path tracks for arch (x86_64: 0..16, aarch64: 0..31). */
unsigned pc_cfi_nregs(enum pc_arch arch);

/*
 * The row at pc (absolute, already adjusted for a return address) in mod,
 * from .eh_frame, else .debug_frame, as libdwfl looks them up; a row not
 * usable when neither has an FDE for pc (libdwfl then tries its own
 * heuristics), kept so that the lookup is made once.  NULL on ENOMEM.
 */
const struct pc_cfi_row *pc_cfi_row_get(struct pc_cfi_rows *rows, Dwfl_Module *mod,
					uint64_t pc, unsigned nregs);
void pc_cfi_rows_free(struct pc_cfi_rows *rows);

#endif
