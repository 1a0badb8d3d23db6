// SPDX-License-Identifier: GPL-2.0
/* The one line perf record users look for when it stops. */
#include <inttypes.h>
#include <stdio.h>

#include "recorder/record.h"
#include "util/log.h"

void rec_summary_print(const char *path, uint64_t file_bytes, const struct rec_stats *st)
{
	uint64_t lost = st->lost + st->lost_samples;

	if (pc_verbose < 0)
		return;
	fprintf(stderr, "[ perfcheck record: Captured and wrote %.3f MB %s (%" PRIu64
		" samples, %" PRIu64 " lost) ]\n",
		(double)file_bytes / 1024.0 / 1024.0, path, st->samples, lost);
}
