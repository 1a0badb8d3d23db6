// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record: the records of the tasks that exist before the events
 * see them (FORK, COMM, MMAP2 from /proc, the kernel map, namespaces and
 * cgroups), written with the sample_id of the first event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/cgroups.h"
#include "recorder/pmus.h"
#include "recorder/record_int.h"
#include "recorder/synth.h"
#include "recorder/synth_bpf.h"
#include "util/sys.h"

static uint64_t first_id(struct recorder *r)
{
	const struct rec_evsel *ev = r->evl.evsels[0];
	int n = rec_evlist_nr_slots(&r->evl);

	for (int i = 0; i < n; i++)
		if (ev->fds[i] >= 0)
			return ev->ids[i];
	return 0;
}

static pid_t tgid_of(pid_t tid)
{
	char path[64], buf[2048], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return tid;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strstr(buf, "\nTgid:");
	return p ? (pid_t)strtol(p + 6, NULL, 10) : tid;
}

static bool tid_listed(const struct recorder *r, pid_t tid)
{
	for (int i = 0; i < r->opts.t.nr_pids; i++)
		if (r->opts.t.pids[i] == tid)
			return true;
	return false;
}

static int write_synth(void *ctx, const void *recs, size_t len)
{
	return rec_output_write(ctx, recs, len);
}

/* the loaded BPF programs, after the kernel map and before the cgroups, as perf */
static int synth_bpf(struct recorder *r)
{
	struct rec_synth_bpf in = {
		.attr = &r->evl.evsels[0]->attr.attr,
		.id = first_id(r),
		.write = write_synth,
		.ctx = &r->out,
		.no_bpf_event = r->opts.sb.no_bpf_event,
	};

	if (!r->out.bpf)
		r->out.bpf = rec_bpf_info_new();
	if (!r->out.bpf)
		return pc_error_set(&r->out.err, ENOMEM, "out of memory");
	in.info = r->out.bpf;
	return rec_synth_bpf(&in, &r->out.err);
}

static int write_buf(struct recorder *r, struct pd_buf *b, int ret)
{
	if (ret)
		ret = pc_error_set(&r->out.err, -ret, "cannot encode a record: %s", strerror(-ret));
	else
		ret = rec_output_write(&r->out, b->data, b->len);
	pd_buf_free(b);
	return ret;
}

/*
 * ID_INDEX: every id of every event where it was opened (the ring index,
 * the cpu, the thread; -1 for any), by event then by slot, as perf lists
 * its events' ids.
 */
static int synth_id_index(struct recorder *r)
{
	const struct rec_evlist *evl = &r->evl;
	int n = rec_evlist_nr_slots(evl);
	struct pd_id_entry *ent = calloc((size_t)evl->nr_evsels * n + 1, sizeof(*ent));
	struct pd_buf b = { 0 };
	uint64_t nr = 0;
	int ret;

	if (!ent)
		return pc_error_set(&r->out.err, ENOMEM, "out of memory");
	for (int e = 0; e < evl->nr_evsels; e++)
		for (int c = 0; c < evl->nr_cpus; c++)
			for (int t = 0; t < evl->nr_threads; t++) {
				const struct rec_evsel *ev = evl->evsels[e];
				int slot = rec_evsel_slot(evl, c, t);

				if (ev->fds[slot] < 0)
					continue;
				ent[nr++] = (struct pd_id_entry){
					.id = ev->ids[slot],
					/* the ring: the cpu's, or the thread's with cpu -1 */
					.idx = (uint64_t)(evl->cpus[c] < 0 ? t : c),
					.cpu = evl->cpus[c],
					.tid = evl->threads[t],
				};
			}
	ret = pd_encode_id_index(&b, ent, nr);
	free(ent);
	return write_buf(r, &b, ret);
}

/*
 * An event's unit and scale as perf 6.1 gives them: a sysfs alias's
 * (pmu/name/, from events/<name>.unit and .scale), else perf's own for the
 * clocks (evsel__is_clock: msec, 1e-6); "" and 1 when it has none.
 */
