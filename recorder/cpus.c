// SPDX-License-Identifier: GPL-2.0
/* CPU lists: -C "0-3,6" and /sys/devices/system/cpu/online use one syntax. */
#include <errno.h>
#include <stdbool.h>
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
