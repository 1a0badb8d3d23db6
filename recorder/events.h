/* SPDX-License-Identifier: GPL-2.0 */
/* -e parsing (events, groups, modifiers, pmu/terms/) and each event's attr. */
#ifndef PERFCHECK_RECORDER_EVENTS_H
#define PERFCHECK_RECORDER_EVENTS_H

#include <stdint.h>

#include "recorder/evlist.h"
#include "recorder/options.h"
#include "util/error.h"

/* Appends the events of spec ("cpu-clock:u,{a,b}:S,cpu-clock/period=1/") to evl. */
int rec_events_parse(struct rec_evlist *evl, const char *spec, struct pc_error *err);
/* Fills sampling, sample_type and tracking bits from the options. */
int rec_events_config(struct rec_evlist *evl, const struct rec_opts *opts, struct pc_error *err);
/* -F against kernel.perf_event_max_sample_rate: error if explicit, else lowered. */
int rec_events_check_freq(struct rec_evlist *evl, const struct rec_opts *opts,
			  struct pc_error *err);
/* The smallest PERF_ATTR_SIZE_VER* that holds the fields attr uses. */
uint32_t rec_attr_min_size(const union pc_attr *attr);

#endif
