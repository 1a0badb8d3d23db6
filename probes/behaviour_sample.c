// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of the rows that change what a sample or the ring holds:
 * use_clockid, data/code_page_size, write_backward, read_lost,
 * perf_event_max_stack, defer_callchain, weight_struct.  Each samples this
 * thread while it does known work, then reads its own ring.
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

#include "util/log.h"
#include "util/sys.h"

#define RING_PAGES 16

static int enable(int fd, bool on)
{
	return ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

static uint64_t mono_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * use_clockid: samples of a cpu-clock event asking for CLOCK_MONOTONIC
 * must be stamped within the CLOCK_MONOTONIC readings taken before enabling
 * and after disabling it.
 */
void bh_check_use_clockid(struct pc_behaviour_result *r)
{
	const struct perf_event_header *h;
	struct bh_ring ring;
	union pc_attr a;
	uint64_t t0, t1, lo = UINT64_MAX, hi = 0;
	int fd, samples = 0, outside = 0;

	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 100000,
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME);
	a.attr.disabled = 1;
	a.attr.use_clockid = 1;
	a.attr.clockid = CLOCK_MONOTONIC;
	fd = bh_open(r, &a, "cpu-clock with use_clockid", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return;
	}
	t0 = mono_ns(CLOCK_MONOTONIC);
	enable(fd, true);
	bh_spin_ms(5);
	enable(fd, false);
	t1 = mono_ns(CLOCK_MONOTONIC);
	while ((h = bh_ring_next(&ring))) {
		struct bh_sample s;

		if (h->type != PERF_RECORD_SAMPLE || bh_parse_sample(h, a.attr.sample_type, 0, &s) < 0)
			continue;
		samples++;
		outside += s.time < t0 || s.time > t1;
		lo = s.time < lo ? s.time : lo;
		hi = s.time > hi ? s.time : hi;
	}
	if (!samples)
		bh_broken(r, "no samples in 5 ms of cpu-clock at 100 us");
	else if (outside)
		bh_broken(r, "%d of %d sample times fall outside CLOCK_MONOTONIC [%llu, %llu] read "
			  "around them (samples %llu..%llu)", outside, samples, (unsigned long long)t0,
			  (unsigned long long)t1, (unsigned long long)lo, (unsigned long long)hi);
	else
		bh_proven(r, "%d sample times within CLOCK_MONOTONIC read around them (%.3f ms window)",
			  samples, (t1 - t0) / 1e6);
	bh_ring_unmap(&ring);
	close(fd);
}

/* ---- page sizes ---- */

struct region {
	char *base;
	size_t len, page;
};

/* The samples in [base, base + len): how many, and how many had the size want. */
static void count_sizes(struct bh_ring *ring, uint64_t st, const struct region *g, uint64_t want,
			bool code, int *n, int *ok, uint64_t *other)
{
	const struct perf_event_header *h;

	*n = *ok = 0;
	*other = 0;
	while ((h = bh_ring_next(ring))) {
		struct bh_sample s;
		uint64_t size, where;

		if (h->type != PERF_RECORD_SAMPLE || bh_parse_sample(h, st, 0, &s) < 0)
			continue;
		where = code ? s.ip : s.addr;
		size = code ? s.code_page_size : s.data_page_size;
		if (g && (where < (uintptr_t)g->base || where >= (uintptr_t)g->base + g->len))
			continue;
		(*n)++;
		if (size == want)
			(*ok)++;
		else
			*other = size;
	}
}

/*
 * Write faults on pages already mapped (read first, with the event off):
 * the page-fault sample sees the mapping and its size.
 */
static int fault_sizes(struct pc_behaviour_result *r, int fd, struct bh_ring *ring, uint64_t st,
		       const struct region *g, uint64_t want, int *n, int *ok, uint64_t *other)
{
	volatile char sink = 0;

	for (size_t off = 0; off < g->len; off += g->page)
		sink += g->base[off];
	(void)sink;
	enable(fd, true);
	for (size_t off = 0; off < g->len; off += g->page)
		g->base[off] = 1;
	enable(fd, false);
	count_sizes(ring, st, g, want, false, n, ok, other);
	return *n;
}

