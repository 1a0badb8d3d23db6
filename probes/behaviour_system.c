// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of the rows whose records come from changes to the system made
 * by this thread: cgroup (a cgroup created, samples' cgroup ids), ksymbol
 * and bpf_event (a tiny BPF socket filter loaded with the bpf() syscall),
 * text_poke (kernel text patched when a tracepoint's static key flips).
 * Each event is opened on this thread, which makes the change.
 */
#include "probes/behaviour_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/sys.h"

#define RING_PAGES 16

/* ---- cgroup ---- */

/* The cgroup2 mount point, or "" */
static void cgroup2_mount(char *out, size_t size)
{
	char line[1024], dev[256], dir[PATH_MAX], type[64];
	FILE *fp = fopen("/proc/self/mounts", "r");

	out[0] = '\0';
	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "%255s %4095s %63s", dev, dir, type) == 3 && !strcmp(type, "cgroup2")) {
			snprintf(out, size, "%s", dir);
			break;
		}
	if (fp)
		fclose(fp);
}

/* This process's cgroup2 path ("0::PATH" of /proc/self/cgroup), or "" */
static void own_cgroup(char *out, size_t size)
{
	char line[PATH_MAX + 16];
	FILE *fp = fopen("/proc/self/cgroup", "r");

	out[0] = '\0';
	while (fp && fgets(line, sizeof(line), fp))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, size, "%.*s", (int)size - 1, line + 3);
			break;
		}
	if (fp)
		fclose(fp);
}

/*
 * A cgroup2 hierarchy nobody has configured yet has not computed which
 * controllers its children get, so a new cgroup gets no perf_event state
 * (and the kernel makes CGROUP records when that state comes online).
 * Enabling and disabling one controller in the root's subtree_control
 * makes the kernel compute it, with the implicit perf_event controller.
 */
static void apply_root_controllers(const char *mnt)
{
	char path[PATH_MAX + 32], buf[256], cmd[80], *name;
	int fd;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
	if (pc_read_file(path, buf, sizeof(buf)) < 0)
		return;
	name = strtok(buf, " \n");
	if (!name)
		return;
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", mnt);
	for (int on = 1; on >= 0; on--) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return;
		snprintf(cmd, sizeof(cmd), "%c%s", on ? '+' : '-', name);
		if (write(fd, cmd, strlen(cmd)) < 0) {
			close(fd);
			return;
		}
		close(fd);
	}
}

/*
 * cgroup: with a cgroup2 hierarchy (one is mounted on a temporary
 * directory when there is none and we may), cpu-clock samples of this
 * thread carry the inode number of its cgroup's directory, and creating a
 * cgroup below it gives a CGROUP record with the new directory's inode and
 * its path.
 */
