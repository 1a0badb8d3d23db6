// SPDX-License-Identifier: GPL-2.0
/* -u USER: every process of the user at the start, as perf's uid target. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/user.h"
#include "util/sys.h"

static int real_uid(pid_t pid, uid_t *uid)
{
	char path[64], buf[4096], *p;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (pc_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "\nUid:");
	if (!p)
		return -1;
	*uid = (uid_t)strtoul(p + 5, NULL, 10);
	return 0;
}

int rec_user_pids(const char *user, pid_t **pids, int *nr, struct pc_error *err)
{
	struct dirent *de;
	uid_t uid;
	DIR *d;

	if (pc_user_uid(user, &uid))
		return pc_error_set(err, EINVAL, "-u: no such user '%s'", user);
	*pids = NULL;
	*nr = 0;
	d = opendir("/proc");
	if (!d)
		return pc_error_set(err, errno, "/proc: %s", strerror(errno));
	while ((de = readdir(d))) {
		pid_t pid = (pid_t)strtol(de->d_name, NULL, 10);
		uid_t u;
		pid_t *n;

		if (pid <= 0 || real_uid(pid, &u) || u != uid)
			continue;
		n = realloc(*pids, (*nr + 1) * sizeof(*n));
		if (!n) {
			closedir(d);
			return pc_error_set(err, ENOMEM, "out of memory");
		}
		*pids = n;
		(*pids)[(*nr)++] = pid;
	}
	closedir(d);
	if (!*nr)
		return pc_error_set(err, ESRCH, "-u %s: the user has no process", user);
	return 0;
}
