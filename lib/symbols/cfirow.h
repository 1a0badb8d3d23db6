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
	int32_t off;		/* PC_CFI_AT_CFA, PC_CFI_VAL_CFA: CFA + off (a row whose
				 * offsets do not fit is not usable) */
	uint8_t reg;
	uint8_t kind;		/* enum pc_cfi_rule */
};

/* One operation of a CFA expression (DW_CFA_def_cfa_expression), as libdw decodes it. */
struct pc_cfi_op {
	uint64_t number, number2;
	uint8_t atom;
};

#define PC_CFI_EXPR_MAX 16	/* operations, and stack slots, of an expression kept */

struct pc_cfi_row {
	uint64_t pc;		/* the lookup pc (absolute) */
	struct pc_cfi_row *next;
	/* the CFA: cfa_reg + cfa_off, or the value of an expression (x86 PLT entries) */
	struct pc_cfi_op *cfa_expr;	/* NULL: the register rule */
	uint64_t same;		/* the registers whose rule is "same value" (bit n: register n) */
	int32_t cfa_off;
	uint8_t cfa_nops;
	bool usable;
	bool no_fde;		/* no FDE covers pc (unusable): the object has no CFI there */
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
	/* the rows, packed one after another in chunks (the hot ones share cache lines) */
	void *chunk;			/* the newest; each starts with a pointer to the one before */
	size_t chunk_used;
};

/* The row found for pc before, else NULL (pc_cfi_row_get then). */
static inline const struct pc_cfi_row *pc_cfi_row_find(const struct pc_cfi_rows *rows, uint64_t pc)
{
	const struct pc_cfi_row *row;

	if (!rows->buckets)
		return NULL;
	for (row = rows->buckets[(size_t)(pc ^ (pc >> 13)) % PC_CFI_BUCKETS]; row; row = row->next)
		if (row->pc == pc)
			return row;
	return NULL;
}

/*
 * The CFA of row from the registers (bit n of valid: regs[n] known), as
 * libdwfl computes it; false when a register it reads is not known (the
 * registers saved relative to the CFA are then unknown too).
 */
bool pc_cfi_cfa(const struct pc_cfi_row *row, const uint64_t *regs, uint64_t valid,
		uint64_t *cfa);

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
