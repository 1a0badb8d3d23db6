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

static bool fits32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
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

/*
 * Stack effect (pops, pushes) of an operation a CFA expression may hold
 * here: the arithmetic, comparisons, constants and register reads of
 * libdwfl's evaluator, no memory read and no branch; false for any other.
 */
static bool expr_op(const Dwarf_Op *op, unsigned nregs, int *pops, int *pushes)
{
	uint8_t a = op->atom;

	*pops = 0;
	*pushes = 1;
	if ((a >= DW_OP_lit0 && a <= DW_OP_lit31) ||
	    (a >= DW_OP_const1u && a <= DW_OP_consts))
		return true;
	if (a >= DW_OP_breg0 && a <= DW_OP_breg31)
		return (unsigned)(a - DW_OP_breg0) < nregs;
	switch (a) {
	case DW_OP_bregx:
		return op->number < nregs;
	case DW_OP_dup:
		*pops = 1;
		*pushes = 2;
		return true;
	case DW_OP_drop:
		*pops = 1;
		*pushes = 0;
		return true;
	case DW_OP_over:
	case DW_OP_swap:
		*pops = 2;
		*pushes = a == DW_OP_over ? 3 : 2;
		return true;
	case DW_OP_not:
	case DW_OP_neg:
	case DW_OP_plus_uconst:
		*pops = 1;
		return true;
	case DW_OP_and: case DW_OP_or: case DW_OP_xor: case DW_OP_plus: case DW_OP_minus:
	case DW_OP_mul: case DW_OP_shl: case DW_OP_shr: case DW_OP_shra:
	case DW_OP_le: case DW_OP_ge: case DW_OP_eq: case DW_OP_lt: case DW_OP_gt: case DW_OP_ne:
		*pops = 2;
		return true;
	case DW_OP_nop:
		*pushes = 0;
		return true;
	default:
		return false;
	}
}

/* An expression CFA kept in row when every operation is one above and its stack stays small. */
static bool compile_expr(struct pc_cfi_row *row, const Dwarf_Op *ops, size_t nops,
			 unsigned nregs)
{
	int depth = 0;

	if (!nops || nops > PC_CFI_EXPR_MAX)
		return false;
	for (size_t i = 0; i < nops; i++) {
		uint8_t a = ops[i].atom;
		int pops, pushes;

		if (!expr_op(&ops[i], nregs, &pops, &pushes) || depth < pops)
			return false;
		/* a shift by a constant below 64 only (what C leaves undefined, libdwfl's too) */
		if ((a == DW_OP_shl || a == DW_OP_shr || a == DW_OP_shra) &&
		    (!i || !((ops[i - 1].atom >= DW_OP_lit0 && ops[i - 1].atom <= DW_OP_lit31) ||
			     (ops[i - 1].atom >= DW_OP_const1u && ops[i - 1].atom <= DW_OP_consts &&
			      ops[i - 1].number < 64))))
			return false;
		depth += pushes - pops;
		if (depth > PC_CFI_EXPR_MAX)
			return false;
	}
	if (depth < 1)
		return false;
	row->cfa_expr = malloc(nops * sizeof(*row->cfa_expr));
	if (!row->cfa_expr)
		return false;
	for (size_t i = 0; i < nops; i++)
		row->cfa_expr[i] = (struct pc_cfi_op){ ops[i].number, ops[i].number2, ops[i].atom };
	row->cfa_nops = (uint8_t)nops;
	return true;
}

