// SPDX-License-Identifier: GPL-2.0
/*
 * Synchronous signals on inherited events (sigtrap, 5.13+): an event with
 * inherit, inherit_thread, remove_on_exec and sigtrap opened on this
 * thread follows the threads created afterwards, and each overflow raises
 * SIGTRAP (si_code TRAP_PERF, si_perf_data = sig_data) in the very thread
 * whose event overflowed, not in the one that opened it.  Compare
 * xk_fasync.c: the asynchronous SIGIO of seed 002 goes to the fd's owner.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

#include "kselftest_harness.h"
#include "xk_common.h"

#define NR_THREADS 3
#define SIG_DATA 0x5ea1ed0cafeULL
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

/* glibc's siginfo_t has no si_perf_*: the kernel's layout, after si_addr */
#define SI_PERF_DATA(info) (*(unsigned long *)((char *)(info) + 24))
#define SI_PERF_TYPE(info) (*(uint32_t *)((char *)(info) + 32))

static __thread int traps_here;
static volatile int wrong_traps;
static volatile unsigned long wrong_code, wrong_data, wrong_type;

static void on_trap(int sig, siginfo_t *info, void *uc)
{
	/* si_perf_type: the software type, or (6.16+) the cpu_clock PMU's own */
	if (info->si_code == TRAP_PERF && SI_PERF_DATA(info) == SIG_DATA)
		traps_here++;
	else if (!wrong_traps++) {
		wrong_code = info->si_code;
		wrong_data = SI_PERF_DATA(info);
		wrong_type = SI_PERF_TYPE(info);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct worker {
	pthread_t thread;
	int traps;
};

static void *spin(void *arg)
{
	struct worker *w = arg;
	double end = now() + 0.2;	/* CPU time: the same work on a slow guest */
	volatile unsigned long x = 0;

	/* mostly in user space: the event counts user time only */
	while (now() < end)
		for (int i = 0; i < 100000; i++)
			x++;
	w->traps = traps_here;
	return NULL;
}

TEST(sigtrap_arrives_in_each_inheriting_thread_that_overflows)
{
	struct worker w[NR_THREADS] = { 0 };
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO | SA_RESTART };
	struct pc_open_info info = { 0 };
	struct pc_error err = { 0 };
	union pc_attr a;
	int fd, main_traps;

	if (!xk_has(PC_FEAT_SIGTRAP))
		SKIP(return, "kernel lacks sigtrap");
	ASSERT_EQ(0, sigaction(SIGTRAP, &sa, NULL));
	pc_feature_baseline_attr(&a);
	a.attr.sample_period = 1000000;
	a.attr.freq = 0;
	a.attr.disabled = 0;
	a.attr.inherit = 1;
	a.attr.inherit_thread = 1;
	a.attr.remove_on_exec = 1;
	a.attr.sigtrap = 1;
	a.attr.sig_data = SIG_DATA;
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &err);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, info.cleared) TH_LOG("the kernel has sigtrap: nothing to clear");
	for (int i = 0; i < NR_THREADS; i++)
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, spin, &w[i]));
	for (int i = 0; i < NR_THREADS; i++)
		pthread_join(w[i].thread, NULL);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	main_traps = traps_here;
	close(fd);
	signal(SIGTRAP, SIG_DFL);
	for (int i = 0; i < NR_THREADS; i++) {
		TH_LOG("thread %d: %d SIGTRAP", i, w[i].traps);
		EXPECT_LT(0, w[i].traps) TH_LOG("thread %d ran 0.2 s and got no SIGTRAP", i);
	}
	TH_LOG("opening thread (waiting in join): %d", main_traps);
	EXPECT_EQ(0, wrong_traps) TH_LOG("SIGTRAPs without TRAP_PERF and our sig_data: "
					 "the first has si_code %lu, data %#lx, type %lu",
					 wrong_code, wrong_data, wrong_type);
}

TEST_HARNESS_MAIN
