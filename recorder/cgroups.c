// SPDX-License-Identifier: GPL-2.0
/*
 * -G opens each named cgroup's directory (util/cgroup.c: the hierarchy perf
 * looks up); its fd is the event's pid with PERF_FLAG_PID_CGROUP.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "recorder/cgroups.h"
#include "util/cgroup.h"

int rec_cgroups_open(struct rec_evlist *evl, int nr_events, const struct rec_sideband *sb,
		     struct pc_error *err)
{
	char mnt[4096], path[8192];
	int ret;

	if (!sb->nr_cgroup_names)
		return 0;
	ret = pc_cgroup_mount(mnt, sizeof(mnt), err);
	if (ret)
		return ret;
	for (int i = 0; i < nr_events && i < evl->nr_evsels; i++) {
		int k = sb->nr_cgroup_names == 1 ? 0 : i;
		const char *name;
		size_t len;
		int fd;

		if (k >= sb->nr_cgroup_names)
			break;
		name = sb->cgroup_names[k];
		len = strcspn(name, ",");
		if (!len)
			continue;	/* an empty name: that event is not restricted */
		fd = pc_cgroup_open(mnt, name, len, path, sizeof(path));
		if (fd < 0)
			return pc_error_set(err, -fd, "-G %.*s: %s: %s", (int)len, name, path,
					    strerror(-fd));
		evl->evsels[i]->spec.cgroup_fd = fd;
	}
	return 0;
}
