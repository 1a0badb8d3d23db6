// SPDX-License-Identifier: GPL-2.0
/*
 * The counters: one fd per event, cpu and thread, opened through the one
 * open path, and their readings.  A group leader with PERF_FORMAT_GROUP is
 * read once for all its members, which is what makes a group's values
 * consistent with each other.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "probes/probe.h"
#include "stat/stat.h"
#include "util/log.h"
#include "util/sys.h"

/* perf stat's default events, in its order (cpu-clock for task-clock on cpus: -a, -C) */
const char *stat_default_events(const struct stat_opts *o)
{
	if (o->look.layout == STAT_LAYOUT_7_2)
		return stat_default_events_7_2(o->system_wide || o->cpu_list);
	if (o->system_wide || o->cpu_list)
		return "cpu-clock,context-switches,cpu-migrations,page-faults,"
		       "cycles,instructions,branches,branch-misses";
	return "task-clock,context-switches,cpu-migrations,page-faults,"
	       "cycles,instructions,branches,branch-misses";
}

/* what -d, -dd and -ddd add, each level to the one before (perf's sets) */
static const char *const detailed_events[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,"
	"iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

int stat_add_detailed(struct rec_evlist *ev, unsigned int levels, struct pc_error *err)
{
	int ret = 0;

	for (unsigned int i = 0; !ret && i < levels && i < 3; i++)
		ret = rec_events_parse(ev, detailed_events[i], err);
	return ret;
}

#define READ_BASE (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static int add_thread(struct stat_evlist *l, pid_t tid, struct pc_error *err)
{
	pid_t *t = realloc(l->threads, (l->nr_threads + 1) * sizeof(*t));
	char (*c)[32];
	char path[64];

	if (!t)
		return pc_error_set(err, ENOMEM, "out of memory");
	l->threads = t;
	c = realloc(l->comms, (l->nr_threads + 1) * sizeof(*c));
	if (!c)
		return pc_error_set(err, ENOMEM, "out of memory");
	l->comms = c;
	t[l->nr_threads] = tid;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	if (tid < 0 || pc_read_file(path, c[l->nr_threads], sizeof(c[0])) < 0)
		snprintf(c[l->nr_threads], sizeof(c[0]), ":%d", (int)tid);
	c[l->nr_threads][strcspn(c[l->nr_threads], "\n")] = '\0';
	l->nr_threads++;
	return 0;
}

/* -p PID counts every thread of the process, as perf does. */
static int add_process(struct stat_evlist *l, pid_t pid, struct pc_error *err)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	int ret = 0, found = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return pc_error_set(err, ESRCH, "process %d: %s", (int)pid, strerror(errno));
	while (!ret && (de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		ret = add_thread(l, (pid_t)tid, err);
		found++;
	}
	closedir(d);
	if (!ret && !found)
		ret = pc_error_set(err, ESRCH, "process %d has no threads", (int)pid);
	return ret;
}

/*
 * -a --per-thread: every thread there is now, each counted on its own (the
 * threads started later and the command are not, as perf's thread map); more descriptors
 * than the soft limit allows may be needed, so it is raised to the hard one
 */
static int add_all_threads(struct stat_evlist *l, pid_t workload, struct pc_error *err)
{
	struct rlimit rl;
	struct dirent *de;
	DIR *d = opendir("/proc");
	int ret = 0;

	if (!d)
		return pc_error_set(err, errno, "/proc: %s", strerror(errno));
	while (!ret && (de = readdir(d))) {
		long pid = strtol(de->d_name, NULL, 10);

		/* perf's map is made before it starts the command */
		if (pid <= 0 || pid == workload)
			continue;
		ret = add_process(l, (pid_t)pid, err);
		if (ret == -ESRCH) {	/* it exited meanwhile */
			pc_error_clear(err);
			ret = 0;
		}
	}
	closedir(d);
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (!ret && !l->nr_threads)
		ret = pc_error_set(err, ESRCH, "no thread found in /proc");
	return ret;
}

int stat_evlist_build(struct stat_evlist *l, const struct stat_opts *o, pid_t workload,
		      struct pc_error *err)
{
	struct rec_evlist defaults = { 0 };
	const struct rec_evlist *ev = &o->ev;
	int ret = 0, nr_copies;

	memset(l, 0, sizeof(*l));
	if (!ev->nr_evsels) {
		ret = rec_events_parse(&defaults, stat_default_events(o), err);
		if (ret)
			goto out;
		ev = &defaults;
	}
	/* --for-each-cgroup: every event once per cgroup, cgroup after cgroup */
	nr_copies = o->each.nr ? o->each.nr : 1;
	l->c = calloc((size_t)ev->nr_evsels * nr_copies, sizeof(*l->c));
	if (!l->c) {
		ret = pc_error_set(err, ENOMEM, "out of memory");
		goto out;
	}
	l->nr = ev->nr_evsels * nr_copies;
	l->cgroup_column = o->cgroups.nr > 0 || o->each.nr > 0;
	l->no_scale = o->no_scale;
	for (int n = 0; n < l->nr; n++) {
		struct stat_counter *c = &l->c[n];
		struct perf_event_attr *a = &c->attr.attr;
		int i = n % ev->nr_evsels, copy = n / ev->nr_evsels;

		c->attr = ev->evsels[i]->attr;
		snprintf(c->name, sizeof(c->name), "%s", ev->evsels[i]->name);
		c->leader = ev->evsels[i]->leader + copy * ev->nr_evsels;
		c->nr_members = ev->evsels[i]->nr_members;
		/*
		 * Where the event came from: perf 6.12 names the PMU of the events
		 * it was given (not of its default set, -d's), perf 7.2 shows its
		 * default set's metrics and leaves out the -d events it cannot count
		 */
		c->from_default = ev != &o->ev || i >= o->sets.nr_named;
		c->detailed = ev == &o->ev && o->sets.detailed && i >= o->sets.first_detailed;
		c->pmu = c->from_default ? NULL : stat_event_pmu(&c->attr);
		/* -G: the cgroup is the pid (the options keep its fd open) */
		if (o->each.nr) {
			c->cgroup = o->each.names[copy];
			c->cgroup_fd = o->each.fds[copy];
		} else {
			c->cgroup = ev == &o->ev && i < o->cgroups.size ? o->cgroups.names[i] : NULL;
			c->cgroup_fd = c->cgroup ? o->cgroups.fds[i] : -1;
		}
		a->sample_period = 0;
		a->freq = 0;
		a->sample_type = PERF_SAMPLE_IDENTIFIER;
		a->read_format = READ_BASE | PERF_FORMAT_LOST;
		a->inherit = !o->attrs.no_inherit && !o->system_wide && !o->cpu_list;
		/* as perf: on every event, whatever its own modifiers say */
		if (o->attrs.user_only)
			a->exclude_kernel = 1;
		if (o->attrs.kernel_only)
			a->exclude_user = 1;
		/* software events never run in a guest: perf asks for the host only */
		if (!ev->evsels[i]->spec.has_modifier)
			a->exclude_guest = 1;
		a->disabled = 1;
		/* with -D the counters are enabled after the delay, not at exec */
		a->enable_on_exec = o->argc && !o->nr_pids && !o->system_wide && !o->cpu_list &&
				    !o->each_run.delay_ms;
		a->size = rec_attr_min_size(&c->attr);
	}

	if ((o->system_wide || o->cpu_list) && !o->per_thread) {
		ret = rec_cpus_parse(o->cpu_list, &l->cpus, &l->nr_cpus, err);
		if (!ret)
			ret = add_thread(l, -1, err);
	} else {
		l->cpus = malloc(sizeof(*l->cpus));
		if (!l->cpus) {
			ret = pc_error_set(err, ENOMEM, "out of memory");
			goto out;
		}
		l->cpus[0] = -1;
		l->nr_cpus = 1;
		for (int i = 0; !ret && i < o->nr_pids; i++)
			ret = o->pids_are_tids ? add_thread(l, o->pids[i], err)
					       : add_process(l, o->pids[i], err);
		if (!ret && o->system_wide)
			ret = add_all_threads(l, workload, err);
		else if (!ret && !o->nr_pids)
			ret = add_thread(l, workload, err);
	}
	if (!ret) {
		l->cpu_at = calloc(l->nr_cpus, sizeof(*l->cpu_at));
		if (!l->cpu_at)
			ret = pc_error_set(err, ENOMEM, "out of memory");
		for (int i = 0; !ret && i < l->nr_cpus; i++)
			l->cpu_at[i] = l->cpus[i] >= 0 ? stat_cpu_at(l->cpus[i],
						      o->aggr == STAT_AGGR_CACHE ? o->cache_level : -1) :
				       STAT_CPU_NOWHERE;
	}
	for (int i = 0; !ret && i < l->nr; i++) {
		struct stat_counter *c = &l->c[i];
		size_t n = (size_t)l->nr_cpus * l->nr_threads;

		c->fds = malloc(n * sizeof(*c->fds));
		c->now = calloc(n, sizeof(*c->now));
		c->prev = calloc(n, sizeof(*c->prev));
		if (!c->fds || !c->now || !c->prev) {
			ret = pc_error_set(err, ENOMEM, "out of memory");
			break;
		}
		for (size_t k = 0; k < n; k++)
			c->fds[k] = -1;
	}
out:
	rec_evlist_free(&defaults);
	return ret;
}

/* Errors that mean "this machine cannot count it": perf shows <not supported>. */
static bool unsupported_errno(int e)
{
	return e == ENOENT || e == ENODEV || e == EOPNOTSUPP || e == EINVAL;
}

int stat_evlist_open(struct stat_evlist *l, const struct stat_opts *o, struct pc_error *err)
{
	for (int i = 0; i < l->nr; i++) {
		struct stat_counter *c = &l->c[i];
		struct stat_counter *lead = &l->c[c->leader];

		c->supported = c->leader == i || lead->supported;
		if (!c->supported)
			continue;
		if (c->leader == i && c->nr_members > 1)
			c->attr.attr.read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
		if (c->leader != i) {
			c->attr.attr.read_format = lead->attr.attr.read_format;
			c->attr.attr.disabled = 0;
			c->attr.attr.enable_on_exec = 0;
		}
		for (int cpu = 0; cpu < l->nr_cpus; cpu++) {
			for (int t = 0; t < l->nr_threads; t++) {
				size_t k = (size_t)cpu * l->nr_threads + t;
				int group_fd = c->leader == i ? -1 : lead->fds[k];
				struct pc_open_info info;
				union pc_attr attr = c->attr;
				int fd;

				/* -G: system wide on each cpu, in the cgroup alone */
				if (c->cgroup_fd >= 0)
					fd = pc_event_open(&attr, c->name, c->cgroup_fd, l->cpus[cpu],
							   group_fd, PERF_FLAG_FD_CLOEXEC |
							   PERF_FLAG_PID_CGROUP, &info, err);
				else
					fd = pc_event_open(&attr, c->name, l->threads[t], l->cpus[cpu],
							   group_fd, PERF_FLAG_FD_CLOEXEC, &info, err);
				if (fd < 0 && unsupported_errno(-fd) && !(cpu || t)) {
					pc_info("%s: not supported: %s\n", c->name, err->msg);
					pc_error_clear(err);
					c->supported = false;
					break;
				}
				/* a thread of -p (or of -a --per-thread) that exited meanwhile */
				if (fd == -ESRCH && l->threads[t] > 0 && (o->nr_pids || o->per_thread)) {
					pc_error_clear(err);
					continue;
				}
				if (fd < 0)
					return fd;
				c->fds[k] = fd;
				c->attr = attr;	/* as opened: the ladder may have cleared LOST */
			}
			if (!c->supported)
				break;
		}
	}
	return 0;
}

/* PERF_EVENT_IOC_ENABLE or _DISABLE on every group leader's fds */
static int set_enabled(struct stat_evlist *l, unsigned long request)
{
	size_t n = (size_t)l->nr_cpus * l->nr_threads;

	for (int i = 0; i < l->nr; i++)
		for (size_t k = 0; k < n; k++)
			if (l->c[i].fds[k] >= 0 && l->c[i].leader == i &&
			    ioctl(l->c[i].fds[k], request, 0))
				return -errno;
	return 0;
}

int stat_evlist_enable(struct stat_evlist *l)
{
	return set_enabled(l, PERF_EVENT_IOC_ENABLE);
}

int stat_evlist_disable(struct stat_evlist *l)
{
	return set_enabled(l, PERF_EVENT_IOC_DISABLE);
}

/* Where the value of member m sits in a read of the leader. */
static size_t fields_per_value(uint64_t rf)
{
	return 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
}

static int read_fd(int fd, uint64_t *buf, size_t words, const char *name, struct pc_error *err)
{
	ssize_t n = read(fd, buf, words * sizeof(*buf));

	if (n < 0)
		return pc_error_set(err, errno, "%s: read: %s", name, strerror(errno));
	if ((size_t)n < 3 * sizeof(*buf))
		return pc_error_set(err, EIO, "%s: read returned %zd bytes", name, n);
	return (int)(n / sizeof(*buf));
}

static int read_counter(struct stat_evlist *l, int i, size_t k, struct pc_error *err)
{
	struct stat_counter *c = &l->c[i];
	uint64_t rf = c->attr.attr.read_format;
	uint64_t buf[3 + 64 * 3];
	int got;

	if (!(rf & PERF_FORMAT_GROUP)) {
		size_t want = 3 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

		got = read_fd(c->fds[k], buf, want, c->name, err);
		if (got < 0)
			return got;
		if ((size_t)got < want)
			return pc_error_set(err, EIO, "%s: read %d of %zu values", c->name, got, want);
		c->now[k].val = buf[0];
		c->now[k].ena = buf[1];
		c->now[k].run = buf[2];
		if (rf & PERF_FORMAT_LOST)
			c->now[k].lost = buf[want - 1];
		return 0;
	}
	/* the group: nr, enabled, running, then nr values (with id, lost) */
	size_t per = fields_per_value(rf);

	/* the members the kernel took: one it refused is <not supported>, not in the group */
	int opened = 0;

	for (int j = i; j < l->nr && opened < c->nr_members; j++)
		opened += l->c[j].leader == i && l->c[j].supported;
	got = read_fd(c->fds[k], buf, sizeof(buf) / sizeof(buf[0]), c->name, err);
	if (got < 0)
		return got;
	if (buf[0] != (uint64_t)opened || 3 + buf[0] * per > (uint64_t)got)
		return pc_error_set(err, EIO, "%s: group read has %llu values for %d events",
				    c->name, (unsigned long long)buf[0], opened);
	for (int m = 0, j = i; m < opened; j++) {
		struct stat_counter *mc = &l->c[j];

		if (mc->leader != i || !mc->supported)
			continue;
		mc->now[k].val = buf[3 + m * per];
		mc->now[k].ena = buf[1];
		mc->now[k].run = buf[2];
		if (rf & PERF_FORMAT_LOST)
			mc->now[k].lost = buf[3 + m * per + per - 1];
		m++;
	}
	return 0;
}

int stat_evlist_read(struct stat_evlist *l, struct pc_error *err)
{
	for (int i = 0; i < l->nr; i++) {
		struct stat_counter *c = &l->c[i];

		size_t n = (size_t)l->nr_cpus * l->nr_threads;

		memcpy(c->prev, c->now, n * sizeof(*c->now));
		memset(c->now, 0, n * sizeof(*c->now));
	}
	for (int i = 0; i < l->nr; i++) {
		struct stat_counter *c = &l->c[i];

		/* members come with their leader's group read */
		if (!c->supported || c->leader != i)
			continue;
		for (int cpu = 0; cpu < l->nr_cpus; cpu++) {
			for (int t = 0; t < l->nr_threads; t++) {
				size_t k = (size_t)cpu * l->nr_threads + t;
				int ret;

				if (c->fds[k] < 0)
					continue;
				ret = read_counter(l, i, k, err);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

void stat_evlist_close(struct stat_evlist *l)
{
	size_t n = (size_t)l->nr_cpus * l->nr_threads;

	for (int i = 0; i < l->nr; i++) {
		if (!l->c[i].fds)
			continue;
		for (size_t k = 0; k < n; k++) {
			if (l->c[i].fds[k] >= 0)
				close(l->c[i].fds[k]);
			l->c[i].fds[k] = -1;
		}
	}
}

int stat_evlist_null_maps(struct stat_evlist *l, pid_t workload, struct pc_error *err)
{
	memset(l, 0, sizeof(*l));
	l->cpus = malloc(sizeof(*l->cpus));
	if (!l->cpus)
		return pc_error_set(err, ENOMEM, "out of memory");
	l->cpus[0] = -1;
	l->nr_cpus = 1;
	return add_thread(l, workload, err);
}

void stat_evlist_free(struct stat_evlist *l)
{
	stat_evlist_close(l);
	for (int i = 0; i < l->nr; i++) {
		free(l->c[i].fds);
		free(l->c[i].now);
		free(l->c[i].prev);
	}
	free(l->c);
	free(l->cpus);
	free(l->cpu_at);
	free(l->threads);
	free(l->comms);
	memset(l, 0, sizeof(*l));
}
