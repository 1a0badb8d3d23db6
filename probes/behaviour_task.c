// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of the rows about which tasks an event follows and what it
 * does to them: fd_cloexec, exclude_guest, inherit_thread, remove_on_exec,
 * sigtrap, inherit_sample_read.  Counts come from page faults, which the
 * workloads make in known numbers.
 */
#include "probes/behaviour_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WAIT_MS 10000

static int open_plain(struct pc_behaviour_result *r, union pc_attr *a, const char *what,
		      pid_t pid, unsigned long flags, struct pc_open_info *info)
{
	struct pc_error err;
	int fd = pc_event_open(a, what, pid, -1, -1, flags, info, &err);

	if (fd < 0)
		bh_broken(r, "accepted by the probe, but %s does not open: %s", what, err.msg);
	return fd;
}

/*
 * fd_cloexec: the fd opened with PERF_FLAG_FD_CLOEXEC has FD_CLOEXEC set by
 * the kernel (the open path did not have to set it), one opened without
 * the flag does not.
 */
void bh_check_fd_cloexec(struct pc_behaviour_result *r)
{
	struct pc_open_info info;
	union pc_attr a, b;
	int with, without, fw, fo;

	bh_attr_sideband(&a);
	b = a;
	with = open_plain(r, &a, "dummy with PERF_FLAG_FD_CLOEXEC", 0, PERF_FLAG_FD_CLOEXEC, &info);
	if (with < 0)
		return;
	if (info.cleared) {
		bh_broken(r, "the open path switched off fd_cloexec: the kernel refused the flag");
		close(with);
		return;
	}
	without = open_plain(r, &b, "dummy without the flag", 0, 0, &info);
	if (without < 0) {
		close(with);
		return;
	}
	fw = fcntl(with, F_GETFD);
	fo = fcntl(without, F_GETFD);
	if (fw < 0 || fo < 0)
		bh_broken(r, "fcntl(F_GETFD): %s", strerror(errno));
	else if (!(fw & FD_CLOEXEC) || (fo & FD_CLOEXEC))
		bh_broken(r, "FD_CLOEXEC is %s with the flag, %s without it", fw & FD_CLOEXEC ? "set" : "clear",
			  fo & FD_CLOEXEC ? "set" : "clear");
	else
		bh_proven(r, "FD_CLOEXEC set by the kernel with the flag, clear without it");
	close(with);
	close(without);
}

/*
 * exclude_guest: the host's own work is counted with exclude_guest as
 * without it: two task-clock counters in one group, enabled and disabled
 * together around the same spin.  The guest side needs a KVM guest to
 * run, which the detail says when there is none.
 */
