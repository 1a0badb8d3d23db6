/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seam under the probe layer.  Every perf_event_open of probes/ (the
 * probes and pc_event_open) and every read of kernel.perf_event_max_stack
 * goes through these calls, which call replaceable functions: the real
 * kernel by default; the tests' simulated kernels (selftests/lib/simkernel.c)
 * put theirs here.
 */
#ifndef PERFCHECK_PROBES_KERNEL_H
#define PERFCHECK_PROBES_KERNEL_H

#include <linux/perf_event.h>
#include <sys/types.h>

struct pc_kernel_ops {
	/* an fd, or -1 with errno set, like the syscall */
	int (*open)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags);
	/* 0 and *value, or -errno */
	int (*max_stack)(long *value);
};

int pc_kernel_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		   unsigned long flags);
/* perf_event_max_stack as the kernel (or the replacement) reports it. */
int pc_kernel_max_stack(long *value);
/* Replaces the kernel (NULL restores the real one); returns the previous ops. */
struct pc_kernel_ops pc_kernel_set_ops(const struct pc_kernel_ops *ops);

#endif
