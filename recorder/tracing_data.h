/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFCHECK_RECORDER_TRACING_DATA_H
#define PERFCHECK_RECORDER_TRACING_DATA_H

#include "perfdata/perfdata.h"
#include "recorder/evlist.h"
#include "util/error.h"

/* The TRACING_DATA feature perf needs to name and decode tracepoint samples. */
int rec_tracing_data(struct pd_writer *w, const struct rec_evlist *evl, struct pc_error *err);

#endif
