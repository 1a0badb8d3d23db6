// SPDX-License-Identifier: GPL-2.0
/*
 * Opens every event on every cpu for every thread through pc_event_open,
 * maps one ring per cpu and points the cpu's other events at it with
 * PERF_EVENT_IOC_SET_OUTPUT, so that one drain per cpu sees every event.
 * Per-cpu rings are what inherit needs: an inherited per-task event
 * cannot be mapped with cpu == -1.  With --per-thread (cpu -1, no
 * inherit) each thread has its own ring, as the kernel wants.  A group
 * member is opened right after its leader with the leader's fd of the
 * same cpu and thread as group fd.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "probes/probe.h"
#include "recorder/cpus.h"
#include "recorder/evlist.h"
#include "recorder/open_features.h"
#include "util/log.h"

struct rec_evsel *rec_evlist_add(struct rec_evlist *evl)
{
	struct rec_evsel **n = realloc(evl->evsels, (evl->nr_evsels + 1) * sizeof(*n));
	struct rec_evsel *ev;

	if (!n)
		return NULL;
	evl->evsels = n;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return NULL;
	ev->leader = evl->nr_evsels;
	ev->nr_members = 1;
	ev->spec.cgroup_fd = -1;
	evl->evsels[evl->nr_evsels++] = ev;
	return ev;
}

static int add_thread(struct rec_evlist *evl, pid_t tid, struct pc_error *err)
{
	pid_t *n;

	for (int i = 0; i < evl->nr_threads; i++)
		if (evl->threads[i] == tid)
			return 0;
	n = realloc(evl->threads, (evl->nr_threads + 1) * sizeof(*n));
	if (!n)
		return pc_error_set(err, ENOMEM, "out of memory");
	evl->threads = n;
	evl->threads[evl->nr_threads++] = tid;
	return 0;
}

static int add_process_threads(struct rec_evlist *evl, pid_t pid, struct pc_error *err)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return pc_error_set(err, errno == ENOENT ? ESRCH : errno,
				    "-p %d: no such process", pid);
	while ((de = readdir(d)) && !ret) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid > 0)
			ret = add_thread(evl, (pid_t)tid, err);
	}
	closedir(d);
	return ret;
}

static int targets(struct rec_evlist *evl, const struct rec_target *t, struct pc_error *err)
{
	int ret;

	if (t->system_wide)
		return add_thread(evl, -1, err);
	if (t->nr_pids) {
		for (int i = 0; i < t->nr_pids; i++) {
			if (t->pids_are_tids) {
				char path[64];

				snprintf(path, sizeof(path), "/proc/%d", t->pids[i]);
				if (access(path, F_OK))
					return pc_error_set(err, ESRCH, "-t %d: no such thread",
							    t->pids[i]);
				ret = add_thread(evl, t->pids[i], err);
			} else {
				ret = add_process_threads(evl, t->pids[i], err);
				if (ret == -ESRCH && t->skip_gone) {
					pc_error_clear(err);
					ret = 0;
				}
			}
			if (ret)
				return ret;
		}
		return 0;
	}
	return add_thread(evl, t->workload, err);
}

static void describe_cleared(const char *name, const struct pc_open_info *info)
{
	for (int f = 0; f < PC_FEAT__COUNT; f++)
		if (info->cleared & (1ULL << f))
			pc_info("%s: the kernel lacks %s, recording without it\n", name,
				pc_feature_name(f));
}

static int alloc_fds(struct rec_evlist *evl, struct pc_error *err)
{
	int n = rec_evlist_nr_slots(evl);

	for (int e = 0; e < evl->nr_evsels; e++) {
		struct rec_evsel *ev = evl->evsels[e];

		ev->fds = malloc(n * sizeof(int));
		ev->ids = calloc(n, sizeof(uint64_t));
		if (!ev->fds || !ev->ids)
			return pc_error_set(err, ENOMEM, "out of memory");
		for (int i = 0; i < n; i++)
			ev->fds[i] = -1;
	}
	return 0;
}

/*
 * -m, else 128 pages; with user stack copies (--call-graph dwarf: 8 KiB a
 * sample) 1024 pages (4 MiB) for root, whom perf_event_mlock_kb does not
 * limit: 4 kHz on two threads under a load of 10 on 2 cpus lost records
 * with 512 (bench/record), none with 1024.
 */
static unsigned int default_pages(const struct rec_evlist *evl, const struct rec_target *tg)
{
	if (tg->mmap_pages)
		return tg->mmap_pages;
	for (int e = 0; e < evl->nr_evsels; e++)
		if ((evl->evsels[e]->attr.attr.sample_type & PERF_SAMPLE_STACK_USER) &&
		    geteuid() == 0)
			return 1024;
	return 128;
}

/* The ring a slot's events write to: per cpu, or per thread with cpu -1. */
static int ring_index(const struct rec_evlist *evl, int c, int t)
{
	return evl->cpus[c] < 0 ? t : c;
}

