// SPDX-License-Identifier: GPL-2.0
/* perf stat's output reduced to its layout (stat_layout.h) */
#include <string.h>

#include "stat_layout.h"

void up_stat_layout_of(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (const char *p = in; *p && n + 2 < size; p++) {
		if ((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9' && n &&
						  out[n - 1] == 'N')) {
			if (!n || out[n - 1] != 'N')
				out[n++] = 'N';
			continue;
		}
		if (*p == ' ' && n && out[n - 1] == ' ')
			continue;
		/* a rate's prefix (K/sec) follows the measurement too */
		if ((*p == 'K' || *p == 'M' || *p == 'G') && !strncmp(p + 1, "/sec", 4))
			continue;
		out[n++] = *p;
	}
	out[n] = '\0';
}

void up_stat_layout_cgroup_of(const char *in, char *out, size_t size)
{
	char *p;

	up_stat_layout_of(in, out, size);
	while ((p = strstr(out, " (N%)")))
		memmove(p, p + 5, strlen(p + 5) + 1);
	/* and the padding the share's column had at the end of a line */
	while ((p = strstr(out, " \n")))
		memmove(p, p + 1, strlen(p + 1) + 1);
}
