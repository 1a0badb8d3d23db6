/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user and interrupt registers a sample can carry, for the machine the
 * recorder runs on: their names (--user-regs, -I) and bits in sample_regs_*,
 * and the set perf takes by default (--call-graph dwarf, bare --user-regs).
 */
#ifndef PERFCHECK_RECORDER_REGS_H
#define PERFCHECK_RECORDER_REGS_H

#include <stdint.h>

struct rec_reg {
	const char *name;
	int bit;
};

#if defined(__aarch64__)
/* PERF_REG_ARM64_*: x0..x30 (perf names x30 "lr"), sp, pc */
static const struct rec_reg rec_regs[] = {
	{ "x0", 0 }, { "x1", 1 }, { "x2", 2 }, { "x3", 3 }, { "x4", 4 }, { "x5", 5 },
	{ "x6", 6 }, { "x7", 7 }, { "x8", 8 }, { "x9", 9 }, { "x10", 10 }, { "x11", 11 },
	{ "x12", 12 }, { "x13", 13 }, { "x14", 14 }, { "x15", 15 }, { "x16", 16 },
	{ "x17", 17 }, { "x18", 18 }, { "x19", 19 }, { "x20", 20 }, { "x21", 21 },
	{ "x22", 22 }, { "x23", 23 }, { "x24", 24 }, { "x25", 25 }, { "x26", 26 },
	{ "x27", 27 }, { "x28", 28 }, { "x29", 29 }, { "lr", 30 }, { "sp", 31 }, { "pc", 32 },
};
/* perf's PERF_REGS_MASK on arm64: every register */
#define REC_REGS_DEFAULT ((1ULL << 33) - 1)
#define REC_REGS_NAMES "x0-x29 lr sp pc"
#else
/* PERF_REG_X86_* (x86-64) */
static const struct rec_reg rec_regs[] = {
	{ "ax", 0 }, { "bx", 1 }, { "cx", 2 }, { "dx", 3 }, { "si", 4 }, { "di", 5 },
	{ "bp", 6 }, { "sp", 7 }, { "ip", 8 }, { "flags", 9 }, { "cs", 10 }, { "ss", 11 },
	{ "ds", 12 }, { "es", 13 }, { "fs", 14 }, { "gs", 15 }, { "r8", 16 }, { "r9", 17 },
	{ "r10", 18 }, { "r11", 19 }, { "r12", 20 }, { "r13", 21 }, { "r14", 22 },
	{ "r15", 23 },
};
/* perf's default on x86-64: every general register but ds es fs gs */
#define REC_REGS_DEFAULT 0xff0fffULL
#define REC_REGS_NAMES "ax bx cx dx si di bp sp ip flags cs ss ds es fs gs r8-r15"
#endif

/* The default for sample_regs_user (bare --user-regs, --call-graph dwarf): regs.c */
uint64_t rec_regs_user_default(void);

#endif