void bh_check_exclude_guest(struct pc_behaviour_result *r)
{
	struct pc_open_info info;
	struct pc_error err;
	union pc_attr a, b;
	uint64_t va = 0, vb = 0;
	struct stat st;
	int fa, fb;

	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, 0);
	b = a;
	a.attr.exclude_guest = 1;
	a.attr.disabled = 1;
	fa = bh_open(r, &a, "task-clock with exclude_guest", 0, 0);
	if (fa < 0)
		return;
	fb = pc_event_open(&b, "task-clock without it", 0, -1, fa, PERF_FLAG_FD_CLOEXEC, &info, &err);
	if (fb < 0) {
		bh_broken(r, "accepted by the probe, but the group's second counter does not open: %s",
			  err.msg);
		close(fa);
		return;
	}
	ioctl(fa, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	bh_spin_ms(4);
	ioctl(fa, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	if (bh_read(fa, &va, 1) < 0 || bh_read(fb, &vb, 1) < 0)
		bh_broken(r, "read(): %s", strerror(errno));
	else if (va < 1000000 || va * 10 < vb * 9 || vb * 10 < va * 9)
		bh_broken(r, "the same spin: task-clock %.3f ms with exclude_guest, %.3f ms without",
			  va / 1e6, vb / 1e6);
	else
		bh_proven(r, "host work counted as without it (task-clock %.3f vs %.3f ms, one group); "
			  "guest side not exercised: %s", va / 1e6, vb / 1e6,
			  stat("/dev/kvm", &st) == 0 ? "no guest is run by the check" : "no /dev/kvm");
	close(fb);
	close(fa);
}

/* ---- inherit_thread ---- */

#define THREAD_PAGES 64
#define CHILD_PAGES 256

static void *thread_touch(void *arg)
{
	bh_touch_pages(THREAD_PAGES);
	return NULL;
}

static void child_touch(void *arg)
{
	bh_touch_pages(CHILD_PAGES);
}

/*
 * inherit_thread: two page-fault counters on this thread, both inherited,
 * one with inherit_thread.  A thread touches 64 pages, then a forked child
 * 256: both counters see the thread's faults, only the plain one the
 * child's.
 */
void bh_check_inherit_thread(struct pc_behaviour_result *r)
{
	union pc_attr a, b;
	struct bh_child c;
	pthread_t t;
	uint64_t vthr = 0, vall = 0, before_thr = 0, before_all = 0;
	int fthr, fall, status;

	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, 0);
	a.attr.inherit = 1;
	b = a;
	a.attr.inherit_thread = 1;
	fthr = bh_open(r, &a, "page-faults with inherit_thread", 0, 0);
	if (fthr < 0)
		return;
	fall = bh_open(r, &b, "page-faults with inherit", 0, 0);
	if (fall < 0) {
		close(fthr);
		return;
	}
	bh_read(fthr, &before_thr, 1);
	bh_read(fall, &before_all, 1);
	if (pthread_create(&t, NULL, thread_touch, NULL)) {
		bh_not_tested(r, "pthread_create failed");
		goto out;
	}
	pthread_join(t, NULL);
	if (bh_child_start(&c, child_touch, NULL) < 0) {
		bh_not_tested(r, "fork: %s", strerror(errno));
		goto out;
	}
	bh_child_go(&c);
	status = bh_child_wait(&c, WAIT_MS);
	if (status != 0) {
		bh_not_tested(r, "the child failed (wait status %#x)", status);
		goto out;
	}
	/* an exited child's or thread's counts are folded into the parent's read */
	bh_read(fthr, &vthr, 1);
	bh_read(fall, &vall, 1);
	if (vthr < THREAD_PAGES || vall < vthr + CHILD_PAGES)
		bh_broken(r, "thread %d pages, child %d pages: %llu faults with inherit_thread, %llu "
			  "with inherit", THREAD_PAGES, CHILD_PAGES, (unsigned long long)vthr,
			  (unsigned long long)vall);
	else
		bh_proven(r, "a thread's %d-page touch counted by both, a forked child's %d only by the "
			  "plain inherit (%llu vs %llu faults)", THREAD_PAGES, CHILD_PAGES,
			  (unsigned long long)vthr, (unsigned long long)vall);
out:
	close(fthr);
	close(fall);
}

/* ---- remove_on_exec ---- */

#define PRE_EXEC_PAGES 32
#define STUB_PAGES 128

struct exec_arg {
	struct bh_stub stub;
};

static void child_touch_exec(void *arg)
{
	struct exec_arg *e = arg;

	bh_touch_pages(PRE_EXEC_PAGES);
	_exit(BH_EXEC_FAILED_BASE + -bh_stub_exec(&e->stub));
}

/*
 * remove_on_exec: two page-fault counters on a child, one with
 * remove_on_exec.  The child touches 32 pages, then execs a stub that
 * touches 128: the removed counter has the first 32 and stops; the other
 * also counts the stub's (at least half of them are asked for: the exact
 * count after exec varies by a few between runs).
 */
