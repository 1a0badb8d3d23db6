// SPDX-License-Identifier: GPL-2.0
/* perfcheck stat record's file: see stat_file.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "recorder/machine_desc.h"
#include "recorder/output.h"
#include "recorder/synth.h"
#include "stat/stat_file.h"

int stat_file_open(struct stat_file *f, const char *path, int argc, char *const argv[],
		   struct pc_error *err)
{
	int ret;

	memset(f, 0, sizeof(*f));
	/* -o -: perf's pipe format on standard output */
	f->pipe = !strcmp(path, "-");
	ret = f->pipe ? pd_writer_open_pipe(&f->w, STDOUT_FILENO, "-", err)
		      : pd_writer_open(&f->w, path, err);
	if (ret)
		return ret;
	f->open = true;
	/*
	 * perf 6.1's stat record writes no FEATURE record in a pipe (its
	 * report names the command 'pipe'), the names as EVENT_UPDATEs
	 */
	f->w.pipe_no_features = f->pipe;
	if (!f->pipe && pd_writer_set_cmdline(&f->w, argc, argv))
		return pc_error_set(err, ENOMEM, "out of memory");
	return 0;
}

/* The records encoded in f->buf go to the writer, the buffer emptied. */
static int flush(struct stat_file *f, int enc, struct pc_error *err)
{
	int ret;

	if (enc) {
		f->buf.len = 0;
		return pc_error_set(err, -enc, "%s: cannot encode a record: %s", f->w.path,
				    strerror(-enc));
	}
	ret = pd_writer_write(&f->w, f->buf.data, f->buf.len, err);
	f->buf.len = 0;
	return ret;
}

/* The kernel's id of every open fd (PERF_EVENT_IOC_ID), in the counters' fd order. */
static int read_ids(struct stat_file *f, const struct stat_evlist *l, struct pc_error *err)
{
	size_t n = (size_t)l->nr_cpus * l->nr_threads;

	f->ids = calloc(l->nr ? l->nr : 1, sizeof(*f->ids));
	if (!f->ids)
		return pc_error_set(err, ENOMEM, "out of memory");
	f->nr_counters = l->nr;
	for (int i = 0; i < l->nr; i++) {
		f->ids[i] = calloc(n ? n : 1, sizeof(**f->ids));
		if (!f->ids[i])
			return pc_error_set(err, ENOMEM, "out of memory");
		for (size_t k = 0; k < n && l->c[i].supported; k++)
			if (l->c[i].fds[k] >= 0 &&
			    ioctl(l->c[i].fds[k], PERF_EVENT_IOC_ID, &f->ids[i][k]))
				return pc_error_set(err, errno, "%s: PERF_EVENT_IOC_ID: %s",
						    l->c[i].name, strerror(errno));
	}
	return 0;
}

static int add_events(struct stat_file *f, const struct stat_evlist *l, struct pc_error *err)
{
	size_t n = (size_t)l->nr_cpus * l->nr_threads;
	uint64_t *ids = calloc(n ? n : 1, sizeof(*ids));
	int ret = 0;

	if (!ids)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < l->nr && !ret; i++) {
		uint32_t nr = 0;

		for (size_t k = 0; k < n; k++)
			if (f->ids[i][k])
				ids[nr++] = f->ids[i][k];
		union pc_attr a = l->c[i].attr;

		/*
		 * perf 6.1 opens no IDENTIFIER in a pipe ("identifier =
		 * !(STAT_RECORD && is_pipe)"), and its script checks the fields
		 * of an ATTR with a sample_type ("Display of symbols requested
		 * ...", exit 255): a counter that never samples loses nothing
		 */
		if (f->pipe)
			a.attr.sample_type = 0;
		ret = pd_writer_add_evsel(&f->w, &a.attr, ids, nr, l->c[i].name, err);
	}
	free(ids);
	return ret;
}

/* The features perf stat record writes that this machine can describe. */
static int set_features(struct stat_file *f, struct pc_error *err)
{
	static const uint64_t no_samples[2];	/* SAMPLE_TIME: first and last, none */

	if (pd_writer_set_host_features(&f->w, PERFCHECK_VERSION) ||
	    pd_writer_set_feature(&f->w, PD_FEAT_STAT, NULL, 0) ||
	    pd_writer_set_feature(&f->w, PD_FEAT_SAMPLE_TIME, no_samples, sizeof(no_samples)))
		return pc_error_set(err, ENOMEM, "out of memory");
	rec_machine_desc_write(&f->w);
	return 0;
}

/* perf 6.1's STAT_CONFIG aggregation of the options */
static uint64_t aggr_mode_of(const struct stat_opts *o)
{
	static const uint64_t modes[] = {
		[STAT_AGGR_GLOBAL] = PD_AGGR_GLOBAL, [STAT_AGGR_CPU] = PD_AGGR_NONE,
		[STAT_AGGR_SOCKET] = PD_AGGR_SOCKET, [STAT_AGGR_DIE] = PD_AGGR_DIE,
		[STAT_AGGR_CORE] = PD_AGGR_CORE, [STAT_AGGR_NODE] = PD_AGGR_NODE,
	};

	return o->per_thread ? PD_AGGR_THREAD : modes[o->aggr];
}

/*
 * Before the maps, as perf: the unit and scale of each clock.  perf 6.1's
 * reader gives a clock msec by itself (checked: its report of a file
 * without these is the same); a reader that goes by the file alone needs them.
 * In a pipe, which has no EVENT_DESC feature, each event's name follows
 * (perf_event__synthesize_extra_attr: unit, scale, name per event).
 */
