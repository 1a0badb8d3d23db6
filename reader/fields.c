// SPDX-License-Identifier: GPL-2.0
#include "reader/fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/perf_compat.h"

static const struct {
	const char *name;
	unsigned int bit;
} names[] = {
	{ "comm", RF_COMM },	{ "tid", RF_TID },	{ "pid", RF_PID },
	{ "time", RF_TIME },	{ "cpu", RF_CPU },	{ "event", RF_EVENT },
	{ "ip", RF_IP },	{ "sym", RF_SYM },	{ "symoff", RF_SYMOFF },
	{ "dso", RF_DSO },	{ "period", RF_PERIOD },	{ "addr", RF_ADDR },
	{ "srcline", RF_SRCLINE }, { "trace", RF_TRACE },
	{ "weight", RF_WEIGHT },	{ "data_src", RF_DATA_SRC },
	{ "phys_addr", RF_PHYS_ADDR },	{ "iregs", RF_IREGS },	{ "uregs", RF_UREGS },
	{ "data_page_size", RF_DATA_PAGE_SIZE },	{ "code_page_size", RF_CODE_PAGE_SIZE },
	{ "ins_lat", RF_INS_LAT },	{ "misc", RF_MISC },
	{ "brstack", RF_BRSTACK },	{ "brstacksym", RF_BRSTACKSYM },
	{ "brstackoff", RF_BRSTACKOFF },	{ "cgroup", RF_CGROUP },	{ "dsoff", RF_DSOFF },
	{ "tod", RF_TOD },	{ "flags", RF_FLAGS },	{ "ipc", RF_AUX_ONLY },
	{ "callindent", RF_AUX_ONLY },	{ "synth", RF_AUX_ONLY },
};

/* perf 6.1's order of checks (sym, symoff, dso, srcline are checked in script.c) */
const unsigned int rd_field_order[] = {
	RF_IP, RF_ADDR, RF_DATA_SRC, RF_WEIGHT, RF_SYM, RF_SYMOFF, RF_DSO, RF_DSOFF, RF_SRCLINE, RF_TID,
	RF_PID, RF_TIME, RF_CPU, RF_IREGS, RF_UREGS, RF_PHYS_ADDR, RF_DATA_PAGE_SIZE,
	RF_CODE_PAGE_SIZE, RF_INS_LAT, RF_CGROUP, 0,
};

uint64_t rd_field_needs(unsigned int bit, const char **attr_name)
{
	switch (bit) {
	case RF_CPU:
		*attr_name = "CPU";
		return PERF_SAMPLE_CPU;
	case RF_TIME:
		*attr_name = "TIME";
		return PERF_SAMPLE_TIME;
	case RF_ADDR:
		*attr_name = "ADDR";
		return PERF_SAMPLE_ADDR;
	case RF_IP:
		*attr_name = "IP";
		return PERF_SAMPLE_IP;
	case RF_TID:
	case RF_PID:
		*attr_name = "TID";
		return PERF_SAMPLE_TID;
	case RF_WEIGHT:
		*attr_name = "WEIGHT";
		return PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
	case RF_DATA_SRC:
		*attr_name = "DATA_SRC";
		return PERF_SAMPLE_DATA_SRC;
	case RF_PHYS_ADDR:
		*attr_name = "PHYS_ADDR";
		return PERF_SAMPLE_PHYS_ADDR;
	case RF_IREGS:
		*attr_name = "IREGS";
		return PERF_SAMPLE_REGS_INTR;
	case RF_UREGS:
		*attr_name = "UREGS";
		return PERF_SAMPLE_REGS_USER;
	case RF_DATA_PAGE_SIZE:
		*attr_name = "DATA_PAGE_SIZE";
		return PERF_SAMPLE_DATA_PAGE_SIZE;
	case RF_CODE_PAGE_SIZE:
		*attr_name = "CODE_PAGE_SIZE";
		return PERF_SAMPLE_CODE_PAGE_SIZE;
	case RF_INS_LAT:
		*attr_name = "WEIGHT_STRUCT";
		return PERF_SAMPLE_WEIGHT_STRUCT;
	case RF_CGROUP:
		*attr_name = "CGROUP";
		return PERF_SAMPLE_CGROUP;
	default:
		*attr_name = NULL;
		return 0;
	}
}

const char *rd_field_name(unsigned int bit)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].bit == bit)
			return names[i].name;
	return "?";
}

