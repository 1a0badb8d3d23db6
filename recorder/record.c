// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record: the command.  Signals arrive through a signalfd and the
 * timeout through a timerfd, both in the same poll set as the rings, so
 * every stop condition is handled in one place, between two drains.
 */
#include <errno.h>
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
#include "recorder/open_features.h"
#include "recorder/options.h"
#include "recorder/outfile.h"
#include "recorder/output.h"
#include "recorder/summary.h"
#include "recorder/synth.h"
#include "recorder/timeout.h"
#include "recorder/tracing_data.h"
#include "recorder/user.h"
#include "recorder/workload.h"
#include "util/log.h"
#include "util/sys.h"

#define EXIT_USAGE	129
#define EXIT_ERROR	255
#define EXIT_TIMEOUT	124
#define EXIT_NOEXEC	127

/* The modes of output_opts.h at run time: -D, --control, --switch-output. */
struct rec_modes {
	int delayfd;			/* -D: one-shot timerfd, -1 */
	int switchfd;			/* --switch-output=TIME: periodic timerfd, -1 */
	struct rec_control ctl;		/* --control */
	struct rec_outfile_ring files;	/* the files written (--switch-max-files) */
	bool switch_pending;
	bool synthesized_late;		/* -D: the tasks, at the first enable */
	int cmd_argc;			/* our own command line, for each file's CMDLINE */
	char **cmd_argv;
};

/* Fixed slots of the poll set; the events follow. */
enum { PFD_SIG, PFD_TIMEOUT, PFD_DELAY, PFD_SWITCH, PFD_CONTROL, PFD_EVENTS };

struct recorder {
	struct rec_opts opts;
	struct rec_evlist evl;
	struct rec_workload wl;
	bool have_workload;
	pid_t *user_pids;		/* -u: the user's processes at the start */
	int nr_user_pids;
	struct pd_writer w;
	char tmp_path[PATH_MAX];	/* the file until its header is on disk */
	bool placed;			/* renamed into place (or a pipe) */
	struct rec_output out;
	int sigfd, timerfd;
	struct pollfd *pfds;
	int nr_pfds;
	int alive;			/* event fds not hung up */
	uint8_t *bounce;
	/* why we stopped */
	bool stopping, timed_out, dump_pending, size_limit;
	int got_signal;
	struct rec_modes m;
};

static int fail(const char *what, struct pc_error *err)
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
	rec_open_features_write(&r->w, evl);
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
static int open_output(struct recorder *r, struct pc_error *err)
{
	if (r->opts.out.pipe) {
		r->placed = true;
		return pd_writer_open_pipe(&r->w, STDOUT_FILENO, "-", err);
	}
	if (rec_outfile_tmpname(r->opts.output, r->tmp_path, sizeof(r->tmp_path), err))
		return -ENAMETOOLONG;
	return pd_writer_open(&r->w, r->tmp_path, err);
}

static int place_output(struct recorder *r, struct pc_error *err)
{
	int ret;

	if (r->placed)
		return 0;
	ret = rec_outfile_rotate(r->opts.output, err);
	if (!ret)
		ret = pd_writer_rename(&r->w, r->opts.output, err);
	if (!ret)
		r->placed = true;
	return ret;
}

static void discard_output(struct recorder *r)
{
	pd_writer_abort(&r->w);
	if (!r->placed && r->tmp_path[0])
		unlink(r->tmp_path);
}

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

