// SPDX-License-Identifier: GPL-2.0
/*
 * One kernel ring buffer: mapped read-write so that data_tail tells the
 * kernel what we consumed (it never overwrites unread data; it counts the
 * loss in a PERF_RECORD_LOST instead).  The drain hands out big spans of
 * whole records straight from the mapping; only the one record that
 * straddles the end of the buffer is copied.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "recorder/ring.h"
#include "uapi/perf_compat.h"

int rec_ring_map(struct rec_ring *ring, int fd, int cpu, unsigned int pages, bool overwrite,
		 struct pc_error *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(ring, 0, sizeof(*ring));
	ring->fd = fd;
	ring->cpu = cpu;
	ring->overwrite = overwrite;
	ring->map_len = (pages + 1) * page;
	ring->base = mmap(NULL, ring->map_len, overwrite ? PROT_READ : PROT_READ | PROT_WRITE,
			  MAP_SHARED, fd, 0);
	if (ring->base == MAP_FAILED) {
		int e = errno;

		ring->base = NULL;
		if (e == EPERM)
			return pc_error_set(err, e,
					    "mmap of %u pages on cpu %d: %s (over "
					    "/proc/sys/kernel/perf_event_mlock_kb? try -m)",
					    pages, cpu, strerror(e));
		return pc_error_set(err, e, "mmap of %u pages on cpu %d: %s", pages, cpu,
				    strerror(e));
	}
	ring->data = (uint8_t *)ring->base + page;
	ring->size = (uint64_t)pages * page;
	ring->mask = ring->size - 1;
	return 0;
}

void rec_ring_unmap(struct rec_ring *ring)
{
	if (ring->base)
		munmap(ring->base, ring->map_len);
	ring->base = NULL;
}

uint64_t rec_ring_pending(const struct rec_ring *ring)
{
	const struct perf_event_mmap_page *pc = ring->base;

	return __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE) - pc->data_tail;
}

static int bad_record(struct rec_ring *ring, uint64_t pos, uint32_t size, struct pc_error *err)
{
	return pc_error_set(err, EPROTO, "cpu %d ring: record of size %u at 0x%llx is malformed",
			    ring->cpu, size, (unsigned long long)pos);
}

ssize_t rec_ring_drain(struct rec_ring *ring, uint8_t *bounce, rec_sink_fn sink,
		       void *ctx, struct pc_error *err)
{
	struct perf_event_mmap_page *pc = ring->base;
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pc->data_tail;
	uint64_t len = head - tail, start = tail & ring->mask, done = 0;
	int ret;

	if (!len)
		return 0;
	if (len > ring->size)
		return pc_error_set(err, EPROTO, "cpu %d ring: head 0x%llx is %llu bytes past "
				    "tail, more than the buffer", ring->cpu,
				    (unsigned long long)head, (unsigned long long)len);
	if (start + len > ring->size) {
		/* find the last whole record before the end of the buffer */
		uint64_t pos = start;

		while (pos < ring->size) {
			const struct perf_event_header *h = (const void *)(ring->data + pos);

			if (h->size < sizeof(*h) || (h->size & 7))
				return bad_record(ring, tail + (pos - start), h->size, err);
			if (pos + h->size > ring->size)
				break;
			pos += h->size;
		}
		if (pos > start) {
			ret = sink(ctx, ring->data + start, pos - start);
			if (ret < 0)
				goto out;
			done = pos - start;
		}
		if (pos < ring->size) {
			const struct perf_event_header *h = (const void *)(ring->data + pos);
			uint64_t first = ring->size - pos, sz = h->size;

			if (done + sz > len)
				return bad_record(ring, tail + done, h->size, err);
			memcpy(bounce, ring->data + pos, first);
			memcpy(bounce + first, ring->data, sz - first);
			ret = sink(ctx, bounce, sz);
			if (ret < 0)
				goto out;
			done += sz;
		}
		start = (tail + done) & ring->mask;
	}
	if (done < len) {
		ret = sink(ctx, ring->data + start, len - done);
		if (ret < 0)
			goto out;
		done = len;
	}
	ret = 0;
out:
	/* what the sink took, or all of it on error: the loop stops anyway */
	__atomic_store_n(&pc->data_tail, ret < 0 ? head : tail + done, __ATOMIC_RELEASE);
	return ret < 0 ? ret : (ssize_t)done;
}

/*
 * A write_backward ring: the kernel moves data_head down from 0 and writes
 * each record at the new head, so from head upwards the records go from
 * the newest to the oldest.  Until it has wrapped they end at 0 (-head
 * bytes); after, the last whole record within one buffer's length ends
 * them (the bytes after it belong to a record already overwritten).
 */
ssize_t rec_ring_read_backward(struct rec_ring *ring, uint8_t *bounce, rec_sink_fn sink,
			       void *ctx, struct pc_error *err)
{
	struct perf_event_mmap_page *pc = ring->base;
	uint64_t head, avail, pos = 0;
	int ret = 0;

	ioctl(ring->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	avail = -head < ring->size ? -head : ring->size;
	while (pos + sizeof(struct perf_event_header) <= avail && !ret) {
		uint64_t off = (head + pos) & ring->mask;
		struct perf_event_header h;

		if (off + sizeof(h) <= ring->size) {
			memcpy(&h, ring->data + off, sizeof(h));
		} else {
			size_t first = ring->size - off;

			memcpy(&h, ring->data + off, first);
			memcpy((uint8_t *)&h + first, ring->data, sizeof(h) - first);
		}
		if (!h.size)
			break;			/* never written */
		if (h.size < sizeof(h) || (h.size & 7)) {
			ret = bad_record(ring, head + pos, h.size, err);
			break;
		}
		if (pos + h.size > avail)
			break;			/* partly overwritten by the newest */
		if (off + h.size <= ring->size) {
			ret = sink(ctx, ring->data + off, h.size);
		} else {
			size_t first = ring->size - off;

			memcpy(bounce, ring->data + off, first);
			memcpy(bounce + first, ring->data, h.size - first);
			ret = sink(ctx, bounce, h.size);
		}
		pos += h.size;
	}
	ioctl(ring->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	return ret < 0 ? ret : (ssize_t)pos;
}
