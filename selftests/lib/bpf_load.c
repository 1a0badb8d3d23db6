// SPDX-License-Identifier: GPL-2.0
/* BPF socket filters for the tests, loaded with bpf() (no libbpf). */
#include <errno.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf_load.h"
#include "perfdata/perfdata.h"

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(SYS_bpf, cmd, a, sizeof(*a));
}

/* before 5.11 programs are charged to RLIMIT_MEMLOCK */
static int load_retry(int cmd, union bpf_attr *a)
{
	int fd = (int)sys_bpf(cmd, a);
	struct rlimit inf = { RLIM_INFINITY, RLIM_INFINITY };

	if (fd < 0 && errno == EPERM && setrlimit(RLIMIT_MEMLOCK, &inf) == 0)
		fd = (int)sys_bpf(cmd, a);
	return fd;
}

/* types: 1 int, 2 int (void), 3 FUNC pc_main, 4 FUNC pc_sub */
static const char btf_strs[] = "\0int\0pc_main\0pc_sub";
static const uint32_t btf_types[] = {
	1, BTF_KIND_INT << 24, 4, 0x01000020,
	0, BTF_KIND_FUNC_PROTO << 24, 1,
	5, BTF_KIND_FUNC << 24, 2,
	13, BTF_KIND_FUNC << 24, 2,
};

static int load_btf(struct tb_prog *p)
{
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = 1, .hdr_len = sizeof(h),
		.type_off = 0, .type_len = sizeof(btf_types),
		.str_off = sizeof(btf_types), .str_len = sizeof(btf_strs),
	};
	uint8_t blob[sizeof(h) + sizeof(btf_types) + sizeof(btf_strs)];
	struct bpf_btf_info info;
	union bpf_attr a;

	memcpy(blob, &h, sizeof(h));
	memcpy(blob + sizeof(h), btf_types, sizeof(btf_types));
	memcpy(blob + sizeof(h) + sizeof(btf_types), btf_strs, sizeof(btf_strs));
	memset(&a, 0, sizeof(a));
	a.btf = (uintptr_t)blob;
	a.btf_size = sizeof(blob);
	p->btf_fd = load_retry(BPF_BTF_LOAD, &a);
	if (p->btf_fd < 0) {
		int e = errno;

		snprintf(p->err, sizeof(p->err), "bpf(BPF_BTF_LOAD) of 4 types: %s", strerror(e));
		return -e;
	}
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)p->btf_fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) == 0)
		p->btf_id = info.id;
	return 0;
}

static int prog_info(struct tb_prog *p)
{
	struct bpf_prog_info info;
	union bpf_attr a;

	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = TB_MAX_FUNCS;
	info.jited_ksyms = (uintptr_t)p->addr;
	info.nr_jited_func_lens = TB_MAX_FUNCS;
	info.jited_func_lens = (uintptr_t)p->len;
	info.nr_prog_tags = TB_MAX_FUNCS;
	info.prog_tags = (uintptr_t)p->func_tag;
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)p->fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0) {
		int e = errno;

		snprintf(p->err, sizeof(p->err), "bpf(BPF_OBJ_GET_INFO_BY_FD): %s", strerror(e));
		return -e;
	}
	p->id = info.id;
	p->info_len = a.info.info_len;
	memcpy(p->tag, info.tag, sizeof(p->tag));
	p->nr_funcs = info.nr_jited_ksyms < TB_MAX_FUNCS ? info.nr_jited_ksyms : TB_MAX_FUNCS;
	return 0;
}

int tb_load(enum tb_kind kind, struct tb_prog *p)
{
	/* one: r0 = 0; exit.  two: call +1; exit; r0 = 0; exit */
	struct bpf_insn one[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_insn two[4] = {
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_CALL, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_func_info fi[2] = { { 0, 3 }, { 2, 4 } };
	static const char *const names[] = { "pc_one", "pc_two", "pc_btf" };
	union bpf_attr a;
	int ret;

	memset(p, 0, sizeof(*p));
	p->fd = p->btf_fd = -1;
	snprintf(p->name, sizeof(p->name), "%s", names[kind]);
	if (kind == TB_BTF && (ret = load_btf(p)))
		return ret;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uintptr_t)(kind == TB_ONE ? one : two);
	a.insn_cnt = kind == TB_ONE ? 2 : 4;
	a.license = (uintptr_t)"GPL";
	memcpy(a.prog_name, p->name, strlen(p->name) + 1);
	if (kind == TB_BTF) {
		a.prog_btf_fd = (uint32_t)p->btf_fd;
		a.func_info_rec_size = sizeof(fi[0]);
		a.func_info = (uintptr_t)fi;
		a.func_info_cnt = 2;
	}
	p->fd = load_retry(BPF_PROG_LOAD, &a);
	if (p->fd < 0) {
		int e = errno;

		snprintf(p->err, sizeof(p->err), "bpf(BPF_PROG_LOAD) of %s (%u instructions%s): %s",
			 p->name, a.insn_cnt, kind == TB_BTF ? ", BTF function info" : "",
			 strerror(e));
		tb_close(p);
		return -e;
	}
	ret = prog_info(p);
	if (ret)
		tb_close(p);
	return ret;
}

void tb_close(struct tb_prog *p)
{
	if (p->fd >= 0)
		close(p->fd);
	if (p->btf_fd >= 0)
		close(p->btf_fd);
	p->fd = p->btf_fd = -1;
}

void tb_func_name(const struct tb_prog *p, uint32_t i, char *buf, size_t size)
{
	static const char *const btf_names[] = { "pc_main", "pc_sub" };
	const char *sname = p->btf_id ? btf_names[i] : p->nr_funcs == 1 ? p->name : "F";
	int n = snprintf(buf, size, "bpf_prog_");

	for (int b = 0; b < 8 && n > 0 && (size_t)n < size; b++)
		n += snprintf(buf + n, size - n, "%02x", p->func_tag[i][b]);
	if (n > 0 && (size_t)n < size)
		snprintf(buf + n, size - n, "_%s", sname);
}

int tb_prog_info_entries(const struct pd_reader *r, uint32_t id)
{
	const uint8_t *d;
	const void *v;
	size_t size, pos = 4;
	uint32_t count;
	int found = 0;

	if (pd_reader_feature(r, PD_FEAT_BPF_PROG_INFO, &v, &size) || size < 4)
		return -1;
	d = v;
	memcpy(&count, d, 4);
	for (uint32_t n = 0; n < count && pos + 16 <= size; n++) {
		uint32_t info_len, data_len;
		struct bpf_prog_info info = { 0 };

		memcpy(&info_len, d + pos, 4);
		memcpy(&data_len, d + pos + 4, 4);
		if (info_len > sizeof(info) || pos + 16 + info_len + data_len > size)
			break;
		memcpy(&info, d + pos + 16, info_len);
		found += info.id == id;
		pos += 16 + info_len + data_len;
	}
	return found;
}

int tb_btf_entries(const struct pd_reader *r, uint32_t btf_id)
{
	const uint8_t *d;
	const void *v;
	size_t size, pos = 4;
	uint32_t count;
	int found = 0;

	if (pd_reader_feature(r, PD_FEAT_BPF_BTF, &v, &size) || size < 4)
		return -1;
	d = v;
	memcpy(&count, d, 4);
	for (uint32_t n = 0; n < count && pos + 8 <= size; n++) {
		uint32_t bid, len;

		memcpy(&bid, d + pos, 4);
		memcpy(&len, d + pos + 4, 4);
		found += bid == btf_id;
		pos += 8 + (size_t)len;
	}
	return found;
}
