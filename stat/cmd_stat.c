// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck stat: count events of a command (or of -p/-t threads, or of
 * cpus with -a/-C) and print them as perf stat does.  Signals (SIGCHLD,
 * SIGINT, SIGTERM) are taken with sigtimedwait, whose timeout is the next
 * -I deadline (an interval after the last line), so an interval never
 * waits on a sleep.
 */
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "recorder/control.h"
#include "stat/stat.h"
#include "stat/stat_file.h"
#include "util/log.h"

/* Per counter over the runs of -r (or the one run). */
struct counter_runs {
	struct stat_running val;	/* scaled, in the event's unit */
	uint64_t run, ena;		/* summed over runs, for the mean */
	bool counted;			/* counted in every run */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static double rusage_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}


struct run_result {
	int status;			/* exit status to return */
	uint64_t wall_ns;
	bool stopped;			/* SIGINT/SIGTERM */
	bool timed_out;			/* --timeout ended it */
};

/* The wait until the next event: the next -I line or the --timeout, whichever is first */
static struct timespec *wait_for(uint64_t next, uint64_t deadline, struct timespec *ts)
{
	uint64_t at = next && (!deadline || next < deadline) ? next : deadline, now = now_ns();
	uint64_t wait = at > now ? at - now : 0;

	if (!at)
		return NULL;
	ts->tv_sec = (time_t)(wait / 1000000000ULL);
	ts->tv_nsec = (long)(wait % 1000000000ULL);
	return ts;
}

/*
 * --control: each command the channel holds, as perf stat takes them:
 * enable and disable the counters (its words on stderr), ping; each acked
 */
static int handle_control(struct rec_control *ctl, struct stat_evlist *l, struct pc_error *err)
{
	enum rec_ctl_cmd cmd;

	while ((cmd = rec_control_next(ctl)) != REC_CTL_NONE) {
		int ret = 0;

		if (cmd == REC_CTL_ENABLE || cmd == REC_CTL_DISABLE) {
			ret = cmd == REC_CTL_ENABLE ? stat_evlist_enable(l) : stat_evlist_disable(l);
			if (ret)
				return pc_error_set(err, -ret, "cannot %s the counters: %s",
						    cmd == REC_CTL_ENABLE ? "enable" : "disable",
						    strerror(-ret));
			pc_notice("Events %s\n", cmd == REC_CTL_ENABLE ? "enabled" : "disabled");
		}
		if (cmd != REC_CTL_UNKNOWN)
			rec_control_ack(ctl);
	}
	return 0;
}

/*
 * The next of the signals in set (its number), 0 when ts passed first or
 * the control channel has something to read; with a channel, a signalfd
 * and the channel polled together
 */