void bh_check_remove_on_exec(struct pc_behaviour_result *r)
{
	struct exec_arg e;
	int made = bh_stub_create(&e.stub, STUB_PAGES);
	union pc_attr a, b;
	struct bh_child c;
	uint64_t vrm = 0, vall = 0;
	int frm = -1, fall = -1, status;

	if (made < 0) {
		bh_not_tested(r, "no exec stub: %s", made == -ENOEXEC ?
			      "none for this architecture" : strerror(-made));
		return;
	}
	if (bh_child_start(&c, child_touch_exec, &e) < 0) {
		bh_not_tested(r, "fork: %s", strerror(errno));
		bh_stub_free(&e.stub);
		return;
	}
	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, 0);
	b = a;
	pc_attr_set(&a.attr, PC_ATTR_remove_on_exec, true);
	frm = bh_open(r, &a, "page-faults with remove_on_exec", c.pid, 0);
	if (frm >= 0)
		fall = bh_open(r, &b, "page-faults without it", c.pid, 0);
	if (fall < 0)
		goto out;
	bh_child_go(&c);
	status = bh_child_wait(&c, WAIT_MS);
	if (status != 0) {
		bh_stub_status(r, status);
		goto out;
	}
	bh_read(frm, &vrm, 1);
	bh_read(fall, &vall, 1);
	/* the stub's own faults vary by a few (its stack, its text): half of them is plenty */
	if (vrm < PRE_EXEC_PAGES || vall < vrm + STUB_PAGES / 2)
		bh_broken(r, "%d pages before exec, %d after: %llu faults with remove_on_exec, %llu "
			  "without", PRE_EXEC_PAGES, STUB_PAGES, (unsigned long long)vrm,
			  (unsigned long long)vall);
	else
		bh_proven(r, "%llu faults with remove_on_exec (%d pages touched before exec), %llu "
			  "without (the exec'd stub touched %d more)", (unsigned long long)vrm,
			  PRE_EXEC_PAGES, (unsigned long long)vall, STUB_PAGES);
out:
	bh_child_wait(&c, WAIT_MS);
	bh_stub_free(&e.stub);
	if (frm >= 0)
		close(frm);
	if (fall >= 0)
		close(fall);
}

/* ---- sigtrap ---- */

#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif
#define SIG_DATA 0x5ea1ed0cafeULL
/* glibc's siginfo_t has no si_perf_*: the kernel puts them after si_addr */
#define SI_PERF_DATA(info) (*(const unsigned long *)((const char *)(info) + 24))

static volatile sig_atomic_t traps, wrong_traps;
static volatile unsigned long wrong_code, wrong_data;
static volatile pid_t trap_tid, wrong_tid;

static void on_trap(int sig, siginfo_t *info, void *uc)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);

	if (info->si_code == TRAP_PERF && SI_PERF_DATA(info) == SIG_DATA && tid == trap_tid) {
		traps++;
	} else if (!wrong_traps++) {
		wrong_code = (unsigned long)info->si_code;
		wrong_data = SI_PERF_DATA(info);
		wrong_tid = tid;
	}
}

/*
 * sigtrap: a cpu-clock event with sigtrap on this thread raises SIGTRAP in
 * this thread at each overflow, with si_code TRAP_PERF and si_perf_data
 * the attr's sig_data.
 */
void bh_check_sigtrap(struct pc_behaviour_result *r)
{
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO | SA_RESTART }, old;
	union pc_attr a;
	int fd;

	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 500000, PERF_SAMPLE_IP);
	a.attr.disabled = 1;
	pc_attr_set(&a.attr, PC_ATTR_remove_on_exec, true);
	pc_attr_set(&a.attr, PC_ATTR_sigtrap, true);
	a.attr.sig_data = SIG_DATA;
	fd = bh_open(r, &a, "cpu-clock with sigtrap", 0, 0);
	if (fd < 0)
		return;
	traps = wrong_traps = 0;
	trap_tid = (pid_t)syscall(SYS_gettid);
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTRAP, &sa, &old) < 0) {
		bh_not_tested(r, "sigaction: %s", strerror(errno));
		close(fd);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	/*
	 * 5 ms of CPU time, then on in 1 ms steps until a trap came, 500 ms at
	 * most: a TCG guest on a loaded host can pass 5 ms with no timer
	 * interrupt (no SIGTRAP in the 7.2 guest once, 2026-11-26), and a
	 * check that saw no overflow cannot tell anything
	 */
	bh_spin_ms(5);
	for (int ms = 0; !traps && !wrong_traps && ms < 500; ms++)
		bh_spin_ms(1);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	close(fd);
	sigaction(SIGTRAP, &old, NULL);
	if (wrong_traps)
		bh_broken(r, "%d SIGTRAPs not as documented: the first has si_code %lu, si_perf_data "
			  "%#lx, in thread %d (the event's is %d)", (int)wrong_traps, wrong_code,
			  wrong_data, (int)wrong_tid, (int)trap_tid);
	else if (!traps)
		bh_broken(r, "no SIGTRAP in 5 to 505 ms of cpu-clock overflowing every 0.5 ms");
	else
		bh_proven(r, "%d SIGTRAPs in the event's thread, each with si_code TRAP_PERF and "
			  "si_perf_data = sig_data %#llx", (int)traps, SIG_DATA);
}

