// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record: the command.  Signals arrive through a signalfd, the
 * timeout, -D's delay and --switch-output's period through timerfds and
 * --control's commands through their fd, all in the same poll set as the
 * rings, so every stop condition is handled in one place, between two
 * drains.  The output file is record_file.c's, the tasks' records
 * record_synth.c's.
 */
#include <errno.h>
#include <sched.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "recorder/cgroups.h"
#include "recorder/control.h"
#include "recorder/events.h"
#include "recorder/evlist.h"
#include "recorder/kcore.h"
#include "recorder/open_features.h"
#include "recorder/options.h"
#include "recorder/cpus.h"
#include "recorder/record_int.h"
#include "recorder/rthreads.h"
#include "recorder/threads_layout.h"
#include "recorder/outfile.h"
#include "recorder/output.h"
#include "recorder/summary.h"
#include "recorder/synth.h"
#include "recorder/timeout.h"
#include "recorder/synth_bpf.h"
#include "recorder/tracing_data.h"
#include "recorder/user.h"
#include "recorder/workload.h"
#include "util/log.h"
#include "util/sys.h"

static int fail(const char *what, const struct pc_error *err)
{
	if (err && err->msg[0])
		fprintf(stderr, "perfcheck record: %s%s%s\n", what ? what : "", what ? ": " : "",
			err->msg);
	else
		fprintf(stderr, "perfcheck record: %s\n", what ? what : "failed");
	return EXIT_ERROR;
}

static int setup_signals(struct recorder *r, struct pc_error *err)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return pc_error_set(err, errno, "sigprocmask: %s", strerror(errno));
	r->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (r->sigfd < 0)
		return pc_error_set(err, errno, "signalfd: %s", strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static int setup_poll(struct recorder *r, struct pc_error *err)
{
	int per_event = rec_evlist_nr_slots(&r->evl);
	size_t n = (size_t)r->evl.nr_evsels * per_event;

	r->pfds = calloc(n + PFD_EVENTS, sizeof(*r->pfds));
	if (!r->pfds)
		return pc_error_set(err, ENOMEM, "out of memory");
	r->pfds[PFD_SIG] = (struct pollfd){ .fd = r->sigfd, .events = POLLIN };
	r->pfds[PFD_TIMEOUT] = (struct pollfd){ .fd = r->timerfd, .events = POLLIN };
	r->pfds[PFD_DELAY] = (struct pollfd){ .fd = r->m.delayfd, .events = POLLIN };
	r->pfds[PFD_SWITCH] = (struct pollfd){ .fd = r->m.switchfd, .events = POLLIN };
	r->pfds[PFD_CONTROL] = (struct pollfd){ .fd = r->m.ctl.ctl_fd, .events = POLLIN };
	r->pfds[PFD_THREADS] = (struct pollfd){
		.fd = r->rt ? rec_rthreads_notify_fd(r->rt) : -1, .events = POLLIN,
	};
	r->nr_pfds = PFD_EVENTS;
	for (int e = 0; e < r->evl.nr_evsels; e++) {
		const struct rec_evsel *ev = r->evl.evsels[e];

		for (int i = 0; i < per_event; i++) {
			bool ring = false;

			if (ev->fds[i] < 0)
				continue;
			for (int k = 0; k < r->evl.nr_rings; k++)
				ring |= r->evl.rings[k].fd == ev->fds[i];
			/* --threads: the readers poll the rings; here only their hangups count */
			r->pfds[r->nr_pfds++] = (struct pollfd){
				.fd = ev->fds[i], .events = ring && !r->rt ? POLLIN : 0,
			};
			r->alive++;
		}
	}
	return 0;
}

static void handle_signals(struct recorder *r)
{
	struct signalfd_siginfo si;

	while (read(r->sigfd, &si, sizeof(si)) == sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGCHLD:
			if (r->have_workload && rec_workload_reap(&r->wl, false))
				r->why.stopping = true;
			break;
		case SIGINT:
		case SIGTERM:
			r->why.got_signal = (int)si.ssi_signo;
			r->why.stopping = true;
			break;
		case SIGUSR2:
			if (r->out.snap)
				r->why.dump_pending = true;
			if (r->opts.out.switch_mode == REC_SWITCH_SIGNAL)
				r->m.switch_pending = true;
			break;
		}
	}
}

