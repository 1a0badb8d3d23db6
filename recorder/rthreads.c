// SPDX-License-Identifier: GPL-2.0
/*
 * record --threads: the reading threads.  Each sleeps in poll() on its
 * rings and on the set's stop eventfd, drains the rings that woke it into
 * their data.N and flushes them after each pass (a SIGKILL loses at most
 * the pass in flight, as with one file).  Signals stay blocked in them
 * (they inherit the main thread's mask), so the main thread alone sees
 * SIGINT, --timeout and the workload's end; it sets stopping and writes
 * the eventfd, and each reader drains its rings a last time, whatever
 * --mmap-flush says, and ends.  A reader whose write fails (ENOSPC) stops
 * reading and tells the main thread through the notify eventfd.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "recorder/rthreads.h"
#include "util/log.h"

#define BOUNCE_SIZE 65536		/* the largest record a ring holds */

/* One ring and its data.N. */
struct rec_rring {
	int ring;			/* index in evl->rings, and the N of data.N */
	struct pd_writer w;
	struct rec_output out;
	bool open;			/* w is open (not finished yet) */
};

struct rec_rthread {
	struct rec_rthreads *set;
	pthread_t tid;
	bool started;
	cpu_set_t affinity;
	int *rings;			/* indices into set->rrings */
	int nr_rings;
	uint8_t *bounce;
};

struct rec_rthreads {
	struct rec_evlist *evl;
	struct rec_rring **rrings;	/* one per ring, by ring index */
	int nr_rrings;
	struct rec_rthread **threads;
	int nr_threads;
	struct rec_rthreads_conf conf;
	pthread_mutex_t lock;		/* the DSO table's */
	int stop_fd, notify_fd;		/* eventfds: main -> readers, readers -> main */
	bool stopping;			/* atomic: the last drain, then the end */
	int failed;			/* atomic: 1 + the rring whose write failed, 0 */
	bool size_limit;		/* atomic */
	uint64_t bytes;			/* atomic: bytes handed to every data.N */
	uint64_t main_bytes;		/* atomic: the header file's, for --max-size */
};

static void notify_main(struct rec_rthreads *set)
{
	uint64_t one = 1;

	if (write(set->notify_fd, &one, sizeof(one)) < 0)
		pc_debug("rthreads: notify: %s\n", strerror(errno));
}

int rec_rthreads_new(struct rec_rthreads **out, struct rec_evlist *evl,
		     const struct rec_threads_layout *layout, const struct rec_rthreads_conf *conf,
		     struct pc_error *err)
{
	struct rec_rthreads *set = calloc(1, sizeof(*set));

	*out = NULL;
	if (!set)
		return pc_error_set(err, ENOMEM, "out of memory");
	set->evl = evl;
	set->conf = *conf;
	set->stop_fd = set->notify_fd = -1;
	pthread_mutex_init(&set->lock, NULL);
	*out = set;
	set->rrings = calloc(evl->nr_rings ? evl->nr_rings : 1, sizeof(*set->rrings));
	set->threads = calloc(layout->nr_threads ? layout->nr_threads : 1, sizeof(*set->threads));
	if (!set->rrings || !set->threads)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < evl->nr_rings; i++) {
		set->rrings[i] = calloc(1, sizeof(**set->rrings));
		if (!set->rrings[i])
			return pc_error_set(err, ENOMEM, "out of memory");
		set->nr_rrings++;
		set->rrings[i]->ring = i;
		set->rrings[i]->out.dsos = conf->dsos;
		set->rrings[i]->out.dsos_lock = &set->lock;
	}
	for (int t = 0; t < layout->nr_threads; t++) {
		struct rec_rthread *th = calloc(1, sizeof(*th));

		if (!th)
			return pc_error_set(err, ENOMEM, "out of memory");
		set->threads[set->nr_threads++] = th;
		th->set = set;
		th->affinity = layout->affinity[t];
		th->rings = calloc(evl->nr_rings ? evl->nr_rings : 1, sizeof(int));
		th->bounce = malloc(BOUNCE_SIZE);
		if (!th->rings || !th->bounce)
			return pc_error_set(err, ENOMEM, "out of memory");
		for (int i = 0; i < evl->nr_rings; i++)
			if (layout->ring_thread[i] == t)
				th->rings[th->nr_rings++] = i;
	}
	set->stop_fd = eventfd(0, EFD_CLOEXEC);
	set->notify_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (set->stop_fd < 0 || set->notify_fd < 0)
		return pc_error_set(err, errno, "eventfd: %s", strerror(errno));
	return 0;
}

