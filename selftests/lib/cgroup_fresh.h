/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fresh, empty cgroup for the stat -G tests, in the hierarchy perf_event
 * uses (util/cgroup.c: the v1 perf_event controller, else cgroup2).
 */
#ifndef PERFCHECK_SELFTESTS_CGROUP_FRESH_H
#define PERFCHECK_SELFTESTS_CGROUP_FRESH_H

#include <stddef.h>

struct pc_test_cgroup {
	char mnt[4096];		/* the hierarchy's mount point */
	char name[64];		/* the cgroup as -G names it (below mnt) */
	char dir[4200];		/* mnt/name */
};

/*
 * Makes one named after tag and this process: 0, or -1 with why naming
 * what is missing (not root, no hierarchy mounted, mkdir refused).
 */
int pc_test_cgroup_new(struct pc_test_cgroup *cg, const char *tag, char *why, size_t size);
/* Moves process pid (0: the caller) into it: 0 or -errno. */
int pc_test_cgroup_enter(const struct pc_test_cgroup *cg, int pid);
/* Removes it (once its processes are gone; retried while busy). */
void pc_test_cgroup_remove(struct pc_test_cgroup *cg);

#endif