const char *rd_fields_names(void)
{
	return "comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,period,addr,srcline,trace,"
	       "weight,ins_lat,data_src,phys_addr,data_page_size,code_page_size,iregs,uregs,misc,"
	       "brstack,brstacksym,brstackoff,cgroup,dsoff,tod,flags,ipc,callindent,synth";
}

enum rd_output_type rd_output_type(uint32_t attr_type)
{
	if (attr_type == PC_PERF_TYPE_SYNTH)
		return RD_OT_SYNTH;
	return attr_type <= PERF_TYPE_BREAKPOINT ? (enum rd_output_type)attr_type : RD_OT_OTHER;
}

unsigned int rd_fields_default(enum rd_output_type t)
{
	switch (t) {
	case RD_OT_TRACE:
		return RF_TRACEPOINT_DEFAULT;
	case RD_OT_RAW:
		return RF_RAW_DEFAULT;
	default:
		return RF_DEFAULT;
	}
}

/* perf's names of the types -F may name (the others take a -F without type only) */
static int type_named(const char *name)
{
	static const struct {
		const char *name;
		enum rd_output_type type;
	} types[] = {
		{ "hw", RD_OT_HW }, { "sw", RD_OT_SW }, { "trace", RD_OT_TRACE },
		{ "raw", RD_OT_RAW }, { "break", RD_OT_BREAK }, { "synth", RD_OT_SYNTH },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(name, types[i].name))
			return (int)types[i].type;
	return -1;
}

/* the list (after any "TYPE:") into one type's fields */
static int parse_list(struct rd_type_fields *t, unsigned int dflt, const char *list, char *bad,
		      size_t bad_size)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int mode = 0;		/* 0 replace, '+' add, '-' remove */

	if (!copy) {
		snprintf(bad, bad_size, "(out of memory)");
		return -1;
	}
	memset(t, 0, sizeof(*t));
	if (*list == '+' || *list == '-') {
		mode = *list;
		t->mask = dflt;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;
		int op = mode;

		if (*tok == '+' || *tok == '-')
			op = *tok++;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(tok, names[i].name))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			snprintf(bad, bad_size, "%s", tok);
			free(copy);
			return -1;
		}
		if (op == '-') {
			t->mask &= ~names[i].bit;
			t->del |= names[i].bit;
			t->add &= ~names[i].bit;
		} else {
			t->mask |= names[i].bit;
			t->user_set |= names[i].bit;
			t->add |= names[i].bit;
			t->del &= ~names[i].bit;
		}
	}
	free(copy);
	t->user = true;
	t->edit = mode != 0;
	return 0;
}

int rd_fields_parse(struct rd_fields *f, const char *spec, char *bad, size_t bad_size)
{
	const char *colon = strchr(spec, ':');
	struct rd_type_fields one;
	int type = -1;

	if (colon) {
		char name[16];

		snprintf(name, sizeof(name), "%.*s", (int)(colon - spec), spec);
		type = type_named(name);
		if (type < 0) {
			snprintf(bad, bad_size, "%s:", name);
			return -1;
		}
		spec = colon + 1;
	}
	if (parse_list(&one, type >= 0 ? rd_fields_default((enum rd_output_type)type) : RF_DEFAULT,
		       spec, bad, bad_size))
		return -1;
	if (type >= 0) {
		if (f->type[type].user)
			fprintf(stderr, "Overriding previous field request for %s events.\n",
				type == RD_OT_HW ? "hardware" : type == RD_OT_SW ? "software" :
				type == RD_OT_TRACE ? "tracepoint" : type == RD_OT_RAW ? "raw" :
				type == RD_OT_BREAK ? "breakpoint" : "synthesized");
		f->type[type] = one;
	} else {
		if (f->user)
			fprintf(stderr, "Overriding previous field request for all events.\n");
		for (int t = 0; t < RD_OT_MAX; t++) {
			f->type[t] = one;
			/* an edit starts from each type's own default */
			if (one.edit)
				f->type[t].mask = (rd_fields_default((enum rd_output_type)t) | one.add) &
						  ~one.del;
		}
		f->wild_set = one.user_set;
	}
	f->mask = f->user_set = f->add = f->del = 0;
	f->user = 0;
	for (int t = 0; t < RD_OT_MAX; t++) {
		if (!f->type[t].user)
			continue;
		f->user = 1;
		f->mask |= f->type[t].mask;
		f->user_set |= f->type[t].user_set;
		f->add |= f->type[t].add;
		f->del |= f->type[t].del;
	}
	return 0;
}
