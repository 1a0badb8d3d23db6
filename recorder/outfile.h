/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output file's names (outfile.c): the temporary name a recording is
 * written under until its events are open and its header is on disk, the
 * rotation of the previous file to FILE.old, and the names of
 * --switch-output and --timestamp-filename (FILE.YYYYMMDDHHMMSScc).
 */
#ifndef PERFCHECK_RECORDER_OUTFILE_H
#define PERFCHECK_RECORDER_OUTFILE_H

#include <stddef.h>

#include "util/error.h"

/* DIR/.BASE.perfcheck-PID beside path, so the final rename stays in one filesystem. */
int rec_outfile_tmpname(const char *path, char *tmp, size_t size, struct pc_error *err);
/*
 * perf keeps one previous recording: an existing path (a file, or a
 * perf.data directory) becomes path.old, whatever path.old was before.
 */
int rec_outfile_rotate(const char *path, struct pc_error *err);
/*
 * Removes a perf.data directory: its data and data.N files, then itself;
 * refused (-ENOTEMPTY) when it holds anything else, as perf refuses it.
 */
int rec_outfile_remove_dir(const char *path, struct pc_error *err);
/*
 * Room held in dir for later: an unnamed file of bytes allocated, whose fd
 * closed gives them back (the header of a perf.data directory finished on
 * a full disk).  -1 where the filesystem cannot allocate it.
 */
int rec_outfile_reserve(const char *dir, size_t bytes);
/* base.YYYYMMDDHHMMSScc of the current local time, as perf names switched files. */
int rec_outfile_timestamped(const char *base, char *out, size_t size, struct pc_error *err);

/* The names written by --switch-output, oldest first, for --switch-max-files. */
struct rec_outfile_ring {
	char **names;
	unsigned int nr, max;		/* max 0 = unlimited */
};
/* Remembers name; removes the oldest file once more than max are kept. */
int rec_outfile_ring_add(struct rec_outfile_ring *ring, const char *name);
void rec_outfile_ring_free(struct rec_outfile_ring *ring);

#endif
