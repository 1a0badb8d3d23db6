/* SPDX-License-Identifier: GPL-2.0 */
/* perf script's -F: which fields a line shows. */
#ifndef PERFCHECK_READER_FIELDS_H
#define PERFCHECK_READER_FIELDS_H

#include <stddef.h>
#include <stdint.h>

enum rd_field {
	RF_COMM		= 1 << 0,
	RF_TID		= 1 << 1,
	RF_PID		= 1 << 2,
	RF_TIME		= 1 << 3,
	RF_CPU		= 1 << 4,
	RF_EVENT	= 1 << 5,
	RF_IP		= 1 << 6,
	RF_SYM		= 1 << 7,
	RF_SYMOFF	= 1 << 8,
	RF_DSO		= 1 << 9,
	RF_PERIOD	= 1 << 10,
	RF_ADDR		= 1 << 11,
	RF_SRCLINE	= 1 << 12,	/* printed by a hook (line info: lib/symbols) */
	RF_TRACE	= 1 << 13,	/* printed by a hook (tracepoints: lib/trace) */
};

/* perf script's default for software events; CPU joins when samples carry it. */
#define RF_DEFAULT (RF_COMM | RF_TID | RF_TIME | RF_EVENT | RF_IP | RF_SYM | RF_SYMOFF | \
		    RF_DSO | RF_PERIOD)
/* perf script's default for tracepoint events */
#define RF_TRACEPOINT_DEFAULT (RF_COMM | RF_TID | RF_CPU | RF_TIME | RF_EVENT | RF_TRACE)

struct rd_fields {
	unsigned int mask;
	unsigned int user_set;	/* fields given with -F (CPU shown only if asked) */
	int user;		/* -F given */
};

/* The sample_type bit a field needs (0 when none), and its name as perf says it. */
uint64_t rd_field_needs(unsigned int bit, const char **attr_name);
const char *rd_field_name(unsigned int bit);

/*
 * "comm,tid,time" replaces the default; "+field,..." and "-field,..." edit
 * it.  Returns 0, or -1 with the unknown name copied into bad.
 */
int rd_fields_parse(struct rd_fields *f, const char *spec, char *bad, size_t bad_size);
const char *rd_fields_names(void);

#endif
