/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcheck stat record: the counts in a perf.data file as perf stat
 * record writes it.  The header holds the counters' attrs and ids and
 * the machine's features (STAT among them, which says "counts, no
 * samples"); the data section, in perf's order:
 *
 *   EVENT_UPDATE (unit, scale of the clocks)  THREAD_MAP  CPU_MAP  STAT_CONFIG
 *   { STAT per counter, cpu and thread  STAT_ROUND INTERVAL }  per -I line
 *   STAT ...  MMAP of the kernel  STAT_ROUND FINAL          without -I
 *
 * -n (perf 6.1 records it): no attr and no STAT, the rest as above.  -o -:
 * perf's pipe, with an ATTR per counter (no sample_type, as perf's), the
 * names as EVENT_UPDATEs after the unit and scale, and no FEATURE record.
 *
 * Every record goes through the one codec (perfdata/codec.h).  A STAT
 * names the cpu itself (-1 for "any"), as perf >= 5.19, and the thread by
 * its index into the THREAD_MAP; its values are the raw cumulative
 * readings (val, ena, run): readers take the deltas of -I themselves.
 */
#ifndef PERFCHECK_STAT_STAT_FILE_H
#define PERFCHECK_STAT_STAT_FILE_H

#include "perfdata/codec.h"
#include "stat/stat.h"

struct stat_file {
	struct pd_writer w;
	struct pd_buf buf;		/* the records being encoded */
	uint64_t **ids;			/* per counter, per fd: its kernel id (0: not open) */
	int nr_counters;
	bool interval;			/* -I: no FINAL round */
	bool pipe;			/* -o -: the pipe format on stdout */
	bool open;
};

/* Creates path; cmdline (argc, argv) is what the CMDLINE feature says. */
int stat_file_open(struct stat_file *f, const char *path, int argc, char *const argv[],
		   struct pc_error *err);
/* After the counters are open: the header (attrs, ids), the maps and STAT_CONFIG. */
int stat_file_begin(struct stat_file *f, const struct stat_evlist *l, const struct stat_opts *o,
		    struct pc_error *err);
/*
 * One reading (l's ->now): a STAT per open fd, then STAT_ROUND INTERVAL at
 * time_ns (since the start) with -I; without, the round is finish's.
 */
int stat_file_reading(struct stat_file *f, const struct stat_evlist *l, uint64_t time_ns,
		      struct pc_error *err);
/* The kernel's MMAP, the FINAL round at wall_ns (without -I), the features; closes. */
int stat_file_finish(struct stat_file *f, uint64_t wall_ns, struct pc_error *err);
/* Frees without finishing (after an error). */
void stat_file_abort(struct stat_file *f);

#endif
