/* SPDX-License-Identifier: GPL-2.0 */
/* The PMUs of sysfs an event counts on: the core PMU, a PMU by type, an event's own cpus. */
#ifndef PERFCHECK_RECORDER_PMUS_H
#define PERFCHECK_RECORDER_PMUS_H

#include <stddef.h>

#include "uapi/perf_compat.h"

#define REC_PMU_DEVICES "/sys/bus/event_source/devices"

/*
 * The core PMU, as perf 6.6 and later find it: "cpu" (x86), else the first
 * by name whose directory lists its cpus (arm64's armv8_pmuv3_0, a hybrid
 * machine's cpu_core); 0 and its name in name, or -1 when there is none.
 */
int rec_core_pmu(const char *devices_dir, char *name, size_t size);
/*
 * An event's own cpus, perf's evsel own_cpus (which perf record sends as an
 * EVENT_UPDATE of type CPUS): those its PMU lists in "cpumask", else "cpus";
 * the online cpus for a core PMU that lists none.  The PMU: the one of the
 * attr's type; the core PMU for hardware, cache and raw events (perf 7.2's
 * legacy events count on it; an extended type names the PMU).  Software
 * events, tracepoints and the like have none.  0 with *cpus (malloc'd) and
 * *nr, *nr 0 when there are none; -ENOMEM.
 */
int rec_own_cpus(const char *devices_dir, const struct perf_event_attr *a, int **cpus, int *nr);

#endif
