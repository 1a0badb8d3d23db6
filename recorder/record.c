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
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "recorder/cgroups.h"
#include "recorder/events.h"
#include "recorder/evlist.h"
#include "recorder/open_features.h"
#include "recorder/options.h"
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

struct recorder {
	struct rec_opts opts;
	struct rec_evlist evl;
	struct rec_workload wl;
	bool have_workload;
	pid_t *user_pids;		/* -u: the user's processes at the start */
	int nr_user_pids;
	struct pd_writer w;
	struct rec_output out;
	int sigfd, timerfd;
	struct pollfd *pfds;
	int nr_pfds;
	int alive;			/* event fds not hung up */
	uint8_t *bounce;
	/* why we stopped */
	bool stopping, timed_out, dump_pending;
	int got_signal;
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

/* perf keeps one previous file: FILE becomes FILE.old */
static int rotate_output(const char *path, struct pc_error *err)
{
	char old[PATH_MAX];
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (snprintf(old, sizeof(old), "%s.old", path) >= (int)sizeof(old))
		return pc_error_set(err, ENAMETOOLONG, "%s: name too long", path);
	if (rename(path, old))
		return pc_error_set(err, errno, "cannot rename %s to %s: %s", path, old,
				    strerror(errno));
	return 0;
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
	return pd_writer_begin_data(&r->w, err);
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

	r->pfds = calloc(n + 2, sizeof(*r->pfds));
	if (!r->pfds)
		return pc_error_set(err, ENOMEM, "out of memory");
	r->pfds[0] = (struct pollfd){ .fd = r->sigfd, .events = POLLIN };
	r->pfds[1] = (struct pollfd){ .fd = r->timerfd, .events = POLLIN };
	r->nr_pfds = 2;
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
			break;
		}
	}
}

static int drain_all(struct recorder *r, struct pc_error *err)
{
	uint64_t before = r->out.stats.bytes;

	for (int i = 0; i < r->evl.nr_rings; i++) {
		ssize_t n = rec_ring_drain(&r->evl.rings[i], r->bounce, rec_output_records,
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
		if (r->stopping)
			return 0;
		if (poll(r->pfds, r->nr_pfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			return pc_error_set(err, errno, "poll: %s", strerror(errno));
		}
		r->out.stats.wakeups++;
		if (r->pfds[0].revents)
			handle_signals(r);
		if (r->timerfd >= 0 && (r->pfds[1].revents & POLLIN) &&
		    rec_timeout_expired(r->timerfd)) {
			r->timed_out = true;
			r->stopping = true;
		}
		for (int i = 2; i < r->nr_pfds; i++) {
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

static int finish_file(struct recorder *r, int *code)
{
	struct pc_error err = { 0 };
	struct stat st;

	if (r->out.dsos)
		rec_dsos_write_build_ids(r->out.dsos, &r->w);
	if (pd_writer_finish(&r->w, &err)) {
		*code = fail(NULL, &err);
		return -1;
	}
	if (r->out.write_errno)
		rec_summary_recount(r->opts.output, &r->out.stats);
	if (stat(r->opts.output, &st))
		st.st_size = 0;
	rec_summary_print(r->opts.output, (uint64_t)st.st_size, &r->out.stats);
	return 0;
}

static int run(struct recorder *r, int argc, char **argv)
{
	struct rec_target target = {
		.pids = r->opts.t.pids, .nr_pids = r->opts.t.nr_pids,
		.pids_are_tids = r->opts.t.pids_are_tids, .system_wide = r->opts.t.system_wide,
		.cpu_list = r->opts.t.cpu_list, .per_thread = r->opts.t.per_thread,
		.mmap_pages = r->opts.mmap_pages,
	};
	struct pc_error err = { 0 };
	bool file_open = false;
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
	if (rotate_output(r->opts.output, &err) ||
	    pd_writer_open(&r->w, r->opts.output, &err)) {
		code = fail(NULL, &err);
		goto out_kill;
	}
	file_open = true;
	pd_writer_set_cmdline(&r->w, argc, argv);
	if (rec_tracing_data(&r->w, &r->evl, &err)) {
		code = fail(NULL, &err);
		goto out_kill;
	}
	r->out.w = &r->w;
	r->out.dsos = rec_dsos_new();
	r->bounce = malloc(65536);
	if (!r->bounce || !r->out.dsos) {
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
	if (write_header_and_ids(r, &err)) {
		code = fail(NULL, &err);
		goto out_kill;
	}
	if (synthesize(r)) {
		/* the file is begun: finalize what it holds (ENOSPC on a big /proc) */
		fail(NULL, &r->out.err);
		if (r->have_workload) {
			rec_workload_kill(&r->wl, SIGKILL);
			rec_workload_reap(&r->wl, true);
		}
		finish_file(r, &code);
		return EXIT_ERROR;
	}
	if (r->opts.timeout) {
		r->timerfd = rec_timeout_create(r->opts.timeout, &err);
		if (r->timerfd < 0) {
			code = fail(NULL, &err);
			goto out_kill;
		}
	}
	if (setup_poll(r, &err)) {
		code = fail(NULL, &err);
		goto out_kill;
	}
	if (r->have_workload && !r->opts.t.system_wide && !r->opts.t.nr_pids && !r->opts.t.user) {
		if (rec_workload_start(&r->wl, r->opts.argv, &err)) {
			fail(NULL, &err);
			rec_workload_reap(&r->wl, true);
			finish_file(r, &code);
			return EXIT_NOEXEC;
		}
	} else {
		rec_evlist_enable(&r->evl, true);
		if (r->have_workload && rec_workload_start(&r->wl, r->opts.argv, &err)) {
			fail(NULL, &err);
			rec_workload_reap(&r->wl, true);
			finish_file(r, &code);
			return EXIT_NOEXEC;
		}
	}

	ret = record_loop(r, &err);
	/* stop the kernel side, then take what is left */
	rec_evlist_enable(&r->evl, false);
	if (!ret)
		ret = drain_all(r, &err);
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
	if (file_open)
		pd_writer_abort(&r->w);
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
	return ret;
}

int cmd_record(int argc, char **argv)
{
	struct recorder r = { .sigfd = -1, .timerfd = -1 };
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
	rec_evlist_free(&r.evl);
	rec_snapshot_free(r.out.snap);
	rec_dsos_free(r.out.dsos);
	free(r.pfds);
	free(r.user_pids);
	free(r.bounce);
	rec_opts_free(&r.opts);
	return ret;
}
