/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFCHECK_PERFDATA_WRITER_INT_H
#define PERFCHECK_PERFDATA_WRITER_INT_H

#include "perfdata/perfdata.h"

/* Builds EVENT_DESC from the writer's events (unless set already). */
int pd_writer_event_desc(struct pd_writer *w);

#endif
