/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF programs loaded in the kernel, asked with the bpf() syscall (no
 * libbpf): ids one after the other, each program's bpf_prog_info with the
 * arrays perf keeps (its "info linear": JITed code, ksyms, function
 * lengths, BTF function and line info, sub-program tags), and the raw BTF
 * of a program that has one.
 */
#ifndef PERFCHECK_RECORDER_BPF_PROGS_H
#define PERFCHECK_RECORDER_BPF_PROGS_H

#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>

/* perf's array numbers (bits of rec_bpf_prog.arrays) */
enum rec_bpil_array {
	REC_BPIL_JITED_INSNS, REC_BPIL_XLATED_INSNS, REC_BPIL_MAP_IDS, REC_BPIL_JITED_KSYMS,
	REC_BPIL_JITED_FUNC_LENS, REC_BPIL_FUNC_INFO, REC_BPIL_LINE_INFO,
	REC_BPIL_JITED_LINE_INFO, REC_BPIL_PROG_TAGS, REC_BPIL_NR
};

/*
 * The most of struct bpf_prog_info written to a file: perf 6.1's (up to
 * attach_btf_id, 232 bytes).  perf refuses an entry larger than its own
 * struct ("detected invalid bpf_prog_info"), so a file holds what the
 * kernel filled, at most this: perf 5.10 on 5.10 (208 bytes) reads it.
 */
#define REC_BPF_INFO_LEN 232

struct rec_bpf_prog {
	struct bpf_prog_info info;	/* the second answer: array fields point into data */
	uint32_t info_len;		/* what the kernel filled */
	uint64_t arrays;		/* REC_BPIL_* present in data */
	uint8_t *data;
	uint32_t data_len;
	uint32_t off[REC_BPIL_NR];	/* where each present array starts in data */
};

/* The id after id (0: the first); -ENOENT past the last, or -errno. */
int rec_bpf_next_prog_id(uint32_t id, uint32_t *next);
/*
 * Program id's info and arrays: 0, -ENOENT when it went away meanwhile,
 * -ESTALE when its counts changed between the two questions, -EOPNOTSUPP
 * when the kernel's bpf_prog_info has no prog_tags yet (before 5.0), or
 * another -errno of bpf().
 */
int rec_bpf_prog_get(uint32_t id, struct rec_bpf_prog *p);
void rec_bpf_prog_free(struct rec_bpf_prog *p);
/* The bytes of array a of p and its element count, or NULL when absent. */
const void *rec_bpf_prog_array(const struct rec_bpf_prog *p, enum rec_bpil_array a,
			       uint32_t *count, uint32_t *rec_size);
/*
 * The info of the BPF_PROG_INFO feature: what the kernel filled, at most
 * REC_BPF_INFO_LEN bytes, with each present array's pointer made its
 * offset into data.  out has REC_BPF_INFO_LEN bytes; returns the length.
 */
uint32_t rec_bpf_prog_file_info(const struct rec_bpf_prog *p, void *out);

/* The raw BTF object id (malloc'd into *data); 0 or -errno. */
int rec_bpf_btf_get(uint32_t id, void **data, uint32_t *size);

#endif
