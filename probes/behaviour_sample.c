// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of the rows that change what a sample holds: use_clockid,
 * data/code_page_size, weight_struct.  Each samples this thread while it
 * does known work, then reads its own ring.  (The ring's rows:
 * behaviour_ringrows.c; the callchain rows: behaviour_callchain.c.)
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"
#include "util/sys.h"

#define RING_PAGES 16

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
	bh_enable(fd, true);
	bh_spin_for_records(&ring, 5);
	bh_enable(fd, false);
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
		bh_broken(r, "no samples in 5 to 505 ms of cpu-clock at 100 us");
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
 * the page-fault sample sees the mapping and its size.  With cow, a fork
 * then write-protects them: a kernel that maps no zero page maps a read
 * fault's anonymous page writable (6.18 here: 8 read faults, then no
 * write fault), and the first write after the fork faults on any kernel.
 */
static int fault_sizes(struct pc_behaviour_result *r, int fd, struct bh_ring *ring, uint64_t st,
		       const struct region *g, uint64_t want, bool cow, int *n, int *ok,
		       uint64_t *other)
{
	volatile char sink = 0;

	for (size_t off = 0; off < g->len; off += g->page)
		sink += g->base[off];
	(void)sink;
	if (cow) {
		pid_t child = fork();

		if (child == 0)
			_exit(0);
		if (child > 0)
			waitpid(child, NULL, 0);
	}
	bh_enable(fd, true);
	for (size_t off = 0; off < g->len; off += g->page)
		g->base[off] = 1;
	bh_enable(fd, false);
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
	fault_sizes(r, fd, &ring, st, &g, page, true, &n, &ok, &other);
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
			fault_sizes(r, fd, &ring, st, &t, huge, false, &n, &ok, &other);
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
			fault_sizes(r, fd, &ring, st, &t, hsz, false, &n, &ok, &other);
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
 * Whether [ip rounded down to size, + size) lies inside one mapping of
 * this process (/proc/self/maps): a leaf larger than the base page (arm64's
 * contiguous PTEs, 64 KiB over 4 KiB pages; a huge page of text) is
 * aligned to its size and never spans two mappings.
 */
static bool block_in_one_mapping(uint64_t ip, uint64_t size)
{
	uint64_t lo = ip & ~(size - 1), hi = lo + size;
	unsigned long long start, end;
	char line[512];
	bool in = false;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return false;
	while (!in && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &start, &end) == 2 && start <= lo && hi <= end)
			in = true;
	fclose(f);
	return in;
}

/*
 * code_page_size: cpu-clock samples in this program's own text say the
 * size of the page-table leaf that maps their ip: the base page, or a
 * larger power of two (up to 1 GiB) whose aligned block lies in one
 * mapping.  Any other size, or 0, is broken.
 */
void bh_check_code_page_size(struct pc_behaviour_result *r)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CODE_PAGE_SIZE;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	struct bh_ring ring;
	union pc_attr a;
	uint64_t bad = 0, larger = 0;
	int fd, n = 0, base = 0, big = 0;

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
	bh_enable(fd, true);
	bh_spin_for_records(&ring, 5);
	bh_enable(fd, false);
	while ((h = bh_ring_next(&ring))) {
		struct bh_sample s;
		uint64_t size;

		if (h->type != PERF_RECORD_SAMPLE || bh_parse_sample(h, st, 0, &s) < 0)
			continue;
		n++;
		size = s.code_page_size;
		if (size == page) {
			base++;
		} else if (size > page && size <= (1ULL << 30) && !(size & (size - 1)) &&
			   block_in_one_mapping(s.ip, size)) {
			big++;
			larger = size;
		} else {
			bad = size ? size : 1;
		}
	}
	if (!n)
		bh_broken(r, "no samples in 5 to 505 ms of cpu-clock at 100 us");
	else if (bad)
		bh_broken(r, "%d of %d user samples say neither the page size %zu nor a larger "
			  "aligned leaf of their mapping (one says %llu)", n - base - big, n, page,
			  (unsigned long long)(bad == 1 ? 0 : bad));
	else if (big)
		bh_proven(r, "%d samples in this program's text: %d say %zu, %d say %llu (a larger "
			  "leaf, aligned inside the text's mapping)", n, base, page, big,
			  (unsigned long long)larger);
	else
		bh_proven(r, "%d samples in this program's text say %zu (no huge-page text here)", n, page);
	bh_ring_unmap(&ring);
	close(fd);
}

void bh_check_weight_struct(struct pc_behaviour_result *r)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_WEIGHT_STRUCT;
	const struct perf_event_header *h;
	struct pc_open_info info;
	struct pc_error err;
	struct bh_ring ring;
	union pc_attr a, hw;
	int fd, hfd, n = 0, misfit = 0;
	pc_print_fn saved;

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
	bh_enable(fd, true);
	bh_spin_for_records(&ring, 3);
	bh_enable(fd, false);
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
	saved = pc_set_print(NULL);	/* its fallback warning is this check's answer, not the user's */
	hfd = pc_event_open(&hw, "cycles", 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &err);
	pc_set_print(saved);
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
