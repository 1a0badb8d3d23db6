/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wall-clock times as perf prints them: "YYYY-MM-DD HH:MM:SS.uuuuuu" in
 * local time, for the header's reference time and script's -F tod (a
 * sample's time through CLOCK_DATA's pair of times).
 */
#ifndef PERFCHECK_READER_TOD_H
#define PERFCHECK_READER_TOD_H

#include <stddef.h>
#include <stdint.h>

#include "perfdata/perfdata.h"

/* ns since the epoch into buf ("<error>" when local time fails); returns buf. */
const char *rd_tod_text(uint64_t ns, char *buf, size_t size);
/* The wall-clock ns of a sample time of the file's clock. */
uint64_t rd_tod_of(const struct pd_clock_data *c, uint64_t time);

#endif
