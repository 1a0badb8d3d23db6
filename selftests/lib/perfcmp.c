// SPDX-License-Identifier: GPL-2.0
#include "perfcmp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool perfcmp_record(const char *path, const char *opts, const char *workload, char *why,
		    size_t n)
{
	struct pc_run run;
	bool ok;

	if (!pc_test_have_program("perf")) {
		snprintf(why, n, "no perf installed");
		return false;
	}
	if (perfcmp_sh(&run, "perf record -q %s -o '%s' -- sh -c '%s'", opts, path, workload)) {
		snprintf(why, n, "cannot run perf record");
		return false;
	}
	ok = run.exit_code == 0;
	if (!ok)
		snprintf(why, n, "perf record %s failed: %.200s", opts, run.err ? run.err : "");
	pc_run_free(&run);
	return ok;
}

int perfcmp_sh(struct pc_run *run, const char *fmt, ...)
{
	char cmd[4096];
	char *argv[] = { "sh", "-c", cmd, NULL };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return pc_test_run(run, 300, argv);
}

void perfcmp_cut_tip(char *out)
{
	char *tip = out ? strstr(out, "\n#\n# (Tip:") : NULL;

	if (tip)
		tip[1] = '\0';
}

bool perfcmp_same(const char *a, const char *b, char *first, size_t n)
{
	int line = 1;

	a = a ? a : "";
	b = b ? b : "";
	while (*a || *b) {
		const char *ea = strchrnul(a, '\n'), *eb = strchrnul(b, '\n');

		if (ea - a != eb - b || memcmp(a, b, (size_t)(ea - a))) {
			snprintf(first, n, "line %d:\n perf: %.*s\n ours: %.*s", line,
				 (int)(ea - a > 300 ? 300 : ea - a), a,
				 (int)(eb - b > 300 ? 300 : eb - b), b);
			return false;
		}
		a = *ea ? ea + 1 : ea;
		b = *eb ? eb + 1 : eb;
		line++;
	}
	return true;
}
