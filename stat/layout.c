// SPDX-License-Identifier: GPL-2.0
/*
 * The perfs whose stat layout perfcheck stat prints (--compat): one name
 * each, read the same way by stat and stat report.
 */
#include <errno.h>
#include <string.h>

#include "stat/stat.h"

int stat_layout_parse(const char *s, enum stat_layout *out)
{
	static const struct { const char *name; enum stat_layout layout; } known[] = {
		{ "6.1", STAT_LAYOUT_6_1 }, { "6.12", STAT_LAYOUT_6_12 }, { "7.2", STAT_LAYOUT_7_2 },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(s, known[i].name)) {
			*out = known[i].layout;
			return 0;
		}
	return -EINVAL;
}