static int event_updates(struct stat_file *f, const struct stat_evlist *l)
{
	int ret = 0;

	for (int i = 0; i < l->nr && !ret; i++) {
		double scale;
		const char *unit = stat_event_unit(&l->c[i].attr, &scale);
		uint64_t id = f->ids[i][0];

		if (!id)
			continue;
		if (*unit) {
			ret = pd_encode_event_update(&f->buf, &(struct pd_event_update){
				.type = PD_EVENT_UPDATE_UNIT, .id = id, .str = unit });
			if (!ret)
				ret = pd_encode_event_update(&f->buf, &(struct pd_event_update){
					.type = PD_EVENT_UPDATE_SCALE, .id = id, .scale = scale });
		}
		if (!ret && f->pipe)
			ret = pd_encode_event_update(&f->buf, &(struct pd_event_update){
				.type = PD_EVENT_UPDATE_NAME, .id = id, .str = l->c[i].name });
	}
	return ret;
}

/*
 * The threads' comms of -p, -t and --per-thread (a report's line names);
 * the command's is left empty, as perf: its map is made before the exec
 */
static int maps(struct stat_file *f, const struct stat_evlist *l, const struct stat_opts *o)
{
	struct pd_thread_list t = { (int32_t *)l->threads, (uint32_t)l->nr_threads, NULL };
	struct pd_cpu_list c = { (int32_t *)l->cpus, (uint32_t)l->nr_cpus };
	struct pd_stat_config cfg = { aggr_mode_of(o), o->interval_ms, 1 };
	int ret;

	if (o->nr_pids || o->per_thread) {
		t.comms = calloc(l->nr_threads ? l->nr_threads : 1, sizeof(*t.comms));
		if (!t.comms)
			return -ENOMEM;
		for (int i = 0; i < l->nr_threads; i++)
			snprintf(t.comms[i], sizeof(t.comms[i]), "%s", l->comms[i]);
	}

	/* the lists are read only: pid_t and int are the codec's 32-bit entries */
	_Static_assert(sizeof(pid_t) == sizeof(int32_t) && sizeof(int) == sizeof(int32_t),
		       "32-bit pids and cpus");
	ret = pd_encode_thread_map(&f->buf, &t);
	if (!ret)
		ret = pd_encode_cpu_map(&f->buf, &c);
	if (!ret)
		ret = pd_encode_stat_config(&f->buf, &cfg);
	free(t.comms);
	return ret;
}

int stat_file_begin(struct stat_file *f, const struct stat_evlist *l, const struct stat_opts *o,
		    struct pc_error *err)
{
	int ret = read_ids(f, l, err);

	f->w.no_evsels_ok = o->null_run;	/* -n: perf writes the file without attrs */
	f->interval = o->interval_ms != 0;
	if (!ret)
		ret = add_events(f, l, err);
	/* a pipe of perf stat record carries no feature at all (6.1) */
	if (!ret && !f->pipe)
		ret = set_features(f, err);
	if (!ret)
		ret = pd_writer_begin_data(&f->w, err);
	if (!ret)
		ret = flush(f, event_updates(f, l), err);
	if (!ret)
		ret = flush(f, maps(f, l, o), err);
	return ret;
}

int stat_file_reading(struct stat_file *f, const struct stat_evlist *l, uint64_t time_ns,
		      struct pc_error *err)
{
	int enc = 0;

	for (int i = 0; i < l->nr && !enc; i++)
		for (int cpu = 0; cpu < l->nr_cpus && !enc; cpu++)
			for (int t = 0; t < l->nr_threads && !enc; t++) {
				size_t k = (size_t)cpu * l->nr_threads + t;
				const struct stat_count *v = &l->c[i].now[k];

				if (!f->ids[i][k])
					continue;	/* not open: nothing was read */
				enc = pd_encode_stat(&f->buf, &(struct pd_stat){
					.id = f->ids[i][k], .cpu = (uint32_t)l->cpus[cpu],
					.thread = (uint32_t)t, .val = v->val, .ena = v->ena,
					.run = v->run });
			}
	if (!enc && f->interval)
		enc = pd_encode_stat_round(&f->buf, &(struct pd_stat_round){
			PD_STAT_ROUND_INTERVAL, time_ns });
	return flush(f, enc, err);
}

/*
 * perf writes the kernel's map so that older tools do not warn about
 * symbols they cannot resolve; the project's synthesizer writes it
 */
static int kernel_mmap(struct stat_file *f)
{
	static const struct perf_event_attr no_sample_id = { .size = PERF_ATTR_SIZE_VER5 };
	struct rec_output out = { .w = &f->w };
	struct rec_synth s = { .out = &out, .attr = &no_sample_id };
	int ret = rec_synth_kernel_mmap(&s);

	rec_synth_release(&s);
	return ret ? ret : out.write_errno ? -out.write_errno : 0;
}

int stat_file_finish(struct stat_file *f, uint64_t wall_ns, struct pc_error *err)
{
	int ret = kernel_mmap(f);

	if (ret) {
		stat_file_abort(f);
		return pc_error_set(err, -ret, "%s: cannot write the kernel's map: %s", f->w.path,
				    strerror(-ret));
	}
	if (!f->interval)
		ret = flush(f, pd_encode_stat_round(&f->buf, &(struct pd_stat_round){
			PD_STAT_ROUND_FINAL, wall_ns }), err);
	if (ret) {
		stat_file_abort(f);
		return ret;
	}
	f->open = false;
	ret = pd_writer_finish(&f->w, err);
	stat_file_abort(f);
	return ret;
}

void stat_file_abort(struct stat_file *f)
{
	if (f->open)
		pd_writer_abort(&f->w);
	f->open = false;
	for (int i = 0; i < f->nr_counters; i++)
		free(f->ids[i]);
	free(f->ids);
	f->ids = NULL;
	f->nr_counters = 0;
	pd_buf_free(&f->buf);
}