/*
 * --mmap-flush: a ring is drained once it holds that many bytes (at most a
 * quarter of it, as perf caps it), and whatever it holds at the end.
 */
static uint64_t flush_min(struct recorder *r, const struct rec_ring *ring)
{
	uint64_t min = r->opts.out.mmap_flush;

	if (r->why.stopping || min <= 1)
		return 0;
	return min > ring->size / 4 ? ring->size / 4 : min;
}

static int drain_all(struct recorder *r, struct pc_error *err)
{
	uint64_t before = r->out.stats.bytes;

	for (int i = 0; i < r->evl.nr_rings; i++) {
		uint64_t min = flush_min(r, &r->evl.rings[i]);
		ssize_t n;

		if (r->evl.rings[i].overwrite)
			continue;	/* --overwrite: read once, at the end */
		if (min && rec_ring_pending(&r->evl.rings[i]) < min)
			continue;
		/* --affinity: read a cpu's ring on that cpu (or its node), as perf */
		if (r->opts.out.affinity != REC_AFFINITY_SYS && r->evl.rings[i].cpu >= 0 &&
		    r->evl.rings[i].cpu != r->m.affinity_cpu &&
		    !rec_cpu_affinity(r->evl.rings[i].cpu,
				      r->opts.out.affinity == REC_AFFINITY_NODE))
			r->m.affinity_cpu = r->evl.rings[i].cpu;
		n = rec_ring_drain(&r->evl.rings[i], r->bounce, rec_output_records,
					   &r->out, err);

		if (n < 0) {
			if (r->out.err.code)
				*err = r->out.err;
			return (int)n;
		}
	}
	if (r->out.stats.bytes != before && !r->out.snap) {
		int ret = rec_output_finished_round(&r->out);

		if (ret) {
			*err = r->out.err;
			return ret;
		}
	}
	/*
	 * whole rounds reach the disk now: a SIGKILL loses at most the current
	 * one.  With -z the writer's buffer (256 KiB) is compressed when full
	 * instead: a flush per pass would cut the zstd stream into many small
	 * blocks and cost perf's ratio.
	 */
	if (r->out.stats.bytes != before && !r->opts.out.comp_level) {
		int ret = pd_writer_flush(&r->w, err);

		if (ret) {
			r->out.write_errno = -ret;
			return ret;
		}
	}
	if (r->opts.out.max_size && !r->why.size_limit &&
	    r->w.data_start + r->w.data_size >= r->opts.out.max_size) {
		/* as perf: say so, stop, and finalize what was written */
		pc_notice("[ perfcheck record: size limit reached (%llu KB), "
				"stopping session ]\n",
				(unsigned long long)(r->opts.out.max_size / 1024));
		r->why.size_limit = true;
		r->why.stopping = true;
	}
	if (r->opts.out.switch_mode == REC_SWITCH_SIZE &&
	    r->w.data_size >= r->opts.out.switch_size)
		r->m.switch_pending = true;
	return 0;
}

/* -D and --control enable/disable, with perf's messages */
static void set_enabled(struct recorder *r, bool on)
{
	/*
	 * A workload's exec is tracked by -D's dummy (enable_on_exec); the
	 * tasks of -p/-a were synthesized at the start, and once more at the
	 * first enable, nearer to the first samples.
	 */
	if (on && r->opts.out.delay_ms && !r->m.synthesized_late &&
	    (r->opts.t.system_wide || r->opts.t.nr_pids || r->opts.t.user || !r->have_workload)) {
		r->m.synthesized_late = true;
		if (recorder_synthesize_tasks(r, REC_SYNTH_LATE_ENABLE))
			pc_warn("cannot synthesize the tasks at enable: %s\n", r->out.err.msg);
	}
	rec_evlist_enable(&r->evl, on);
	pc_notice("Events %s\n", on ? "enabled" : "disabled");
}

