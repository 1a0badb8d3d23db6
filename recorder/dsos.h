/* SPDX-License-Identifier: GPL-2.0 */
/* Which DSOs the samples hit, for the BUILD_ID header feature. */
#ifndef PERFCHECK_RECORDER_DSOS_H
#define PERFCHECK_RECORDER_DSOS_H

#include <stdbool.h>
#include <stdint.h>

#include "perfdata/perfdata.h"

struct rec_dsos;
struct rec_dsos *rec_dsos_new(void);
void rec_dsos_free(struct rec_dsos *d);
void rec_dsos_mmap(struct rec_dsos *d, uint32_t pid, uint64_t start, uint64_t len,
		   const char *filename);
void rec_dsos_hit(struct rec_dsos *d, uint32_t pid, uint64_t ip, bool kernel);
/* Adds the build id of every DSO hit (all: every DSO mapped) to the writer; returns how many. */
int rec_dsos_write_build_ids(struct rec_dsos *d, struct pd_writer *w, bool all);

#endif
