// SPDX-License-Identifier: GPL-2.0
#include "reader/fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

static const struct {
	const char *name;
	unsigned int bit;
} names[] = {
	{ "comm", RF_COMM },	{ "tid", RF_TID },	{ "pid", RF_PID },
	{ "time", RF_TIME },	{ "cpu", RF_CPU },	{ "event", RF_EVENT },
	{ "ip", RF_IP },	{ "sym", RF_SYM },	{ "symoff", RF_SYMOFF },
	{ "dso", RF_DSO },	{ "period", RF_PERIOD },	{ "addr", RF_ADDR },
	{ "srcline", RF_SRCLINE }, { "trace", RF_TRACE },
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
	return "comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,period,addr,srcline,trace";
}

int rd_fields_parse(struct rd_fields *f, const char *spec, char *bad, size_t bad_size)
{
	char *copy = strdup(spec), *save = NULL, *tok;
	unsigned int mask = 0;
	int mode = 0;		/* 0 replace, '+' add, '-' remove */

	if (!copy) {
		snprintf(bad, bad_size, "(out of memory)");
		return -1;
	}
	if (*spec == '+' || *spec == '-') {
		mode = *spec;
		mask = RF_DEFAULT;
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
			mask &= ~names[i].bit;
		} else {
			mask |= names[i].bit;
			f->user_set |= names[i].bit;
		}
	}
	free(copy);
	f->mask = mask;
	f->user = 1;
	return 0;
}