void bh_check_cgroup(struct pc_behaviour_result *r)
{
	char mnt[PATH_MAX], cg[PATH_MAX], dir[PATH_MAX * 2], sub[PATH_MAX * 2 + 32];
	char tmp[] = "/tmp/perfcheck-cg-XXXXXX", want_path[PATH_MAX + 32];
	const struct perf_event_header *h;
	struct stat st, sst;
	struct bh_ring ring;
	union pc_attr a;
	bool mounted = false, record = false;
	int fd, samples = 0, wrong = 0, cgroup_records = 0;
	char last_path[128] = "";
	uint64_t wrong_id = 0;

	cgroup2_mount(mnt, sizeof(mnt));
	if (!mnt[0]) {
		if (!mkdtemp(tmp)) {
			bh_not_tested(r, "no cgroup2 mount, and mkdtemp: %s", strerror(errno));
			return;
		}
		if (mount("cgroup2", tmp, "cgroup2", 0, NULL) < 0) {
			bh_not_tested(r, "no cgroup2 mount, and mounting one: %s", strerror(errno));
			rmdir(tmp);
			return;
		}
		mounted = true;
		snprintf(mnt, sizeof(mnt), "%s", tmp);
		apply_root_controllers(mnt);
	}
	own_cgroup(cg, sizeof(cg));
	if (!cg[0]) {
		bh_not_tested(r, "/proc/self/cgroup has no cgroup2 line");
		goto out_mount;
	}
	snprintf(dir, sizeof(dir), "%s%s", mnt, cg);
	if (stat(dir, &st) < 0) {
		bh_not_tested(r, "stat %s: %s", dir, strerror(errno));
		goto out_mount;
	}
	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 100000,
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CGROUP);
	a.attr.sample_id_all = 1;
	a.attr.cgroup = 1;
	fd = bh_open(r, &a, "cpu-clock with cgroup", 0, 0);
	if (fd < 0)
		goto out_mount;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		goto out_mount;
	}
	bh_spin_ms(5);
	snprintf(sub, sizeof(sub), "%s/perfcheck-bh-%d", strcmp(cg, "/") ? dir : mnt, (int)getpid());
	snprintf(want_path, sizeof(want_path), "%s/perfcheck-bh-%d", strcmp(cg, "/") ? cg : "",
		 (int)getpid());
	if (mkdir(sub, 0755) < 0) {
		bh_not_tested(r, "cannot create the cgroup %s: %s", sub, strerror(errno));
		goto out_ring;
	}
	if (stat(sub, &sst) < 0)
		sst.st_ino = 0;
	rmdir(sub);
	while ((h = bh_ring_next(&ring))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			struct bh_sample s;

			if (bh_parse_sample(h, a.attr.sample_type, 0, &s) < 0) {
				bh_broken(r, "a sample of %u bytes does not fit the TID TIME CGROUP layout",
					  h->size);
				goto out_ring;
			}
			samples++;
			if (s.cgroup != st.st_ino && !wrong++)
				wrong_id = s.cgroup;
		} else if (h->type == PC_RECORD_CGROUP && h->size > sizeof(*h) + 8) {
			const uint64_t *id = (const void *)(h + 1);
			const char *p = (const char *)(id + 1);
			size_t max = h->size - sizeof(*h) - 8;

			if (strnlen(p, max) == max)
				continue;
			cgroup_records++;
			snprintf(last_path, sizeof(last_path), "%s", p);
			if (strcmp(p, want_path))
				continue;
			record = true;
			if (*id != sst.st_ino) {
				bh_broken(r, "CGROUP record for %s: id %llu, stat() says inode %llu", p,
					  (unsigned long long)*id, (unsigned long long)sst.st_ino);
				goto out_ring;
			}
		}
	}
	if (!samples)
		bh_broken(r, "no samples in 5 ms of cpu-clock at 100 us");
	else if (wrong)
		bh_broken(r, "%d of %d samples carry cgroup id %llu, the cgroup %s is inode %llu", wrong,
			  samples, (unsigned long long)wrong_id, cg, (unsigned long long)st.st_ino);
	else if (!record)
		bh_broken(r, "no CGROUP record named %s after mkdir %s (%d CGROUP records%s%s)",
			  want_path, sub, cgroup_records, cgroup_records ? ", the last for " : "",
			  last_path);
	else
		bh_proven(r, "%d samples carry the id of cgroup %s (inode %llu); mkdir gave a CGROUP "
			  "record with the new directory's inode %llu and path%s", samples, cg,
			  (unsigned long long)st.st_ino, (unsigned long long)sst.st_ino,
			  mounted ? " (on a cgroup2 mounted for the check)" : "");
out_ring:
	bh_ring_unmap(&ring);
	close(fd);
out_mount:
	if (mounted) {
		umount(tmp);
		rmdir(tmp);
	}
}

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

/* ---- text_poke ---- */

static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
/* tracepoints in every kernel of the matrix that hardly anyone enables */
static const char *const quiet_tracepoints[] = {
	"task/task_rename", "timer/itimer_state", "signal/signal_deliver", "module/module_put",
};

static long tracepoint_id(const char *name, char *root_used, size_t size)
{
	for (size_t i = 0; i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]); i++) {
		char p[PATH_MAX], buf[32];
		int fd;
		ssize_t n;

		snprintf(p, sizeof(p), "%s/events/%s/id", tracefs_roots[i], name);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		snprintf(root_used, size, "%s", tracefs_roots[i]);
		return strtol(buf, NULL, 10);
	}
	return -1;
}

struct poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	uint8_t bytes[];
};

struct seen_poke {
	uint64_t addr;
	uint16_t len;
	uint8_t old[16], new[16];
};

