/* SPDX-License-Identifier: GPL-2.0 */
/* record --kcore: the kernel's text copied into the recording (kcore.c). */
#ifndef PERFCHECK_RECORDER_KCORE_H
#define PERFCHECK_RECORDER_KCORE_H

#include <stdbool.h>

#include "util/error.h"

/* Whether /proc/kcore opens here (perf's check before it records). */
bool rec_kcore_readable(void);

/*
 * DATA_DIR/kcore_dir with kallsyms, modules and kcore, as perf record
 * --kcore makes it; 0, or -errno with err set and nothing left behind.
 */
int rec_kcore_copy(const char *data_dir, struct pc_error *err);

#endif