static void handle_control(struct recorder *r)
{
	enum rec_ctl_cmd cmd;

	while ((cmd = rec_control_next(&r->m.ctl)) != REC_CTL_NONE) {
		switch (cmd) {
		case REC_CTL_ENABLE:
			set_enabled(r, true);
			break;
		case REC_CTL_DISABLE:
			set_enabled(r, false);
			break;
		case REC_CTL_SNAPSHOT:
			/* as perf: the snapshot ring is dumped, or the output switched */
			r->why.dump_pending = r->out.snap != NULL;
			r->m.switch_pending = r->opts.out.switch_mode != REC_SWITCH_NONE;
			break;
		case REC_CTL_STOP:
			r->why.stopping = true;
			break;
		case REC_CTL_PING:
		case REC_CTL_UNKNOWN:
		case REC_CTL_NONE:
			break;
		}
		if (cmd != REC_CTL_UNKNOWN)
			rec_control_ack(&r->m.ctl);
	}
	r->pfds[PFD_CONTROL].fd = r->m.ctl.ctl_fd;
}

/* --overwrite: what each write_backward ring holds at the end, as one round */
static int read_overwritten(struct recorder *r, struct pc_error *err)
{
	for (int i = 0; i < r->evl.nr_rings; i++) {
		ssize_t n = rec_ring_read_backward(&r->evl.rings[i], r->bounce,
						   rec_output_records, &r->out, err);

		if (n < 0) {
			if (r->out.err.code)
				*err = r->out.err;
			return (int)n;
		}
	}
	if (rec_output_finished_round(&r->out)) {
		*err = r->out.err;
		return -EIO;
	}
	return 0;
}

/*
 * --threads: what the readers said.  A failed write stops the recording as
 * it does with one file; --max-size counts every file, as perf's threads.
 */
static int check_readers(struct recorder *r, struct pc_error *err)
{
	bool size_limit;
	int write_errno;

	if (rec_rthreads_state(r->rt, err, &write_errno, &size_limit)) {
		r->out.write_errno = write_errno;
		return err->code ? -err->code : -EIO;
	}
	/* the header file's records reach the disk as the readers' do (not with -z) */
	if (!r->opts.out.comp_level && pd_writer_flush(&r->w, err)) {
		r->out.write_errno = err->code;
		return err->code ? -err->code : -EIO;
	}
	/* the header file's records count too, as perf counts its main thread's */
	if (r->opts.out.max_size &&
	    rec_rthreads_add_main_bytes(r->rt, r->w.data_start + r->w.data_size) >=
	    r->opts.out.max_size)
		size_limit = true;
	if (size_limit && !r->why.size_limit) {
		pc_notice("[ perfcheck record: size limit reached (%llu KB), "
			  "stopping session ]\n",
			  (unsigned long long)(r->opts.out.max_size / 1024));
		r->why.size_limit = true;
		r->why.stopping = true;
	}
	return 0;
}

