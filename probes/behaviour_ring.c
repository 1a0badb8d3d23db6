// SPDX-License-Identifier: GPL-2.0
/*
 * What every behaviour check needs: the verdict setters, an event opened
 * through pc_event_open, a minimal reader of the check's own mmap ring,
 * and the layout of the sample fields the checks ask for.  Sizes read from
 * the ring are checked against the ring and the record before use.
 */
#include "probes/behaviour_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static void set(struct pc_behaviour_result *r, enum pc_behaviour v, const char *fmt, va_list ap)
{
	r->verdict = v;
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
}

void bh_proven(struct pc_behaviour_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set(r, PC_BEHAVIOUR_PROVEN, fmt, ap);
	va_end(ap);
}

void bh_broken(struct pc_behaviour_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set(r, PC_BEHAVIOUR_BROKEN, fmt, ap);
	va_end(ap);
}

void bh_not_tested(struct pc_behaviour_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set(r, PC_BEHAVIOUR_NOT_TESTED, fmt, ap);
	va_end(ap);
}

void bh_attr_sideband(union pc_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->attr.type = PERF_TYPE_SOFTWARE;
	a->attr.config = PERF_COUNT_SW_DUMMY;
	a->attr.size = sizeof(struct perf_event_attr);
	a->attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a->attr.sample_id_all = 1;
	a->attr.exclude_kernel = 1;
	a->attr.exclude_hv = 1;
}

void bh_attr_sampling(union pc_attr *a, uint32_t type, uint64_t config, uint64_t period,
		      uint64_t sample_type)
{
	memset(a, 0, sizeof(*a));
	a->attr.type = type;
	a->attr.config = config;
	a->attr.size = sizeof(struct perf_event_attr);
	a->attr.sample_period = period;
	a->attr.sample_type = sample_type;
	a->attr.exclude_kernel = 1;
	a->attr.exclude_hv = 1;
}

int bh_open(struct pc_behaviour_result *r, union pc_attr *a, const char *what, pid_t pid,
	    unsigned long flags)
{
	struct pc_open_info info;
	struct pc_error err;
	int fd = pc_event_open(a, what, pid, -1, -1, flags | PERF_FLAG_FD_CLOEXEC, &info, &err);

	if (fd < 0) {
		if (err.code == EACCES || err.code == EPERM)
			bh_not_tested(r, "%s", err.msg);
		else
			bh_broken(r, "accepted by the probe, but the check's event does not open: %s",
				  err.msg);
		return -1;
	}
	if (info.cleared & ~(1ULL << PC_FEAT_FD_CLOEXEC)) {
		char names[160] = "";
		size_t n = 0;

		for (int f = 0; f < PC_FEAT__COUNT; f++)
			if ((info.cleared >> f) & 1 && n < sizeof(names))
				n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
						      n ? ", " : "", pc_feature_name(f));
		bh_broken(r, "opening %s switched off %s", what, names);
		close(fd);
		return -1;
	}
	return fd;
}

int bh_enable(int fd, bool on)
{
	return ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0) < 0 ? -errno : 0;
}

int bh_read(int fd, uint64_t *words, size_t n)
{
	ssize_t got = read(fd, words, n * sizeof(*words));

	if (got < 0)
		return -errno;
	if ((size_t)got != n * sizeof(*words))
		return -EIO;
	return 0;
}

int bh_ring_map(struct bh_ring *ring, int fd, unsigned int data_pages, bool writable)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(ring, 0, sizeof(*ring));
	ring->fd = fd;
	ring->mmap_len = (1 + (size_t)data_pages) * page;
	ring->data_size = (uint64_t)data_pages * page;
	ring->base = mmap(NULL, ring->mmap_len, PROT_READ | (writable ? PROT_WRITE : 0),
			  MAP_SHARED, fd, 0);
	if (ring->base == MAP_FAILED) {
		ring->base = NULL;
		return -errno;
	}
	ring->copy = malloc(65536);
	if (!ring->copy) {
		munmap(ring->base, ring->mmap_len);
		ring->base = NULL;
		return -ENOMEM;
	}
	return 0;
}

