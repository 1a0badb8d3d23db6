// SPDX-License-Identifier: GPL-2.0
/* The BPF side band (see bpf_sideband.h). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "recorder/bpf_sideband.h"
#include "recorder/events.h"
#include "util/log.h"

#define BOUNCE_LEN 65536

struct rec_bpf_sb {
	struct rec_evlist evl;
	struct rec_bpf_info *info;
	int stopfd;			/* eventfd: the main thread asks the end */
	uint8_t *bounce;
	pthread_t thread;
	bool started;
	uint64_t loads;			/* PROG_LOAD records seen */
	bool switching;			/* --switch-output-event's events are here */
	pthread_t recording;		/* the thread their records signal */
	uint64_t switches;		/* SIGUSR2 sent */
};

/* The records of a drained span: each PROG_LOAD's program gets its entry. */
static int sb_records(void *ctx, const void *buf, size_t len)
{
	struct rec_bpf_sb *sb = ctx;
	const uint8_t *p = buf, *end = p + len;

	while (end - p >= (ptrdiff_t)sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		uint16_t type;
		uint32_t id;

		memcpy(&h, p, sizeof(h));
		if (h.size < sizeof(h) || h.size > end - p)
			break;
		/* a record of a --switch-output-event event: a new file, as perf */
		if (h.type == PERF_RECORD_SAMPLE && sb->switching) {
			sb->switches++;
			pthread_kill(sb->recording, SIGUSR2);
		}
		/* type:16 flags:16 id:32 tag[8] */
		if (h.type == PC_RECORD_BPF_EVENT && h.size >= sizeof(h) + 16) {
			memcpy(&type, p + sizeof(h), sizeof(type));
			memcpy(&id, p + sizeof(h) + 4, sizeof(id));
			if (type == PERF_BPF_EVENT_PROG_LOAD) {
				sb->loads++;
				rec_bpf_info_add(sb->info, id);
			}
		}
		p += h.size;
	}
	return 0;
}

static void drain(struct rec_bpf_sb *sb)
{
	struct pc_error err = { 0 };

	for (int i = 0; i < sb->evl.nr_rings; i++)
		rec_ring_drain(&sb->evl.rings[i], sb->bounce, sb_records, sb, &err);
}

static void *sb_thread(void *arg)
{
	struct rec_bpf_sb *sb = arg;
	int n = sb->evl.nr_rings;
	struct pollfd *pfds = calloc(n + 1, sizeof(*pfds));

	if (!pfds)
		return NULL;
	for (int i = 0; i < n; i++)
		pfds[i] = (struct pollfd){ .fd = sb->evl.rings[i].fd, .events = POLLIN };
	pfds[n] = (struct pollfd){ .fd = sb->stopfd, .events = POLLIN };
	for (;;) {
		/* perf's side band thread looks every second (its events wake no one sooner) */
		if (poll(pfds, n + 1, sb->switching ? 1000 : -1) < 0 && errno != EINTR)
			break;
		drain(sb);
		if (pfds[n].revents)
			break;
		/* a per-task event whose task is gone: no more to wait for there */
		for (int i = 0; i < n; i++)
			if (pfds[i].revents & (POLLHUP | POLLERR))
				pfds[i].fd = -1;
	}
	drain(sb);
	free(pfds);
	return NULL;
}

static void sb_free(struct rec_bpf_sb *sb)
{
	rec_evlist_free(&sb->evl);
	if (sb->stopfd >= 0)
		close(sb->stopfd);
	free(sb->bounce);
	free(sb);
}

/* perf's attr for it, nothing more: a dummy that only asks for bpf_event */
static int add_event(struct rec_evlist *evl)
{
	struct rec_evsel *ev = rec_evlist_add(evl);
	struct perf_event_attr *a;

	if (!ev)
		return -ENOMEM;
	snprintf(ev->name, sizeof(ev->name), "dummy");
	a = &ev->attr.attr;
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->size = PERF_ATTR_SIZE_VER0;
	a->sample_id_all = 1;
	a->watermark = 1;
	a->wakeup_watermark = 1;
	a->bpf_event = 1;
	return 0;
}

/* --switch-output-event: the events as perf parses them, a tracepoint sampling each hit */
static int add_switch_events(struct rec_bpf_sb *sb, const char *spec, struct pc_error *err)
{
	int first = sb->evl.nr_evsels, ret = rec_events_parse(&sb->evl, spec, err);

	if (ret)
		return ret;
	for (int i = first; i < sb->evl.nr_evsels; i++) {
		struct perf_event_attr *a = &sb->evl.evsels[i]->attr.attr;

		if (sb->evl.evsels[i]->tracepoint && !a->sample_period) {
			a->sample_period = 1;
			a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
		}
	}
	sb->switching = true;
	sb->recording = pthread_self();
	return 0;
}

int rec_bpf_sb_start(struct rec_bpf_sb **out, const struct rec_target *target,
		     struct rec_bpf_info *info, const char *switch_events, struct pc_error *err)
{
	struct rec_bpf_sb *sb = calloc(1, sizeof(*sb));
	struct rec_target t = *target;
	int ret;

	*out = NULL;
	if (!sb)
		return pc_error_set(err, ENOMEM, "out of memory");
	sb->stopfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	sb->bounce = malloc(BOUNCE_LEN);
	sb->info = info;
	if (sb->stopfd < 0 || !sb->bounce || (info && add_event(&sb->evl))) {
		ret = pc_error_set(err, sb->stopfd < 0 ? errno : ENOMEM, "BPF side band: %s",
				   strerror(sb->stopfd < 0 ? errno : ENOMEM));
		sb_free(sb);
		return ret;
	}
	if (switch_events && (ret = add_switch_events(sb, switch_events, err))) {
		sb_free(sb);
		return ret;
	}
	/* the processes and threads of -p/-t/-u, else every task (a workload too) */
	t.system_wide = !t.nr_pids;
	t.workload = -1;
	t.mmap_pages = 0;
	t.overwrite = false;
	ret = rec_evlist_open(&sb->evl, &t, err);
	if (!ret) {
		ret = -pthread_create(&sb->thread, NULL, sb_thread, sb);
		if (ret)
			pc_error_set(err, -ret, "BPF side band thread: %s", strerror(-ret));
	}
	if (ret) {
		sb_free(sb);
		return ret;
	}
	sb->started = true;
	*out = sb;
	return 0;
}

void rec_bpf_sb_stop(struct rec_bpf_sb *sb)
{
	uint64_t one = 1;

	if (!sb)
		return;
	if (sb->started) {
		/* an eventfd write fails only past 2^64 - 2 */
		if (write(sb->stopfd, &one, sizeof(one)) == sizeof(one))
			pthread_join(sb->thread, NULL);
	}
	pc_debug("side band: %llu BPF programs loaded during the recording, %llu switches asked\n",
		 (unsigned long long)sb->loads, (unsigned long long)sb->switches);
	sb_free(sb);
}
