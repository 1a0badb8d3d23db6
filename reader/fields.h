/* SPDX-License-Identifier: GPL-2.0 */
/* perf script's -F: which fields a line shows. */
#ifndef PERFCHECK_READER_FIELDS_H
#define PERFCHECK_READER_FIELDS_H

#include <stdbool.h>
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
	RF_DSOFF	= 1 << 27,	/* perf 7.x: the dso with the map-relative offset */
	RF_TOD		= 1 << 28,	/* wall-clock time, from CLOCK_DATA (record -k) */
	RF_FLAGS	= 1 << 29,	/* the sample's branch flags: none outside AUX traces */
	/*
	 * ipc, callindent, synth: what perf's AUX decoders (Intel PT, CoreSight)
	 * give the samples they synthesize; perf prints nothing for others
	 */
	RF_AUX_ONLY	= 1 << 30,
};

/* fields perf 6.1 does not know (--compat 6.1 refuses them as unknown) */
#define RF_NOT_IN_6_1 (RF_CGROUP | RF_DSOFF)

/* perf script's default for software events; CPU joins when samples carry it. */
#define RF_DEFAULT (RF_COMM | RF_TID | RF_TIME | RF_EVENT | RF_IP | RF_SYM | RF_SYMOFF | \
		    RF_DSO | RF_PERIOD)
/* perf script's default for tracepoint events */
#define RF_TRACEPOINT_DEFAULT (RF_COMM | RF_TID | RF_CPU | RF_TIME | RF_EVENT | RF_TRACE)
/* and for raw PMU events (a core PMU's own encoding: perf mem's): what they may carry */
#define RF_RAW_DEFAULT (RF_DEFAULT | RF_ADDR | RF_DATA_SRC | RF_WEIGHT | RF_PHYS_ADDR | \
			RF_DATA_PAGE_SIZE | RF_CODE_PAGE_SIZE | RF_INS_LAT)

/*
 * perf script's output types, each with its default and its own -F: the
 * attr types below PERF_TYPE_MAX, perf's synthesized events, and any
 * other PMU (a dynamic type, arm64's armv8_pmuv3 for one).
 */
enum rd_output_type {
	RD_OT_HW, RD_OT_SW, RD_OT_TRACE, RD_OT_HW_CACHE, RD_OT_RAW, RD_OT_BREAK,
	RD_OT_SYNTH, RD_OT_OTHER, RD_OT_MAX
};

enum rd_output_type rd_output_type(uint32_t attr_type);
unsigned int rd_fields_default(enum rd_output_type t);

/* one output type's -F */
struct rd_type_fields {
	unsigned int mask;	/* the list, or the default with the edits */
	unsigned int user_set;	/* fields named (a default field the samples lack is left out) */
	unsigned int add, del;	/* "+a,-b": the type's default, a added, b taken away */
	bool user;		/* -F given for the type (an empty list: its events are not shown) */
	bool edit;		/* as "+a,-b" */
};

struct rd_fields {
	/* what every -F asked, over all types */
	unsigned int mask;
	unsigned int user_set;
	unsigned int add, del;
	int user;		/* some -F given */
	unsigned int wild_set;	/* fields of the last -F without a type (perf warns for trace) */
	struct rd_type_fields type[RD_OT_MAX];
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
 * "comm,tid,time" replaces the default of every type; "+field,..." and
 * "-field,..." edit it; "TYPE:..." (hw, sw, trace, raw, break, synth) does
 * either for one type.  A later -F overrides what an earlier one set for
 * the same types (perf's warning on stderr).  Returns 0, or -1 with the
 * unknown name (field or type) copied into bad.
 */
int rd_fields_parse(struct rd_fields *f, const char *spec, char *bad, size_t bad_size);
const char *rd_fields_names(void);

#endif
