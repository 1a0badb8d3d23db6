/* SPDX-License-Identifier: GPL-2.0 */
/* perf script's text layout for samples and deferred-callchain records. */
#ifndef PERFCHECK_READER_PRINT_H
#define PERFCHECK_READER_PRINT_H

#include "reader/fields.h"
#include "reader/out.h"
#include "reader/sample_fields.h"
#include "reader/session.h"
#include "symbols/srcline.h"

/* perf versions whose layout differs: 6.1 (Debian 12) and 7.2 (what upstream prints now) */
enum rd_compat { RD_COMPAT_6_1, RD_COMPAT_7_2 };

enum rd_time_mode { RD_TIME_ABS, RD_TIME_REL, RD_TIME_DELTA };

/*
 * Fields printed by other modules: srcline (line info) after the ip, trace
 * (tracepoint fields) after the event name.  NULL: not available.
 */
typedef int (*rd_field_hook)(struct rd_out *o, struct rd_session *s, const struct rd_event *ev,
			     void *ctx);

struct rd_printer {
	struct rd_out *out;
	struct rd_fields fields;
	enum rd_compat compat;
	bool merge;		/* off: cookies print as "(cookie)" frames */
	struct rd_time_view {
		enum rd_time_mode mode;	/* --reltime, --deltatime */
		bool ns;		/* --ns: nanoseconds */
		uint64_t first, prev;	/* of the first / previous sample printed */
		bool have_clock;	/* -F tod: the file's CLOCK_DATA */
		struct pd_clock_data clock;
	} time;
	bool no_inline;		/* --no-inline: chains without their inlined entries */
	bool full_source_path;	/* --full-source-path: srclines' files whole */
	bool hide_chain;	/* -G: the sample ip only */
	int max_stack;		/* frames shown per chain (0: perf's default, 127) */
	rd_field_hook srcline, trace;
	void *hook_ctx;
	void *trace_ctx;	/* the trace hook's */
	int name_width;
	uint32_t name_width_evsels;	/* nr_evsels name_width was computed for */
	struct rd_line *lines;		/* formatted callchain lines (print.c) */
	struct rd_print_cache *cache;	/* formatted pieces that repeat (print.c) */
	struct pc_srcline_cache *src;	/* inline frames of DWARF chains */
	struct rd_sample_fields *content;	/* weight, data_src, registers... (made when asked) */
};

void rd_printer_free(struct rd_printer *p);

int rd_print_sample(struct rd_session *s, const struct rd_event *ev, void *ctx);
/* The state of the content fields (weight, registers, cgroups...), made at the first call; NULL: no memory. */
struct rd_sample_fields *rd_print_content(struct rd_printer *p);
/* The fields an event's samples show (its type's default, -F's list or edits). */
unsigned int rd_print_fields(const struct rd_printer *p, const struct pd_evsel *e);
/* The srcline hook (ctx: the printer): "\n  file.c:LINE" as perf prints it. */
int rd_print_srcline(struct rd_out *o, struct rd_session *s, const struct rd_event *ev,
		     void *ctx);
/*
 * The start of a record's line (comm, pid/tid, cpu, time as the fields
 * ask), as perf script prints it before a non-sample record: ev->sample
 * holds the values to show (its evsel decides the fields), ev->thread the
 * comm.
 */
void rd_print_record_start(struct rd_printer *p, const struct rd_event *ev);
int rd_print_deferred(struct rd_session *s, const struct rd_event *ev, void *ctx);

#endif
