// SPDX-License-Identifier: GPL-2.0
/* A fresh cgroup for the stat -G tests (cgroup_fresh.h) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_fresh.h"
#include "util/cgroup.h"

int pc_test_cgroup_new(struct pc_test_cgroup *cg, const char *tag, char *why, size_t size)
{
	struct pc_error err = { 0 };

	memset(cg, 0, sizeof(*cg));
	if (pc_cgroup_mount(cg->mnt, sizeof(cg->mnt), &err)) {
		snprintf(why, size, "no cgroup hierarchy for perf_event: %s", err.msg);
		return -1;
	}
	snprintf(cg->name, sizeof(cg->name), "pctest-%s-%d", tag, (int)getpid());
	snprintf(cg->dir, sizeof(cg->dir), "%s/%s", cg->mnt, cg->name);
	if (mkdir(cg->dir, 0755)) {
		snprintf(why, size, "cannot make the cgroup %s (%s)%s", cg->dir, strerror(errno),
			 geteuid() ? ": not root" : "");
		cg->dir[0] = '\0';
		return -1;
	}
	return 0;
}

int pc_test_cgroup_enter(const struct pc_test_cgroup *cg, int pid)
{
	char path[4300], num[32];
	int fd, n;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg->dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(num, sizeof(num), "%d\n", pid ? pid : (int)getpid());
	if (write(fd, num, n) != n) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return 0;
}

void pc_test_cgroup_remove(struct pc_test_cgroup *cg)
{
	if (!cg->dir[0])
		return;
	/* a process that has just exited may hold it a moment */
	for (int i = 0; i < 100 && rmdir(cg->dir) && errno == EBUSY; i++)
		usleep(10000);
	cg->dir[0] = '\0';
}
