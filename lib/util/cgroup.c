// SPDX-License-Identifier: GPL-2.0
/* The cgroup hierarchy perf_event uses and its cgroups' fds (cgroup.h) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/cgroup.h"

int pc_cgroup_mount(char *buf, size_t size, struct pc_error *err)
{
	char line[4096], v2[4096] = "";
	FILE *f = fopen("/proc/mounts", "r");

	if (!f)
		return pc_error_set(err, errno, "/proc/mounts: %s", strerror(errno));
	/*
	 * perf: a v1 hierarchy with the perf_event controller is used as soon
	 * as it is found (split hierarchies: any line of the file); the first
	 * cgroup2 only when there is none
	 */
	while (fgets(line, sizeof(line), f)) {
		char dev[256], dir[2048], type[64], mopts[1024];

		if (sscanf(line, "%255s %2047s %63s %1023s", dev, dir, type, mopts) != 4)
			continue;
		if (!strcmp(type, "cgroup2")) {
			if (!v2[0])
				snprintf(v2, sizeof(v2), "%s", dir);
			continue;
		}
		if (strcmp(type, "cgroup"))
			continue;
		for (char *save = NULL, *o = strtok_r(mopts, ",", &save); o;
		     o = strtok_r(NULL, ",", &save)) {
			if (!strcmp(o, "perf_event")) {
				fclose(f);
				snprintf(buf, size, "%s", dir);
				return 0;
			}
		}
	}
	fclose(f);
	if (!v2[0])
		return pc_error_set(err, ENOENT, "no cgroup2 or perf_event cgroup hierarchy mounted");
	snprintf(buf, size, "%s", v2);
	return 0;
}

int pc_cgroup_open(const char *mnt, const char *name, size_t len, char *path, size_t size)
{
	int fd;

	snprintf(path, size, "%s/%.*s", mnt, (int)len, name);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
