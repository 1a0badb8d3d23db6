// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record: the output file.  It is written under a temporary name
 * until the events are open and its header is on disk (then the previous
 * file becomes FILE.old and the new one takes its name), or down a pipe;
 * -z sets up the writer's compression; --switch-output ends a file at a
 * round boundary and begins the next with its tasks synthesized again;
 * --switch-output and --timestamp-filename give the finished files perf's
 * timestamped names.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/dsos.h"
#include "recorder/clock_ref.h"
#include "recorder/group_desc.h"
#include "recorder/kcore.h"
#include "recorder/machine_desc.h"
#include "recorder/open_features.h"
#include "recorder/record_int.h"
#include "recorder/rthreads.h"
#include "recorder/summary.h"
#include "recorder/synth_bpf.h"
#include "recorder/tracing_data.h"
#include "util/log.h"

/* --threads and --kcore write a perf.data directory: "data", data.N, kcore_dir */
static bool output_is_dir(const struct recorder *r)
{
	return r->rt || r->opts.kcore;
}

static int write_header_and_ids(struct recorder *r, struct pc_error *err)
{
	struct rec_evlist *evl = &r->evl;
	int per_event = rec_evlist_nr_slots(evl);
	uint64_t *ids = malloc(per_event * sizeof(uint64_t));
	int ret = 0;

	if (!ids)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (int e = 0; e < evl->nr_evsels && !ret; e++) {
		struct rec_evsel *ev = evl->evsels[e];
		uint32_t n = 0;

		for (int i = 0; i < per_event; i++)
			if (ev->fds[i] >= 0)
				ids[n++] = ev->ids[i];
		ret = pd_writer_add_evsel(&r->w, &ev->attr.attr, ids, n, ev->name, err);
	}
	free(ids);
	if (ret)
		return ret;
	pd_writer_set_host_features(&r->w, PERFCHECK_VERSION);
	/* perf's SAMPLE_TIME of a pipe, whose features go before any sample: zeros (a file's is set at its end) */
	if (pd_writer_set_feature(&r->w, PD_FEAT_SAMPLE_TIME, (uint64_t[2]){ 0, 0 }, 2 * sizeof(uint64_t)))
		return pc_error_set(err, ENOMEM, "out of memory");
	rec_machine_desc_write(&r->w);
	if (r->opts.s.clockid >= 0 && rec_clock_ref_write(&r->w, r->opts.s.clockid) == -ENOMEM)
		return pc_error_set(err, ENOMEM, "out of memory");
	/* filled when the programs are synthesized; a pipe has them empty, as perf's */
	if (rec_bpf_empty_features(&r->w))
		return pc_error_set(err, ENOMEM, "out of memory");
	rec_open_features_write(&r->w, evl);
	if (rec_group_desc_write(&r->w, evl))
		return pc_error_set(err, ENOMEM, "out of memory");
	/* --threads: perf's directory layout, version 1 (a u64), which its reader checks */
	if (r->rt) {
		uint64_t version = 1;

		if (pd_writer_set_feature(&r->w, PD_FEAT_DIR_FORMAT, &version, sizeof(version)))
			return pc_error_set(err, ENOMEM, "out of memory");
	}
	/* as perf record: the file says it has branch stacks (perf report's branch mode) */
	if (r->opts.s.branch_type &&
	    pd_writer_set_feature(&r->w, PD_FEAT_BRANCH_STACK, NULL, 0))
		return pc_error_set(err, ENOMEM, "out of memory");
	if (r->opts.out.comp_level) {
		/* perf's mmap_len: the data pages and the control page */
		size_t mmap_len = evl->nr_rings ? evl->rings[0].map_len : 129 * 4096;

		ret = pd_writer_set_compression(&r->w, r->opts.out.comp_level,
						(uint32_t)mmap_len, err);
		if (ret)
			return ret;
	}
	return pd_writer_begin_data(&r->w, err);
}

/*
 * The file is written under a temporary name until its events are open and
 * its header is on disk: only then does the previous file become FILE.old
 * and the new one take its name, so a recording that fails to start leaves
 * the previous one where it was.
 */
/* the features of a header are a few KB, its build ids some more */
#define HEADER_RESERVE (128 * 1024)

/*
 * --threads, --kcore: a directory under the temporary name, holding the
 * header file "data", every ring's data.N (--threads) and the kernel's text
 * (--kcore: kcore_dir, copied once the events are open, as perf), renamed
 * into place as one.
 */
