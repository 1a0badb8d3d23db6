/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The input stage: the records of a file or pipe, each handed on with its
 * event and time, read in place (pd_record_time); the parse stage after
 * the time order parses it (reader/parse.h).  Records are counted by type;
 * the types the reader does not interpret are reported at the end
 * (rd_input_report).
 *
 * The decompression seam: a PERF_RECORD_COMPRESSED or COMPRESSED2 record
 * goes to expand.fn when one is set, which calls rd_input_record() for
 * each record of the payload (data need not outlive that call: the stage
 * copies what it keeps).  Without one the record is counted as not
 * interpreted.
 */
#ifndef PERFCHECK_READER_INPUT_H
#define PERFCHECK_READER_INPUT_H

#include "reader/stage.h"

#define RD_INPUT_TYPES 128	/* types counted one by one; the rest together */

struct rd_input;

struct rd_expand {
	int (*fn)(void *ctx, struct rd_input *in, const struct pd_record *rec,
		  struct pc_error *err);
	void *ctx;
};

/* Called for every header record (types >= HEADER_ATTR, but the compressed ones) as read. */
struct rd_input_tap {
	int (*fn)(void *ctx, const struct pd_record *rec, struct pc_error *err);
	void *ctx;
};

struct rd_input {
	struct pd_reader *r;
	uint64_t pos;
	uint64_t seq;
	uint64_t records;
	uint64_t by_type[RD_INPUT_TYPES];
	uint64_t other_types;	/* records of a type >= RD_INPUT_TYPES */
	/*
	 * The samples LOST_SAMPLES records say the kernel dropped (those perf's
	 * BPF filters made, misc bit 15, left out as perf 7.2 counts them)
	 */
	uint64_t lost_samples;
	struct rd_expand expand;
	struct rd_input_tap tap;
	struct rd_sink out;
};

void rd_input_init(struct rd_input *in, struct pd_reader *r, struct rd_sink out);
/*
 * Reads the next record and delivers it.  Returns 1 when one was read, 0 at
 * the end of the input, -errno on a defect.
 */
int rd_input_step(struct rd_input *in, struct pc_error *err);
/* One record (from the file or from an expanded payload): stamp its time, deliver. */
int rd_input_record(struct rd_input *in, const struct pd_record *rec, struct pc_error *err);

/* How the reader treats a record type. */
enum rd_use {
	RD_USE_READ,		/* read: it changes the output */
	RD_USE_IGNORED,		/* known, and without effect on script/report output */
	RD_USE_NOT_INTERPRETED,	/* holds what the reader cannot read (AUX data, unknown) */
};
enum rd_use rd_record_use(uint32_t type, bool can_expand);

/*
 * Names every type not interpreted with its count through pc_warn, and at
 * -v (pc_info) the count of every type.  Returns how many records were not
 * interpreted.
 */
uint64_t rd_input_report(const struct rd_input *in);

#endif
