/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script --per-event-dump: each event's lines in a file of its own,
 * INPUT.EVENT.dump as perf names it, and perf's line per file at the end
 * ("[ perf script: Wrote 0.156 MB perf.data.cycles.dump (1490 samples) ]").
 */
#ifndef PERFCHECK_READER_EVENT_DUMP_H
#define PERFCHECK_READER_EVENT_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "perfdata/perfdata.h"
#include "reader/out.h"
#include "util/error.h"

struct rd_event_dump {
	struct rd_out out;
	char *path;
	uint64_t samples;
	bool open;
};

struct rd_event_dumps {
	const char *input;		/* the file read: the dumps are named after it */
	struct rd_event_dump *v;	/* by event index */
	size_t nr;
};

/*
 * The output of event e of reader r (its file made at the first call), a
 * sample of it counted when sample; NULL with err set when the file cannot
 * be made.
 */
struct rd_out *rd_event_dump_out(struct rd_event_dumps *d, const struct pd_reader *r,
				 const struct pd_evsel *e, bool sample, struct pc_error *err);
/* Each event's file written out (made empty for an event with no line), perf's lines to o. */
int rd_event_dumps_finish(struct rd_event_dumps *d, const struct pd_reader *r, FILE *o,
			  struct pc_error *err);
void rd_event_dumps_free(struct rd_event_dumps *d);

#endif