static int open_output_dir(struct recorder *r, struct pc_error *err)
{
	char data[PATH_MAX];

	/* a directory left by a recorder of this pid that was killed */
	if (!access(r->file.tmp_path, F_OK) && rec_outfile_remove_dir(r->file.tmp_path, err))
		return -ENOTEMPTY;
	if (mkdir(r->file.tmp_path, 0700))
		return pc_error_set(err, errno, "%s: cannot create: %s", r->file.tmp_path,
				    strerror(errno));
	if (snprintf(data, sizeof(data), "%s/data", r->file.tmp_path) >= (int)sizeof(data))
		return pc_error_set(err, ENAMETOOLONG, "%s: name too long", r->file.tmp_path);
	if (pd_writer_open(&r->w, data, err))
		return -EIO;
	/*
	 * perf reads a directory only with its DIR_FORMAT: room for the
	 * header's features is held from now on, given back when the header
	 * is finished, so that a full disk still ends in a directory perf reads
	 */
	r->file.reserve_fd = rec_outfile_reserve(r->file.tmp_path, HEADER_RESERVE);
	if (r->file.reserve_fd < 0)
		pc_info("%s: no room held for the header's end: a full disk may leave it "
			"without its features\n", r->file.tmp_path);
	if (r->opts.kcore) {
		int ret = rec_kcore_copy(r->file.tmp_path, err);

		if (ret) {
			/* perf's words first, the reason after */
			pc_error_prefix(err, "ERROR: Failed to copy kcore");
			return ret;
		}
	}
	return r->rt ? rec_rthreads_open_files(r->rt, r->file.tmp_path, err) : 0;
}

/*
 * The file is written under a temporary name until its events are open and
 * its header is on disk: only then does the previous file become FILE.old
 * and the new one take its name, so a recording that fails to start leaves
 * the previous one where it was.
 */
static int open_output(struct recorder *r, struct pc_error *err)
{
	if (r->opts.out.pipe) {
		r->file.placed = true;
		return pd_writer_open_pipe(&r->w, STDOUT_FILENO, "-", err);
	}
	if (rec_outfile_tmpname(r->opts.output, r->file.tmp_path, sizeof(r->file.tmp_path), err))
		return -ENAMETOOLONG;
	if (output_is_dir(r))
		return open_output_dir(r, err);
	return pd_writer_open(&r->w, r->file.tmp_path, err);
}

/* the directory renamed: the files' messages name where they are now */
static int place_dir(struct recorder *r, struct pc_error *err)
{
	char data[PATH_MAX];

	if (rename(r->file.tmp_path, r->opts.output))
		return pc_error_set(err, errno, "cannot rename %s to %s: %s", r->file.tmp_path,
				    r->opts.output, strerror(errno));
	r->file.placed = true;
	snprintf(data, sizeof(data), "%s/data", r->opts.output);
	if (pd_writer_set_path(&r->w, data, err))
		return -ENOMEM;
	return r->rt ? rec_rthreads_set_dir(r->rt, r->opts.output, err) : 0;
}

static int place_output(struct recorder *r, struct pc_error *err)
{
	int ret;

	if (r->file.placed)
		return 0;
	ret = rec_outfile_rotate(r->opts.output, err);
	if (!ret && output_is_dir(r))
		return place_dir(r, err);
	if (!ret)
		ret = pd_writer_rename(&r->w, r->opts.output, err);
	if (!ret)
		r->file.placed = true;
	return ret;
}

static void discard_output(struct recorder *r)
{
	struct pc_error err = { 0 };

	pd_writer_abort(&r->w);
	if (r->file.reserve_fd >= 0)
		close(r->file.reserve_fd);
	r->file.reserve_fd = -1;
	if (r->file.placed || !r->file.tmp_path[0])
		return;
	if (output_is_dir(r)) {
		if (rec_outfile_remove_dir(r->file.tmp_path, &err))
			pc_warn("%s\n", err.msg);
		return;
	}
	unlink(r->file.tmp_path);
}

/*
 * --threads: the readers drain their rings a last time and end, and their
 * data.N are finished; their counts join the main thread's, for the
 * header's SAMPLE_TIME and the summary.  A data.N that cannot be finished
 * is said; the header is finished all the same.
 */
static void end_readers(struct recorder *r, uint64_t *in, uint64_t *out)
{
	struct pc_error err = { 0 };

	rec_rthreads_stop(r->rt);
	r->out.dsos_lock = NULL;
	if (rec_rthreads_finish(r->rt, &r->out.stats, in, out, &err))
		fprintf(stderr, "perfcheck record: %s\n", err.msg);
	if (r->file.reserve_fd >= 0)
		close(r->file.reserve_fd);	/* the room held for what follows */
	r->file.reserve_fd = -1;
}