static int record_loop(struct recorder *r, struct pc_error *err)
{
	int ret;

	for (;;) {
		ret = r->rt ? check_readers(r, err) : drain_all(r, err);
		if (ret)
			return ret;
		if (r->why.dump_pending) {
			r->why.dump_pending = false;
			ret = rec_output_dump_snapshot(&r->out);
			if (ret) {
				*err = r->out.err;
				return ret;
			}
		}
		if (r->m.switch_pending && !r->why.stopping) {
			r->m.switch_pending = false;
			ret = recorder_switch_file(r, err);
			if (ret)
				return ret;
		}
		if (r->why.stopping)
			return 0;
		if (poll(r->pfds, r->nr_pfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			return pc_error_set(err, errno, "poll: %s", strerror(errno));
		}
		r->out.stats.wakeups++;
		if (r->pfds[PFD_SIG].revents)
			handle_signals(r);
		if (r->timerfd >= 0 && (r->pfds[PFD_TIMEOUT].revents & POLLIN) &&
		    rec_timeout_expired(r->timerfd)) {
			r->why.timed_out = true;
			r->why.stopping = true;
		}
		if (r->m.delayfd >= 0 && (r->pfds[PFD_DELAY].revents & POLLIN) &&
		    rec_timeout_expired(r->m.delayfd)) {
			set_enabled(r, true);
			r->pfds[PFD_DELAY].fd = -1;
		}
		if (r->m.switchfd >= 0 && (r->pfds[PFD_SWITCH].revents & POLLIN) &&
		    rec_timeout_expired(r->m.switchfd))
			r->m.switch_pending = true;
		if (r->pfds[PFD_CONTROL].revents)
			handle_control(r);
		for (int i = PFD_EVENTS; i < r->nr_pfds; i++) {
			if (!(r->pfds[i].revents & (POLLHUP | POLLERR)))
				continue;
			/* the event's task and all its children are gone */
			r->pfds[i].fd = -1;
			if (--r->alive == 0 && !r->have_workload)
				r->why.stopping = true;
		}
	}
}

static int exit_code(struct recorder *r)
{
	if (r->why.timed_out)
		return EXIT_TIMEOUT;
	if (r->why.size_limit)
		return 0;
	if (r->have_workload && r->wl.exited) {
		if (WIFEXITED(r->wl.status))
			return WEXITSTATUS(r->wl.status);
		if (WIFSIGNALED(r->wl.status))
			return 128 + WTERMSIG(r->wl.status);
	}
	if (r->why.got_signal)
		return 128 + r->why.got_signal;
	return 0;
}

static int start_modes(struct recorder *r, struct pc_error *err)
{
	struct itimerspec its = { 0 };

	if (r->opts.out.control && rec_control_open(&r->m.ctl, r->opts.out.control, err))
		return -EINVAL;
	if (r->opts.out.switch_mode == REC_SWITCH_TIME) {
		uint64_t ms = r->opts.out.switch_time_ms;

		r->m.switchfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		its.it_value.tv_sec = its.it_interval.tv_sec = (time_t)(ms / 1000);
		its.it_value.tv_nsec = its.it_interval.tv_nsec = (long)(ms % 1000) * 1000000;
		if (r->m.switchfd < 0 || timerfd_settime(r->m.switchfd, 0, &its, NULL))
			return pc_error_set(err, errno, "--switch-output: timerfd: %s",
					    strerror(errno));
	}
	if (r->opts.out.delay_ms > 0) {
		r->m.delayfd = rec_timeout_create((uint64_t)r->opts.out.delay_ms, err);
		if (r->m.delayfd < 0)
			return -EINVAL;
	}
	r->m.files.max = r->opts.out.switch_max_files;
	return 0;
}

/*
 * perf's BPF side band, after the header and before the synthesis, as
 * perf: when it cannot open (cpu -1 with pid -1 under --per-thread), perf
 * records on as with --no-bpf-event, saying so at -v.
 */
static int start_bpf_sideband(struct recorder *r, const struct rec_target *target)
{
	struct pc_error err = { 0 };

	const char *switch_events = r->opts.out.switch_event;

	if (r->opts.sb.no_bpf_event && !switch_events)
		return 0;
	if (!r->opts.sb.no_bpf_event && !r->out.bpf)
		r->out.bpf = rec_bpf_info_new();
	if ((!r->opts.sb.no_bpf_event && !r->out.bpf) ||
	    rec_bpf_sb_start(&r->bpf_sb, target, r->opts.sb.no_bpf_event ? NULL : r->out.bpf,
			     switch_events, &err)) {
		/* without its switch events the recording would not do what it was asked */
		if (switch_events)
			return pc_error_set(&r->out.err, err.code ? err.code : ENOMEM,
					    "--switch-output-event %s: %s", switch_events,
					    err.msg[0] ? err.msg : "out of memory");
		pc_info("BPF side band not started%s%s: the programs loaded from now on get no "
			"BPF_PROG_INFO entry\n", err.msg[0] ? ": " : "", err.msg);
		r->opts.sb.no_bpf_event = true;
	}
	return 0;
}

/* A failure once the file is begun: said, the command ended, the file finalized. */
static int stop_begun(struct recorder *r, const struct pc_error *err, int *code)
{
	fail(NULL, err);
	if (r->have_workload) {
		rec_workload_kill(&r->wl, SIGKILL);
		rec_workload_reap(&r->wl, true);
	}
	recorder_finish_file(r, code);
	return EXIT_ERROR;
}

/* --threads: the rings laid out over the reading threads the SPEC asks for */
static int new_readers(struct recorder *r, struct pc_error *err)
{
	struct rec_rthreads_conf conf = {
		.mmap_flush = r->opts.out.mmap_flush, .max_size = r->opts.out.max_size,
		.comp_level = r->opts.out.comp_level,
	};
	struct rec_threads_layout layout;
	int *cpus = calloc(r->evl.nr_rings ? r->evl.nr_rings : 1, sizeof(int));
	int ret;

	if (!cpus)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < r->evl.nr_rings; i++)
		cpus[i] = r->evl.rings[i].cpu;
	ret = rec_threads_layout(r->opts.threads, r->opts.threads->text, cpus, r->evl.nr_rings,
				 rec_threads_sysfs_group, NULL, &layout, err);
	free(cpus);
	if (ret)
		return ret;
	pc_info("--threads=%s: %d reading threads for %d rings\n",
		rec_threads_kind_name(r->opts.threads->kind), layout.nr_threads, r->evl.nr_rings);
	/* the DSO table is made here: the readers share it from the start */
	if (!r->opts.out.no_buildid) {
		r->out.dsos = rec_dsos_new();
		if (!r->out.dsos) {
			rec_threads_layout_free(&layout);
			return pc_error_set(err, ENOMEM, "out of memory");
		}
	}
	conf.dsos = r->out.dsos;
	ret = rec_rthreads_new(&r->rt, &r->evl, &layout, &conf, err);
	rec_threads_layout_free(&layout);
	if (ret == -EINVAL)
		ret = -EIO;		/* not a usage error */
	return ret;
}

