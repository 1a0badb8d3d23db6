// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of the rows about the ring itself: write_backward (an
 * overwrite ring read after the fact) and read_lost (PERF_FORMAT_LOST
 * against what a one-page ring kept).
 */
#include "probes/behaviour_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* ---- write_backward ---- */

#define RENAMES 600

/*
 * write_backward: a one-page overwrite ring (mapped read-only) of COMM
 * records from 600 renames, paused and read after the fact from data_head:
 * the newest rename first, then each older one, every record whole, until
 * the ring's end.
 */
void bh_check_write_backward(struct pc_behaviour_result *r)
{
	char old[17] = "", name[17];
	struct bh_ring ring;
	union pc_attr a;
	uint64_t head, pos;
	const uint8_t *data;
	int fd, expect = RENAMES - 1, whole = 0, wrong = 0;

	bh_attr_sideband(&a);
	a.attr.comm = 1;
	a.attr.write_backward = 1;
	fd = bh_open(r, &a, "dummy with write_backward", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, 1, false) < 0) {
		bh_broken(r, "cannot map the overwrite ring: %s", strerror(errno));
		close(fd);
		return;
	}
	prctl(PR_GET_NAME, (unsigned long)old, 0, 0, 0);
	for (int i = 0; i < RENAMES; i++) {
		snprintf(name, sizeof(name), "pcbh-%04d", i);
		prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
	}
	if (ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1) < 0) {
		bh_broken(r, "PERF_EVENT_IOC_PAUSE_OUTPUT: %s", strerror(errno));
		goto out;
	}
	prctl(PR_SET_NAME, (unsigned long)old, 0, 0, 0);
	head = bh_ring_head(&ring);
	data = ring.base + (ring.mmap_len - ring.data_size);
	/* backward: head is where the newest record starts; older ones follow */
	for (pos = head; pos - head + sizeof(struct perf_event_header) <= ring.data_size;) {
		struct perf_event_header h;
		uint8_t rec[64];
		uint64_t off = pos % ring.data_size;

		for (size_t i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = data[(off + i) % ring.data_size];
		if (h.size < sizeof(h) || pos - head + h.size > ring.data_size)
			break;		/* the oldest, cut by the newer ones */
		if (h.type != PERF_RECORD_COMM || h.size > sizeof(rec)) {
			wrong++;
			break;
		}
		for (size_t i = 0; i < h.size; i++)
			rec[i] = data[(off + i) % ring.data_size];
		snprintf(name, sizeof(name), "pcbh-%04d", expect);
		if (expect < 0 || strncmp((char *)rec + sizeof(h) + 8, name, 16)) {
			wrong++;
			break;
		}
		whole++;
		expect--;
		pos += h.size;
	}
	if (head == 0)
		bh_broken(r, "data_head is 0 after %d COMM records", RENAMES);
	else if (wrong || whole < 2)
		bh_broken(r, "reading back from data_head: %d whole COMM records in order, then %s",
			  whole, wrong ? "one out of sequence" : "nothing");
	else
		bh_proven(r, "after %d renames the %zu-byte ring holds the newest %d COMM records whole, "
			  "newest first (pcbh-%04d down to pcbh-%04d)", RENAMES, (size_t)ring.data_size,
			  whole, RENAMES - 1, expect + 1);
out:
	bh_ring_unmap(&ring);
	close(fd);
}

/* ---- read_lost ---- */

/*
 * read_lost: page-fault samples (period 1) into a one-page ring nobody
 * drains: read() with PERF_FORMAT_LOST must count exactly the faults that
 * found no room, i.e. count = samples in the ring + lost.
 */
void bh_check_read_lost(struct pc_behaviour_result *r)
{
	const struct perf_event_header *h;
	struct bh_ring ring;
	union pc_attr a;
	uint64_t v[2];
	int fd, samples = 0, other = 0, ret;

	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1,
			 PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	a.attr.read_format = PERF_FORMAT_LOST;
	a.attr.disabled = 1;
	fd = bh_open(r, &a, "page-faults with read_lost", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, 1, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return;
	}
	bh_enable(fd, true);
	bh_touch_pages(1024);
	bh_enable(fd, false);
	ret = bh_read(fd, v, 2);
	if (ret < 0) {
		bh_broken(r, "read() of value and lost: %s", ret == -EIO ?
			  "fewer than the two words PERF_FORMAT_LOST asks for" : strerror(-ret));
		goto out;
	}
	while ((h = bh_ring_next(&ring))) {
		if (h->type == PERF_RECORD_SAMPLE)
			samples++;
		else
			other++;
	}
	if (v[1] == 0 || v[0] != samples + v[1] || other)
		bh_broken(r, "%llu faults counted, %d samples in the one-page ring (and %d other records), "
			  "read() says %llu lost", (unsigned long long)v[0], samples, other,
			  (unsigned long long)v[1]);
	else
		bh_proven(r, "%llu faults counted = %d samples in the one-page ring + %llu lost, as read() "
			  "says", (unsigned long long)v[0], samples, (unsigned long long)v[1]);
out:
	bh_ring_unmap(&ring);
	close(fd);
}
