/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small BPF socket filters loaded with the bpf() syscall for the tests of
 * what a recording says about loaded programs: one named function, two
 * functions (a BPF-to-BPF call) without BTF, and the same two with BTF
 * function info (names pc_main, pc_sub).
 */
#ifndef PERFCHECK_SELFTESTS_BPF_LOAD_H
#define PERFCHECK_SELFTESTS_BPF_LOAD_H

#include <stddef.h>
#include <stdint.h>

struct pd_reader;

enum tb_kind { TB_ONE, TB_TWO, TB_BTF };

#define TB_MAX_FUNCS 2

struct tb_prog {
	int fd, btf_fd;
	uint32_t id, btf_id;
	uint32_t info_len;		/* the bpf_prog_info size the kernel fills */
	uint8_t tag[8];
	char name[16];			/* the program's name: pc_one, pc_two, pc_btf */
	uint32_t nr_funcs;		/* JITed functions */
	uint64_t addr[TB_MAX_FUNCS];	/* 0 when the kernel hides addresses */
	uint32_t len[TB_MAX_FUNCS];
	uint8_t func_tag[TB_MAX_FUNCS][8];
	char err[256];			/* why it could not be loaded */
};

/* 0, or -errno with p->err naming the bpf() command and the error. */
int tb_load(enum tb_kind kind, struct tb_prog *p);
void tb_close(struct tb_prog *p);
/* The name perf gives function i of p: bpf_prog_<tag>_<name>. */
void tb_func_name(const struct tb_prog *p, uint32_t i, char *buf, size_t size);

/*
 * The entries a recording's header holds for a program, walked from the raw
 * feature bytes (not through lib/perfdata's decoder, which the tests check):
 * BPF_PROG_INFO entries whose bpf_prog_info.id is id, BPF_BTF entries whose
 * id is btf_id.  -1 when the file has no such feature.
 */
int tb_prog_info_entries(const struct pd_reader *r, uint32_t id);
int tb_btf_entries(const struct pd_reader *r, uint32_t btf_id);

#endif