static int run(struct recorder *r, int argc, char **argv)
{
	struct rec_target target = {
		.pids = r->opts.t.pids, .nr_pids = r->opts.t.nr_pids,
		.pids_are_tids = r->opts.t.pids_are_tids, .system_wide = r->opts.t.system_wide,
		.cpu_list = r->opts.t.cpu_list, .per_thread = r->opts.t.per_thread,
		.mmap_pages = r->opts.mmap_pages, .overwrite = r->opts.out.overwrite,
	};
	struct pc_error err = { 0 };
	int ret, code;

	if (rec_events_config(&r->evl, &r->opts, &err) ||
	    rec_events_check_freq(&r->evl, &r->opts, &err))
		return fail(NULL, &err);
	if (setup_signals(r, &err))
		return fail(NULL, &err);
	if (r->opts.argc) {
		if (rec_workload_prepare(&r->wl, r->opts.argv, &err))
			return fail(NULL, &err);
		r->have_workload = true;
	}
	target.workload = r->have_workload ? r->wl.pid : -1;
	if (r->opts.t.user) {
		if (rec_user_pids(r->opts.t.user, &r->user_pids, &r->nr_user_pids, &err)) {
			code = fail(NULL, &err);
			goto out_kill;
		}
		target.pids = r->user_pids;
		target.nr_pids = r->nr_user_pids;
		target.skip_gone = true;
	}
	/* perf's check and words, before anything is opened */
	if (r->opts.kcore && !rec_kcore_readable()) {
		pc_error_set(&err, EACCES, "ERROR: kcore is not readable.");
		code = fail(NULL, &err);
		goto out_kill;
	}
	/* the user's events: not the dummies appended by build_events() */
	if (rec_cgroups_open(&r->evl, r->evl.nr_evsels - rec_opts_appended_events(&r->opts),
			     &r->opts.sb, &err)) {
		code = fail(NULL, &err);
		goto out_kill;
	}
	if (rec_evlist_open(&r->evl, &target, &err)) {
		code = fail(NULL, &err);
		goto out_kill;
	}
	if (r->opts.threads && new_readers(r, &err)) {
		code = fail(NULL, &err);
		if (err.code == EINVAL)
			code = EXIT_USAGE;	/* a SPEC with none of the recording's cpus */
		goto out_kill;
	}
	/* everything that may fail before the first record, before the file */
	r->out.w = &r->w;
	if (!r->opts.out.no_buildid && !r->out.dsos)
		r->out.dsos = rec_dsos_new();
	r->bounce = malloc(65536);
	if (!r->bounce || (!r->out.dsos && !r->opts.out.no_buildid)) {
		pc_error_set(&err, ENOMEM, "out of memory");
		code = fail(NULL, &err);
		goto out_kill;
	}
	if (r->opts.snapshot_size) {
		r->out.snap = rec_snapshot_new(r->opts.snapshot_size);
		if (!r->out.snap) {
			code = fail("out of memory for the snapshot ring", NULL);
			goto out_kill;
		}
	}
	if (r->opts.out.timeout_ms) {
		r->timerfd = rec_timeout_create(r->opts.out.timeout_ms, &err);
		if (r->timerfd < 0) {
			code = fail(NULL, &err);
			goto out_kill;
		}
	}
	if (start_modes(r, &err) || setup_poll(r, &err)) {
		code = fail(NULL, &err);
		goto out_kill;
	}
	r->m.cmd_argc = argc;
	r->m.cmd_argv = argv;
	if (recorder_start_file(r, &err)) {
		code = fail(NULL, &err);
		goto out_kill;
	}
	/* --threads: the readers take the rings from now on, the synthesis included */
	if (r->rt) {
		if (rec_rthreads_start(r->rt, &err))
			return stop_begun(r, &err, &code);
		r->out.dsos_lock = rec_rthreads_lock(r->rt);
	}
	if (start_bpf_sideband(r, &target))
		return stop_begun(r, &r->out.err, &code);
	/* the file is begun: finalize what it holds (ENOSPC on a big /proc) */
	if (!r->opts.out.tail_synthesize && recorder_synthesize(r))
		return stop_begun(r, &r->out.err, &code);
	if (r->opts.out.tail_synthesize && recorder_synthesize_workload_comm(r))
		return stop_begun(r, &r->out.err, &code);
	/* -r: perf raises its priority here, the command forked and the file begun */
	if (r->opts.out.realtime_prio) {
		struct sched_param param = { .sched_priority = r->opts.out.realtime_prio };

		if (sched_setscheduler(0, SCHED_FIFO, &param)) {
			/* perf's words */
			pc_error_set(&err, errno, "Could not set realtime priority.");
			return stop_begun(r, &err, &code);
		}
	}
	if (r->have_workload && !r->opts.t.system_wide && !r->opts.t.nr_pids && !r->opts.t.user) {
		if (rec_workload_start(&r->wl, r->opts.argv, &err)) {
			fail(NULL, &err);
			rec_workload_reap(&r->wl, true);
			recorder_finish_file(r, &code);
			return EXIT_NOEXEC;
		}
	} else {
		if (!r->opts.out.delay_ms)
			rec_evlist_enable(&r->evl, true);
		if (r->have_workload && rec_workload_start(&r->wl, r->opts.argv, &err)) {
			fail(NULL, &err);
			rec_workload_reap(&r->wl, true);
			recorder_finish_file(r, &code);
			return EXIT_NOEXEC;
		}
	}

	/* -D: the events wait for the delay (or a --control enable), as perf says */
	if (r->opts.out.delay_ms)
		pc_notice("Events disabled\n");
	ret = record_loop(r, &err);
	/* stop the kernel side, then take what is left */
	rec_evlist_enable(&r->evl, false);
	rec_bpf_sb_stop(r->bpf_sb);
	r->bpf_sb = NULL;
	r->why.stopping = true;		/* the last drain takes everything */
	if (!ret && r->rt) {
		/* each reader drains its rings a last time and ends */
		rec_rthreads_stop(r->rt);
		ret = check_readers(r, &err);
	} else if (!ret) {
		ret = drain_all(r, &err);
	}
	if (!ret && r->opts.out.overwrite)
		ret = r->rt ? rec_rthreads_read_overwritten(r->rt, &err) : read_overwritten(r, &err);
	if (!ret && r->opts.out.tail_synthesize &&
	    recorder_synthesize_tasks(r, REC_SYNTH_TAIL)) {
		err = r->out.err;
		ret = -EIO;
	}
	if (r->have_workload && !r->wl.exited) {
		rec_workload_kill(&r->wl, SIGTERM);
		rec_workload_reap(&r->wl, true);
	}
	code = exit_code(r);
	if (ret) {
		if (r->out.write_errno)
			fprintf(stderr, "perfcheck record: %s: %s; recording stopped, the file keeps "
				"the whole records written before\n", r->opts.output,
				strerror(r->out.write_errno));
		else
			fail(NULL, &err);
		code = EXIT_ERROR;
	}
	if (recorder_finish_file(r, &code))
		return EXIT_ERROR;
	return code;

out_kill:
	if (r->have_workload) {
		rec_workload_kill(&r->wl, SIGKILL);
		rec_workload_reap(&r->wl, true);
	}
	return code;
}

