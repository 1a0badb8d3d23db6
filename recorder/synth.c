// SPDX-License-Identifier: GPL-2.0
/*
 * Records for what existed before the recording started (-p, -t, -a), read
 * from /proc as perf does: per thread a COMM (system-wide, after a FORK:
 * the leader's parent from status, other threads from the leader), per
 * process the MMAP2 of its executable maps after its leader's; plus the
 * kernel's own map.  Each carries the
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

#include "perfdata/codec.h"
#include "recorder/cgroups.h"
#include "util/cgroup.h"
#include "recorder/synth.h"
#include "util/sys.h"

/*
 * The sample_id trailer of every synthesized record: the tracking event's
 * id (as ID, STREAM_ID and IDENTIFIER), time 0, cpu 0.
 */
static struct pd_sample trailer(const struct rec_synth *s, pid_t pid, pid_t tid)
{
	return (struct pd_sample){
		.pid = (uint32_t)pid, .tid = (uint32_t)tid, .id = s->id, .stream_id = s->id,
	};
}

/* The record encoded last (lib/perfdata's codec) goes to the output. */
static int emit(struct rec_synth *s, int ret)
{
	if (!ret)
		ret = rec_output_write(s->out, s->buf.data, s->buf.len);
	s->buf.len = 0;
	return ret;
}

/* A copy of at most max - 1 bytes of str (the kernel's limits on names). */
static const char *bounded(char *copy, const char *str, size_t max)
{
	size_t n = strnlen(str, max - 1);

	memcpy(copy, str, n);
	copy[n] = '\0';
	return copy;
}

void rec_synth_release(struct rec_synth *s)
{
	pd_buf_free(&s->buf);
}

int rec_synth_comm(struct rec_synth *s, pid_t pid, pid_t tid, const char *comm)
{
	char name[16];
	struct pd_comm c = { (uint32_t)pid, (uint32_t)tid, bounded(name, comm, sizeof(name)) };
	struct pd_sample id = trailer(s, pid, tid);

	return emit(s, pd_encode_comm(&s->buf, s->attr, 0, &c, &id));
}

/* marked FORK_EXEC as perf marks it: a reader copies no maps, the MMAP2s follow */
static int synth_fork(struct rec_synth *s, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid)
{
	struct pd_task t = { (uint32_t)pid, (uint32_t)ppid, (uint32_t)tid, (uint32_t)ptid, 0 };
	struct pd_sample id = trailer(s, pid, tid);

	return emit(s, pd_encode_task(&s->buf, s->attr, PERF_RECORD_FORK,
					 PERF_RECORD_MISC_FORK_EXEC, &t, &id));
}

const char *rec_kernel_ref_symbol(FILE *kallsyms, uint64_t *addr)
{
	static const char *const names[] = { "_text", "_stext" };	/* in perf's order */
	uint64_t found[2] = { 0, 0 };
	char line[512];

	while (!found[0] && fgets(line, sizeof(line), kallsyms)) {
		unsigned long long a;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		for (int i = 0; i < 2; i++)
			if (!found[i] && !strcmp(name, names[i]))
				found[i] = a;
	}
	for (int i = 0; i < 2; i++) {
		if (found[i]) {
			*addr = found[i];
			return names[i];
		}
	}
	return NULL;	/* neither, or their addresses hidden (kptr_restrict) */
}

int rec_synth_kernel_mmap(struct rec_synth *s)
{
	char filename[64];
	uint64_t text = 0;
	struct pd_mmap m = { .pid = (uint32_t)-1, .filename = filename };
	struct pd_sample id = trailer(s, -1, 0);
	FILE *f = fopen("/proc/kallsyms", "r");
	const char *ref;

	if (!f)
		return 0;
	ref = rec_kernel_ref_symbol(f, &text);
	fclose(f);
	if (!ref)
		return 0;	/* addresses hidden (kptr_restrict): readers make their own */
	/* the reference symbol rides in the name: readers relocate by its address (pgoff) */
	snprintf(filename, sizeof(filename), "[kernel.kallsyms]%s", ref);
	m.start = text;
	m.len = ~0ULL - text;
	m.pgoff = text;
	return emit(s, pd_encode_mmap(&s->buf, s->attr, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL,
				      &m, &id));
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
		char *name;
		uint32_t prot = 0;
		struct pd_mmap m;
		struct pd_sample id = trailer(s, pid, pid);

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
			   &maj, &min, &ino, &consumed) < 7 || !consumed)
			continue;
		if (strlen(perms) < 4 || perms[2] != 'x')
			continue;
		name = line + consumed;
		line[strcspn(line, "\n")] = '\0';
		if (strlen(name) > 4095)
			name[4095] = '\0';	/* PATH_MAX, as the kernel's records */
		prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		       PROT_EXEC;
		m = (struct pd_mmap){
			.pid = (uint32_t)pid, .tid = (uint32_t)pid, .start = start,
			.len = end - start, .pgoff = pgoff, .maj = maj, .min = min, .ino = ino,
			.prot = prot, .flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE,
			.filename = *name ? name : "//anon",
		};
		ret = emit(s, pd_encode_mmap(&s->buf, s->attr, PERF_RECORD_MMAP2,
					     PERF_RECORD_MISC_USER, &m, &id));
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