static int open_one(struct rec_evlist *evl, const struct rec_target *tg, int e, int c, int t,
		    int *ring_fds, struct pc_error *err)
{
	struct rec_evsel *ev = evl->evsels[e];
	int slot = rec_evsel_slot(evl, c, t), r = ring_index(evl, c, t);
	struct pc_open_info info = { 0 };
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;
	pid_t pid = evl->threads[t];
	int group_fd = -1, fd, ret;
	uint64_t id;

	if (ev->every_cpu) {
		if (t > 0)
			return 0;	/* once per cpu, for any task */
		pid = -1;
	}
	if (ev->leader != e) {
		group_fd = evl->evsels[ev->leader]->fds[slot];
		if (group_fd < 0)
			return 0;	/* the leader's thread is gone */
	}
	if (ev->spec.cgroup_fd >= 0) {
		pid = ev->spec.cgroup_fd;
		flags |= PERF_FLAG_PID_CGROUP;
	}
	fd = pc_event_open(&ev->attr, ev->name, pid, evl->cpus[c], group_fd, flags, &info, err);
	if (fd == -ESRCH && tg->nr_pids && !tg->pids_are_tids) {
		/* a thread of the target ended since /proc was read */
		pc_error_clear(err);
		return 0;
	}
	if (fd < 0)
		return fd;
	ev->fds[slot] = fd;
	if (ev->filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, ev->filter) < 0)
		return pc_error_set(err, errno, "failed to set filter \"%s\" on event %s with %d (%s)",
				    ev->filter, ev->name, errno, strerror(errno));
	if (info.fell_back_to_cpu_clock) {
		pc_info("%s is not supported here, using cpu-clock\n", ev->name);
		snprintf(ev->name, sizeof(ev->name), "cpu-clock");
	}
	ev->cleared |= info.cleared;
	if (info.cleared)
		describe_cleared(ev->name, &info);
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return pc_error_set(err, errno, "%s: PERF_EVENT_IOC_ID: %s", ev->name,
				    strerror(errno));
	ev->ids[slot] = id;
	if (ring_fds[r] < 0) {
		ret = rec_ring_map(&evl->rings[evl->nr_rings], fd, evl->cpus[c],
				   default_pages(evl, tg), tg->overwrite, err);
		if (ret)
			return ret;
		evl->nr_rings++;
		ring_fds[r] = fd;
	} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring_fds[r]) < 0) {
		return pc_error_set(err, errno, "%s: PERF_EVENT_IOC_SET_OUTPUT on cpu %d: %s",
				    ev->name, evl->cpus[c], strerror(errno));
	}
	return 0;
}

int rec_evlist_open(struct rec_evlist *evl, const struct rec_target *tg, struct pc_error *err)
{
	int nr_ring_slots, *ring_fds, ret;

	if (tg->per_thread) {
		evl->cpus = malloc(sizeof(int));
		if (!evl->cpus)
			return pc_error_set(err, ENOMEM, "out of memory");
		evl->cpus[0] = -1;
		evl->nr_cpus = 1;
	} else {
		ret = rec_cpus_parse(tg->cpu_list, &evl->cpus, &evl->nr_cpus, err);
		if (ret)
			return ret;
	}
	ret = targets(evl, tg, err);
	if (!ret)
		ret = alloc_fds(evl, err);
	if (ret)
		return ret;
	nr_ring_slots = tg->per_thread ? evl->nr_threads : evl->nr_cpus;
	evl->rings = calloc(nr_ring_slots, sizeof(*evl->rings));
	ring_fds = malloc(nr_ring_slots * sizeof(int));
	if (!evl->rings || !ring_fds) {
		free(ring_fds);
		return pc_error_set(err, ENOMEM, "out of memory");
	}
	for (int i = 0; i < nr_ring_slots; i++)
		ring_fds[i] = -1;

	for (int e = 0; e < evl->nr_evsels; e++)
		rec_open_features_requested(evl->evsels[e]);
	for (int c = 0; c < evl->nr_cpus && !ret; c++)
		for (int e = 0; e < evl->nr_evsels && !ret; e++)
			for (int t = 0; t < evl->nr_threads && !ret; t++)
				ret = open_one(evl, tg, e, c, t, ring_fds, err);
	free(ring_fds);
	if (ret)
		return ret;
	if (!evl->nr_rings)
		return pc_error_set(err, ESRCH, "no event could be opened: the targets are gone");
	return 0;
}

int rec_evlist_enable(struct rec_evlist *evl, bool on)
{
	int n = rec_evlist_nr_slots(evl), ret = 0;

	/* a group follows its leader */
	for (int e = 0; e < evl->nr_evsels; e++) {
		struct rec_evsel *ev = evl->evsels[e];

		if (!ev->fds || ev->leader != e)
			continue;
		for (int i = 0; i < n; i++)
			if (ev->fds[i] >= 0 &&
			    ioctl(ev->fds[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE,
				  0) < 0)
				ret = -errno;
	}
	return ret;
}

void rec_evlist_close(struct rec_evlist *evl)
{
	int n = rec_evlist_nr_slots(evl);

	for (int i = 0; i < evl->nr_rings; i++)
		rec_ring_unmap(&evl->rings[i]);
	for (int e = 0; e < evl->nr_evsels; e++) {
		struct rec_evsel *ev = evl->evsels[e];

		if (ev->fds)
			for (int i = 0; i < n; i++)
				if (ev->fds[i] >= 0)
					close(ev->fds[i]);
		free(ev->fds);
		free(ev->ids);
		ev->fds = NULL;
		ev->ids = NULL;
	}
	free(evl->rings);
	free(evl->cpus);
	free(evl->threads);
	evl->rings = NULL;
	evl->cpus = NULL;
	evl->threads = NULL;
	evl->nr_rings = evl->nr_cpus = evl->nr_threads = 0;
}

void rec_evlist_free(struct rec_evlist *evl)
{
	rec_evlist_close(evl);
	for (int e = 0; e < evl->nr_evsels; e++) {
		if (evl->evsels[e]->spec.cgroup_fd >= 0)
			close(evl->evsels[e]->spec.cgroup_fd);
		free(evl->evsels[e]);
	}
	free(evl->evsels);
	memset(evl, 0, sizeof(*evl));
}