/* The TEXT_POKE records now in the ring; how many (up to max kept). */
static int collect_pokes(struct bh_ring *ring, struct seen_poke *out, int max, int *bad)
{
	const struct perf_event_header *h;
	int n = 0;

	while ((h = bh_ring_next(ring))) {
		const struct poke *p = (const void *)(h + 1);

		if (h->type != PC_RECORD_TEXT_POKE)
			continue;
		if (h->size < sizeof(*h) + sizeof(*p) ||
		    (size_t)p->old_len + p->new_len > h->size - sizeof(*h) - sizeof(*p)) {
			(*bad)++;
			continue;
		}
		if (n < max && p->old_len == p->new_len && p->old_len <= 16) {
			out[n].addr = p->addr;
			out[n].len = p->old_len;
			memcpy(out[n].old, p->bytes, p->old_len);
			memcpy(out[n].new, p->bytes + p->old_len, p->new_len);
		} else if (n < max) {
			(*bad)++;
		}
		n++;
	}
	return n;
}

/*
 * text_poke: enabling a tracepoint nobody uses flips its static key, which
 * patches kernel text; the TEXT_POKE records say where and give the old and
 * new bytes.  Disabling it patches the same places back: the second set of
 * records must hold the first set's bytes, swapped.
 */
void bh_check_text_poke(struct pc_behaviour_result *r)
{
	struct seen_poke on[64], off[64];
	char root[PATH_MAX] = "", tried[256] = "";
	struct bh_ring ring;
	union pc_attr a;
	int fd, bad = 0;
	size_t t = 0;

	bh_attr_sideband(&a);
	a.attr.text_poke = 1;
	a.attr.exclude_kernel = 0;
	fd = bh_open(r, &a, "dummy with text_poke", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return;
	}
	for (size_t i = 0; i < sizeof(quiet_tracepoints) / sizeof(quiet_tracepoints[0]); i++) {
		const char *name = quiet_tracepoints[i];
		long id = tracepoint_id(name, root, sizeof(root));
		struct pc_open_info info;
		struct pc_error err;
		union pc_attr tp;
		int tfd, n_on, n_off, matched = 0;

		if (id < 0)
			continue;
		t += (size_t)snprintf(tried + t, t < sizeof(tried) ? sizeof(tried) - t : 0, "%s%s",
				      t ? ", " : "", name);
		if (t >= sizeof(tried))
			t = sizeof(tried) - 1;
		memset(&tp, 0, sizeof(tp));
		tp.attr.type = PERF_TYPE_TRACEPOINT;
		tp.attr.size = sizeof(tp.attr);
		tp.attr.config = (uint64_t)id;
		tp.attr.disabled = 1;
		tfd = pc_event_open(&tp, name, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &err);
		if (tfd < 0)
			continue;
		n_on = collect_pokes(&ring, on, 64, &bad);
		close(tfd);
		n_off = collect_pokes(&ring, off, 64, &bad);
		if (bad) {
			bh_broken(r, "%d TEXT_POKE records whose lengths do not fit them", bad);
			goto out;
		}
		if (!n_on)
			continue;	/* its key was already on: someone else uses it */
		for (int k = 0; k < n_on && k < 64; k++)
			for (int j = 0; j < n_off && j < 64; j++)
				if (on[k].addr == off[j].addr && on[k].len == off[j].len &&
				    !memcmp(on[k].old, off[j].new, on[k].len) &&
				    !memcmp(on[k].new, off[j].old, on[k].len) &&
				    memcmp(on[k].old, on[k].new, on[k].len)) {
					matched++;
					break;
				}
		if (n_off && matched == n_on)
			bh_proven(r, "enabling tracepoint %s patched %d place%s of kernel text (TEXT_POKE "
				  "with old and new bytes); disabling it patched each back", name, n_on,
				  n_on == 1 ? "" : "s");
		else if (!n_off)
			bh_proven(r, "enabling tracepoint %s patched %d place%s of kernel text (TEXT_POKE "
				  "with old and new bytes); no records for disabling it (deferred)", name,
				  n_on, n_on == 1 ? "" : "s");
		else
			bh_broken(r, "tracepoint %s: %d TEXT_POKE on enable, %d on disable, only %d "
				  "undone with the same bytes", name, n_on, n_off, matched);
		goto out;
	}
	if (!t)
		bh_not_tested(r, "no tracefs with any of the tracepoints used to patch text");
	else
		bh_not_tested(r, "enabling tracepoints %s patched no text (their keys were on already, "
			      "or static keys are not patched here)", tried);
out:
	bh_ring_unmap(&ring);
	close(fd);
}