static bool thp_usable(void)
{
	char buf[256];
	long zero;

	if (pc_read_file("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf)) < 0)
		return false;
	if (!strstr(buf, "[always]") && !strstr(buf, "[madvise]"))
		return false;
	return pc_read_int_file("/sys/kernel/mm/transparent_hugepage/use_zero_page", &zero) == 0 &&
	       zero == 1;
}

static long meminfo_kb(const char *key)
{
	char buf[4096], *p;

	if (pc_read_file("/proc/meminfo", buf, sizeof(buf)) < 0 || !(p = strstr(buf, key)))
		return -1;
	return strtol(p + strlen(key), NULL, 10);
}

/*
 * data_page_size: page-fault samples (period 1, with their data address)
 * of write faults on 4 KiB pages say 4 KiB; on a THP-enabled range whose
 * huge zero page is mapped, and on a MAP_HUGETLB mapping where the pool
 * has a free page, the huge page size.
 */
void bh_check_data_page_size(struct pc_behaviour_result *r)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			    PERF_SAMPLE_DATA_PAGE_SIZE;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), huge = 2UL << 20;
	char thp_note[128] = "no THP here", tlb_note[128] = "no free hugetlb page";
	struct region g = { NULL, 8 * page, page };
	struct bh_ring ring;
	union pc_attr a;
	uint64_t other;
	long hp_free = meminfo_kb("HugePages_Free:"), hp_kb = meminfo_kb("Hugepagesize:");
	int fd, n, ok;

	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1, st);
	a.attr.disabled = 1;
	fd = bh_open(r, &a, "page-faults with data_page_size", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, 64, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return;
	}
	g.base = mmap(NULL, g.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g.base == MAP_FAILED) {
		bh_not_tested(r, "mmap: %s", strerror(errno));
		goto out;
	}
	madvise(g.base, g.len, MADV_NOHUGEPAGE);	/* base pages, even where THP is always on */
	fault_sizes(r, fd, &ring, st, &g, page, &n, &ok, &other);
	munmap(g.base, g.len);
	if (!n || ok != n) {
		bh_broken(r, "write faults on %zu mapped 4 KiB pages: %d samples, %d with data page size "
			  "%zu (another: %llu)", g.len / page, n, ok, page, (unsigned long long)other);
		goto out;
	}
	if (thp_usable()) {
		char *raw = mmap(NULL, 2 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				 -1, 0);

		if (raw != MAP_FAILED) {
			struct region t = { (char *)(((uintptr_t)raw + huge - 1) & ~(huge - 1)), huge, huge };

			madvise(t.base, t.len, MADV_HUGEPAGE);
			fault_sizes(r, fd, &ring, st, &t, huge, &n, &ok, &other);
			snprintf(thp_note, sizeof(thp_note), "THP range: %d of %d samples say 2 MiB%s", ok, n,
				 ok == n && n ? "" : " (no huge zero page mapped?)");
			munmap(raw, 2 * huge);
		}
	}
	if (hp_free > 0 && hp_kb > 0) {
		size_t hsz = (size_t)hp_kb * 1024;
		struct region t = { mmap(NULL, hsz, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0), hsz, hsz };

		if (t.base != MAP_FAILED) {
			fault_sizes(r, fd, &ring, st, &t, hsz, &n, &ok, &other);
			munmap(t.base, hsz);
			if (!n || ok != n) {
				bh_broken(r, "MAP_HUGETLB write faults: %d samples, %d with data page size %zu "
					  "(another: %llu)", n, ok, hsz, (unsigned long long)other);
				goto out;
			}
			snprintf(tlb_note, sizeof(tlb_note), "MAP_HUGETLB: %d samples say %zu KiB", n,
				 hsz / 1024);
		}
	}
	bh_proven(r, "write faults on mapped 4 KiB pages: every sample says %zu; %s; %s", page,
		  thp_note, tlb_note);
out:
	bh_ring_unmap(&ring);
	close(fd);
}

/*
 * code_page_size: cpu-clock samples in this program's own text (4 KiB
 * pages of a file mapping) say the base page size.
 */
void bh_check_code_page_size(struct pc_behaviour_result *r)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CODE_PAGE_SIZE;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct bh_ring ring;
	union pc_attr a;
	uint64_t other;
	int fd, n, ok;

	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 100000, st);
	a.attr.disabled = 1;
	fd = bh_open(r, &a, "cpu-clock with code_page_size", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return;
	}
	enable(fd, true);
	bh_spin_ms(5);
	enable(fd, false);
	count_sizes(&ring, st, NULL, page, true, &n, &ok, &other);
	if (!n)
		bh_broken(r, "no samples in 5 ms of cpu-clock at 100 us");
	else if (ok != n)
		bh_broken(r, "%d of %d user samples say code page size %zu (another: %llu)", ok, n, page,
			  (unsigned long long)other);
	else
		bh_proven(r, "%d samples in this program's text say %zu (no huge-page text here)", n, page);
	bh_ring_unmap(&ring);
	close(fd);
}

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
	enable(fd, true);
	bh_touch_pages(1024);
	enable(fd, false);
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

/* ---- perf_event_max_stack ---- */

#define DEPTH 48
#define MAX_STACK 8

#if defined(__GNUC__) && !defined(__clang__)
#define WITH_FRAMES __attribute__((noinline, optimize("no-omit-frame-pointer")))
#else
#define WITH_FRAMES __attribute__((noinline))
#endif

