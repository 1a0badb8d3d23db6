// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs through the bpf() syscall: the next id, a program's info
 * asked twice (once for the counts, once with room for the arrays, as
 * perf's "info linear" does), and raw BTF objects.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "recorder/bpf_progs.h"

_Static_assert(sizeof(struct bpf_prog_info) >= REC_BPF_INFO_LEN,
	       "bpf_prog_info older than 6.1's");

#define PTR(p) ((uint64_t)(uintptr_t)(p))

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

int rec_bpf_next_prog_id(uint32_t id, uint32_t *next)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.start_id = id;
	if (sys_bpf(BPF_PROG_GET_NEXT_ID, &a) < 0)
		return -errno;
	*next = a.next_id;
	return 0;
}

static int get_info(int fd, void *info, uint32_t *len)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = *len;
	a.info.info = PTR(info);
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0)
		return -errno;
	*len = a.info.info_len;
	return 0;
}

/* Where each array's pointer, count and element size live in bpf_prog_info. */
#define FIELD(f) offsetof(struct bpf_prog_info, f)
static const struct {
	size_t array, count, size;	/* size: offset of the rec_size field, 0 when fixed */
	uint32_t fixed;
} desc[REC_BPIL_NR] = {
	[REC_BPIL_JITED_INSNS]	   = { FIELD(jited_prog_insns), FIELD(jited_prog_len), 0, 1 },
	[REC_BPIL_XLATED_INSNS]	   = { FIELD(xlated_prog_insns), FIELD(xlated_prog_len), 0, 1 },
	[REC_BPIL_MAP_IDS]	   = { FIELD(map_ids), FIELD(nr_map_ids), 0, 4 },
	[REC_BPIL_JITED_KSYMS]	   = { FIELD(jited_ksyms), FIELD(nr_jited_ksyms), 0, 8 },
	[REC_BPIL_JITED_FUNC_LENS] = { FIELD(jited_func_lens), FIELD(nr_jited_func_lens), 0, 4 },
	[REC_BPIL_FUNC_INFO]	   = { FIELD(func_info), FIELD(nr_func_info),
				       FIELD(func_info_rec_size), 0 },
	[REC_BPIL_LINE_INFO]	   = { FIELD(line_info), FIELD(nr_line_info),
				       FIELD(line_info_rec_size), 0 },
	[REC_BPIL_JITED_LINE_INFO] = { FIELD(jited_line_info), FIELD(nr_jited_line_info),
				       FIELD(jited_line_info_rec_size), 0 },
	[REC_BPIL_PROG_TAGS]	   = { FIELD(prog_tags), FIELD(nr_prog_tags), 0, 8 },
};

static uint32_t rd32(const void *info, size_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)info + off, 4);
	return v;
}

static void wr32(void *info, size_t off, uint32_t v)
{
	memcpy((uint8_t *)info + off, &v, 4);
}

static void wr64(void *info, size_t off, uint64_t v)
{
	memcpy((uint8_t *)info + off, &v, 8);
}

static uint32_t rec_size_of(const void *info, int i)
{
	return desc[i].size ? rd32(info, desc[i].size) : desc[i].fixed;
}

/* the arrays perf asks for when it synthesizes a program */
#define WANTED (1u << REC_BPIL_JITED_INSNS | 1u << REC_BPIL_JITED_KSYMS |		\
		1u << REC_BPIL_JITED_FUNC_LENS | 1u << REC_BPIL_FUNC_INFO |		\
		1u << REC_BPIL_LINE_INFO | 1u << REC_BPIL_JITED_LINE_INFO |		\
		1u << REC_BPIL_PROG_TAGS)

