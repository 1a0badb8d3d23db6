// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup hierarchy perf_event works with: cgroup2 where it is mounted,
 * else the v1 perf_event controller, as perf looks it up.  -G opens each
 * named cgroup's directory; its fd is the event's pid with
 * PERF_FLAG_PID_CGROUP.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "recorder/cgroups.h"

int rec_cgroup_mount(char *buf, size_t size, struct pc_error *err)
{
	char line[4096], v1[4096] = "";
	FILE *f = fopen("/proc/self/mounts", "r");

	if (!f)
		return pc_error_set(err, errno, "/proc/self/mounts: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char dev[256], dir[2048], type[64], mopts[1024];

		if (sscanf(line, "%255s %2047s %63s %1023s", dev, dir, type, mopts) != 4)
			continue;
		if (!strcmp(type, "cgroup2")) {
			fclose(f);
			snprintf(buf, size, "%s", dir);
			return 0;
		}
		if (!strcmp(type, "cgroup") && !v1[0]) {
			for (char *o = strtok(mopts, ","); o; o = strtok(NULL, ","))
				if (!strcmp(o, "perf_event"))
					snprintf(v1, sizeof(v1), "%s", dir);
		}
	}
	fclose(f);
	if (!v1[0])
		return pc_error_set(err, ENOENT, "no cgroup2 or perf_event cgroup hierarchy mounted");
	snprintf(buf, size, "%s", v1);
	return 0;
}

int rec_cgroups_open(struct rec_evlist *evl, int nr_events, const struct rec_sideband *sb,
		     struct pc_error *err)
{
	char mnt[4096], path[8192];
	int ret;

	if (!sb->nr_cgroup_names)
		return 0;
	ret = rec_cgroup_mount(mnt, sizeof(mnt), err);
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
		snprintf(path, sizeof(path), "%s/%.*s", mnt, (int)len,
			 name[0] == '/' ? name + 1 : name);
		if (name[0] == '/' && len == 1)
			snprintf(path, sizeof(path), "%s", mnt);
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return pc_error_set(err, errno, "-G %.*s: %s: %s", (int)len, name, path,
					    strerror(errno));
		evl->evsels[i]->spec.cgroup_fd = fd;
	}
	return 0;
}
