// SPDX-License-Identifier: GPL-2.0
/* The seam under the probe layer: the real kernel, unless replaced. */
#include "probes/kernel.h"

#include "util/sys.h"

static int real_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		     unsigned long flags)
{
	return pc_sys_perf_event_open(attr, pid, cpu, group_fd, flags);
}

static int real_max_stack(long *value)
{
	return pc_read_int_file("/proc/sys/kernel/perf_event_max_stack", value);
}

static struct pc_kernel_ops kernel = { real_open, real_max_stack };

int pc_kernel_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		   unsigned long flags)
{
	return kernel.open(attr, pid, cpu, group_fd, flags);
}

int pc_kernel_max_stack(long *value)
{
	return kernel.max_stack(value);
}

struct pc_kernel_ops pc_kernel_set_ops(const struct pc_kernel_ops *ops)
{
	struct pc_kernel_ops old = kernel;

	kernel.open = ops && ops->open ? ops->open : real_open;
	kernel.max_stack = ops && ops->max_stack ? ops->max_stack : real_max_stack;
	return old;
}
