/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf script's `trace` field: tracepoint samples formatted by lib/trace
 * from the file's TRACING_DATA, opened when the first tracepoint sample
 * asks for it (in a pipe the section arrives as a record, before the
 * samples), with kernel addresses named from the session's kernel map.
 */
#ifndef PERFCHECK_READER_TRACEFMT_H
#define PERFCHECK_READER_TRACEFMT_H

#include <stdbool.h>

#include "reader/out.h"
#include "reader/session.h"
#include "trace/trace.h"
#include "util/error.h"

struct rd_trace {
	struct tr_events t;
	struct rd_session *s;	/* for the kernel map */
	bool tried, ok;
	struct pc_error err;	/* why a format failed (the hook returns -errno) */
	char name[256];		/* the resolver's answer, valid until its next call */
};

/*
 * Opens the file's TRACING_DATA once (later calls give the first answer);
 * -errno with the reason in t->err.  The hook calls it; a consumer may call
 * it first, to fail before anything is printed.
 */
int rd_trace_open(struct rd_trace *t, struct rd_session *s);
/* Names tracepoint events known only by number from the opened section. */
int rd_trace_name_events(struct rd_trace *t, struct rd_session *s);
/*
 * A tracepoint sample's text in *text (valid until the next call) and its
 * length; 0 with *text NULL for other events; -errno (the reason in err).
 */
int rd_trace_text(struct rd_trace *t, struct rd_session *s, const struct rd_event *ev,
		  const char **text);
/* The printer's trace hook; ctx is a struct rd_trace. */
int rd_trace_field(struct rd_out *o, struct rd_session *s, const struct rd_event *ev, void *ctx);
void rd_trace_free(struct rd_trace *t);

#endif