static int prog_info(int fd, struct rec_bpf_prog *p)
{
	struct bpf_prog_info first;
	uint32_t len = sizeof(first);
	uint64_t total = 0;
	int ret;

	memset(&first, 0, sizeof(first));
	ret = get_info(fd, &first, &len);
	if (ret)
		return ret;
	if (len < FIELD(prog_tags) + 8)
		return -EOPNOTSUPP;
	for (int i = 0; i < REC_BPIL_NR; i++) {
		if (!(WANTED & 1u << i))
			continue;
		p->off[i] = (uint32_t)total;
		total += ((uint64_t)rd32(&first, desc[i].count) * rec_size_of(&first, i) + 7) & ~7ULL;
		if (total > UINT32_MAX)
			return -E2BIG;
	}
	p->data = calloc(1, total ? total : 1);
	if (!p->data)
		return -ENOMEM;
	p->data_len = (uint32_t)total;
	p->arrays = WANTED;
	memset(&p->info, 0, sizeof(p->info));
	for (int i = 0; i < REC_BPIL_NR; i++) {
		if (!(WANTED & 1u << i))
			continue;
		wr32(&p->info, desc[i].count, rd32(&first, desc[i].count));
		if (desc[i].size)
			wr32(&p->info, desc[i].size, rd32(&first, desc[i].size));
		wr64(&p->info, desc[i].array, PTR(p->data + p->off[i]));
	}
	len = sizeof(p->info);
	ret = get_info(fd, &p->info, &len);
	if (ret)
		return ret;
	p->info_len = len;
	for (int i = 0; i < REC_BPIL_NR; i++)
		if ((WANTED & 1u << i) &&
		    (rd32(&first, desc[i].count) != rd32(&p->info, desc[i].count) ||
		     rec_size_of(&first, i) != rec_size_of(&p->info, i)))
			return -ESTALE;		/* the kernel copied at most what was asked */
	return 0;
}

int rec_bpf_prog_get(uint32_t id, struct rec_bpf_prog *p)
{
	union bpf_attr a;
	int fd, ret;

	memset(p, 0, sizeof(*p));
	memset(&a, 0, sizeof(a));
	a.prog_id = id;
	fd = (int)sys_bpf(BPF_PROG_GET_FD_BY_ID, &a);
	if (fd < 0)
		return -errno;
	ret = prog_info(fd, p);
	close(fd);
	if (ret)
		rec_bpf_prog_free(p);
	return ret;
}

void rec_bpf_prog_free(struct rec_bpf_prog *p)
{
	free(p->data);
	memset(p, 0, sizeof(*p));
}

const void *rec_bpf_prog_array(const struct rec_bpf_prog *p, enum rec_bpil_array a,
			       uint32_t *count, uint32_t *rec_size)
{
	if ((unsigned int)a >= REC_BPIL_NR || !(p->arrays & 1ULL << a))
		return NULL;
	*count = rd32(&p->info, desc[a].count);
	*rec_size = rec_size_of(&p->info, a);
	return p->data + p->off[a];
}

uint32_t rec_bpf_prog_file_info(const struct rec_bpf_prog *p, void *out)
{
	uint32_t len = p->info_len < REC_BPF_INFO_LEN ? p->info_len : REC_BPF_INFO_LEN;

	memcpy(out, &p->info, REC_BPF_INFO_LEN);
	/* the arrays' fields all lie before prog_tags' end, which prog_info checked */
	for (int i = 0; i < REC_BPIL_NR; i++)
		if (p->arrays & 1ULL << i)
			wr64(out, desc[i].array, p->off[i]);
	return len;
}

int rec_bpf_btf_get(uint32_t id, void **data, uint32_t *size)
{
	struct bpf_btf_info info;
	union bpf_attr a;
	uint32_t len = sizeof(info);
	int fd, ret;
	void *buf = NULL;

	*data = NULL;
	*size = 0;
	memset(&a, 0, sizeof(a));
	a.btf_id = id;
	fd = (int)sys_bpf(BPF_BTF_GET_FD_BY_ID, &a);
	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	ret = get_info(fd, &info, &len);
	if (!ret && info.btf_size) {
		uint32_t want = info.btf_size;

		buf = malloc(want);
		if (!buf) {
			ret = -ENOMEM;
		} else {
			memset(&info, 0, sizeof(info));
			info.btf = PTR(buf);
			info.btf_size = want;
			len = sizeof(info);
			ret = get_info(fd, &info, &len);
			if (!ret && info.btf_size != want)
				ret = -ESTALE;
		}
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	*data = buf;
	*size = info.btf_size;
	return 0;
}