/* The events of -e (cycles without one): an error here is a usage error. */
static int build_events(struct rec_evlist *evl, const struct rec_opts *opts,
			struct pc_error *err)
{
	int ret = 0;

	for (int i = 0; i < opts->nr_event_specs && !ret; i++) {
		ret = rec_events_parse(evl, opts->event_specs[i], err);
		if (ret || !opts->event_filters[i])
			continue;
		/* perf puts a filter on the last event of its -e; no PMU here filters addresses */
		if (!evl->nr_evsels || !evl->evsels[evl->nr_evsels - 1]->tracepoint)
			ret = pc_error_set(err, EINVAL, "This CPU does not support address filtering "
					   "(--filter on %s)", opts->event_specs[i]);
		else
			evl->evsels[evl->nr_evsels - 1]->filter = opts->event_filters[i];
	}
	if (!ret && !evl->nr_evsels)
		ret = rec_events_parse(evl, "cycles", err);
	/*
	 * perf's tracking dummy: with -D the tasks are tracked from exec on, with
	 * -a/-C from the start, whatever the events sample
	 */
	/* --kcore: perf's text poke dummy, before the tracking dummy (perf 7.2 -a -vv) */
	if (!ret && opts->kcore) {
		ret = rec_events_parse(evl, "dummy:u", err);
		if (!ret)
			evl->evsels[evl->nr_evsels - 1]->every_cpu = true;
	}
	if (!ret && rec_opts_tracking_dummy(opts))
		ret = rec_events_parse(evl, "dummy", err);
	return ret;
}

