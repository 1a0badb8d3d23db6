/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup hierarchy perf_event works with, as perf looks it up
 * (tools/lib/api/fs/cgroup.c, cgroupfs_find_mountpoint "perf_event"), and
 * a cgroup of it opened as perf's open_cgroup: the fd is the pid of
 * perf_event_open with PERF_FLAG_PID_CGROUP.  record -G, --all-cgroups and
 * stat -G use these.
 */
#ifndef PERFCHECK_UTIL_CGROUP_H
#define PERFCHECK_UTIL_CGROUP_H

#include <stddef.h>

#include "util/error.h"

/*
 * The mount point of the v1 perf_event controller; where none is mounted,
 * of the first cgroup2 (v2, unified) hierarchy; -ENOENT when neither is.
 */
int pc_cgroup_mount(char *buf, size_t size, struct pc_error *err);
/*
 * The cgroup name (its first len bytes) below mnt opened read-only: path is
 * perf's "MNT/NAME" ("/" is the root: "MNT//"); the fd, or -errno.
 */
int pc_cgroup_open(const char *mnt, const char *name, size_t len, char *path, size_t size);

/* Every cgroup of a hierarchy, named below its mount point. */
struct pc_cgroup_list {
	char **names;	/* the root "", then "a", "a/b", ...: owned */
	int nr;
};

/*
 * The cgroups below mnt, directory by directory in the order the kernel
 * lists them (readdir), each before its children: perf's nftw() walk, whose
 * order perf's --for-each-cgroup patterns keep.  0 or -errno.
 */
int pc_cgroup_list_read(const char *mnt, struct pc_cgroup_list *list);
void pc_cgroup_list_free(struct pc_cgroup_list *list);

#endif
