// SPDX-License-Identifier: GPL-2.0
/*
 * Opens every event on every cpu for every thread through pc_event_open,
 * maps one ring per cpu and points the cpu's other events at it with
 * PERF_EVENT_IOC_SET_OUTPUT, so that one drain per cpu sees every event.
 * Per-cpu rings are what inherit needs: an inherited per-task event
 * cannot be mapped with cpu == -1.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "recorder/record.h"
#include "util/log.h"

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

static int targets(struct rec_evlist *evl, struct rec_opts *opts, pid_t workload,
		   struct pc_error *err)
{
	int ret;

	if (opts->system_wide)
		return add_thread(evl, -1, err);
	if (opts->nr_pids) {
		for (int i = 0; i < opts->nr_pids; i++) {
			if (opts->pids_are_tids) {
				char path[64];

				snprintf(path, sizeof(path), "/proc/%d", opts->pids[i]);
				if (access(path, F_OK))
					return pc_error_set(err, ESRCH, "-t %d: no such thread",
							    opts->pids[i]);
				ret = add_thread(evl, opts->pids[i], err);
			} else {
				ret = add_process_threads(evl, opts->pids[i], err);
			}
			if (ret)
				return ret;
		}
		return 0;
	}
	return add_thread(evl, workload, err);
}

static void describe_cleared(const char *name, const struct pc_open_info *info)
{
	for (int f = 0; f < PC_FEAT__COUNT; f++)
		if (info->cleared & (1ULL << f))
			pc_info("%s: the kernel lacks %s, recording without it\n", name,
				pc_feature_name(f));
}

int rec_evlist_open(struct rec_evlist *evl, struct rec_opts *opts, pid_t workload,
		    struct pc_error *err)
{
	unsigned int pages = opts->mmap_pages ? opts->mmap_pages : 128;
	size_t n;
	int ret;

	memset(evl, 0, sizeof(*evl));
	ret = rec_cpus_parse(opts->cpu_list, &evl->cpus, &evl->nr_cpus, err);
	if (ret)
		return ret;
	ret = targets(evl, opts, workload, err);
	if (ret)
		return ret;
	evl->nr_events = opts->nr_events;
	n = (size_t)evl->nr_events * evl->nr_cpus * evl->nr_threads;
	evl->fds = malloc(n * sizeof(int));
	evl->ids = calloc(n, sizeof(uint64_t));
	evl->rings = calloc(evl->nr_cpus, sizeof(*evl->rings));
	if (!evl->fds || !evl->ids || !evl->rings)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		evl->fds[i] = -1;

	rec_open_features_requested(opts);
	for (int c = 0; c < evl->nr_cpus; c++) {
		int ring_fd = -1;

		for (int e = 0; e < evl->nr_events; e++) {
			struct rec_event *ev = &opts->events[e];

			for (int t = 0; t < evl->nr_threads; t++) {
				struct pc_open_info info = { 0 };
				int *fdp = rec_evlist_fd(evl, e, c, t);
				uint64_t id;
				int fd;

				fd = pc_event_open(&ev->attr, ev->name, evl->threads[t], evl->cpus[c],
						   -1, PERF_FLAG_FD_CLOEXEC, &info, err);
				if (fd == -ESRCH && opts->nr_pids && !opts->pids_are_tids) {
					/* a thread of the target ended since /proc was read */
					pc_error_clear(err);
					continue;
				}
				if (fd < 0)
					return fd;
				*fdp = fd;
				if (info.fell_back_to_cpu_clock) {
					pc_info("%s is not supported here, using cpu-clock\n",
						ev->name);
					snprintf(ev->name, sizeof(ev->name), "cpu-clock");
				}
				ev->cleared |= info.cleared;
				if (info.cleared)
					describe_cleared(ev->name, &info);
				if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
					return pc_error_set(err, errno, "%s: PERF_EVENT_IOC_ID: %s",
							    ev->name, strerror(errno));
				evl->ids[rec_evlist_fd(evl, e, c, t) - evl->fds] = id;
				if (ring_fd < 0) {
					ret = rec_ring_map(&evl->rings[evl->nr_rings], fd,
							   evl->cpus[c], pages,
							   opts->out.overwrite, err);
					if (ret)
						return ret;
					evl->nr_rings++;
					ring_fd = fd;
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring_fd) < 0) {
					return pc_error_set(err, errno,
							    "%s: PERF_EVENT_IOC_SET_OUTPUT on cpu %d: %s",
							    ev->name, evl->cpus[c], strerror(errno));
				}
			}
		}
	}
	if (!evl->nr_rings)
		return pc_error_set(err, ESRCH, "no event could be opened: the targets are gone");
	return 0;
}

int rec_evlist_enable(struct rec_evlist *evl, bool on)
{
	size_t n = (size_t)evl->nr_events * evl->nr_cpus * evl->nr_threads;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		if (evl->fds[i] >= 0 &&
		    ioctl(evl->fds[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0) < 0)
			ret = -errno;
	return ret;
}

void rec_evlist_close(struct rec_evlist *evl)
{
	size_t n = (size_t)evl->nr_events * evl->nr_cpus * evl->nr_threads;

	for (int i = 0; i < evl->nr_rings; i++)
		rec_ring_unmap(&evl->rings[i]);
	if (evl->fds)
		for (size_t i = 0; i < n; i++)
			if (evl->fds[i] >= 0)
				close(evl->fds[i]);
	free(evl->fds);
	free(evl->ids);
	free(evl->rings);
	free(evl->cpus);
	free(evl->threads);
	memset(evl, 0, sizeof(*evl));
}