/*
 * Finalizes the current file; with --switch-output or --timestamp-filename
 * it then takes its timestamped name (perf.data.YYYYMMDDHHMMSScc, perf's hundredths), and
 * --switch-max-files removes the oldest.  name gets the final name.
 */
static int end_file(struct recorder *r, char *name, size_t size, uint64_t *original,
		    struct pc_error *err)
{
	uint64_t in, out, rin = 0, rout = 0;
	int ret;

	if (r->rt)
		end_readers(r, &rin, &rout);
	if (r->out.dsos && !r->opts.out.no_buildid)
		rec_dsos_write_build_ids(r->out.dsos, &r->w, r->opts.out.buildid_all);
	/* perf's: the first and last sample time (0 when none was written) */
	{
		uint64_t span[2] = { r->out.stats.first_time, r->out.stats.last_time };

		if (pd_writer_set_feature(&r->w, PD_FEAT_SAMPLE_TIME, span, sizeof(span)))
			return pc_error_set(err, ENOMEM, "out of memory");
	}
	/* the programs of the start and those loaded since (a pipe has had its features) */
	if (r->out.bpf && rec_bpf_info_write(r->out.bpf, &r->w))
		return pc_error_set(err, ENOMEM, "out of memory");
	pd_writer_totals(&r->w, &in, &out);
	*original = r->opts.out.comp_level ? in + rin : 0;
	snprintf(name, size, "%s", r->opts.out.pipe ? "-" : r->opts.output);
	ret = pd_writer_finish(&r->w, err);
	if (ret || r->opts.out.pipe)
		return ret;
	if (r->out.write_errno)
		rec_summary_recount(r->opts.output, &r->out.stats);
	if (!r->opts.out.switch_mode && !r->opts.out.timestamp_filename)
		return 0;
	ret = rec_outfile_timestamped(r->opts.output, name, size, err);
	if (!ret && rename(r->opts.output, name))
		ret = pc_error_set(err, errno, "cannot rename %s to %s: %s", r->opts.output, name,
				   strerror(errno));
	if (!ret && r->opts.out.switch_mode && rec_outfile_ring_add(&r->m.files, name))
		ret = pc_error_set(err, ENOMEM, "out of memory");
	return ret;
}

/* a perf.data directory's size: its data and data.N files */
static uint64_t dir_bytes(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *e;
	struct stat st;
	uint64_t sum = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if ((!strcmp(e->d_name, "data") || !strncmp(e->d_name, "data.", 5)) &&
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path) &&
		    !stat(path, &st))
			sum += (uint64_t)st.st_size;
	closedir(d);
	return sum;
}

int recorder_finish_file(struct recorder *r, int *code)
{
	struct pc_error err = { 0 };
	char name[PATH_MAX];
	uint64_t original;
	struct stat st;

	if (end_file(r, name, sizeof(name), &original, &err)) {
		fprintf(stderr, "perfcheck record: %s\n", err.msg);
		*code = EXIT_ERROR;
		return -1;
	}
	if (r->opts.out.pipe) {
		/* the bytes that went down the pipe (the writer counts them) */
		rec_summary_print("-", r->w.data_size, original, &r->out.stats);
		return 0;
	}
	if (output_is_dir(r))
		st.st_size = (off_t)dir_bytes(name);
	else if (stat(name, &st))
		st.st_size = 0;
	rec_summary_print(name, (uint64_t)st.st_size, original, &r->out.stats);
	return 0;
}

int recorder_start_file(struct recorder *r, struct pc_error *err)
{
	int ret = open_output(r, err);

	if (ret)
		return ret;
	pd_writer_set_cmdline(&r->w, r->m.cmd_argc, r->m.cmd_argv);
	ret = rec_tracing_data(&r->w, &r->evl, err);
	if (!ret)
		ret = write_header_and_ids(r, err);
	if (!ret)
		ret = place_output(r, err);
	if (ret)
		discard_output(r);
	return ret;
}

int recorder_switch_file(struct recorder *r, struct pc_error *err)
{
	char name[PATH_MAX];
	uint64_t original;
	int ret = end_file(r, name, sizeof(name), &original, err);

	if (ret)
		return ret;
	pc_notice("[ perfcheck record: dump data: Woken up %llu times ]\n"
			"[ perfcheck record: Dump %s ]\n",
			(unsigned long long)r->out.stats.wakeups, name);
	r->out.stats.wakeups = 0;
	r->file.placed = false;
	ret = recorder_start_file(r, err);
	if (!ret && recorder_synthesize_tasks(r, REC_SYNTH_NEW_FILE)) {
		*err = r->out.err;
		ret = -EIO;
	}
	return ret;
}
