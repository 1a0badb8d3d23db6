/* SPDX-License-Identifier: GPL-2.0 */
/* perf script's text layout for samples and deferred-callchain records. */
#ifndef PERFCHECK_READER_PRINT_H
#define PERFCHECK_READER_PRINT_H

#include "reader/fields.h"
#include "reader/out.h"
#include "reader/session.h"

/* perf versions whose layout differs: 6.1 (Debian 12) and 7.2 (what upstream prints now) */
enum rd_compat { RD_COMPAT_6_1, RD_COMPAT_7_2 };

struct rd_printer {
	struct rd_out *out;
	struct rd_fields fields;
	enum rd_compat compat;
	bool merge;		/* off: cookies print as "(cookie)" frames */
	int name_width;
	uint32_t name_width_evsels;	/* nr_evsels name_width was computed for */
	struct rd_line *lines;		/* formatted callchain lines (print.c) */
};

void rd_printer_free(struct rd_printer *p);

int rd_print_sample(struct rd_session *s, const struct rd_event *ev, void *ctx);
int rd_print_deferred(struct rd_session *s, const struct rd_event *ev, void *ctx);

#endif
