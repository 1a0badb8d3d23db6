// SPDX-License-Identifier: GPL-2.0
/*
 * --threads[=SPEC] on the command line, and what cannot go with it.  perf
 * 6.1 refuses a pipe, --per-thread and --affinity (its reading threads
 * have their own masks), and drops --switch-output, --switch-output-event
 * and --timestamp-filename with a warning (a directory is not switched or
 * renamed); its words are kept.  -M, ours, is refused: its ring of samples
 * is one, filled by one reader.
 */
#include <errno.h>
#include <stdlib.h>

#include "recorder/options_int.h"
#include "util/log.h"

int rec_opts_apply_threads(struct rec_opts *opts, const char *val, struct pc_error *err)
{
	struct rec_threads_spec *spec = calloc(1, sizeof(*spec));
	int ret;

	if (!spec)
		return pc_error_set(err, ENOMEM, "out of memory");
	ret = rec_threads_spec_parse(val, spec, err);
	if (ret) {
		free(spec);
		return ret;
	}
	if (opts->threads) {
		/* the last one counts, as with every option perf takes twice */
		rec_threads_spec_free(opts->threads);
		free(opts->threads);
	}
	opts->threads = spec;
	return 0;
}

int rec_opts_check_threads(struct rec_opts *opts, struct pc_error *err)
{
	struct rec_output_opts *o = &opts->out;

	if (!opts->threads)
		return 0;
	if (o->pipe)
		return pc_error_set(err, EINVAL, "Parallel trace streaming is not available in "
				    "pipe mode (--threads with -o -).");
	if (opts->t.per_thread)
		return pc_error_set(err, EINVAL, "--per-thread option is mutually exclusive to "
				    "parallel streaming mode (--threads).");
	if (o->affinity != REC_AFFINITY_SYS)
		return pc_error_set(err, EINVAL, "--affinity option is mutually exclusive to "
				    "parallel streaming mode (--threads).");
	if (opts->snapshot_size)
		return pc_error_set(err, EINVAL, "-M cannot be used with --threads: the snapshot "
				    "ring is one, filled by one reader");
	if (o->switch_event) {
		pc_warn("WARNING: --switch-output-event option is not available in parallel "
			"streaming mode.\n");
		o->switch_event = NULL;
		o->switch_mode = REC_SWITCH_NONE;
	}
	if (o->switch_mode) {
		pc_warn("WARNING: --switch-output option is not available in parallel streaming "
			"mode.\n");
		o->switch_mode = REC_SWITCH_NONE;
	}
	o->switch_max_files = 0;
	if (o->timestamp_filename) {
		pc_warn("WARNING: --timestamp-filename option is not available in parallel "
			"streaming mode.\n");
		o->timestamp_filename = false;
	}
	return 0;
}
