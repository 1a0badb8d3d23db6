/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFCHECK_RECORDER_CPUS_H
#define PERFCHECK_RECORDER_CPUS_H

#include <stdbool.h>

#include "util/error.h"

/* "0-3,6" -> sorted unique list; NULL spec = online cpus. */
int rec_cpus_parse(const char *spec, int **cpus, int *nr, struct pc_error *err);
/*
 * --affinity: the calling thread onto cpu alone, or (node) onto the cpus of
 * cpu's NUMA node (sysfs; all of them where it names no node); -errno
 */
int rec_cpu_affinity(int cpu, bool node);

#endif
