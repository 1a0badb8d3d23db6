// SPDX-License-Identifier: GPL-2.0
#include "util/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int pc_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			   int group_fd, unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

int pc_read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	int fd;

	if (size == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return (int)n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (int)len;
}

int pc_read_int_file(const char *path, long *value)
{
	char buf[64], *end;
	int ret = pc_read_file(path, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	errno = 0;
	*value = strtol(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

int pc_user_uid(const char *user, uid_t *uid)
{
	FILE *f;
	struct passwd *pw;
	char *end;
	long v = strtol(user, &end, 10);
	int ret = -ENOENT;

	if (end != user && !*end && v >= 0) {
		*uid = (uid_t)v;
		return 0;
	}
	f = fopen("/etc/passwd", "re");
	if (!f)
		return -ENOENT;
	while ((pw = fgetpwent(f)))
		if (!strcmp(pw->pw_name, user)) {
			*uid = pw->pw_uid;
			ret = 0;
			break;
		}
	fclose(f);
	return ret;
}
