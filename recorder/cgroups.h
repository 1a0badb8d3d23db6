/* SPDX-License-Identifier: GPL-2.0 */
/* -G and --all-cgroups: the cgroup hierarchy perf_event uses. */
#ifndef PERFCHECK_RECORDER_CGROUPS_H
#define PERFCHECK_RECORDER_CGROUPS_H

#include <stddef.h>

#include "recorder/evlist.h"
#include "recorder/options.h"
#include "util/error.h"

/*
 * -G NAME,...: each of the first nr_events events (in order; one name:
 * every one of them) opened in its cgroup.  The tracking dummy perf adds
 * after the user's events is not one of them: it follows every task.
 */
int rec_cgroups_open(struct rec_evlist *evl, int nr_events, const struct rec_sideband *sb,
		     struct pc_error *err);

#endif
