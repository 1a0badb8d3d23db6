/* SPDX-License-Identifier: GPL-2.0 */
/* PERFCHECK_OPEN: which attr features each event asked for and which the
 * open ladder cleared. */
#ifndef PERFCHECK_RECORDER_OPEN_FEATURES_H
#define PERFCHECK_RECORDER_OPEN_FEATURES_H

#include "perfdata/perfdata.h"
#include "recorder/evsel.h"
#include "recorder/evlist.h"

/* Before the first open: the ladder edits the attr, so ask it now. */
void rec_open_features_requested(struct rec_evsel *ev);
int rec_open_features_write(struct pd_writer *w, const struct rec_evlist *evl);

#endif
