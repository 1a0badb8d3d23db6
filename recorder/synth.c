// SPDX-License-Identifier: GPL-2.0
/*
 * Records for what existed before the recording started (-p, -t, -a), read
 * from /proc as perf does: per thread a FORK (the leader's parent from
 * status, other threads from the leader) and a COMM, per process the MMAP2
 * of its executable maps; plus the kernel's own map.  Each carries the
 * sample_id trailer of the tracking event with time 0, so readers take
 * them as "before everything".
 */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "recorder/cgroups.h"
#include "recorder/synth.h"
#include "util/sys.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

struct synth_buf {
	union {
		struct perf_event_header h;
		uint64_t align;
		uint8_t bytes[8192];
	};
	size_t len;
};

static void put(struct synth_buf *b, const void *data, size_t len)
{
	memcpy(b->bytes + b->len, data, len);
	b->len += len;
}

static void put_u32(struct synth_buf *b, uint32_t v) { put(b, &v, 4); }
static void put_u64(struct synth_buf *b, uint64_t v) { put(b, &v, 8); }

static void put_string(struct synth_buf *b, const char *s, size_t max)
{
	size_t n = strnlen(s, max - 1), padded = ALIGN8(n + 1);

	memset(b->bytes + b->len, 0, padded);
	memcpy(b->bytes + b->len, s, n);
	b->len += padded;
}

static void begin(struct synth_buf *b, uint32_t type, uint16_t misc)
{
	b->h.type = type;
	b->h.misc = misc;
	b->len = sizeof(b->h);
}

static int finish(struct rec_synth *s, struct synth_buf *b, pid_t pid, pid_t tid)
{
	uint64_t t = s->sample_type;

	/* sample_id_all trailer: TID TIME ID STREAM_ID CPU IDENTIFIER */
	if (t & PERF_SAMPLE_TID) {
		put_u32(b, (uint32_t)pid);
		put_u32(b, (uint32_t)tid);
	}
	if (t & PERF_SAMPLE_TIME)
		put_u64(b, 0);
	if (t & PERF_SAMPLE_ID)
		put_u64(b, s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		put_u64(b, s->id);
	if (t & PERF_SAMPLE_CPU)
		put_u64(b, 0);
	if (t & PERF_SAMPLE_IDENTIFIER)
		put_u64(b, s->id);
	b->h.size = (uint16_t)b->len;
	return rec_output_write(s->out, b->bytes, b->len);
}

int rec_synth_comm(struct rec_synth *s, pid_t pid, pid_t tid, const char *comm)
{
	struct synth_buf b;

	begin(&b, PERF_RECORD_COMM, 0);
	put_u32(&b, (uint32_t)pid);
	put_u32(&b, (uint32_t)tid);
	put_string(&b, comm, 16);
	return finish(s, &b, pid, tid);
}

static int synth_fork(struct rec_synth *s, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid)
{
	struct synth_buf b;

	begin(&b, PERF_RECORD_FORK, 0);
	put_u32(&b, (uint32_t)pid);
	put_u32(&b, (uint32_t)ppid);
	put_u32(&b, (uint32_t)tid);
	put_u32(&b, (uint32_t)ptid);
	put_u64(&b, 0);
	return finish(s, &b, pid, tid);
}

int rec_synth_kernel_mmap(struct rec_synth *s)
{
	char line[512];
	uint64_t text = 0;
	struct synth_buf b;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    !strcmp(name, "_text")) {
			text = addr;
			break;
		}
	}
	fclose(f);
	if (!text)
		return 0;	/* addresses hidden (kptr_restrict): readers make their own */
	begin(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	put_u32(&b, (uint32_t)-1);
	put_u32(&b, 0);
	put_u64(&b, text);
	put_u64(&b, ~0ULL - text);
	put_u64(&b, text);
	put_string(&b, "[kernel.kallsyms]_text", 64);
	return finish(s, &b, -1, 0);
}