static const char *event_unit(const struct rec_evsel *ev, char *buf, size_t size, double *scale)
{
	const struct perf_event_attr *a = &ev->attr.attr;
	char pmu[128], name[128], path[400], val[64];
	int n = 0;

	*scale = 1;
	if (a->type == PERF_TYPE_SOFTWARE &&
	    (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK)) {
		*scale = 1e-6;
		return "msec";
	}
	/* pmu/name/ with no term of its own */
	if (sscanf(ev->name, "%127[^/]/%127[^/=,]/%n", pmu, name, &n) != 2 ||
	    ev->name[n] != '\0')
		return "";
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/events/%s.scale", pmu, name);
	if (pc_read_file(path, val, sizeof(val)) > 0)
		*scale = strtod(val, NULL);
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/events/%s.unit", pmu, name);
	if (pc_read_file(path, buf, size) <= 0)
		return "";
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* an event's own cpus (its PMU's) as an EVENT_UPDATE of type CPUS, as perf 7.2 */
static int synth_own_cpus(struct pd_buf *b, const struct rec_evsel *ev, uint64_t id)
{
	_Static_assert(sizeof(int) == sizeof(int32_t), "a cpu list is a list of int32_t");
	int *cpus, nr, ret = rec_own_cpus(REC_PMU_DEVICES, &ev->attr.attr, &cpus, &nr);

	if (ret || !nr)
		return ret;
	ret = pd_encode_event_update(b, &(struct pd_event_update){
		.type = PD_EVENT_UPDATE_CPUS, .id = id,
		.cpus = { .cpus = (int32_t *)cpus, .nr = (uint32_t)nr } });
	free(cpus);
	return ret;
}

/*
 * EVENT_UPDATE (perf_event__synthesize_extra_attr): for each event that
 * opened, by its first id, its unit when it has one, its scale when not 1,
 * its PMU's cpus when it has them, and in a pipe, which has no EVENT_DESC
 * feature, its name.
 */
static int synth_event_updates(struct recorder *r, struct pd_buf *b)
{
	const struct rec_evlist *evl = &r->evl;
	int n = rec_evlist_nr_slots(evl);
	int ret = 0;

	for (int e = 0; e < evl->nr_evsels && !ret; e++) {
		const struct rec_evsel *ev = evl->evsels[e];
		char buf[64];
		double scale;
		const char *unit = event_unit(ev, buf, sizeof(buf), &scale);
		int i = 0;

		while (i < n && ev->fds[i] < 0)
			i++;
		if (i == n)
			continue;	/* not supported: perf skips it */
		if (*unit)
			ret = pd_encode_event_update(b, &(struct pd_event_update){
				.type = PD_EVENT_UPDATE_UNIT, .id = ev->ids[i], .str = unit });
		if (!ret && scale != 1)
			ret = pd_encode_event_update(b, &(struct pd_event_update){
				.type = PD_EVENT_UPDATE_SCALE, .id = ev->ids[i], .scale = scale });
		if (!ret)
			ret = synth_own_cpus(b, ev, ev->ids[i]);
		if (!ret && r->opts.out.pipe)
			ret = pd_encode_event_update(b, &(struct pd_event_update){
				.type = PD_EVENT_UPDATE_NAME, .id = ev->ids[i], .str = ev->name });
	}
	return ret;
}

/*
 * The EVENT_UPDATEs, then THREAD_MAP and CPU_MAP: the threads and cpus the
 * events were opened on (comms empty, as perf's)
 */
static int synth_maps(struct recorder *r)
{
	struct pd_thread_list t = { .pids = r->evl.threads, .nr = (uint32_t)r->evl.nr_threads };
	struct pd_cpu_list c = { .cpus = r->evl.cpus, .nr = (uint32_t)r->evl.nr_cpus };
	struct pd_buf b = { 0 };
	int ret = synth_event_updates(r, &b);

	if (!ret)
		ret = pd_encode_thread_map(&b, &t);
	if (!ret)
		ret = pd_encode_cpu_map_perf(&b, &c);
	return write_buf(r, &b, ret);
}

/*
 * FINISHED_INIT: the end of the records of what was there before the
 * recording.  perf 6.1 writes it in every file, but a perf older than 5.19
 * knows no type past COMPRESSED (81) and stops reading at it ("failed to
 * process type: 82"): a single file or a pipe, which any perf may read,
 * goes without it; a --threads directory (perf 5.17+ only) has it.
 */
static int synth_finished_init(struct recorder *r)
{
	struct pd_buf b = { 0 };

	if (!r->rt)
		return 0;

	return write_buf(r, &b, pd_encode_finished_init(&b));
}

static struct rec_synth synth_of(struct recorder *r)
{
	return (struct rec_synth){
		.out = &r->out,
		.attr = &r->evl.evsels[0]->attr.attr,
		.id = first_id(r),
		.namespaces = r->opts.sb.namespaces,
		.no_maps = !(r->opts.sb.synth & REC_SYNTH_MMAP),
	};
}

/*
 * The kernel map, the cgroups (--all-cgroups), and the tasks given by -a,
 * -u, -p or -t (as --synth allows; *done when nothing of the workload is
 * left to make).  head (a file's or a pipe's synthesis, not a late
 * enable's): the ID_INDEX first and the THREAD_MAP and CPU_MAP after the
 * kernel map, in perf's places.
 */
