/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF callchains in the machine stage: a sample with user registers and
 * a user stack dump (`--call-graph dwarf`) gets its user frames unwound
 * (lib/symbols/unwind.h) from the maps of its process; the consumer shows
 * the kernel part of the recorded callchain, then these frames.
 */
#ifndef PERFCHECK_READER_UNWIND_STAGE_H
#define PERFCHECK_READER_UNWIND_STAGE_H

#include "reader/machine.h"
#include "reader/stage.h"
#include "symbols/regs.h"

struct rd_unwind;

/* NULL on ENOMEM; arch: the file's ARCH feature, not the host's. */
struct rd_unwind *rd_unwind_new(enum pc_arch arch, struct pc_dso_cache *dsos);
void rd_unwind_free(struct rd_unwind *u);
/* Drops what is cached for pid (an exec, an exit). */
void rd_unwind_forget(struct rd_unwind *u, uint32_t pid);
/*
 * Unwinds the user part of a sample into it->unwound (PC_CONTEXT_USER then
 * the frames, every one an address: (u64)-1 too, see below): 0 (nothing done when the sample has no user registers or
 * stack), -EINVAL with err naming the file offset for a sample the
 * unwinder cannot take (register mask, stack dyn_size), -ENOMEM.
 */
int rd_unwind_item(struct rd_unwind *u, const char *path, struct rd_thread *t,
		   struct rd_item *it, struct pc_error *err);

/*
 * arm64 frame-pointer chains (perf record -g there samples the user link
 * register, arm64 perf register 30): whether sample_regs_user holds it.
 * For such a sample whose chain has two user frames or more, rd_unwind_item
 * adds the leaf's caller as perf does: one DWARF step from the first user
 * frame with only LR known (no stack; SP 0), and the caller found (its
 * return address minus one) goes between the first and second user frames
 * unless it is the second one (it->fp_leaf, it->fp_cut).
 */
bool rd_unwind_lr_mask(uint64_t sample_regs_user);

/*
 * perf 6.1's leaf caller (script --compat 6.1): where the DWARF step stops
 * at the first frame (the leaf has stored LR on a stack the sample does not
 * hold), the caller is the sampled LR minus one all the same.  Measured:
 * perf 6.1.176 in the 6.1-arm64 guest adds 848 such frames to 999 samples
 * (work_leaf+0x13 above work_leaf+0x14); perf 7.2 adds none.
 */
void rd_unwind_set_leaf_lr(struct rd_unwind *u, bool on);

/*
 * perf's memory for DWARF unwinding: words it cannot read past the stack
 * dump are 0, and a return address of 0 is a last frame (u64)-1
 * (pc_unwinder_set_zero_unreadable); after a frame with CFI only in perf
 * 6.1's layout (libunwind_ends, pc_unwinder_set_libunwind_ends).  Measured: perf 6.1.176
 * on this host ends 575 of the chains of a `--call-graph dwarf,1024`
 * recording of a shell loop and ls with `ffffffffffffffff [unknown]`.
 */
void rd_unwind_set_zero_unreadable(struct rd_unwind *u, bool on, bool libunwind_ends);

#endif
