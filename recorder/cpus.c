// SPDX-License-Identifier: GPL-2.0
/* CPU lists: -C "0-3,6" and /sys/devices/system/cpu/online use one syntax. */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/cpus.h"
#include "util/sys.h"

#define REC_MAX_CPUS 4096

static int parse_list(const char *s, bool *set, struct pc_error *err, const char *what)
{
	const char *p = s;

	while (*p && *p != '\n') {
		char *end;
		long a, b;

		errno = 0;
		a = strtol(p, &end, 10);
		if (errno || end == p || a < 0 || a >= REC_MAX_CPUS)
			return pc_error_set(err, EINVAL, "%s: '%s' is not a cpu list", what, s);
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (errno || end == p || b < a || b >= REC_MAX_CPUS)
				return pc_error_set(err, EINVAL, "%s: '%s' is not a cpu list",
						    what, s);
		}
		for (long c = a; c <= b; c++)
			set[c] = true;
		if (*end == ',')
			end++;
		else if (*end && *end != '\n')
			return pc_error_set(err, EINVAL, "%s: '%s' is not a cpu list", what, s);
		p = end;
	}
	return 0;
}

int rec_cpus_parse(const char *spec, int **cpus, int *nr, struct pc_error *err)
{
	static bool online[REC_MAX_CPUS], want[REC_MAX_CPUS];
	char buf[4096];
	int ret, n = 0;

	memset(online, 0, sizeof(online));
	memset(want, 0, sizeof(want));
	ret = pc_read_file("/sys/devices/system/cpu/online", buf, sizeof(buf));
	if (ret < 0)
		return pc_error_set(err, -ret, "/sys/devices/system/cpu/online: %s",
				    strerror(-ret));
	ret = parse_list(buf, online, err, "/sys/devices/system/cpu/online");
	if (ret)
		return ret;
	if (spec) {
		ret = parse_list(spec, want, err, "-C");
		if (ret)
			return ret;
		for (int c = 0; c < REC_MAX_CPUS; c++)
			if (want[c] && !online[c])
				return pc_error_set(err, ENODEV, "-C: cpu %d is not online", c);
	} else {
		memcpy(want, online, sizeof(want));
	}
	*cpus = calloc(REC_MAX_CPUS, sizeof(int));
	if (!*cpus)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (int c = 0; c < REC_MAX_CPUS; c++)
		if (want[c])
			(*cpus)[n++] = c;
	if (!n) {
		free(*cpus);
		*cpus = NULL;
		return pc_error_set(err, EINVAL, "-C: empty cpu list");
	}
	*nr = n;
	return 0;
}

/* The NUMA node sysfs puts cpu in, -1 when none */
static int node_of(int cpu)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int node = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) && node < 0)
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' && de->d_name[4] <= '9')
			node = atoi(de->d_name + 4);
	closedir(d);
	return node;
}

int rec_cpu_affinity(int cpu, bool node)
{
	static bool in_node[REC_MAX_CPUS];
	struct pc_error err = { 0 };
	char path[80], buf[4096];
	cpu_set_t set;
	int n = node ? node_of(cpu) : -1;

	if (cpu < 0 || cpu >= REC_MAX_CPUS || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (n >= 0) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		memset(in_node, 0, sizeof(in_node));
		if (pc_read_file(path, buf, sizeof(buf)) >= 0 &&
		    !parse_list(buf, in_node, &err, path))
			for (int c = 0; c < REC_MAX_CPUS && c < CPU_SETSIZE; c++)
				if (in_node[c])
					CPU_SET(c, &set);
	}
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}
