/* SPDX-License-Identifier: GPL-2.0 */
/* CPU_PMU_CAPS and PMU_CAPS: the PMUs' sysfs capabilities in the header, as perf record writes them. */
#ifndef PERFCHECK_RECORDER_PMU_CAPS_H
#define PERFCHECK_RECORDER_PMU_CAPS_H

struct pd_writer;

/*
 * Reads each PMU's caps/ under devices_dir (REC_PMU_DEVICES, or a test's
 * copy of that tree) and sets both features: CPU_PMU_CAPS only where there
 * is a core PMU ("cpu", or one listing its cpus), PMU_CAPS always (a count
 * of 0 where no PMU but "cpu" has capabilities).  0, or -ENOMEM.
 */
int rec_pmu_caps_write(struct pd_writer *w, const char *devices_dir);

#endif
