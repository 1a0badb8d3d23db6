/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFCHECK_UTIL_SYS_H
#define PERFCHECK_UTIL_SYS_H

#include <linux/perf_event.h>
#include <sys/types.h>

/* The raw syscall; glibc has no wrapper.  Every caller outside probes/open.c is a bug. */
int pc_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			   int group_fd, unsigned long flags);

/* Reads a whole small file (procfs, sysfs) into buf, NUL-terminated, trailing newline kept. */
int pc_read_file(const char *path, char *buf, size_t size);
int pc_read_int_file(const char *path, long *value);
/*
 * A user name or a decimal uid to the uid: 0, or -ENOENT.  The name is looked
 * up in /etc/passwd, not through NSS, which static guest binaries cannot link.
 */
int pc_user_uid(const char *user, uid_t *uid);

#endif