/*
 * One task as perf synthesizes it: system-wide (forks) a FORK, NAMESPACES
 * and COMM; from a thread map (-p, -t, -u) a COMM and NAMESPACES alone; the
 * maps after the leader's.
 */
static int synth_task(struct rec_synth *s, pid_t pid, pid_t ppid, pid_t tid, const char *comm, bool forks)
{
	int ret = 0;

	if (forks) {
		ret = synth_fork(s, pid, tid == pid ? ppid : pid, tid, tid == pid ? ppid : pid);
		if (!ret && s->namespaces)
			ret = rec_synth_namespaces(s, pid, tid);
		if (!ret)
			ret = rec_synth_comm(s, pid, tid, comm);
	} else {
		ret = rec_synth_comm(s, pid, tid, comm);
		if (!ret && s->namespaces)
			ret = rec_synth_namespaces(s, pid, tid);
	}
	if (!ret && tid == pid && !s->no_maps)
		ret = synth_maps(s, pid);
	return ret;
}

/* /proc/PID/task/TID/comm without its newline; -1 when the thread is gone */
static int task_comm(pid_t pid, pid_t tid, char *comm, size_t size)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	if (pc_read_file(path, comm, size) < 0)
		return -1;
	comm[strcspn(comm, "\n")] = '\0';
	return 0;
}

int rec_synth_process(struct rec_synth *s, pid_t pid, bool forks)
{
	char path[64], comm[64];
	struct dirent *de;
	pid_t ppid = forks ? parent_of(pid) : 0;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;	/* exited meanwhile */
	while (!ret && (de = readdir(d))) {
		pid_t tid = (pid_t)strtol(de->d_name, NULL, 10);

		/* a thread that ended meanwhile is left out, as perf leaves it */
		if (tid > 0 && !task_comm(pid, tid, comm, sizeof(comm)))
			ret = synth_task(s, pid, ppid, tid, comm, forks);
	}
	closedir(d);
	return ret;
}

int rec_synth_thread(struct rec_synth *s, pid_t pid, pid_t tid)
{
	char comm[64];

	return task_comm(pid, tid, comm, sizeof(comm)) ? 0 : synth_task(s, pid, 0, tid, comm, false);
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
			ret = rec_synth_process(s, pid, true);
	}
	closedir(d);
	return ret;
}

/* NAMESPACES: dev and inode of each /proc/TID/ns link, in the kernel's order. */
int rec_synth_namespaces(struct rec_synth *s, pid_t pid, pid_t tid)
{
	static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	uint64_t links[2 * sizeof(ns) / sizeof(ns[0])];
	struct pd_namespaces n = { (uint32_t)pid, (uint32_t)tid, sizeof(ns) / sizeof(ns[0]), links };
	struct pd_sample id = trailer(s, pid, tid);

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		char path[96];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/%s", pid, tid, ns[i]);
		if (stat(path, &st))
			memset(&st, 0, sizeof(st));
		links[2 * i] = st.st_dev;
		links[2 * i + 1] = st.st_ino;
	}
	return emit(s, pd_encode_namespaces(&s->buf, s->attr, &n, &id));
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
	struct pd_sample sid = trailer(cg_walk.s, -1, -1);
	struct pd_cgroup c;
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
	c = (struct pd_cgroup){ id, *rel ? rel : "/" };
	cg_walk.ret = emit(cg_walk.s, pd_encode_cgroup(&cg_walk.s->buf, cg_walk.s->attr, &c, &sid));
	return cg_walk.ret ? 1 : 0;
}

int rec_synth_cgroups(struct rec_synth *s)
{
	char mnt[4096];
	struct pc_error err = { 0 };

	if (pc_cgroup_mount(mnt, sizeof(mnt), &err))
		return 0;	/* no hierarchy: the kernel's records are all there is */
	cg_walk.s = s;
	cg_walk.root_len = strlen(mnt);
	cg_walk.ret = 0;
	nftw(mnt, cgroup_one, 16, FTW_PHYS);
	return cg_walk.ret;
}
