/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF_PROG_INFO and BPF_BTF header features, decoded and checked: what
 * perf's header listing shows of them (perf report --header-only).
 *
 * BPF_PROG_INFO: u32 count, then per program u32 info_len, u32 data_len,
 * u64 mask of the arrays present (bit i: JITED_INSNS 0 .. PROG_TAGS 8),
 * struct bpf_prog_info (info_len bytes, each present array's pointer field
 * holding its offset into data), data.  BPF_BTF: u32 count, then per object
 * u32 id, u32 size, size bytes of raw BTF.  Every count, length and array
 * offset is checked; a malformed entry is "FILE: offset 0xOFF: what".
 */
#ifndef PERFCHECK_PERFDATA_BPF_FEAT_H
#define PERFCHECK_PERFDATA_BPF_FEAT_H

#include <stdbool.h>

#include "perfdata/perfdata.h"

/* One program; the pointers are into the feature's bytes (unaligned). */
struct pd_bpf_prog {
	uint64_t offset;		/* the entry's file offset */
	uint32_t id, btf_id;
	char name[17];			/* bpf_prog_info.name */
	bool shown;			/* nr_jited_ksyms == nr_jited_func_lens: perf shows it */
	uint32_t nr_funcs;		/* JITed functions (when shown) */
	const uint8_t *ksyms;		/* u64 each */
	const uint8_t *lens;		/* u32 each */
	const uint8_t *tags;		/* 8 bytes each, nr_funcs of them */
	const uint8_t *func_info;	/* NULL when absent */
	uint32_t nr_func_info, func_info_rec_size;
};

struct pd_btf {
	uint64_t offset;		/* the entry's file offset */
	uint32_t id, size;
	const uint8_t *data;
};

typedef int (*pd_bpf_prog_fn)(const struct pd_bpf_prog *p, void *ctx);
typedef int (*pd_btf_fn)(const struct pd_btf *b, void *ctx);

/* Each entry in file order (absent feature: none); fn's non-zero return stops. */
int pd_bpf_prog_each(const struct pd_reader *r, pd_bpf_prog_fn fn, void *ctx,
		     struct pc_error *err);
int pd_btf_each(const struct pd_reader *r, pd_btf_fn fn, void *ctx, struct pc_error *err);

uint64_t pd_bpf_prog_addr(const struct pd_bpf_prog *p, uint32_t i);
uint32_t pd_bpf_prog_len(const struct pd_bpf_prog *p, uint32_t i);

/*
 * The name of the function perf shows for function i: bpf_prog_<tag>, then
 * _<name> from btf's FUNC type (btf not NULL), else _<program name> for a
 * program of one function (if it has one), else _F.  path: for messages.
 */
int pd_bpf_func_name(const struct pd_reader *r, const struct pd_bpf_prog *p,
		     const struct pd_btf *btf, uint32_t i, char *buf, size_t size,
		     struct pc_error *err);

#endif
