// SPDX-License-Identifier: GPL-2.0
/*
 * One open of the kernel, below the feature table and the verdict cache:
 * an open that retries EINTR and (a few times) EBUSY, a probe open that
 * closes what it opened, and how one probe's result reads as a verdict.
 * Both the table's multi-open probes (features.c) and the cache (probe.c)
 * use these; nothing here calls back into either.
 */
#include "probes/internal.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "probes/kernel.h"

int pc_open_retrying(union pc_attr *attr, pid_t pid, int cpu, int group_fd,
		     unsigned long flags, int *busy_left)
{
	/* bounded: a signal storm or a stuck PMU must not hang the caller */
	int eintr_left = 100;
	long delay_ns = 1000000;

	for (;;) {
		int fd = pc_kernel_open(&attr->attr, pid, cpu, group_fd, flags);

		if (fd >= 0)
			return fd;
		if (errno == EINTR && eintr_left-- > 0)
			continue;
		if (errno == EBUSY && *busy_left > 0) {
			struct timespec ts = { 0, delay_ns };

			(*busy_left)--;
			nanosleep(&ts, NULL);
			delay_ns *= 2;
			continue;
		}
		return -errno;
	}
}

int pc_probe_try(union pc_attr *attr, unsigned long flags)
{
	int busy_left = PC_EBUSY_TRIES;
	int fd = pc_open_retrying(attr, 0, -1, -1, flags, &busy_left);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

enum pc_feature_status pc_probe_verdict(int ret, bool needs_pmu, int *err)
{
	*err = ret < 0 ? -ret : 0;
	if (ret >= 0)
		return PC_FEATURE_SUPPORTED;
	switch (-ret) {
	case EINVAL:
	case E2BIG:
		return PC_FEATURE_MISSING;
	case EOPNOTSUPP:
		/* some kernels answer an unknown bit with it; a PMU-less one, a known one */
		return needs_pmu ? PC_FEATURE_UNKNOWN : PC_FEATURE_MISSING;
	default:
		return PC_FEATURE_UNKNOWN;
	}
}