static int next_signal(const sigset_t *set, int sfd, const struct rec_control *ctl,
		       const struct timespec *ts)
{
	struct pollfd pfd[2] = { { .fd = sfd, .events = POLLIN }, { .fd = ctl ? ctl->ctl_fd : -1,
								   .events = POLLIN } };
	struct signalfd_siginfo si;
	siginfo_t info;
	int sig;

	if (sfd < 0) {
		sig = sigtimedwait(set, &info, ts);
		return sig < 0 ? 0 : sig;
	}
	if (ppoll(pfd, 2, ts, NULL) <= 0 || !(pfd[0].revents & POLLIN))
		return 0;
	if (read(sfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return 0;
	return (int)si.ssi_signo;
}

static int wait_run(const struct stat_printer *p, const struct stat_opts *o,
		    struct stat_evlist *l, struct rec_workload *wl, uint64_t start,
		    struct stat_file *rec, struct rec_control *ctl, struct run_result *res,
		    struct pc_error *err)
{
	sigset_t set;
	int sfd = -1, ret = 0;
	uint64_t iv = (uint64_t)o->interval_ms * 1000000ULL, next = iv ? start + iv : 0;
	uint64_t deadline = o->timeout_ms ? start + (uint64_t)o->timeout_ms * 1000000ULL : 0;
	unsigned int printed = 0, intervals = 0;
	uint64_t last_at = 0;		/* the time of the previous -I line */

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	/* with a control channel: signals as a descriptor, polled beside it */
	if (ctl && ctl->ctl_fd >= 0) {
		sfd = signalfd(-1, &set, SFD_CLOEXEC);
		if (sfd < 0)
			return pc_error_set(err, errno, "signalfd: %s", strerror(errno));
	}
	for (;;) {
		struct timespec ts;
		int sig;
		bool tick = false, done = false;

		if (wl->pid > 0 && rec_workload_reap(wl, false)) {
			done = true;
		} else if (deadline && now_ns() >= deadline) {
			/* --timeout: the command is ended as perf ends it */
			res->timed_out = true;
			rec_workload_kill(wl, SIGTERM);
			if (wl->pid > 0)
				rec_workload_reap(wl, true);
			if (wl->exited && WIFSIGNALED(wl->status))
				fprintf(p->out, "%s: %s\n", o->argv[0], strsignal(WTERMSIG(wl->status)));
			done = true;
		} else {
			sig = next_signal(&set, sfd, ctl, wait_for(next, deadline, &ts));
			if (!sig) {
				tick = next && now_ns() >= next;
				/* a timeout or the channel: its commands, if any */
				if (sfd >= 0 && (ret = handle_control(ctl, l, err)))
					break;
			} else if (sig == SIGINT || sig == SIGTERM) {
				res->stopped = true;
				rec_workload_kill(wl, sig);
				if (wl->pid > 0)
					rec_workload_reap(wl, true);
				done = true;
			}
		}
		/* --interval-count: that many lines, then the command runs on uncounted */
		if (o->interval_ms && (tick || done) &&
		    (!o->interval_count || intervals < o->interval_count)) {
			ret = stat_evlist_read(l, err);
			/* one time for the line and the file's round: report prints the same */
			uint64_t at = now_ns() - start;

			if (!ret && rec)
				ret = stat_file_reading(rec, l, at, err);
			if (ret)
				break;
			intervals++;
			/* perf's console clear on stdout, then the titles each time */
			if (o->look.interval_clear) {
				fputs("\033[H\033[2J\n", stdout);
				fflush(stdout);
				stat_print_interval_header(p, o->aggr, o->per_thread, true);
			} else if (p->format == STAT_FMT_STD && printed++ % 25 == 0) {
				stat_print_interval_header(p, o->aggr, o->per_thread, false);
			}
			/*
			 * perf 7.2's CPUs_utilized divides by the interval's own
			 * time (seen: a short last interval of -a on 2 cpus at 2.0)
			 */
			stat_print_reading(p, o, l, &(struct stat_reading){
						.delta = true,
						.wall_ns = p->layout == STAT_LAYOUT_7_2 ?
							   (double)(at - last_at) :
							   (double)o->interval_ms * 1e6,
						.interval = (double)at / 1e9 });
			last_at = at;
			fflush(p->out);
			/*
			 * The next line an interval after this one, as perf sleeps an
			 * interval after each: after a stall (a loaded machine) the line
			 * just printed covered it, and no burst of empty lines follows
			 * for the deadlines it missed.
			 */
			next = now_ns() + iv;
		}
		if (o->interval_count && intervals >= o->interval_count)
			next = 0;
		if (done)
			break;
	}
	if (sfd >= 0)
		close(sfd);
	if (ret)
		return ret;
	res->wall_ns = now_ns() - start;
	if (wl->pid > 0 && wl->exited) {
		if (WIFEXITED(wl->status))
			res->status = WEXITSTATUS(wl->status);
		else if (WIFSIGNALED(wl->status))
			res->status = 128 + WTERMSIG(wl->status);
	}
	/* as record's --timeout (and timeout(1)) */
	if (res->timed_out)
		res->status = 124;
	return 0;
}

/*
 * -D: the counters start after the delay, the command running meanwhile;
 * -1 leaves them off (every count <not counted>).  perf's words on stderr.
 */
static int delay_start(const struct stat_opts *o, struct stat_evlist *l, struct pc_error *err)
{
	struct timespec ts = { o->each_run.delay_ms / 1000, (long)(o->each_run.delay_ms % 1000) * 1000000L };
	int ret;

	pc_notice("Events disabled\n");
	if (o->each_run.delay_ms < 0)
		return 0;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	ret = stat_evlist_enable(l);
	if (ret)
		return pc_error_set(err, -ret, "cannot enable the counters: %s", strerror(-ret));
	pc_notice("Events enabled\n");
	return 0;
}

/* One run: open, release, wait, read.  l is left open for the caller to read. */
static int one_run(const struct stat_printer *p, const struct stat_opts *o,
		   struct stat_evlist *l, struct stat_file *rec, struct rec_control *ctl,
		   struct run_result *res, struct pc_error *err)
{
	struct rec_workload wl = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	uint64_t start;
	int ret;

	memset(res, 0, sizeof(*res));
	if (o->argc) {
		ret = rec_workload_prepare(&wl, o->argv, err);
		if (ret)
			return ret;
	}
	/* -n: no counters at all; stat record still writes the maps, as perf */
	ret = o->null_run ? (rec ? stat_evlist_null_maps(l, wl.pid, err) : 0)
			  : stat_evlist_build(l, o, wl.pid, err);
	if (!ret && !o->null_run)
		ret = stat_evlist_open(l, o, err);
	/* stat record: the file's header and maps once the ids are known */
	if (!ret && rec)
		ret = stat_file_begin(rec, l, o, err);
	/* counters of a command start at its exec (enable_on_exec); others now, or after -D */
	if (!ret && !o->each_run.delay_ms && (!o->argc || o->nr_pids || o->system_wide || o->cpu_list)) {
		ret = stat_evlist_enable(l);
		if (ret)
			pc_error_set(err, -ret, "cannot enable the counters: %s", strerror(-ret));
	}
	if (ret) {
		rec_workload_kill(&wl, SIGKILL);
		rec_workload_reap(&wl, true);
		return ret;
	}
	start = now_ns();
	if (o->argc) {
		ret = rec_workload_start(&wl, o->argv, err);
		if (ret) {
			rec_workload_reap(&wl, true);
			return ret;
		}
	}
	if (o->each_run.delay_ms && !o->null_run) {
		ret = delay_start(o, l, err);
		if (ret) {
			rec_workload_kill(&wl, SIGKILL);
			rec_workload_reap(&wl, true);
			return ret;
		}
		/* perf's elapsed time is the count's: from the enable on */
		start = now_ns();
	}
	ret = wait_run(p, o, l, &wl, start, rec, ctl, res, err);
	/*
	 * counters of a target other than the command alone still count:
	 * stopped before any is read, as perf stops them, so that the
	 * members of a group are read over one stretch; an event that cannot
	 * be stopped (its task gone) is read as it is
	 */
	if (!ret && !o->null_run && (!o->argc || o->nr_pids || o->system_wide || o->cpu_list))
		(void)stat_evlist_disable(l);
	if (!ret && !o->interval_ms)
		ret = stat_evlist_read(l, err);
	if (!ret && !o->interval_ms && rec)
		ret = stat_file_reading(rec, l, res->wall_ns, err);
	return ret;
}


/*
 * --summary: after -I's lines, the run's totals as a run without -I prints
 * them (CSV lines start "summary" in the interval's column, as perf's,
 * unless --no-csv-summary)
 */
static void print_summary(const struct stat_printer *p, const struct stat_opts *o,
			  const struct stat_evlist *l, const struct run_result *res,
			  const struct rusage *before)
{
	struct stat_printer sp = *p;
	struct stat_running wall = { 0 };
	struct rusage after;

	getrusage(RUSAGE_CHILDREN, &after);
	stat_running_add(&wall, (double)res->wall_ns);
	if (sp.format == STAT_FMT_CSV && !o->look.no_csv_summary)
		sp.first = "summary";
	/* perf 6.12 and 7.2 print the totals under -I's lines, without the header */
	if (sp.layout == STAT_LAYOUT_6_1)
		stat_print_header(&sp, o);
	stat_print_reading(&sp, o, l, &(struct stat_reading){ false, (double)res->wall_ns, -1,
								   NULL });
	stat_print_footer(&sp, &wall, 1, rusage_s(&after.ru_utime) - rusage_s(&before->ru_utime),
			  rusage_s(&after.ru_stime) - rusage_s(&before->ru_stime),
			  o->argc && !o->nr_pids && !o->system_wide && !o->cpu_list);
}

/* The counts of -r's runs summed per counter and fd (-A, --per-*) */
struct run_sums {
	struct stat_count *v;
	size_t len;		/* counters x fds of the first run */
};

/*
 * The counts of a run added to the sums of the runs before; -ENOMEM, or
 * -ECHILD when this run counts other cpus or threads than the first (a cpu
 * went offline between runs).
 */
static int accumulate(struct run_sums *sums, const struct stat_evlist *l)
{
	size_t n = (size_t)l->nr_cpus * l->nr_threads;

	if (!sums->v) {
		sums->len = (size_t)l->nr * n;
		sums->v = calloc(sums->len ? sums->len : 1, sizeof(*sums->v));
		if (!sums->v)
			return -ENOMEM;
	}
	if ((size_t)l->nr * n != sums->len)
		return -ECHILD;
	for (int i = 0; i < l->nr; i++)
		for (size_t k = 0; k < n; k++) {
			struct stat_count *a = &sums->v[(size_t)i * n + k];
			const struct stat_count *c = &l->c[i].now[k];

			a->val += c->val;
			a->ena += c->ena;
			a->run += c->run;
			a->lost += c->lost;
		}
	return 0;
}

/* --pre/--post: CMD through the shell, as perf's system(); its exit status, -1 when it cannot run */
static int run_hook(const char *cmd)
{
	int st;

	fflush(NULL);
	st = system(cmd);
	if (st == -1)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int run_all(const struct stat_printer *p, const struct stat_opts *o, struct stat_file *rec,
		   struct rec_control *ctl, bool *stopped, struct pc_error *err)
{
	struct counter_runs *cr = NULL;
	struct stat_running wall = { 0 };
	struct stat_evlist l = { 0 };
	struct rusage before, after;
	int status = 0, nr = 0, ret = 0;
	struct stat_value *v = NULL;
	/* lines per thread (printed run by run) or per aggregate (the runs' means) */
	bool per_line = o->per_thread || o->aggr != STAT_AGGR_GLOBAL, last = false;
	struct run_sums sums = { 0 };
	struct stat_printer tp = *p;
	/* --table: the runs' times, for the footer */
	double *walls = o->look.table && o->repeat > 1 ? calloc(o->repeat, sizeof(*walls)) : NULL;

	getrusage(RUSAGE_CHILDREN, &before);
	for (unsigned int r = 0; r < o->repeat; r++) {
		struct run_result res;

		ret = o->each_run.pre ? run_hook(o->each_run.pre) : 0;
		/* perf stops at a failing --pre, its status for stat's */
		if (ret) {
			if (ret < 0)
				ret = pc_error_set(err, ECHILD, "--pre: cannot run '%s'",
						   o->each_run.pre);
			goto out;
		}
		if (o->each_run.sync)
			sync();
		ret = one_run(p, o, &l, rec, ctl, &res, err);
		if (ret)
			goto out;
		status = res.status;
		if (walls)
			walls[r] = (double)res.wall_ns / 1e9;
		/* --post after a run whose command succeeded, as perf; its failure is stat's */
		if (!status && o->each_run.post) {
			int h = run_hook(o->each_run.post);

			if (h)
				status = h < 0 ? 255 : h;
		}
		stat_running_add(&wall, (double)res.wall_ns);
		if (!cr) {
			nr = l.nr;
			cr = calloc(nr ? nr : 1, sizeof(*cr));
			v = calloc(nr ? nr : 1, sizeof(*v));
			if (!cr || !v) {
				ret = pc_error_set(err, ENOMEM, "out of memory");
				goto out;
			}
			for (int i = 0; i < nr; i++)
				cr[i].counted = true;
		}
		if (!o->interval_ms && !per_line) {
			stat_values_of(&l, -1, NULL, false, v);
			for (int i = 0; i < nr; i++) {
				stat_running_add(&cr[i].val, v[i].val);
				cr[i].run += v[i].run;
				cr[i].ena += v[i].ena;
				cr[i].counted &= v[i].counted;
			}
		}
		if (o->per_thread && !o->interval_ms) {
			stat_print_header(p, o);
			stat_print_reading(p, o, &l, &(struct stat_reading){ false, (double)res.wall_ns,
									   -1, NULL });
			stat_print_footer(p, &wall, 1, 0, 0, false);
		}
		if (o->aggr != STAT_AGGR_GLOBAL && !o->interval_ms &&
		    (ret = accumulate(&sums, &l))) {
			ret = pc_error_set(err, -ret, ret == -ENOMEM ? "out of memory" :
					   "the cpus counted changed between the runs of -r");
			goto out;
		}
		*stopped = res.stopped;
		last = res.stopped || r + 1 == o->repeat;
		if (last && o->interval_ms && o->look.summary)
			print_summary(p, o, &l, &res, &before);
		if (!last || o->interval_ms || o->per_thread)
			stat_evlist_free(&l);
		if (res.stopped)
			break;
	}
	getrusage(RUSAGE_CHILDREN, &after);
	/* stat record: the final round (its time the elapsed one) and the header */
	if (rec) {
		ret = stat_file_finish(rec, (uint64_t)wall.mean, err);
		if (ret)
			goto out;
	}
	/* -A, --per-*: each cpu's mean over the runs, in the last run's counters */
	if (o->aggr != STAT_AGGR_GLOBAL && !o->interval_ms) {
		size_t n = (size_t)l.nr_cpus * l.nr_threads;

		for (int i = 0; i < l.nr; i++)
			for (size_t k = 0; k < n; k++) {
				const struct stat_count *a = &sums.v[(size_t)i * n + k];
				uint64_t runs = (uint64_t)wall.n;

				l.c[i].now[k] = (struct stat_count){ a->val / runs, a->ena / runs,
								     a->run / runs, a->lost / runs };
			}
		stat_print_header(p, o);
		stat_print_reading(p, o, &l, &(struct stat_reading){ false, wall.mean, -1, NULL });
		stat_print_footer(p, &wall, (unsigned int)wall.n, 0, 0, false);
	}
	if (!o->interval_ms && !per_line) {
		double *noise = calloc(nr ? nr : 1, sizeof(*noise));
		struct stat_context ctx;

		for (int i = 0; i < nr; i++) {
			v[i].val = cr[i].val.mean;
			v[i].run = cr[i].run / (uint64_t)wall.n;
			v[i].ena = cr[i].ena / (uint64_t)wall.n;
			v[i].counted = cr[i].counted;
			if (noise)
				noise[i] = o->repeat > 1 ? stat_running_rel(&cr[i].val) : -1;
		}
		ctx = stat_context_of(&l, v, wall.mean);
		stat_print_header(p, o);
		stat_print_values(p, &l, 0, l.nr, v, &ctx, o->repeat > 1 ? noise : NULL, -1, NULL, 0,
			     NULL);
		/* perf shows the command's user and sys times when it counts the command alone */
		tp.run_walls = walls;
		stat_print_footer(&tp, &wall, o->repeat,
				  rusage_s(&after.ru_utime) - rusage_s(&before.ru_utime),
				  rusage_s(&after.ru_stime) - rusage_s(&before.ru_stime),
				  o->argc && !o->nr_pids && !o->system_wide && !o->cpu_list &&
				  !o->forever);
		free(noise);
	}
out:
	/* what a run or the printing left, in every case */
	stat_evlist_free(&l);
	free(sums.v);
	free(cr);
	free(v);
	free(walls);
	return ret ? ret : status;
}

/*
 * The CMDLINE of a stat record file: this program's path and every
 * argument, as perf writes its own; NULL when out of memory.
 */
static char **record_cmdline(int argc, char **argv, char *exe, size_t size)
{
	char **v = calloc((size_t)argc + 2, sizeof(*v));
	ssize_t n = readlink("/proc/self/exe", exe, size - 1);

	if (!v)
		return NULL;
	if (n > 0)
		exe[n] = '\0';
	else
		snprintf(exe, size, "perfcheck");
	v[0] = exe;
	memcpy(v + 1, argv, (size_t)argc * sizeof(*v));
	return v;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_printer p = { .out = stderr };
	struct pc_error err = { 0 };
	struct stat_file file, *rec = NULL;
	const char *data_path = "perf.data";
	char **cmdline = NULL, exe[4096];
	int full_argc = argc;
	struct stat_opts o;
	sigset_t set, old;
	struct rec_control ctl = { .ctl_fd = -1, .ack_fd = -1 };
	char out_name[4096] = "/dev/null";	/* where the counts go, for its errors */
	bool stopped = false;
	int ret;

	if (argc > 1 && !strcmp(argv[1], "report"))
		return cmd_stat_report(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "record")) {
		/* perfcheck stat record [-o FILE] [stat options] CMD: record's options first */
		int skip = stat_record_args(argc, argv, &data_path, &err);

		cmdline = skip < 0 ? NULL : record_cmdline(argc, argv, exe, sizeof(exe));
		if (!cmdline) {
			fprintf(stderr, "perfcheck stat record: %s\n",
				skip < 0 ? err.msg : "out of memory");
			return 129;
		}
		rec = &file;
		/* stat's options after record's: getopt starts at their [1] */
		argc -= skip - 1;
		argv += skip - 1;
	}
	ret = stat_opts_parse(&o, argc, argv, &err);
	/* perf stat record's -o is the data's path wherever it comes; the counts stay on stderr */
	if (!ret && rec && o.output.path) {
		data_path = o.output.path;
		o.output.path = NULL;
	}
	/* perf 6.1 refuses -r N (N != 1) before it creates the file: its text, its -1 */
	if (!ret && rec && stat_record_check(&o, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		free(cmdline);
		stat_opts_free(&o);
		return 255;
	}
	/* --control: the channel opened before any run, kept across -r's runs */
	if (!ret && o.control)
		ret = rec_control_open(&ctl, o.control, &err);
	if (!ret && rec && (ret = stat_file_open(rec, data_path, full_argc + 1, cmdline, &err)))
		stat_file_abort(rec);
	if (ret) {
		free(cmdline);
		stat_opts_free(&o);
		if (ret > 0)
			return 0;
		fprintf(stderr, "perfcheck stat: %s\n", err.msg);
		return o.error_exit ? o.error_exit : 129;
	}
	/* counts with thousands separators where the locale has them, as perf */
	setlocale(LC_NUMERIC, "");
	/* -o FILE, or --log-fd N: the descriptor itself, closed at the end (as perf) */
	if (o.output.path || o.output.fd > 0) {
		if (o.output.path)
			snprintf(out_name, sizeof(out_name), "%s", o.output.path);
		else
			snprintf(out_name, sizeof(out_name), "--log-fd %d", o.output.fd);
		p.out = o.output.path ? fopen(o.output.path, o.output.append ? "ae" : "we") :
					fdopen(o.output.fd, o.output.append ? "a" : "w");
		if (!p.out) {
			fprintf(stderr, "perfcheck stat: %s: %s\n", out_name, strerror(errno));
			stat_opts_free(&o);
			if (rec)
				stat_file_abort(rec);
			free(cmdline);
			return 255;
		}
		/* perf's first line of an output file */
		if (o.output.path) {
			time_t t = time(NULL);

			fprintf(p.out, "# started on %s\n", ctime(&t));
		}
	}
	p.format = o.look.format;
	p.sep = o.look.sep;
	p.layout = o.look.layout;
	p.no_big_num = o.look.no_big_num;
	p.no_counts = o.null_run;
	/* perf prints nothing when it records to a pipe: stdout is the data */
	if (rec && rec->pipe && p.out == stderr && !(p.out = fopen("/dev/null", "we"))) {
		fprintf(stderr, "perfcheck stat: /dev/null: %s\n", strerror(errno));
		stat_file_abort(rec);
		stat_opts_free(&o);
		free(cmdline);
		return 255;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &old);
	/* -r 0: run after run, each printed alone, until a signal stops one */
	do
		ret = run_all(&p, &o, rec, &ctl, &stopped, &err);
	while (o.forever && ret >= 0 && !stopped);
	/*
	 * A recording that failed before its final round (the command could
	 * not run, a read failed) leaves no file: none of its rounds is whole
	 */
	if (rec && rec->open) {
		stat_file_abort(rec);
		if (!rec->pipe)
			unlink(data_path);
	}
	rec_control_close(&ctl);
	free(cmdline);
	sigprocmask(SIG_SETMASK, &old, NULL);
	stat_opts_free(&o);
	if (p.out != stderr && fclose(p.out) && ret >= 0) {
		fprintf(stderr, "perfcheck stat: %s: %s\n", out_name, strerror(errno));
		return 255;
	}
	if (ret < 0) {
		fprintf(stderr, "perfcheck stat: %s\n", err.msg);
		return strncmp(err.msg, "cannot run", 10) ? 255 : 127;
	}
	return ret;
}