static int synth_existing(struct recorder *r, struct rec_synth *s, bool bpf, bool head,
			  bool *done)
{
	int ret = head ? synth_id_index(r) : 0;

	if (!ret)
		ret = rec_synth_kernel_mmap(s);
	if (!ret && head)
		ret = synth_maps(r);
	*done = false;
	if (!ret && bpf)
		ret = synth_bpf(r);
	if (!ret && r->opts.sb.cgroups && (r->opts.sb.synth & REC_SYNTH_CGROUP))
		ret = rec_synth_cgroups(s);
	if (ret)
		return ret;
	/* --synth without task: no record of what runs already, as perf */
	if (!(r->opts.sb.synth & REC_SYNTH_TASK)) {
		*done = true;
		return 0;
	}
	if (r->opts.t.system_wide) {
		*done = true;
		return rec_synth_all(s);
	}
	/* perf's thread map: COMM (and NAMESPACES) per thread, no FORK */
	for (int i = 0; i < r->nr_user_pids && !ret; i++)
		ret = rec_synth_process(s, r->user_pids[i], false);
	for (int i = 0; i < r->opts.t.nr_pids && !ret; i++) {
		pid_t tid = r->opts.t.pids[i], tgid;

		if (!r->opts.t.pids_are_tids) {
			ret = rec_synth_process(s, tid, false);
			continue;
		}
		/* -t: the thread, then its leader where the list lacks it */
		tgid = tgid_of(tid);
		ret = rec_synth_thread(s, tgid, tid);
		if (!ret && tgid != tid && !tid_listed(r, tgid))
			ret = rec_synth_thread(s, tgid, tgid);
	}
	return ret;
}

/*
 * The name the workload has until exec, as perf: whatever the target (-p,
 * -u, -a) or --synth, the forked command's COMM "perf-exec" (the name its
 * child takes, and that perf reads back once the child is ready: a
 * constant here, where the child may not have taken it yet), and its
 * namespaces, after the tasks and before FINISHED_INIT
 */
static int synth_workload_comm(struct recorder *r, struct rec_synth *s)
{
	int ret;

	if (!r->have_workload)
		return 0;
	ret = rec_synth_comm(s, r->wl.pid, r->wl.pid, "perf-exec");
	if (!ret && s->namespaces)
		ret = rec_synth_namespaces(s, r->wl.pid, r->wl.pid);
	return ret;
}

int recorder_synthesize_workload_comm(struct recorder *r)
{
	struct rec_synth s = synth_of(r);
	int ret = synth_workload_comm(r, &s);

	rec_synth_release(&s);
	return ret;
}

int recorder_synthesize(struct recorder *r)
{
	struct rec_synth s = synth_of(r);
	bool done;
	int ret = synth_existing(r, &s, true, true, &done);

	if (!ret)
		ret = synth_workload_comm(r, &s);
	/* after all that was synthesized, before any record of the events */
	if (!ret)
		ret = synth_finished_init(r);
	rec_synth_release(&s);
	return ret;
}

/*
 * The workload's threads and maps; at the tail, one that has exited is
 * there for perf still, a zombie not reaped yet: its COMM alone, by the
 * name it exited with (no maps are left to read).
 */
static int synth_workload(struct recorder *r, struct rec_synth *s, bool tail)
{
	if (!r->have_workload || r->opts.t.nr_pids || r->opts.t.user)
		return 0;
	if (!r->wl.exited)
		return rec_synth_process(s, r->wl.pid, true);
	if (tail && r->wl.comm[0])
		return rec_synth_comm(s, r->wl.pid, r->wl.pid, r->wl.comm);
	return 0;
}

int recorder_synthesize_tasks(struct recorder *r, enum rec_synth_when when)
{
	struct rec_synth s = synth_of(r);
	bool done;
	int ret = 0;

	/*
	 * perf's tail: the FINISHED_INIT at the end of the events' records,
	 * then the workload, then what the start would have had.
	 */
	if (when == REC_SYNTH_TAIL) {
		ret = synth_finished_init(r);
		/* as synth_existing's *done says, but before it */
		if (!ret && (r->opts.sb.synth & REC_SYNTH_TASK) && !r->opts.t.system_wide)
			ret = synth_workload(r, &s, true);
		if (!ret)
			ret = synth_existing(r, &s, true, true, &done);
		rec_synth_release(&s);
		return ret;
	}
	ret = synth_existing(r, &s, r->opts.out.tail_synthesize, when == REC_SYNTH_NEW_FILE,
			     &done);
	if (!ret && !done)
		ret = synth_workload(r, &s, false);
	if (!ret && when == REC_SYNTH_NEW_FILE)
		ret = synth_finished_init(r);
	rec_synth_release(&s);
	return ret;
}