static int synthesize(struct recorder *r)
{
	struct rec_synth s = {
		.out = &r->out,
		.sample_type = r->evl.evsels[0]->attr.attr.sample_type,
		.id = first_id(r),
		.namespaces = r->opts.sb.namespaces,
	};
	int ret = rec_synth_kernel_mmap(&s);

	if (!ret && r->opts.sb.cgroups)
		ret = rec_synth_cgroups(&s);
	if (ret)
		return ret;
	if (r->opts.t.system_wide)
		return rec_synth_all(&s);
	for (int i = 0; i < r->nr_user_pids && !ret; i++)
		ret = rec_synth_process(&s, r->user_pids[i]);
	for (int i = 0; i < r->opts.t.nr_pids && !ret; i++)
		ret = rec_synth_process(&s, r->opts.t.pids_are_tids ? tgid_of(r->opts.t.pids[i])
								    : r->opts.t.pids[i]);
	if (!ret && r->have_workload && !r->opts.t.nr_pids && !r->opts.t.user) {
		/* the name it has until exec, as perf does: samples start at exec */
		char path[64], comm[64];

		snprintf(path, sizeof(path), "/proc/%d/comm", r->wl.pid);
		if (pc_read_file(path, comm, sizeof(comm)) > 0) {
			comm[strcspn(comm, "\n")] = '\0';
			ret = rec_synth_comm(&s, r->wl.pid, r->wl.pid, comm);
		}
		if (!ret && s.namespaces)
			ret = rec_synth_namespaces(&s, r->wl.pid, r->wl.pid);
	}
	return ret;
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
	r->nr_pfds = PFD_EVENTS;
	for (int e = 0; e < r->evl.nr_evsels; e++) {
		const struct rec_evsel *ev = r->evl.evsels[e];

		for (int i = 0; i < per_event; i++) {
			bool ring = false;

			if (ev->fds[i] < 0)
				continue;
			for (int k = 0; k < r->evl.nr_rings; k++)
				ring |= r->evl.rings[k].fd == ev->fds[i];
			r->pfds[r->nr_pfds++] = (struct pollfd){
				.fd = ev->fds[i], .events = ring ? POLLIN : 0,
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
				r->stopping = true;
			break;
		case SIGINT:
		case SIGTERM:
			r->got_signal = (int)si.ssi_signo;
			r->stopping = true;
			break;
		case SIGUSR2:
			if (r->out.snap)
				r->dump_pending = true;
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

	if (r->stopping || min <= 1)
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
	/* whole rounds reach the disk now: a SIGKILL loses at most the current one */
	if (r->out.stats.bytes != before) {
		int ret = pd_writer_flush(&r->w, err);

		if (ret) {
			r->out.write_errno = -ret;
			return ret;
		}
	}
	if (r->opts.out.max_size && !r->size_limit &&
	    r->w.data_start + r->w.data_size >= r->opts.out.max_size) {
		/* as perf: say so, stop, and finalize what was written */
		if (pc_verbose >= 0)
			fprintf(stderr, "[ perfcheck record: size limit reached (%llu KB), "
				"stopping session ]\n",
				(unsigned long long)(r->opts.out.max_size / 1024));
		r->size_limit = true;
		r->stopping = true;
	}
	if (r->opts.out.switch_mode == REC_SWITCH_SIZE &&
	    r->w.data_size >= r->opts.out.switch_size)
		r->m.switch_pending = true;
	return 0;
}

static int synthesize_again(struct recorder *r);

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
		if (synthesize_again(r))
			pc_warn("cannot synthesize the tasks at enable: %s\n", r->out.err.msg);
	}
	rec_evlist_enable(&r->evl, on);
	if (pc_verbose >= 0)
		fprintf(stderr, "Events %s\n", on ? "enabled" : "disabled");
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
			r->dump_pending = r->out.snap != NULL;
			r->m.switch_pending = r->opts.out.switch_mode != REC_SWITCH_NONE;
			break;
		case REC_CTL_STOP:
			r->stopping = true;
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

static int switch_file(struct recorder *r, struct pc_error *err);

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

static int record_loop(struct recorder *r, struct pc_error *err)
{
	int ret;

	for (;;) {
		ret = drain_all(r, err);
		if (ret)
			return ret;
		if (r->dump_pending) {
			r->dump_pending = false;
			ret = rec_output_dump_snapshot(&r->out);
			if (ret) {
				*err = r->out.err;
				return ret;
			}
		}
		if (r->m.switch_pending && !r->stopping) {
			r->m.switch_pending = false;
			ret = switch_file(r, err);
			if (ret)
				return ret;
		}
		if (r->stopping)
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
			r->timed_out = true;
			r->stopping = true;
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
				r->stopping = true;
		}
	}
}

static int exit_code(struct recorder *r)
{
	if (r->timed_out)
		return EXIT_TIMEOUT;
	if (r->size_limit)
		return 0;
	if (r->have_workload && r->wl.exited) {
		if (WIFEXITED(r->wl.status))
			return WEXITSTATUS(r->wl.status);
		if (WIFSIGNALED(r->wl.status))
			return 128 + WTERMSIG(r->wl.status);
	}
	if (r->got_signal)
		return 128 + r->got_signal;
	return 0;
}

/*
 * Finalizes the current file; with --switch-output or --timestamp-filename
 * it then takes its timestamped name (perf.data.YYYYMMDDHHMMSSmmm), and
 * --switch-max-files removes the oldest.  name gets the final name.
 */
static int end_file(struct recorder *r, char *name, size_t size, uint64_t *original,
		    struct pc_error *err)
{
	uint64_t in, out;
	int ret;

	if (r->out.dsos && !r->opts.out.no_buildid)
		rec_dsos_write_build_ids(r->out.dsos, &r->w);
	pd_writer_totals(&r->w, &in, &out);
	*original = r->opts.out.comp_level ? in : 0;
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

static int finish_file(struct recorder *r, int *code)
{
	struct pc_error err = { 0 };
	char name[PATH_MAX];
	uint64_t original;
	struct stat st;

	if (end_file(r, name, sizeof(name), &original, &err)) {
		*code = fail(NULL, &err);
		return -1;
	}
	if (r->opts.out.pipe) {
		/* the bytes that went down the pipe (the writer counts them) */
		rec_summary_print("-", r->w.data_size, original, &r->out.stats);
		return 0;
	}
	if (stat(name, &st))
		st.st_size = 0;
	rec_summary_print(name, (uint64_t)st.st_size, original, &r->out.stats);
	return 0;
}

/* The records of the tasks a new file of --switch-output starts with. */
static int synthesize_again(struct recorder *r)
{
	struct rec_synth s = {
		.out = &r->out,
		.sample_type = r->evl.evsels[0]->attr.attr.sample_type,
		.id = first_id(r),
		.namespaces = r->opts.sb.namespaces,
	};
	int ret = rec_synth_kernel_mmap(&s);

	if (!ret && r->opts.sb.cgroups)
		ret = rec_synth_cgroups(&s);
	if (ret)
		return ret;
	if (r->opts.t.system_wide)
		return rec_synth_all(&s);
	for (int i = 0; i < r->nr_user_pids && !ret; i++)
		ret = rec_synth_process(&s, r->user_pids[i]);
	for (int i = 0; i < r->opts.t.nr_pids && !ret; i++)
		ret = rec_synth_process(&s, r->opts.t.pids_are_tids ? tgid_of(r->opts.t.pids[i])
								    : r->opts.t.pids[i]);
	if (!ret && r->have_workload && !r->wl.exited && !r->opts.t.nr_pids && !r->opts.t.user)
		ret = rec_synth_process(&s, r->wl.pid);
	return ret;
}

static int start_file(struct recorder *r, struct pc_error *err)
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

/* --switch-output: this file ends at a round boundary, the next one begins. */
static int switch_file(struct recorder *r, struct pc_error *err)
{
	char name[PATH_MAX];
	uint64_t original;
	int ret = end_file(r, name, sizeof(name), &original, err);

	if (ret)
		return ret;
	if (pc_verbose >= 0)
		fprintf(stderr, "[ perfcheck record: dump data: Woken up %llu times ]\n"
			"[ perfcheck record: Dump %s ]\n",
			(unsigned long long)r->out.stats.wakeups, name);
	r->out.stats.wakeups = 0;
	r->placed = false;
	ret = start_file(r, err);
	if (!ret && synthesize_again(r)) {
		*err = r->out.err;
		ret = -EIO;
	}
	return ret;
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
	if (rec_cgroups_open(&r->evl, &r->opts.sb, &err)) {
		code = fail(NULL, &err);
		goto out_kill;
	}
	if (rec_evlist_open(&r->evl, &target, &err)) {
		code = fail(NULL, &err);
		goto out_kill;
	}
	/* everything that may fail before the first record, before the file */
	r->out.w = &r->w;
	if (!r->opts.out.no_buildid)
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
	if (start_file(r, &err)) {
		code = fail(NULL, &err);
		goto out_kill;
	}
	if (!r->opts.out.tail_synthesize && synthesize(r)) {
		/* the file is begun: finalize what it holds (ENOSPC on a big /proc) */
		fail(NULL, &r->out.err);
		if (r->have_workload) {
			rec_workload_kill(&r->wl, SIGKILL);
			rec_workload_reap(&r->wl, true);
		}
		finish_file(r, &code);
		return EXIT_ERROR;
	}
	if (r->have_workload && !r->opts.t.system_wide && !r->opts.t.nr_pids && !r->opts.t.user) {
		if (rec_workload_start(&r->wl, r->opts.argv, &err)) {
			fail(NULL, &err);
			rec_workload_reap(&r->wl, true);
			finish_file(r, &code);
			return EXIT_NOEXEC;
		}
	} else {
		if (!r->opts.out.delay_ms)
			rec_evlist_enable(&r->evl, true);
		if (r->have_workload && rec_workload_start(&r->wl, r->opts.argv, &err)) {
			fail(NULL, &err);
			rec_workload_reap(&r->wl, true);
			finish_file(r, &code);
			return EXIT_NOEXEC;
		}
	}

	/* -D: the events wait for the delay (or a --control enable), as perf says */
	if (r->opts.out.delay_ms && pc_verbose >= 0)
		fprintf(stderr, "Events disabled\n");
	ret = record_loop(r, &err);
	/* stop the kernel side, then take what is left */
	rec_evlist_enable(&r->evl, false);
	r->stopping = true;		/* the last drain takes everything */
	if (!ret)
		ret = drain_all(r, &err);
	if (!ret && r->opts.out.overwrite)
		ret = read_overwritten(r, &err);
	if (!ret && r->opts.out.tail_synthesize && synthesize_again(r)) {
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
	if (finish_file(r, &code))
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

	for (int i = 0; i < opts->nr_event_specs && !ret; i++)
		ret = rec_events_parse(evl, opts->event_specs[i], err);
	if (!ret && !evl->nr_evsels)
		ret = rec_events_parse(evl, "cycles", err);
	/* -D: perf's tracking dummy, so that the tasks are tracked from exec on */
	if (!ret && opts->out.delay_ms)
		ret = rec_events_parse(evl, "dummy", err);
	return ret;
}

int cmd_record(int argc, char **argv)
{
	struct recorder r = { .sigfd = -1, .timerfd = -1,
			      .m = { .delayfd = -1, .switchfd = -1, .ctl = { -1, -1 } } };
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
	ret = run(&r, argc, argv);

	if (r.sigfd >= 0)
		close(r.sigfd);
	if (r.timerfd >= 0)
		close(r.timerfd);
	if (r.m.delayfd >= 0)
		close(r.m.delayfd);
	if (r.m.switchfd >= 0)
		close(r.m.switchfd);
	rec_control_close(&r.m.ctl);
	rec_outfile_ring_free(&r.m.files);
	rec_evlist_free(&r.evl);
	rec_snapshot_free(r.out.snap);
	rec_dsos_free(r.out.dsos);
	free(r.pfds);
	free(r.user_pids);
	free(r.bounce);
	rec_opts_free(&r.opts);
	return ret;
}