/* DEPTH frames with frame pointers, spinning at the bottom; user callchains walk them */
static WITH_FRAMES int deep(int n, double end)
{
	volatile int x = n;

	if (n > 0)
		x += deep(n - 1, end);
	else
		while (bh_now_ms() < end)
			for (int i = 0; i < 1000; i++)
				x++;
	return x;
}

/* the longest run of frames (context markers not counted) in the ring's samples */
static int longest_chain(struct bh_ring *ring, uint64_t st, int *samples)
{
	const struct perf_event_header *h;
	int longest = 0;

	*samples = 0;
	while ((h = bh_ring_next(ring))) {
		struct bh_sample s;
		int frames = 0;

		if (h->type != PERF_RECORD_SAMPLE || bh_parse_sample(h, st, 0, &s) < 0)
			continue;
		(*samples)++;
		for (uint64_t i = 0; i < s.nr; i++)
			frames += !pc_is_context(s.ips[i]);
		longest = frames > longest ? frames : longest;
	}
	return longest;
}

/*
 * perf_event_max_stack: two cpu-clock events sample the same deep user
 * stack: one with sample_max_stack 8, one with the kernel's limit
 * (kernel.perf_event_max_stack).  The first's chains stop at 8 frames, the
 * second's go deeper, up to the sysctl.
 */
void bh_check_max_stack(struct pc_behaviour_result *r)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	struct bh_ring rl, rf;
	union pc_attr lim, full;
	long sysctl = 0;
	int fl, ff, nl, nf, longest_l, longest_f;

	if (pc_kernel_max_stack(&sysctl) < 0 || sysctl < MAX_STACK) {
		bh_not_tested(r, "kernel.perf_event_max_stack is %ld, below the %d the check asks for",
			      sysctl, MAX_STACK);
		return;
	}
	bh_attr_sampling(&lim, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 100000, st);
	lim.attr.disabled = 1;
	full = lim;
	lim.attr.sample_max_stack = MAX_STACK;
	fl = bh_open(r, &lim, "cpu-clock with sample_max_stack 8", 0, 0);
	if (fl < 0)
		return;
	ff = bh_open(r, &full, "cpu-clock with the kernel's stack limit", 0, 0);
	if (ff < 0) {
		close(fl);
		return;
	}
	if (bh_ring_map(&rl, fl, RING_PAGES, true) < 0 || bh_ring_map(&rf, ff, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the rings: %s", strerror(errno));
		goto out_fd;
	}
	enable(fl, true);
	enable(ff, true);
	deep(DEPTH, bh_now_ms() + 5);
	enable(fl, false);
	enable(ff, false);
	longest_l = longest_chain(&rl, st, &nl);
	longest_f = longest_chain(&rf, st, &nf);
	if (!nl || !nf)
		bh_broken(r, "no samples in 5 ms of cpu-clock at 100 us (%d, %d)", nl, nf);
	else if (longest_f <= MAX_STACK)
		bh_not_tested(r, "user stacks do not unwind deeper than %d frames here (frame pointers?)",
			      longest_f);
	else if (longest_l != MAX_STACK || longest_f > sysctl)
		bh_broken(r, "longest chain %d frames with sample_max_stack %d, %d with the kernel's limit "
			  "%ld", longest_l, MAX_STACK, longest_f, sysctl);
	else
		bh_proven(r, "%d frames deep: chains cut at %d with sample_max_stack %d, %d frames under "
			  "the sysctl's %ld", DEPTH, longest_l, MAX_STACK, longest_f, sysctl);
	bh_ring_unmap(&rl);
	bh_ring_unmap(&rf);
out_fd:
	close(fl);
	close(ff);
}

/* ---- defer_callchain ---- */

/* A deferred chain holds user frames only (context markers aside) */
static bool user_frames(const uint64_t *ips, uint64_t nr)
{
	int frames = 0;

	for (uint64_t i = 0; i < nr; i++) {
		if (pc_is_context(ips[i]))
			continue;
		if (ips[i] >> 47)
			return false;	/* a kernel address: not a user frame */
		frames++;
	}
	return frames > 0;
}

/*
 * defer_callchain: samples taken in system calls end with
 * PERF_CONTEXT_USER_DEFERRED and a cookie, and the next CALLCHAIN_DEFERRED
 * record (the unwind at the return to user space) carries the same cookie
 * and user frames.  A sample taken inside the unwind, after its record was
 * written, carries that record's cookie; samples after the last record (in
 * the final calls, whose return comes after the event is disabled) wait for
 * nothing.
 */
