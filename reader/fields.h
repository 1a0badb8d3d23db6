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
	/* the sample's content (reader/sample_fields.c) */
	RF_WEIGHT	= 1 << 14,
	RF_DATA_SRC	= 1 << 15,
	RF_PHYS_ADDR	= 1 << 16,
	RF_IREGS	= 1 << 17,
	RF_UREGS	= 1 << 18,
	RF_DATA_PAGE_SIZE = 1 << 19,
	RF_CODE_PAGE_SIZE = 1 << 20,
	RF_INS_LAT	= 1 << 21,
	RF_CGROUP	= 1 << 22,
	RF_BRSTACK	= 1 << 23,
	RF_BRSTACKSYM	= 1 << 24,
	RF_BRSTACKOFF	= 1 << 25,
	RF_MISC		= 1 << 26,
};

/* fields perf 6.1 does not know (--compat 6.1 refuses them as unknown) */
#define RF_NOT_IN_6_1 RF_CGROUP

/* perf script's default for software events; CPU joins when samples carry it. */
#define RF_DEFAULT (RF_COMM | RF_TID | RF_TIME | RF_EVENT | RF_IP | RF_SYM | RF_SYMOFF | \
		    RF_DSO | RF_PERIOD)
/* perf script's default for tracepoint events */
#define RF_TRACEPOINT_DEFAULT (RF_COMM | RF_TID | RF_CPU | RF_TIME | RF_EVENT | RF_TRACE)

struct rd_fields {
	unsigned int mask;
	unsigned int user_set;	/* fields given with -F (CPU shown only if asked) */
	int user;		/* -F given */
	/* "+a,-b": each event type's own default, a added, b taken away */
	int edit;
	unsigned int add, del;
};

/*
 * The sample_type bits a field needs (any of them; 0 when none), and their
 * name as perf says it.  rd_field_order lists the fields in the order perf
 * checks them (0-terminated).
 */
extern const unsigned int rd_field_order[];
uint64_t rd_field_needs(unsigned int bit, const char **attr_name);
const char *rd_field_name(unsigned int bit);

/*
 * "comm,tid,time" replaces the default; "+field,..." and "-field,..." edit
 * it.  Returns 0, or -1 with the unknown name copied into bad.
 */
int rd_fields_parse(struct rd_fields *f, const char *spec, char *bad, size_t bad_size);
const char *rd_fields_names(void);

#endif