uint64_t bh_ring_head(const struct bh_ring *ring)
{
	const struct perf_event_mmap_page *pg = (const void *)ring->base;

	return __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

const struct perf_event_header *bh_ring_next(struct bh_ring *ring)
{
	const uint8_t *data = ring->base + (ring->mmap_len - ring->data_size);
	uint64_t head = bh_ring_head(ring), off, first;
	struct perf_event_header h;

	if (head - ring->tail < sizeof(h) || head - ring->tail > ring->data_size) {
		if (head != ring->tail && head - ring->tail > ring->data_size)
			ring->bad++;	/* overwritten: what is left is not whole */
		return NULL;
	}
	off = ring->tail % ring->data_size;
	first = ring->data_size - off;
	if (first >= sizeof(h)) {
		memcpy(&h, data + off, sizeof(h));
	} else {
		memcpy(&h, data + off, first);
		memcpy((uint8_t *)&h + first, data, sizeof(h) - first);
	}
	if (h.size < sizeof(h) || h.size % 8 || h.size > head - ring->tail) {
		ring->bad++;
		return NULL;
	}
	if (first >= h.size) {
		memcpy(ring->copy, data + off, h.size);
	} else {
		memcpy(ring->copy, data + off, first);
		memcpy(ring->copy + first, data, h.size - first);
	}
	ring->tail += h.size;
	return (const struct perf_event_header *)ring->copy;
}

void bh_ring_unmap(struct bh_ring *ring)
{
	if (ring->base)
		munmap(ring->base, ring->mmap_len);
	free(ring->copy);
	ring->base = NULL;
	ring->copy = NULL;
}

/* ---- sample layout ---- */

struct cursor {
	const uint8_t *p, *end;
	bool short_read;
};

static uint64_t u64(struct cursor *c)
{
	uint64_t v = 0;

	if ((size_t)(c->end - c->p) < 8) {
		c->short_read = true;
		c->p = c->end;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}

#define BH_SAMPLE_KNOWN (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
	PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | \
	PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_CGROUP | \
	PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)

int bh_parse_sample(const struct perf_event_header *h, uint64_t st, uint64_t rf,
		    struct bh_sample *s)
{
	struct cursor c = { (const uint8_t *)(h + 1), (const uint8_t *)h + h->size, false };
	uint64_t v;

	memset(s, 0, sizeof(*s));
	if (st & ~(uint64_t)BH_SAMPLE_KNOWN || rf & PERF_FORMAT_GROUP)
		return -EINVAL;
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = u64(&c);
	if (st & PERF_SAMPLE_IP)
		s->ip = u64(&c);
	if (st & PERF_SAMPLE_TID) {
		v = u64(&c);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (st & PERF_SAMPLE_TIME)
		s->time = u64(&c);
	if (st & PERF_SAMPLE_ADDR)
		s->addr = u64(&c);
	if (st & PERF_SAMPLE_ID)
		s->id = u64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		u64(&c);
	if (st & PERF_SAMPLE_CPU)
		s->cpu = (uint32_t)u64(&c);
	if (st & PERF_SAMPLE_PERIOD)
		s->period = u64(&c);
	if (st & PERF_SAMPLE_READ) {
		int n = 1;

		n += !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
		n += !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		for (int i = 0; i < n; i++)
			s->read[i] = u64(&c);
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->nr = u64(&c);
		if (s->nr > (uint64_t)(c.end - c.p) / 8)
			return -EBADMSG;
		s->ips = (const uint64_t *)c.p;
		c.p += s->nr * 8;
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s->weight = u64(&c);
	if (st & PERF_SAMPLE_CGROUP)
		s->cgroup = u64(&c);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = u64(&c);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = u64(&c);
	if (c.short_read || c.p != c.end)
		return -EBADMSG;	/* the layout does not add up to the record's size */
	return 0;
}

size_t bh_sample_id_size(uint64_t st)
{
	size_t n = 0;

	n += !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ID);
	n += !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU);
	n += !!(st & PERF_SAMPLE_IDENTIFIER);
	return n * 8;
}

int bh_parse_sample_id(const struct perf_event_header *h, uint64_t st, struct bh_sample *s)
{
	size_t n = bh_sample_id_size(st);
	struct cursor c;
	uint64_t v;

	memset(s, 0, sizeof(*s));
	if (h->size < sizeof(*h) + n)
		return -EBADMSG;
	c.p = (const uint8_t *)h + h->size - n;
	c.end = (const uint8_t *)h + h->size;
	c.short_read = false;
	if (st & PERF_SAMPLE_TID) {
		v = u64(&c);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (st & PERF_SAMPLE_TIME)
		s->time = u64(&c);
	if (st & PERF_SAMPLE_ID)
		s->id = u64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		u64(&c);
	if (st & PERF_SAMPLE_CPU)
		s->cpu = (uint32_t)u64(&c);
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = u64(&c);
	return c.short_read ? -EBADMSG : 0;
}
