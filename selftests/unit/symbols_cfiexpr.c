// SPDX-License-Identifier: GPL-2.0
/*
 * The CFA of a compiled CFI row (lib/symbols/cfirow.c, pc_cfi_cfa), without
 * a kernel: the register rule, and the expression x86_64 linkers put on
 * PLT entries (CFA = rsp + 8, plus 8 past the entry's push), evaluated as
 * libdwfl evaluates it; a register the expression reads that is not known
 * leaves the CFA unknown, as in libdwfl.
 */
#include <dwarf.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "symbols/cfirow.h"

#define RSP 7
#define RIP 16

/* DW_OP_breg7 8; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and; DW_OP_lit11; DW_OP_ge;
 * DW_OP_lit3; DW_OP_shl; DW_OP_plus */
static struct pc_cfi_op plt[] = {
	{ 8, 0, DW_OP_breg7 }, { 0, 0, DW_OP_breg16 }, { 0, 0, DW_OP_lit15 },
	{ 0, 0, DW_OP_and },   { 0, 0, DW_OP_lit11 },  { 0, 0, DW_OP_ge },
	{ 0, 0, DW_OP_lit3 },  { 0, 0, DW_OP_shl },    { 0, 0, DW_OP_plus },
};

TEST(register_rule_is_register_plus_offset)
{
	struct pc_cfi_row row;
	uint64_t regs[PC_DWARF_REGS_MAX] = { 0 }, cfa = 0;

	memset(&row, 0, sizeof(row));
	row.cfa_reg = RSP;
	row.cfa_off = 16;
	regs[RSP] = 0x7ffc0000;
	ASSERT_TRUE(pc_cfi_cfa(&row, regs, 1ULL << RSP, &cfa));
	EXPECT_EQ(0x7ffc0010ULL, cfa);
	EXPECT_FALSE(pc_cfi_cfa(&row, regs, 1ULL << RIP, &cfa));
}

TEST(plt_expression_adds_the_push_past_byte_11_of_an_entry)
{
	struct pc_cfi_row row;
	uint64_t regs[PC_DWARF_REGS_MAX] = { 0 }, cfa = 0;
	uint64_t valid = 1ULL << RSP | 1ULL << RIP;

	memset(&row, 0, sizeof(row));
	row.cfa_expr = plt;
	row.cfa_nops = sizeof(plt) / sizeof(plt[0]);
	regs[RSP] = 0x7ffc1000;
	regs[RIP] = 0x555555554036;	/* byte 6 of its entry: before the push */
	ASSERT_TRUE(pc_cfi_cfa(&row, regs, valid, &cfa));
	EXPECT_EQ(0x7ffc1008ULL, cfa);
	regs[RIP] = 0x55555555403b;	/* byte 11: after it */
	ASSERT_TRUE(pc_cfi_cfa(&row, regs, valid, &cfa));
	EXPECT_EQ(0x7ffc1010ULL, cfa);
	regs[RIP] = 0x55555555403f;
	ASSERT_TRUE(pc_cfi_cfa(&row, regs, valid, &cfa));
	EXPECT_EQ(0x7ffc1010ULL, cfa);
}

TEST(plt_expression_without_the_pc_leaves_the_cfa_unknown)
{
	struct pc_cfi_row row;
	uint64_t regs[PC_DWARF_REGS_MAX] = { 0 }, cfa = 0;

	memset(&row, 0, sizeof(row));
	row.cfa_expr = plt;
	row.cfa_nops = sizeof(plt) / sizeof(plt[0]);
	regs[RSP] = 0x7ffc1000;
	EXPECT_FALSE(pc_cfi_cfa(&row, regs, 1ULL << RSP, &cfa));
	EXPECT_FALSE(pc_cfi_cfa(&row, regs, 1ULL << RIP, &cfa));
}

/* DW_OP_ge compares signed, as libdwfl: -1 >= 1 is false */
TEST(comparisons_are_signed)
{
	static struct pc_cfi_op ops[] = {
		{ (uint64_t)-1, 0, DW_OP_consts }, { 0, 0, DW_OP_lit1 }, { 0, 0, DW_OP_ge },
	};
	struct pc_cfi_row row;
	uint64_t regs[PC_DWARF_REGS_MAX] = { 0 }, cfa = 7;

	memset(&row, 0, sizeof(row));
	row.cfa_expr = ops;
	row.cfa_nops = 3;
	ASSERT_TRUE(pc_cfi_cfa(&row, regs, 0, &cfa));
	EXPECT_EQ(0ULL, cfa);
}

TEST_HARNESS_MAIN
