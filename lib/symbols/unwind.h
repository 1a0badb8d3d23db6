/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF unwinding of perf samples with user registers and a user stack
 * dump (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER, `--call-graph
 * dwarf`), through elfutils' libdwfl: the sample's registers are the
 * initial frame, memory reads come from the stack dump (or, outside it,
 * from the mapped file), and CFI from .eh_frame and .debug_frame (the
 * separate debug file found by build id included).
 *
 * The address space of each process is kept across samples (one Dwfl per
 * pid, its modules reported on first use, at most PC_UNWIND_SPACES of them
 * in LRU order): parsing ELF and CFI is the cost, and it is paid once.
 * The process's maps come from the caller, through a callback.
 *
 * Use, per perf.data file (arch from its ARCH header feature):
 *
 *	u = pc_unwinder_new(pc_arch_from_name(arch), NULL);
 *	for each sample with regs_user_abi != 0 and a user stack:
 *		struct pc_unwind_sample us = {
 *			.pid = s->pid, .tid = s->tid, .regs_abi = s->regs_user_abi,
 *			.regs_mask = attr.sample_regs_user, .regs = s->regs_user,
 *			.nr_regs = popcount(attr.sample_regs_user),
 *			.stack = s->stack_user, .stack_size = s->stack_user_size,
 *			.stack_dyn_size = s->stack_user_dyn_size,
 *			.find_map = my_find_map, .map_ctx = thread, .maps_gen = gen,
 *		};
 *		ret = pc_unwind(u, &us, ips, 127, &nr, &err);
 *		chain = kernel part of s->callchain, then ips[0..nr)
 *	pc_unwinder_forget(u, pid) on exec and exit; pc_unwinder_free(u).
 */
#ifndef PERFCHECK_SYMBOLS_UNWIND_H
#define PERFCHECK_SYMBOLS_UNWIND_H

#include <stdbool.h>
#include <stdint.h>

#include "symbols/regs.h"
#include "util/error.h"

#define PC_UNWIND_SPACES 32

/* One map of the sampled process, as the caller knows it. */
struct pc_unwind_map {
	uint64_t start, end, pgoff;
	/* the file to open, already resolved (--symfs, build-id cache);
	 * NULL for an anonymous map (nothing to unwind with there) */
	const char *path;
	/* the build id recorded for it (hex), NULL or "" when unknown: a file
	 * whose own build id differs (rebuilt since) is not used */
	const char *build_id;
};

/*
 * The map holding addr: 0 with *m filled (it comes zeroed), or -ENOENT.
 * With -ENOENT the callback may leave in m->start, m->end a range around
 * addr where no file is offered (a hole between maps, a map it does not
 * offer): while maps_gen holds, addresses there are not asked again.
 */
typedef int (*pc_unwind_find_map_fn)(void *ctx, uint64_t addr, struct pc_unwind_map *m);

struct pc_unwind_sample {
	uint32_t pid, tid;
	/* PERF_SAMPLE_REGS_USER: the abi word, the attr's sample_regs_user and
	 * the values in mask order (nr_regs of them: popcount(mask) or an error) */
	uint64_t regs_abi;
	uint64_t regs_mask;
	const uint64_t *regs;
	uint64_t nr_regs;
	/* PERF_SAMPLE_STACK_USER: size bytes at stack, dyn_size of them valid
	 * (dyn_size > size is an error) */
	const void *stack;
	uint64_t stack_size, stack_dyn_size;
	pc_unwind_find_map_fn find_map;
	void *map_ctx;
	/*
	 * A number the caller changes whenever this process's maps change
	 * (an mmap, an exec): while it stays the same, maps already looked up
	 * are not asked again.  0: unknown, every sample asks.
	 */
	uint64_t maps_gen;
};

struct pc_unwind_stats {
	uint64_t samples;	/* pc_unwind calls */
	uint64_t frames;	/* frames returned */
	uint64_t no_map;	/* the sample's ip is in no file-backed map: no frames */
	uint64_t truncated;	/* the unwinder stopped on an error after >= 1 frame */
	uint64_t modules;	/* ELF modules reported (across every space) */
	uint64_t resets;	/* address spaces rebuilt (a map changed under an address) */
	uint64_t build_id_mismatch;	/* files refused: not the build id recorded */
	uint64_t fast;		/* samples unwound from compiled CFI rows */
	uint64_t slow;		/* samples unwound by libdwfl's own unwinder */
};

struct pc_unwinder;

/*
 * arch: the recorded machine's (pc_arch_from_name of the file's ARCH
 * feature).  debug_dir: where separate debug files live by build id
 * (DIR/.build-id/xx/yyyy.debug), NULL for /usr/lib/debug.  NULL on ENOMEM.
 */
struct pc_unwinder *pc_unwinder_new(enum pc_arch arch, const char *debug_dir);
void pc_unwinder_free(struct pc_unwinder *u);
/* Drops the cached address space of pid (after an exec or an exit). */
void pc_unwinder_forget(struct pc_unwinder *u, uint32_t pid);
/*
 * The fast path (default on): frames from CFI rows compiled once per pc,
 * libdwfl's unwinder only for the samples that need more.  Off: every
 * sample through libdwfl (to check one against the other).
 */
void pc_unwinder_set_fast(struct pc_unwinder *u, bool fast);
/*
 * perf 6.1's unwinder (libunwind) and memory (default off).  perf 6.1's
 * accessor answers a word outside the stack dump from the file mapped
 * there; where a map has no file to read it from (the [stack] past the
 * dump, [heap], anonymous memory, past a file's end) its error code is
 * positive, which libunwind takes for success with a zero value.  On: such
 * words read as 0 (outside every map a read still fails), and a return
 * address read as 0 is a last frame, (u64)-1 as perf 6.1 shows it
 * (ffffffffffffffff [unknown]).
 */
void pc_unwinder_set_zero_unreadable(struct pc_unwinder *u, bool on);
/*
 * Where perf 6.1's unwinder (libunwind 1.6) ends a chain: on x86_64 no
 * frame past one whose object has no CFI for it (libdwfl and perf 7.2 walk on by the
 * frame pointer: measured with pcwork, built without .eh_frame, perf 6.1.187
 * shows the leaf alone), and, with zero_unreadable, a return address read
 * as 0 by a frame's CFI also ends the chain with (u64)-1.  perf 6.1 does;
 * Debian's perf 7.2 (libunwind 1.8) ends a CFI chain there without it and
 * keeps the (u64)-1 only after frames unwound without CFI (a static
 * busybox).  Measured here against perf 7.2: 0 lines differ on a glibc
 * `dwarf,4096` recording (3 before), 8 of a busybox one (unchanged).
 */
void pc_unwinder_set_libunwind_ends(struct pc_unwinder *u, bool on);
const struct pc_unwind_stats *pc_unwinder_stats(const struct pc_unwinder *u);

/*
 * Unwinds one sample into ips[0..*nr) (at most max): ips[0] is the
 * registers' instruction pointer, each caller after it its return address
 * minus one, as perf shows DWARF chains (and as srclines want them).
 * Returns 0, with *nr == 0 when the ip is in no file-backed map (perf shows
 * no user frames then either); -EINVAL with err set for a register mask
 * that does not match the registers or the arch, a stack dump whose
 * dyn_size exceeds its size, an ip in an ELF file of another machine;
 * -ENODATA when the sample has no user registers (ABI_NONE); -ENOMEM.
 */
int pc_unwind(struct pc_unwinder *u, const struct pc_unwind_sample *s, uint64_t *ips,
	      uint32_t max, uint32_t *nr, struct pc_error *err);

#endif
