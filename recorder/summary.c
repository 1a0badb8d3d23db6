// SPDX-License-Identifier: GPL-2.0
/* The one line perf record users look for when it stops. */
#include <inttypes.h>
#include <stdio.h>

#include "recorder/summary.h"
#include "util/log.h"

void rec_summary_print(const char *path, uint64_t file_bytes, uint64_t original_bytes,
		       const struct rec_stats *st)
{
	uint64_t lost = st->lost + st->lost_samples;
	char comp[96] = "";

	if (pc_verbose < 0)
		return;
	/* -z: what the records were before compression, as perf says it */
	if (original_bytes)
		snprintf(comp, sizeof(comp), ", compressed (original %.3f MB, ratio is %.3f)",
			 (double)original_bytes / 1024.0 / 1024.0,
			 file_bytes ? (double)original_bytes / (double)file_bytes : 0.0);
	fprintf(stderr, "[ perfcheck record: Captured and wrote %.3f MB %s%s (%" PRIu64
		" samples, %" PRIu64 " lost) ]\n",
		(double)file_bytes / 1024.0 / 1024.0, path, comp, st->samples, lost);
}

/*
 * After a failed write (ENOSPC) the counts say what was handed to the
 * writer, not what reached the disk: count the samples again from the
 * finalized file.  Only on that path, so the drain stays cheap.
 */
void rec_summary_recount(const char *path, struct rec_stats *st)
{
	struct pc_error err = { 0 };
	struct pd_reader rd;
	struct pd_record rec;
	uint64_t pos = 0, samples = 0;
	int verbose = pc_verbose;

	pc_verbose = -1;
	if (!pd_reader_open(&rd, path, &err)) {
		while (pd_reader_next(&rd, &pos, &rec, &err) == 1)
			samples += rec.header.type == PERF_RECORD_SAMPLE;
		pd_reader_close(&rd);
		st->samples = samples;
	}
	pc_verbose = verbose;
}