static int synth_maps(struct rec_synth *s, pid_t pid)
{
	char path[64], line[4096 + 256];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;	/* gone, or a kernel thread */
	while (!ret && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino;
		unsigned int maj, min;
		char perms[8];
		int consumed = 0;
		const char *name;
		struct synth_buf b;
		uint32_t prot = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
			   &maj, &min, &ino, &consumed) < 7 || !consumed)
			continue;
		if (strlen(perms) < 4 || perms[2] != 'x')
			continue;
		name = line + consumed;
		line[strcspn(line, "\n")] = '\0';
		if (!*name)
			name = "//anon";
		prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		       PROT_EXEC;
		begin(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
		put_u32(&b, (uint32_t)pid);
		put_u32(&b, (uint32_t)pid);
		put_u64(&b, start);
		put_u64(&b, end - start);
		put_u64(&b, pgoff);
		put_u32(&b, maj);
		put_u32(&b, min);
		put_u64(&b, ino);
		put_u64(&b, 0);
		put_u32(&b, prot);
		put_u32(&b, perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE);
		put_string(&b, name, 4096);
		ret = finish(s, &b, pid, pid);
	}
	fclose(f);
	return ret;
}

static pid_t parent_of(pid_t pid)
{
	char path[64], buf[2048], *p;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (pc_read_file(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strstr(buf, "\nPPid:");
	return p ? (pid_t)strtol(p + 6, NULL, 10) : 0;
}

int rec_synth_process(struct rec_synth *s, pid_t pid)
{
	char path[64], comm[64];
	struct dirent *de;
	pid_t ppid = parent_of(pid);
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;	/* exited meanwhile */
	while (!ret && (de = readdir(d))) {
		pid_t tid = (pid_t)strtol(de->d_name, NULL, 10);
		char cpath[96];

		if (tid <= 0)
			continue;
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%d/comm", pid, tid);
		if (pc_read_file(cpath, comm, sizeof(comm)) < 0)
			continue;
		comm[strcspn(comm, "\n")] = '\0';
		ret = synth_fork(s, pid, tid == pid ? ppid : pid, tid, tid == pid ? ppid : pid);
		if (!ret)
			ret = rec_synth_comm(s, pid, tid, comm);
		if (!ret && s->namespaces)
			ret = rec_synth_namespaces(s, pid, tid);
	}
	closedir(d);
	if (!ret)
		ret = synth_maps(s, pid);
	return ret;
}

int rec_synth_all(struct rec_synth *s)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	int ret = 0;

	if (!d)
		return 0;
	while (!ret && (de = readdir(d))) {
		pid_t pid = (pid_t)strtol(de->d_name, NULL, 10);

		if (pid > 0)
			ret = rec_synth_process(s, pid);
	}
	closedir(d);
	return ret;
}

/* NAMESPACES: dev and inode of each /proc/TID/ns link, in the kernel's order. */
int rec_synth_namespaces(struct rec_synth *s, pid_t pid, pid_t tid)
{
	static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	struct synth_buf b;

	begin(&b, PERF_RECORD_NAMESPACES, 0);
	put_u32(&b, (uint32_t)pid);
	put_u32(&b, (uint32_t)tid);
	put_u64(&b, sizeof(ns) / sizeof(ns[0]));
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		char path[96];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/%s", pid, tid, ns[i]);
		if (stat(path, &st))
			memset(&st, 0, sizeof(st));
		put_u64(&b, st.st_dev);
		put_u64(&b, st.st_ino);
	}
	return finish(s, &b, pid, tid);
}

/* nftw has no context argument: the walk's state, one walk at a time */
static struct {
	struct rec_synth *s;
	size_t root_len;
	int ret;
} cg_walk;

static int cgroup_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	union { struct file_handle fh; uint8_t bytes[sizeof(struct file_handle) + 8]; } h;
	struct synth_buf b;
	uint64_t id;
	const char *rel = path + cg_walk.root_len;
	int mount_id;

	if (flag != FTW_D)
		return 0;
	h.fh.handle_bytes = 8;
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) || h.fh.handle_bytes != 8)
		return 0;
	memcpy(&id, h.bytes + sizeof(struct file_handle), 8);
	if (strlen(rel) > 4000)
		return 0;
	begin(&b, PC_RECORD_CGROUP, 0);
	put_u64(&b, id);
	put_string(&b, *rel ? rel : "/", 4096);
	cg_walk.ret = finish(cg_walk.s, &b, -1, -1);
	return cg_walk.ret ? 1 : 0;
}

int rec_synth_cgroups(struct rec_synth *s)
{
	char mnt[4096];
	struct pc_error err = { 0 };

	if (rec_cgroup_mount(mnt, sizeof(mnt), &err))
		return 0;	/* no hierarchy: the kernel's records are all there is */
	cg_walk.s = s;
	cg_walk.root_len = strlen(mnt);
	cg_walk.ret = 0;
	nftw(mnt, cgroup_one, 16, FTW_PHYS);
	return cg_walk.ret;
}
