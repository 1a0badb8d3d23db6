// SPDX-License-Identifier: GPL-2.0
/*
 * How libdw presents a CFI row (dwarf_frame_register): no ops and ops ==
 * the caller's buffer: undefined; no ops and ops == NULL: same value;
 * otherwise a DWARF expression, which for the offset rules is
 * DW_OP_call_frame_cfa [DW_OP_plus_uconst N] [DW_OP_stack_value]: a
 * location (read memory there) unless DW_OP_stack_value makes it a value.
 * dwarf_frame_cfa gives DW_OP_bregx REG OFF for the usual CFA rule.
 */
#include "symbols/cfirow.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

/* rows kept per address space; past it the cache starts over */
#define PC_CFI_ROWS_MAX (1u << 18)

static void pc_cfi_rows_clear(struct pc_cfi_rows *rows);

unsigned pc_cfi_nregs(enum pc_arch arch)
{
	switch (arch) {
	case PC_ARCH_X86_64: return 17;
	case PC_ARCH_AARCH64: return 32;
	default: return 0;
	}
}

static bool compile_reg(Dwarf_Frame *fr, unsigned regno, uint8_t *kind, int64_t *off)
{
	Dwarf_Op mem[3], *ops;
	size_t nops, i = 0;

	if (dwarf_frame_register(fr, (int)regno, mem, &ops, &nops))
		return false;
	*off = 0;
	if (nops == 0) {
		*kind = ops == NULL ? PC_CFI_SAME : PC_CFI_UNDEF;
		return true;
	}
	if (ops[i++].atom != DW_OP_call_frame_cfa)
		return false;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		*off = (int64_t)ops[i++].number;
	*kind = PC_CFI_AT_CFA;
	if (i < nops && ops[i].atom == DW_OP_stack_value) {
		*kind = PC_CFI_VAL_CFA;
		i++;
	}
	return i == nops;
}

/* Compiles the row at fr into row (room for nregs rules); usable when every rule has a form above. */
static void compile(struct pc_cfi_row *row, Dwarf_Frame *fr, unsigned nregs)
{
	Dwarf_Op *ops;
	size_t nops;
	bool signal = false;
	int ra = dwarf_frame_info(fr, NULL, NULL, &signal);

	row->signal = signal;
	if (ra < 0 || (unsigned)ra >= nregs || dwarf_frame_cfa(fr, &ops, &nops) || nops != 1 ||
	    ops[0].atom != DW_OP_bregx || ops[0].number >= nregs)
		return;
	row->ra_reg = (uint8_t)ra;
	row->ra_kind = PC_CFI_UNDEF;
	row->cfa_reg = (uint8_t)ops[0].number;
	row->cfa_off = (int64_t)ops[0].number2;
	for (unsigned r = 0; r < nregs; r++) {
		uint8_t kind;
		int64_t off;

		if (!compile_reg(fr, r, &kind, &off))
			return;
		if (r == (unsigned)ra)
			row->ra_kind = kind;
		if (kind == PC_CFI_SAME)
			row->same |= 1ULL << r;
		else if (kind != PC_CFI_UNDEF)
			row->live[row->nr_live++] = (struct pc_cfi_live){ off, (uint8_t)r, kind };
	}
	row->usable = true;
}

static Dwarf_Frame *frame_at(Dwfl_Module *mod, uint64_t pc)
{
	Dwarf_Addr bias;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &bias);
	Dwarf_Frame *fr = NULL;

	if (cfi && !dwarf_cfi_addrframe(cfi, pc - bias, &fr))
		return fr;
	cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (cfi && !dwarf_cfi_addrframe(cfi, pc - bias, &fr))
		return fr;
	return NULL;
}

const struct pc_cfi_row *pc_cfi_row_get(struct pc_cfi_rows *rows, Dwfl_Module *mod,
					uint64_t pc, unsigned nregs)
{
	size_t b = (size_t)(pc ^ (pc >> 13)) % PC_CFI_BUCKETS;
	struct pc_cfi_row *row;
	Dwarf_Frame *fr;

	if (!rows->buckets && !(rows->buckets = calloc(PC_CFI_BUCKETS, sizeof(*rows->buckets))))
		return NULL;
	if (rows->nr >= PC_CFI_ROWS_MAX)
		pc_cfi_rows_clear(rows);
	for (row = rows->buckets[b]; row; row = row->next)
		if (row->pc == pc)
			return row;
	fr = frame_at(mod, pc);
	if (nregs > PC_DWARF_REGS_MAX)
		nregs = PC_DWARF_REGS_MAX;
	{
		/* compiled at full size, kept with its live rules only */
		union {
			struct pc_cfi_row row;
			uint8_t bytes[sizeof(struct pc_cfi_row) +
				      PC_DWARF_REGS_MAX * sizeof(struct pc_cfi_live)];
		} tmp;
		size_t size;

		memset(&tmp, 0, sizeof(tmp));
		tmp.row.pc = pc;
		/* no FDE: kept as an unusable row, so that it is looked up once */
		if (fr)
			compile(&tmp.row, fr, nregs);
		if (!tmp.row.usable) {
			tmp.row.nr_live = 0;
			tmp.row.same = 0;
		}
		size = sizeof(*row) + tmp.row.nr_live * sizeof(row->live[0]);
		row = malloc(size);
		if (row) {
			memcpy(row, &tmp, size);
			row->next = rows->buckets[b];
			rows->buckets[b] = row;
			rows->nr++;
		}
	}
	free(fr);
	return row;
}

static void pc_cfi_rows_clear(struct pc_cfi_rows *rows)
{
	if (rows->buckets) {
		for (size_t b = 0; b < PC_CFI_BUCKETS; b++) {
			struct pc_cfi_row *r = rows->buckets[b], *n;

			for (; r; r = n) {
				n = r->next;
				free(r);
			}
			rows->buckets[b] = NULL;
		}
	}
	rows->nr = 0;
}

void pc_cfi_rows_free(struct pc_cfi_rows *rows)
{
	pc_cfi_rows_clear(rows);
	free(rows->buckets);
	rows->buckets = NULL;
}