/* Compiles the row at fr into row (room for nregs rules); usable when every rule has a form above. */
static void compile(struct pc_cfi_row *row, Dwarf_Frame *fr, unsigned nregs)
{
	Dwarf_Op *ops;
	size_t nops;
	bool signal = false;
	int ra = dwarf_frame_info(fr, NULL, NULL, &signal);

	row->signal = signal;
	if (ra < 0 || (unsigned)ra >= nregs || dwarf_frame_cfa(fr, &ops, &nops))
		return;
	if (nops == 1 && ops[0].atom == DW_OP_bregx && ops[0].number < nregs) {
		if (!fits32((int64_t)ops[0].number2))
			return;
		row->cfa_reg = (uint8_t)ops[0].number;
		row->cfa_off = (int32_t)ops[0].number2;
	} else if (!compile_expr(row, ops, nops, nregs)) {
		return;
	}
	row->ra_reg = (uint8_t)ra;
	row->ra_kind = PC_CFI_UNDEF;
	for (unsigned r = 0; r < nregs; r++) {
		uint8_t kind;
		int64_t off;

		if (!compile_reg(fr, r, &kind, &off) || !fits32(off))
			return;
		if (r == (unsigned)ra)
			row->ra_kind = kind;
		if (kind == PC_CFI_SAME)
			row->same |= 1ULL << r;
		else if (kind != PC_CFI_UNDEF)
			row->live[row->nr_live++] = (struct pc_cfi_live){ (int32_t)off, (uint8_t)r, kind };
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

#define PC_CFI_CHUNK (64 * 1024)

/* Room for a row of size bytes, 16-byte aligned, after the rows made before it. */
static struct pc_cfi_row *row_alloc(struct pc_cfi_rows *rows, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (!rows->chunk || rows->chunk_used + size > PC_CFI_CHUNK) {
		void **c = aligned_alloc(64, PC_CFI_CHUNK);

		if (!c)
			return NULL;
		c[0] = rows->chunk;
		rows->chunk = c;
		rows->chunk_used = 16;
	}
	rows->chunk_used += size;
	return (struct pc_cfi_row *)((uint8_t *)rows->chunk + rows->chunk_used - size);
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
		tmp.row.no_fde = !fr;
		if (!tmp.row.usable) {
			tmp.row.nr_live = 0;
			tmp.row.same = 0;
			free(tmp.row.cfa_expr);
			tmp.row.cfa_expr = NULL;
		}
		size = sizeof(*row) + tmp.row.nr_live * sizeof(row->live[0]);
		row = row_alloc(rows, size);
		if (!row)
			free(tmp.row.cfa_expr);
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

/* libdwfl's evaluation (frame_unwind.c), for the operations expr_op accepts */
static bool eval(const struct pc_cfi_op *op, uint64_t *st, int *n, const uint64_t *regs,
		 uint64_t valid)
{
	uint64_t a, b;
	unsigned r;

	if (op->atom >= DW_OP_lit0 && op->atom <= DW_OP_lit31) {
		st[(*n)++] = op->atom - DW_OP_lit0;
		return true;
	}
	if (op->atom >= DW_OP_const1u && op->atom <= DW_OP_consts) {
		st[(*n)++] = op->number;
		return true;
	}
	if ((op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) || op->atom == DW_OP_bregx) {
		r = op->atom == DW_OP_bregx ? (unsigned)op->number : (unsigned)(op->atom - DW_OP_breg0);
		if (!(valid >> r & 1))
			return false;
		st[(*n)++] = regs[r] + (op->atom == DW_OP_bregx ? op->number2 : op->number);
		return true;
	}
	switch (op->atom) {
	case DW_OP_nop:
		return true;
	case DW_OP_dup:
		st[*n] = st[*n - 1];
		(*n)++;
		return true;
	case DW_OP_drop:
		(*n)--;
		return true;
	case DW_OP_over:
		st[*n] = st[*n - 2];
		(*n)++;
		return true;
	case DW_OP_swap:
		a = st[*n - 1];
		st[*n - 1] = st[*n - 2];
		st[*n - 2] = a;
		return true;
	case DW_OP_not:
		st[*n - 1] = ~st[*n - 1];
		return true;
	case DW_OP_neg:
		st[*n - 1] = 0 - st[*n - 1];
		return true;
	case DW_OP_plus_uconst:
		st[*n - 1] += op->number;
		return true;
	default:
		break;
	}
	b = st[--(*n)];
	a = st[*n - 1];
	switch (op->atom) {
	case DW_OP_and: a &= b; break;
	case DW_OP_or: a |= b; break;
	case DW_OP_xor: a ^= b; break;
	case DW_OP_plus: a += b; break;
	case DW_OP_minus: a -= b; break;
	case DW_OP_mul: a *= b; break;
	/* by a constant below 64 (compile_expr) */
	case DW_OP_shl: a <<= b; break;
	case DW_OP_shr: a >>= b; break;
	case DW_OP_shra: a = (uint64_t)((int64_t)a >> b); break;
	case DW_OP_le: a = (int64_t)a <= (int64_t)b; break;
	case DW_OP_ge: a = (int64_t)a >= (int64_t)b; break;
	case DW_OP_eq: a = (int64_t)a == (int64_t)b; break;
	case DW_OP_lt: a = (int64_t)a < (int64_t)b; break;
	case DW_OP_gt: a = (int64_t)a > (int64_t)b; break;
	case DW_OP_ne: a = (int64_t)a != (int64_t)b; break;
	default: return false;
	}
	st[*n - 1] = a;
	return true;
}

bool pc_cfi_cfa(const struct pc_cfi_row *row, const uint64_t *regs, uint64_t valid,
		uint64_t *cfa)
{
	uint64_t st[PC_CFI_EXPR_MAX];
	int n = 0;

	if (!row->cfa_expr) {
		if (!(valid >> row->cfa_reg & 1))
			return false;
		*cfa = regs[row->cfa_reg] + (uint64_t)row->cfa_off;
		return true;
	}
	for (unsigned i = 0; i < row->cfa_nops; i++)
		if (!eval(&row->cfa_expr[i], st, &n, regs, valid))
			return false;
	*cfa = st[n - 1];
	return true;
}

static void pc_cfi_rows_clear(struct pc_cfi_rows *rows)
{
	if (rows->buckets) {
		for (size_t b = 0; b < PC_CFI_BUCKETS; b++) {
			struct pc_cfi_row *r = rows->buckets[b], *n;

			for (; r; r = n) {
				n = r->next;
				free(r->cfa_expr);
			}
			rows->buckets[b] = NULL;
		}
	}
	while (rows->chunk) {
		void **c = rows->chunk;

		rows->chunk = c[0];
		free(c);
	}
	rows->chunk_used = 0;
	rows->nr = 0;
}

void pc_cfi_rows_free(struct pc_cfi_rows *rows)
{
	pc_cfi_rows_clear(rows);
	free(rows->buckets);
	rows->buckets = NULL;
}