int cmd_record(int argc, char **argv)
{
	struct recorder r = { .sigfd = -1, .timerfd = -1, .file = { .reserve_fd = -1 },
			      .m = { .delayfd = -1, .switchfd = -1, .ctl = { -1, -1 },
				    .affinity_cpu = -1 } };
	struct pc_error err = { 0 };
	int ret = rec_opts_parse(&r.opts, argc, argv, &err);

	if (ret == 1) {
		rec_usage(stdout);
		rec_opts_free(&r.opts);
		return 0;
	}
	if (ret) {
		fprintf(stderr, "perfcheck record: %s\n", err.msg);
		fprintf(stderr, "See 'perfcheck record --help'.\n");
		rec_opts_free(&r.opts);
		return EXIT_USAGE;
	}
	ret = build_events(&r.evl, &r.opts, &err);
	if (ret) {
		fprintf(stderr, "perfcheck record: %s\n", err.msg);
		fprintf(stderr, "See 'perfcheck record --help'.\n");
		rec_evlist_free(&r.evl);
		rec_opts_free(&r.opts);
		return EXIT_USAGE;
	}
	if (r.opts.dry_run) {
		/* as perf's --dry-run: the options and events parsed, nothing opened */
		rec_evlist_free(&r.evl);
		rec_opts_free(&r.opts);
		return 0;
	}
	ret = run(&r, argc, argv);

	if (r.sigfd >= 0)
		close(r.sigfd);
	if (r.timerfd >= 0)
		close(r.timerfd);
	if (r.m.delayfd >= 0)
		close(r.m.delayfd);
	if (r.m.switchfd >= 0)
		close(r.m.switchfd);
	if (r.file.reserve_fd >= 0)
		close(r.file.reserve_fd);
	rec_control_close(&r.m.ctl);
	rec_outfile_ring_free(&r.m.files);
	rec_rthreads_free(r.rt);	/* its readers use the rings: before they are unmapped */
	rec_evlist_free(&r.evl);
	rec_bpf_sb_stop(r.bpf_sb);
	rec_snapshot_free(r.out.snap);
	rec_dsos_free(r.out.dsos);
	rec_bpf_info_free(r.out.bpf);
	free(r.pfds);
	free(r.user_pids);
	free(r.bounce);
	rec_opts_free(&r.opts);
	return ret;
}
