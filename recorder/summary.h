/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFCHECK_RECORDER_SUMMARY_H
#define PERFCHECK_RECORDER_SUMMARY_H

#include <stdint.h>

#include "recorder/output.h"

/* original_bytes: the records before -z compressed them (0 without -z) */
void rec_summary_print(const char *path, uint64_t file_bytes, uint64_t original_bytes,
		       const struct rec_stats *st);
/* Counts the samples of a finalized file (after a write error). */
void rec_summary_recount(const char *path, struct rec_stats *st);

#endif
