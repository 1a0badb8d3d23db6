/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parse stage, after time ordering: each record is parsed here and
 * only here (its sample, the sample_id trailer of another record, or a
 * deferred callchain), with the event the input stage found for it, and
 * travels on with its parse (rd_item.p).  Parsing as a record leaves the
 * queue, not as it arrives, keeps the parse in cache for the stages that
 * read it: the queue holds only what ordering needs.
 */
#ifndef PERFCHECK_READER_PARSE_H
#define PERFCHECK_READER_PARSE_H

#include "reader/stage.h"

struct rd_parse {
	const struct pd_reader *r;
	struct rd_sink out;
};

void rd_parse_init(struct rd_parse *ps, const struct pd_reader *r, struct rd_sink out);
/* The stage's deliver function (ctx: the rd_parse). */
int rd_parse_deliver(void *ctx, struct rd_item *it, struct pc_error *err);

#endif
