// SPDX-License-Identifier: GPL-2.0
/* The cgroup hierarchy perf_event uses and its cgroups' fds (cgroup.h) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static int list_add(struct pc_cgroup_list *list, const char *name)
{
	char **names = realloc(list->names, (list->nr + 1) * sizeof(*names));

	if (!names)
		return -ENOMEM;
	list->names = names;
	names[list->nr] = strdup(name);
	if (!names[list->nr])
		return -ENOMEM;
	list->nr++;
	return 0;
}

/* dirfd's directory (named name) and everything below it; dirfd is consumed */
static int list_walk(int dirfd, const char *name, struct pc_cgroup_list *list)
{
	DIR *d;
	int ret = list_add(list, name);

	if (ret) {
		close(dirfd);
		return ret;
	}
	d = fdopendir(dirfd);
	if (!d) {
		ret = -errno;
		close(dirfd);
		return ret;
	}
	for (struct dirent *e; !ret && (errno = 0, e = readdir(d));) {
		struct stat st;
		char sub[4096];
		int fd;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		/* cgroupfs fills d_type; stat where a filesystem does not */
		if (e->d_type != DT_DIR && (e->d_type != DT_UNKNOWN ||
		    fstatat(dirfd, e->d_name, &st, 0) || !S_ISDIR(st.st_mode)))
			continue;
		if (snprintf(sub, sizeof(sub), "%s%s%s", name, *name ? "/" : "", e->d_name) >= (int)sizeof(sub)) {
			ret = -ENAMETOOLONG;
			break;
		}
		fd = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		/* a cgroup removed meanwhile is left out, as nftw leaves it */
		if (fd < 0)
			continue;
		ret = list_walk(fd, sub, list);
	}
	if (!ret && errno)
		ret = -errno;
	closedir(d);
	return ret;
}

int pc_cgroup_list_read(const char *mnt, struct pc_cgroup_list *list)
{
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret;

	list->names = NULL;
	list->nr = 0;
	if (fd < 0)
		return -errno;
	ret = list_walk(fd, "", list);
	if (ret)
		pc_cgroup_list_free(list);
	return ret;
}

void pc_cgroup_list_free(struct pc_cgroup_list *list)
{
	for (int i = 0; i < list->nr; i++)
		free(list->names[i]);
	free(list->names);
	list->names = NULL;
	list->nr = 0;
}
