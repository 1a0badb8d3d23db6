// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of the callchain rows: perf_event_max_stack (chains cut at the
 * asked depth, deeper under the sysctl) and defer_callchain (cookies
 * answered by CALLCHAIN_DEFERRED records).
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
#include <unistd.h>

#define RING_PAGES 16

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
	bh_enable(fl, true);
	bh_enable(ff, true);
	/* 5 ms, and more (up to 505) while a loaded guest left either ring empty */
	deep(DEPTH, bh_now_ms() + 5);
	for (int i = 0; i < 100 && (!bh_ring_head(&rl) || !bh_ring_head(&rf)); i++)
		deep(DEPTH, bh_now_ms() + 5);
	bh_enable(fl, false);
	bh_enable(ff, false);
	longest_l = longest_chain(&rl, st, &nl);
	longest_f = longest_chain(&rf, st, &nf);
	if (!nl || !nf)
		bh_broken(r, "no samples in 5 to 505 ms of cpu-clock at 100 us (%d, %d)", nl, nf);
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

/* A chain that holds its user frames itself: PERF_CONTEXT_USER, then a frame */
static bool user_chain_inline(const uint64_t *ips, uint64_t nr)
{
	for (uint64_t i = 0; i + 1 < nr; i++)
		if (ips[i] == PC_CONTEXT_USER)
			return !pc_is_context(ips[i + 1]);
	return false;
}

/*
 * defer_callchain: samples taken in system calls end with
 * PERF_CONTEXT_USER_DEFERRED and a cookie, and the next CALLCHAIN_DEFERRED
 * record (the unwind at the return to user space) carries the same cookie
 * and user frames.  A sample taken inside the unwind, after its record was
 * written, carries that record's cookie; samples after the last record (in
 * the final calls, whose return comes after the event is disabled) wait for
 * nothing.  A kernel without a deferred user unwinder (arm64 7.2: no
 * CONFIG_UNWIND_USER) accepts the bit and takes every user chain at the
 * sample: not tested, the ordinary chains are what it gives.
 */
void bh_check_defer_callchain(struct pc_behaviour_result *r)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	const struct perf_event_header *h;
	uint64_t cookies[256];
	int ncookies = 0, answered = 0, missed = 0, late = 0, deferred = 0, bad = 0, fd, zero;
	int inline_user = 0;
	uint64_t last_cookie = 0;
	struct bh_ring ring;
	union pc_attr a;
	double end, cpu_end;
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
	bh_enable(fd, true);
	/*
	 * 10 ms of this thread's cpu time (about 100 samples), not of the
	 * clock: a guest sharing its host's cores got no cpu in 10 ms of wall
	 * time once (no sample at all, called broken); 2 s at the most
	 */
	cpu_end = bh_thread_cpu_ms() + 10;
	for (end = bh_now_ms() + 2000; bh_now_ms() < end && bh_thread_cpu_ms() < cpu_end;)
		if (zero < 0 || read(zero, buf, sizeof(buf)) < 0)
			break;
	bh_enable(fd, false);
	if (zero >= 0)
		close(zero);
	while ((h = bh_ring_next(&ring))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			struct bh_sample s;

			if (bh_parse_sample(h, st, 0, &s) < 0 || s.nr < 2)
				continue;
			if (s.ips[s.nr - 2] != PC_CONTEXT_USER_DEFERRED) {
				inline_user += user_chain_inline(s.ips, s.nr);
				continue;
			}
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
	if (!answered && !deferred && !ncookies && !missed && inline_user)
		bh_not_tested(r, "the kernel accepts defer_callchain but took the user stack at the "
			      "sample in all %d samples with user frames (PERF_CONTEXT_USER, no cookie, "
			      "no CALLCHAIN_DEFERRED record): it has no deferred user unwinder here, "
			      "the request falls back to the ordinary chain", inline_user);
	else if (!answered)
		bh_broken(r, "no sample in 10 ms of cpu in read() calls was answered by a CALLCHAIN_DEFERRED "
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
