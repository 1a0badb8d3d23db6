/* SPDX-License-Identifier: GPL-2.0 */
/* GROUP_DESC: the recording's event groups in the header, as perf record writes them. */
#ifndef PERFCHECK_RECORDER_GROUP_DESC_H
#define PERFCHECK_RECORDER_GROUP_DESC_H

#include "perfdata/perfdata.h"
#include "recorder/evlist.h"

/*
 * Sets the feature when evl has a group of two or more events (perf
 * leaves it out otherwise); 0, or -ENOMEM.
 */
int rec_group_desc_write(struct pd_writer *w, const struct rec_evlist *evl);

#endif
