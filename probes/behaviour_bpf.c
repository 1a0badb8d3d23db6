// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of the BPF rows: loading a two-instruction socket filter with
 * the bpf() syscall (no libbpf) gives a KSYMBOL record named after its tag
 * at its JITed address, and a BPF_EVENT PROG_LOAD record with its id and tag.
 */
#include "probes/behaviour_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RING_PAGES 16

/* ---- BPF: ksymbol and bpf_event ---- */

struct bpf_prog {
	int fd;
	uint32_t id;
	uint8_t tag[8];
	uint64_t ksym;		/* JITed address, 0 when not shown */
	char err[128];
};

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* Loads "r0 = 0; exit" as a socket filter named pcbh; 0 or -errno (p->err says). */
static int bpf_load(struct bpf_prog *p)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_prog_info info;
	union bpf_attr attr;
	uint64_t ksym = 0;
	bool memlock_raised = false;

	memset(p, 0, sizeof(*p));
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insn_cnt = 2;
	attr.insns = (uintptr_t)insns;
	attr.license = (uintptr_t)"GPL";
	memcpy(attr.prog_name, "pcbh", 5);
	p->fd = (int)sys_bpf(BPF_PROG_LOAD, &attr);
	if (p->fd < 0 && errno == EPERM) {
		/* before 5.11 a program is charged to RLIMIT_MEMLOCK: raise it for the load */
		struct rlimit old, inf = { RLIM_INFINITY, RLIM_INFINITY };

		if (getrlimit(RLIMIT_MEMLOCK, &old) == 0 && setrlimit(RLIMIT_MEMLOCK, &inf) == 0) {
			p->fd = (int)sys_bpf(BPF_PROG_LOAD, &attr);
			setrlimit(RLIMIT_MEMLOCK, &old);
			memlock_raised = true;
		}
	}
	if (p->fd < 0) {
		int e = errno;

		snprintf(p->err, sizeof(p->err), "bpf(BPF_PROG_LOAD) of a 2-instruction socket filter: %s%s",
			 strerror(e), memlock_raised ? " (also with RLIMIT_MEMLOCK raised)" : "");
		return -e;
	}
	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = 1;
	info.jited_ksyms = (uintptr_t)&ksym;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)p->fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) < 0) {
		int e = errno;

		snprintf(p->err, sizeof(p->err), "bpf(BPF_OBJ_GET_INFO_BY_FD): %s", strerror(e));
		close(p->fd);
		return -e;
	}
	p->id = info.id;
	memcpy(p->tag, info.tag, 8);
	p->ksym = info.nr_jited_ksyms ? ksym : 0;
	return 0;
}

/* Opens a dummy event with the bit, loads the program; fd or -1 (verdict set). */
static int bpf_setup(struct pc_behaviour_result *r, int bit, const char *what,
		     struct bh_ring *ring, struct bpf_prog *p)
{
	union pc_attr a;
	int fd, ret;

	bh_attr_sideband(&a);
	pc_attr_set(&a.attr, bit, true);
	fd = bh_open(r, &a, what, 0, 0);
	if (fd < 0)
		return -1;
	if (bh_ring_map(ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return -1;
	}
	ret = bpf_load(p);
	if (ret < 0) {
		bh_not_tested(r, "%s", p->err);
		bh_ring_unmap(ring);
		close(fd);
		return -1;
	}
	return fd;
}

struct ksymbol_body {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	char name[];
};

/*
 * ksymbol: loading a BPF program gives a KSYMBOL record of type BPF, not
 * an unregistration, named after the program's tag, at the JITed address
 * the kernel reports for the program (when it shows addresses).
 */
void bh_check_ksymbol(struct pc_behaviour_result *r)
{
	const struct perf_event_header *h;
	struct bh_ring ring;
	struct bpf_prog p;
	char tag[17], want[40];
	int fd = bpf_setup(r, PC_ATTR_ksymbol, "dummy with ksymbol", &ring, &p);
	bool found = false;

	if (fd < 0)
		return;
	for (int i = 0; i < 8; i++)
		sprintf(tag + 2 * i, "%02x", p.tag[i]);
	snprintf(want, sizeof(want), "bpf_prog_%s", tag);
	while ((h = bh_ring_next(&ring)) && !found) {
		const struct ksymbol_body *k = (const void *)(h + 1);
		size_t max;

		if (h->type != PC_RECORD_KSYMBOL || h->size <= sizeof(*h) + sizeof(*k))
			continue;
		max = h->size - sizeof(*h) - sizeof(*k);
		if (strnlen(k->name, max) == max || strncmp(k->name, want, strlen(want)))
			continue;
		found = true;
		if (k->ksym_type != PERF_RECORD_KSYMBOL_TYPE_BPF || k->flags != 0 || k->len == 0 ||
		    (p.ksym && k->addr != p.ksym))
			bh_broken(r, "KSYMBOL %s: type %u flags %#x addr %#llx len %u; the program's "
				  "JITed address is %#llx", k->name, k->ksym_type, k->flags,
				  (unsigned long long)k->addr, k->len, (unsigned long long)p.ksym);
		else
			bh_proven(r, "loading a BPF program gave KSYMBOL %s (type BPF, %u bytes%s)",
				  k->name, k->len, p.ksym ? " at its JITed address" : "");
	}
	if (!found)
		bh_broken(r, "no KSYMBOL record named %s* after loading BPF program %u", want, p.id);
	close(p.fd);
	bh_ring_unmap(&ring);
	close(fd);
}

struct bpf_event_body {
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

/* bpf_event: loading a BPF program gives a PROG_LOAD record with its id and tag. */
void bh_check_bpf_event(struct pc_behaviour_result *r)
{
	const struct perf_event_header *h;
	struct bh_ring ring;
	struct bpf_prog p;
	int fd = bpf_setup(r, PC_ATTR_bpf_event, "dummy with bpf_event", &ring, &p);
	int loads = 0;

	if (fd < 0)
		return;
	while ((h = bh_ring_next(&ring))) {
		const struct bpf_event_body *b = (const void *)(h + 1);

		if (h->type != PC_RECORD_BPF_EVENT || h->size < sizeof(*h) + sizeof(*b))
			continue;
		if (b->type == PERF_BPF_EVENT_PROG_LOAD && b->id == p.id) {
			loads++;
			if (memcmp(b->tag, p.tag, 8)) {
				bh_broken(r, "BPF_EVENT PROG_LOAD for program %u carries another tag", p.id);
				goto out;
			}
		}
	}
	if (loads == 1)
		bh_proven(r, "loading BPF program %u gave one BPF_EVENT PROG_LOAD with its id and tag",
			  p.id);
	else
		bh_broken(r, "loading BPF program %u gave %d BPF_EVENT PROG_LOAD records for it", p.id,
			  loads);
out:
	close(p.fd);
	bh_ring_unmap(&ring);
	close(fd);
}