/* ---- inherit with PERF_SAMPLE_READ ---- */

#define ISR_PAGES 256
#define ISR_PERIOD 16
#define ISR_MAX_CPUS 256

static void *thread_touch_isr(void *arg)
{
	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	bh_touch_pages(ISR_PAGES);
	return NULL;
}

/*
 * inherit_sample_read: an inherited page-fault sampler with
 * PERF_SAMPLE_READ (period 16): the samples of a new thread carry the
 * thread's own count, which starts from zero (the first at one period, not
 * the opener's total) and grows by the period.
 */
void bh_check_inherit_sample_read(struct pc_behaviour_result *r)
{
	const uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_READ;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct bh_ring ring[ISR_MAX_CPUS];
	int fd[ISR_MAX_CPUS], nfd = 0;
	union pc_attr a;
	pthread_t t;
	pid_t tid = 0;
	uint64_t first = 0, last = 0, main_count = 0;
	int n = 0;

	if (ncpu < 1 || ncpu > ISR_MAX_CPUS) {
		bh_not_tested(r, "%ld cpus: the check maps at most %d per-cpu rings", ncpu, ISR_MAX_CPUS);
		return;
	}
	/* an inherited event has one ring per cpu: the kernel refuses to mmap a per-task one */
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct pc_open_info info;
		struct pc_error err;

		bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, ISR_PERIOD, st);
		a.attr.inherit = 1;
		fd[nfd] = pc_event_open(&a, "page-faults with inherit and SAMPLE_READ", 0, cpu, -1,
					PERF_FLAG_FD_CLOEXEC, &info, &err);
		if (fd[nfd] < 0 && (err.code == ENODEV || err.code == EINVAL) && cpu > 0)
			continue;	/* an offline cpu */
		if (fd[nfd] < 0 || info.cleared & (1ULL << PC_FEAT_INHERIT_SAMPLE_READ)) {
			bh_broken(r, "accepted by the probe, but the per-cpu event does not open as asked: %s",
				  fd[nfd] < 0 ? err.msg : "the open path switched it off");
			if (fd[nfd] >= 0)
				close(fd[nfd]);
			goto out;
		}
		if (bh_ring_map(&ring[nfd], fd[nfd], 64, true) < 0) {
			bh_broken(r, "cannot map the ring of cpu %d: %s", cpu, strerror(errno));
			close(fd[nfd]);
			goto out;
		}
		nfd++;
	}
	bh_touch_pages(ISR_PAGES);	/* the opener's own count grows first */
	if (pthread_create(&t, NULL, thread_touch_isr, &tid)) {
		bh_not_tested(r, "pthread_create failed");
		goto out;
	}
	pthread_join(t, NULL);
	for (int i = 0; i < nfd; i++) {
		const struct perf_event_header *h;

		while ((h = bh_ring_next(&ring[i]))) {
			struct bh_sample s;

			if (h->type != PERF_RECORD_SAMPLE || bh_parse_sample(h, st, 0, &s) < 0)
				continue;
			if (s.tid != (uint32_t)tid) {
				main_count = s.read[0] > main_count ? s.read[0] : main_count;
				continue;
			}
			if (!n++ || s.read[0] < first)
				first = s.read[0];
			last = s.read[0] > last ? s.read[0] : last;
		}
	}
	/* per cpu the values only grow; across cpus (a migrated thread) the smallest is the first */
	if (n < ISR_PAGES / ISR_PERIOD / 2 || first >= 2 * ISR_PERIOD ||
	    last > ISR_PAGES + 64)
		bh_broken(r, "the thread's %d samples (period %d, %d pages): first count %llu, last %llu; "
			  "the opener's count reached %llu", n, ISR_PERIOD, ISR_PAGES,
			  (unsigned long long)first, (unsigned long long)last,
			  (unsigned long long)main_count);
	else
		bh_proven(r, "a new thread's %d samples read its own count: from %llu up to %llu (the "
			  "opener's reached %llu)", n, (unsigned long long)first,
			  (unsigned long long)last, (unsigned long long)main_count);
out:
	for (int i = 0; i < nfd; i++) {
		bh_ring_unmap(&ring[i]);
		close(fd[i]);
	}
}