int rec_rthreads_open_files(struct rec_rthreads *set, const char *dir, struct pc_error *err)
{
	for (int i = 0; i < set->nr_rrings; i++) {
		struct rec_rring *rr = set->rrings[i];
		char path[4096];
		int ret;

		if (snprintf(path, sizeof(path), "%s/data.%d", dir, rr->ring) >= (int)sizeof(path))
			return pc_error_set(err, ENAMETOOLONG, "%s: name too long", dir);
		ret = pd_writer_open_records(&rr->w, path, err);
		if (ret)
			return ret;
		rr->open = true;
		rr->out.w = &rr->w;
		if (set->conf.comp_level) {
			/* perf's mmap_len for the reader's buffer: the data pages and the control page */
			ret = pd_writer_set_compression(&rr->w, set->conf.comp_level,
							(uint32_t)set->evl->rings[rr->ring].map_len,
							err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int rec_rthreads_set_dir(struct rec_rthreads *set, const char *dir, struct pc_error *err)
{
	for (int i = 0; i < set->nr_rrings; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/data.%d", dir, set->rrings[i]->ring);
		if (set->rrings[i]->open && pd_writer_set_path(&set->rrings[i]->w, path, err))
			return -ENOMEM;
	}
	return 0;
}

pthread_mutex_t *rec_rthreads_lock(struct rec_rthreads *set)
{
	return &set->lock;
}

int rec_rthreads_notify_fd(const struct rec_rthreads *set)
{
	return set->notify_fd;
}

/* --mmap-flush: at most a quarter of the ring, as perf caps it; nothing on the last pass */
static uint64_t flush_min(const struct rec_rthreads *set, const struct rec_ring *ring, bool last)
{
	uint64_t min = set->conf.mmap_flush;

	if (last || min <= 1)
		return 0;
	return min > ring->size / 4 ? ring->size / 4 : min;
}

static void fail_ring(struct rec_rthreads *set, struct rec_rring *rr)
{
	int none = 0;

	__atomic_compare_exchange_n(&set->failed, &none, rr->ring + 1, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	notify_main(set);
}

/* One pass over the thread's rings; -1 when a ring's file failed. */
static int drain_pass(struct rec_rthread *th, bool last)
{
	struct rec_rthreads *set = th->set;
	uint64_t pass = 0;

	for (int k = 0; k < th->nr_rings; k++) {
		struct rec_rring *rr = set->rrings[th->rings[k]];
		struct rec_ring *ring = &set->evl->rings[rr->ring];
		uint64_t before = rr->out.stats.bytes, min = flush_min(set, ring, last);
		ssize_t n;

		if (ring->overwrite)
			continue;	/* --overwrite: read once, at the end */
		if (min && rec_ring_pending(ring) < min)
			continue;
		n = rec_ring_drain(ring, th->bounce, rec_output_records, &rr->out, &rr->out.err);
		/* whole passes reach the disk (with -z the writer's buffer fills first) */
		if (n >= 0 && rr->out.stats.bytes != before && !set->conf.comp_level) {
			int ret = pd_writer_flush(&rr->w, &rr->out.err);

			if (ret) {
				rr->out.write_errno = -ret;
				n = ret;
			}
		}
		if (n < 0) {
			fail_ring(set, rr);
			return -1;
		}
		pass += rr->out.stats.bytes - before;
	}
	if (pass && set->conf.max_size &&
	    __atomic_add_fetch(&set->bytes, pass, __ATOMIC_SEQ_CST) +
	    __atomic_load_n(&set->main_bytes, __ATOMIC_ACQUIRE) >= set->conf.max_size &&
	    !__atomic_exchange_n(&set->size_limit, true, __ATOMIC_SEQ_CST))
		notify_main(set);
	return 0;
}

static void *reader_main(void *arg)
{
	struct rec_rthread *th = arg;
	struct rec_rthreads *set = th->set;
	struct pollfd *pfds = calloc(th->nr_rings + 1, sizeof(*pfds));

	if (!pfds) {
		fail_ring(set, set->rrings[th->rings[0]]);
		return NULL;
	}
	/* perf's thread affinity mask; where the kernel refuses, it reads from where it runs */
	if (pthread_setaffinity_np(pthread_self(), sizeof(th->affinity), &th->affinity))
		pc_debug("rthreads: cannot set a reader's affinity\n");
	for (int k = 0; k < th->nr_rings; k++)
		pfds[k] = (struct pollfd){ .fd = set->evl->rings[th->rings[k]].fd, .events = POLLIN };
	pfds[th->nr_rings] = (struct pollfd){ .fd = set->stop_fd, .events = POLLIN };
	for (;;) {
		bool last = __atomic_load_n(&set->stopping, __ATOMIC_ACQUIRE);

		if (drain_pass(th, last) || last)
			break;
		if (poll(pfds, th->nr_rings + 1, -1) < 0 && errno != EINTR)
			break;
		for (int k = 0; k < th->nr_rings; k++)
			/* the ring's tasks are gone: drained on the next pass, no more polled */
			if (pfds[k].revents & (POLLHUP | POLLERR))
				pfds[k].fd = -1;
		set->rrings[th->rings[0]]->out.stats.wakeups++;
	}
	free(pfds);
	return NULL;
}

int rec_rthreads_start(struct rec_rthreads *set, struct pc_error *err)
{
	for (int t = 0; t < set->nr_threads; t++) {
		struct rec_rthread *th = set->threads[t];
		int ret;

		if (!th->nr_rings)
			continue;
		ret = pthread_create(&th->tid, NULL, reader_main, th);
		if (ret) {
			rec_rthreads_stop(set);
			return pc_error_set(err, ret, "cannot start reading thread %d: %s", t,
					    strerror(ret));
		}
		th->started = true;
	}
	return 0;
}

int rec_rthreads_state(struct rec_rthreads *set, struct pc_error *err, int *write_errno,
		       bool *size_limit)
{
	uint64_t v;
	int failed = __atomic_load_n(&set->failed, __ATOMIC_ACQUIRE);

	while (read(set->notify_fd, &v, sizeof(v)) == sizeof(v))
		;
	*size_limit = __atomic_load_n(&set->size_limit, __ATOMIC_ACQUIRE);
	*write_errno = 0;
	if (!failed)
		return 0;
	*err = set->rrings[failed - 1]->out.err;
	*write_errno = set->rrings[failed - 1]->out.write_errno;
	return 1;
}

uint64_t rec_rthreads_add_main_bytes(struct rec_rthreads *set, uint64_t main)
{
	__atomic_store_n(&set->main_bytes, main, __ATOMIC_RELEASE);
	return main + __atomic_load_n(&set->bytes, __ATOMIC_ACQUIRE);
}

void rec_rthreads_stop(struct rec_rthreads *set)
{
	uint64_t one = 1;

	if (!set)
		return;
	__atomic_store_n(&set->stopping, true, __ATOMIC_RELEASE);
	if (set->stop_fd >= 0 && write(set->stop_fd, &one, sizeof(one)) < 0)
		pc_debug("rthreads: stop: %s\n", strerror(errno));
	for (int t = 0; t < set->nr_threads; t++) {
		if (!set->threads[t]->started)
			continue;
		pthread_join(set->threads[t]->tid, NULL);
		set->threads[t]->started = false;
	}
}

int rec_rthreads_read_overwritten(struct rec_rthreads *set, struct pc_error *err)
{
	uint8_t *bounce = malloc(BOUNCE_SIZE);

	if (!bounce)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < set->nr_rrings; i++) {
		struct rec_rring *rr = set->rrings[i];
		ssize_t n;

		if (!rr->open)
			continue;
		n = rec_ring_read_backward(&set->evl->rings[rr->ring], bounce, rec_output_records,
					   &rr->out, err);
		if (n < 0) {
			if (rr->out.err.code)
				*err = rr->out.err;
			free(bounce);
			return (int)n;
		}
	}
	free(bounce);
	return 0;
}

static void add_stats(struct rec_stats *st, const struct rec_stats *s)
{
	st->samples += s->samples;
	st->records += s->records;
	st->lost += s->lost;
	st->lost_samples += s->lost_samples;
	st->bytes += s->bytes;
	st->wakeups += s->wakeups;
	if (s->first_time && (!st->first_time || s->first_time < st->first_time))
		st->first_time = s->first_time;
	if (s->last_time > st->last_time)
		st->last_time = s->last_time;
}

int rec_rthreads_finish(struct rec_rthreads *set, struct rec_stats *st, uint64_t *in,
			uint64_t *out, struct pc_error *err)
{
	int first = 0;

	for (int i = 0; i < set->nr_rrings; i++) {
		struct rec_rring *rr = set->rrings[i];
		struct pc_error e = { 0 };
		uint64_t a, b;

		add_stats(st, &rr->out.stats);
		if (!rr->open)
			continue;
		/* the last buffer (with -z, the last frame) counts in the totals */
		if (!rr->w.failed && pd_writer_flush(&rr->w, &e) && !first) {
			*err = e;
			first = e.code ? -e.code : -EIO;
		}
		pd_writer_totals(&rr->w, &a, &b);
		*in += a;
		*out += b;
		rr->open = false;
		if (pd_writer_finish(&rr->w, &e) && !first) {
			*err = e;
			first = e.code ? -e.code : -EIO;
		}
	}
	return first;
}

void rec_rthreads_free(struct rec_rthreads *set)
{
	if (!set)
		return;
	rec_rthreads_stop(set);
	for (int i = 0; i < set->nr_rrings; i++) {
		if (set->rrings[i]->open)
			pd_writer_abort(&set->rrings[i]->w);
		free(set->rrings[i]);
	}
	for (int t = 0; t < set->nr_threads; t++) {
		free(set->threads[t]->rings);
		free(set->threads[t]->bounce);
		free(set->threads[t]);
	}
	free(set->rrings);
	free(set->threads);
	if (set->stop_fd >= 0)
		close(set->stop_fd);
	if (set->notify_fd >= 0)
		close(set->notify_fd);
	pthread_mutex_destroy(&set->lock);
	free(set);
}