void bh_check_defer_callchain(struct pc_behaviour_result *r)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	const struct perf_event_header *h;
	uint64_t cookies[256];
	int ncookies = 0, answered = 0, missed = 0, late = 0, deferred = 0, bad = 0, fd, zero;
	uint64_t last_cookie = 0;
	struct bh_ring ring;
	union pc_attr a;
	double end;
	char buf[4096];

	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 100000, st);
	a.attr.exclude_kernel = 0;
	a.attr.sample_id_all = 1;
	a.attr.disabled = 1;
	pc_attr_set(&a.attr, PC_ATTR_defer_callchain, true);
	pc_attr_set(&a.attr, PC_ATTR_defer_output, true);
	fd = bh_open(r, &a, "cpu-clock with defer_callchain", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, 64, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return;
	}
	zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	enable(fd, true);
	for (end = bh_now_ms() + 10; bh_now_ms() < end;)
		if (zero < 0 || read(zero, buf, sizeof(buf)) < 0)
			break;
	enable(fd, false);
	if (zero >= 0)
		close(zero);
	while ((h = bh_ring_next(&ring))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			struct bh_sample s;

			if (bh_parse_sample(h, st, 0, &s) < 0 || s.nr < 2)
				continue;
			if (s.ips[s.nr - 2] != PC_CONTEXT_USER_DEFERRED)
				continue;
			if (deferred && s.ips[s.nr - 1] == last_cookie)
				late++;		/* taken inside the unwind, after its record */
			else if (ncookies < 256)
				cookies[ncookies++] = s.ips[s.nr - 1];
		} else if (h->type == PC_RECORD_CALLCHAIN_DEFERRED) {
			const uint64_t *w = (const void *)(h + 1);
			size_t words = (h->size - sizeof(*h)) / 8;

			deferred++;
			last_cookie = w[0];
			if (words < 2 || w[1] > words - 2 || w[1] < 1 || !user_frames(w + 2, w[1])) {
				bad++;
				continue;
			}
			/* the unwind at return to user answers every sample since the last one */
			for (int i = 0; i < ncookies; i++) {
				if (cookies[i] == w[0])
					answered++;
				else
					missed++;
			}
			ncookies = 0;
		}
	}
	if (!answered)
		bh_broken(r, "no sample in 10 ms of read() calls was answered by a CALLCHAIN_DEFERRED "
			  "record (%d records, %d cookies waiting)", deferred, ncookies + missed);
	else if (bad || missed)
		bh_broken(r, "%d samples answered by CALLCHAIN_DEFERRED, %d passed over by a record for "
			  "another cookie, %d records without user frames", answered, missed, bad);
	else
		bh_proven(r, "%d samples in system calls ended with a cookie, each answered by the next "
			  "CALLCHAIN_DEFERRED record, with user frames (%d records; %d samples taken inside "
			  "the unwind after their record, %d after the last record)", answered, deferred,
			  late, ncookies);
	bh_ring_unmap(&ring);
	close(fd);
}

/*
 * weight_struct: the sample layout carries the 8-byte weight where the ABI
 * puts it (checked on cpu-clock samples); what fills it is a PMU's memory
 * sampling, so without a PMU the row is not tested further.
 */
void bh_check_weight_struct(struct pc_behaviour_result *r)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_WEIGHT_STRUCT;
	const struct perf_event_header *h;
	struct pc_open_info info;
	struct pc_error err;
	struct bh_ring ring;
	union pc_attr a, hw;
	int fd, hfd, n = 0, misfit = 0, saved;

	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 100000, st);
	a.attr.disabled = 1;
	fd = bh_open(r, &a, "cpu-clock with weight_struct", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return;
	}
	enable(fd, true);
	bh_spin_ms(3);
	enable(fd, false);
	while ((h = bh_ring_next(&ring))) {
		struct bh_sample s;

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		n++;
		misfit += bh_parse_sample(h, st, 0, &s) < 0;
	}
	bh_ring_unmap(&ring);
	close(fd);
	if (!n || misfit) {
		bh_broken(r, "%d samples, %d not of the IP TID WEIGHT_STRUCT layout", n, misfit);
		return;
	}
	/* is there a PMU at all?  cycles through the open path, which falls back without one */
	bh_attr_sampling(&hw, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 100000, st);
	hw.attr.disabled = 1;
	saved = pc_verbose;
	pc_verbose = -1;	/* its fallback warning is this check's answer, not the user's */
	hfd = pc_event_open(&hw, "cycles", 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &err);
	pc_verbose = saved;
	if (hfd >= 0)
		close(hfd);
	if (hfd < 0 || info.fell_back_to_cpu_clock) {
		bh_not_tested(r, "no PMU (cycles: %s); the %d cpu-clock samples carry the weight word "
			      "in its place", hfd < 0 ? err.msg : "falls back to cpu-clock", n);
		return;
	}
	bh_not_tested(r, "a PMU is here, but its memory-sampling weights are not checked yet; the %d "
		      "cpu-clock samples carry the weight word in its place", n);
}
