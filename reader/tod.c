// SPDX-License-Identifier: GPL-2.0
/* Wall-clock times as perf prints them: see tod.h. */
#include <stdio.h>
#include <time.h>

#include "reader/tod.h"

const char *rd_tod_text(uint64_t ns, char *buf, size_t size)
{
	time_t sec = (time_t)(ns / 1000000000ULL);
	struct tm tm;
	char day[48];

	if (!localtime_r(&sec, &tm)) {
		snprintf(buf, size, "<error>");
		return buf;
	}
	strftime(day, sizeof(day), "%F %T", &tm);
	snprintf(buf, size, "%s.%06lu", day, (unsigned long)(ns % 1000000000ULL / 1000));
	return buf;
}

uint64_t rd_tod_of(const struct pd_clock_data *c, uint64_t time)
{
	/* perf's arithmetic: the offset from the reference, either way */
	return time > c->clockid_ns ? c->tod_ns + (time - c->clockid_ns)
				    : c->tod_ns - (c->clockid_ns - time);
}
