// SPDX-License-Identifier: GPL-2.0
/*
 * The asynchronous overflow signal of seed 002 ("perf: Make overflow
 * signals inheritable", 2014): an inherited sampling event whose fd has
 * O_ASYNC and an owner (F_SETOWN).  The RFC wanted the children's
 * overflows to signal too; the answer then was that children do not expect
 * signals and that IOC_REFRESH cannot re-arm inherited events.  What
 * kernels do since "perf: Fix fasync handling on inherited events" (4.2):
 * only the parent event holds the fasync state, and a child's overflow
 * sends SIGIO to the owner of the parent's fd; the child, which has no fd,
 * gets nothing.  These tests record what this kernel does (TH_LOG, and
 * $PERFCHECK_ARTIFACTS/fasync.txt in a guest) and assert the per-kernel
 * expectation below; contrast xk_sigtrap.c, where the signal is
 * synchronous and lands in the overflowing thread.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "xk_common.h"

/*
 * The documented expectation, per kernel: since 4.2 every kernel of the
 * matrix (5.10, 6.1, 6.12, 6.18, 7.2) sends the owner a SIGIO for a
 * child's overflow and none to the child; before 4.2 a child's overflow
 * signalled nobody.
 */
static bool owner_gets_child_sigio(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return true;
	return major > 4 || (major == 4 && minor >= 2);
}

static volatile int sigio_count;
static __thread int sigio_here;
static volatile int sigio_code, sigio_fd;

static void on_sigio(int sig, siginfo_t *info, void *uc)
{
	sigio_count++;
	sigio_here++;
	sigio_code = info->si_code;
	sigio_fd = info->si_fd;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* user-space CPU time: the event counts user time only */
static void burn(double secs)
{
	double end = cpu_now() + secs;
	volatile unsigned long x = 0;

	while (cpu_now() < end)
		for (int i = 0; i < 100000; i++)
			x++;
}

static void note(const char *fmt, ...)
{
	const char *dir = getenv("PERFCHECK_ARTIFACTS");
	char path[PATH_MAX];
	va_list ap;
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/fasync.txt", dir);
	f = fopen(path, "a");
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* An inherited sampling event on this thread, O_ASYNC, owned by this process. */
static int open_async(struct __test_metadata *_metadata)
{
	struct sigaction sa = { .sa_sigaction = on_sigio, .sa_flags = SA_SIGINFO | SA_RESTART };
	struct pc_open_info info = { 0 };
	struct pc_error err = { 0 };
	union pc_attr a;
	int fd;

	pc_feature_baseline_attr(&a);
	a.attr.sample_period = 1000000;
	a.attr.disabled = 0;
	a.attr.inherit = 1;
	a.attr.wakeup_events = 1;
	sigio_count = 0;
	sigio_here = 0;
	if (sigaction(SIGIO, &sa, NULL))
		return -1;
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &err);
	if (fd < 0) {
		TH_LOG("%s", err.msg);
		return -1;
	}
	/* F_SETSIG: a queued SIGIO with si_code and si_fd */
	if (fcntl(fd, F_SETOWN, getpid()) || fcntl(fd, F_SETSIG, SIGIO) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC)) {
		close(fd);
		return -1;
	}
	return fd;
}

TEST(sigio_for_an_inherited_childs_overflow_goes_to_the_owner_not_the_child)
{
	int pfd[2], child_sigio = -1, status, fd;
	bool expect = owner_gets_child_sigio();
	struct utsname u;
	pid_t pid;

	uname(&u);
	ASSERT_EQ(0, pipe(pfd));
	fd = open_async(_metadata);
	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* the child inherited the event and the handler, not the fd's ownership */
		sigio_count = 0;
		burn(0.3);
		child_sigio = sigio_count;
		if (write(pfd[1], &child_sigio, sizeof(child_sigio)) != sizeof(child_sigio))
			_exit(2);
		_exit(0);
	}
	close(pfd[1]);
	/* the owner waits: its own event does not run while it sleeps in read() */
	while (read(pfd[0], &child_sigio, sizeof(child_sigio)) < 0 && errno == EINTR)
		;
	waitpid(pid, &status, 0);
	close(pfd[0]);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	signal(SIGIO, SIG_IGN);
	close(fd);
	TH_LOG("%s: owner got %d SIGIO (si_code %d, si_fd %s), the child %d",
	       u.release, sigio_count, sigio_code, sigio_fd == fd ? "its fd" : "another",
	       child_sigio);
	note("%s child-overflow: owner %d sigio (si_code %d), child %d\n", u.release, sigio_count,
	     sigio_code, child_sigio);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(0, child_sigio) TH_LOG("a child without the fd was signalled");
	if (expect) {
		EXPECT_LT(0, sigio_count) TH_LOG("this kernel should signal the owner (4.2+)");
		if (sigio_count) {
			EXPECT_EQ(POLL_IN, sigio_code);
			EXPECT_EQ(fd, sigio_fd);
		}
	} else {
		EXPECT_EQ(0, sigio_count) TH_LOG("before 4.2 a child's overflow signals nobody");
	}
}

struct worker {
	pthread_t thread;
	int sigio;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	burn(0.3);
	w->sigio = sigio_here;
	return NULL;
}

TEST(sigio_for_an_inherited_threads_overflow_is_process_directed)
{
	struct worker w = { 0 };
	struct utsname u;
	int fd, main_sigio;

	uname(&u);
	fd = open_async(_metadata);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pthread_create(&w.thread, NULL, worker_main, &w));
	pthread_join(w.thread, NULL);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	main_sigio = sigio_here;
	signal(SIGIO, SIG_IGN);
	close(fd);
	TH_LOG("%s: the owning (main) thread got %d SIGIO, the overflowing thread %d", u.release,
	       main_sigio, w.sigio);
	note("%s thread-overflow: main %d sigio, overflowing thread %d\n", u.release, main_sigio,
	     w.sigio);
	/*
	 * F_SETOWN(pid) makes SIGIO process-directed: the kernel hands it to
	 * the main thread when it can take it, to another thread only while
	 * the main thread has one pending (measured: 7.2 gave the overflowing
	 * thread 1 of 220).  The thread that overflowed, the one a synchronous
	 * SIGTRAP would hit, gets few or none.
	 */
	EXPECT_LT(0, main_sigio);
	EXPECT_GT(main_sigio, w.sigio);
}

/* seed 002's other point: IOC_REFRESH cannot re-arm an inherited event */
TEST(ioc_refresh_is_refused_on_an_inherited_event_only)
{
	struct pc_open_info info = { 0 };
	struct pc_error err = { 0 };
	union pc_attr a;
	int fd;

	pc_feature_baseline_attr(&a);
	a.attr.inherit = 1;
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &err);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	pc_feature_baseline_attr(&a);
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &err);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1)) TH_LOG("%s", strerror(errno));
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	close(fd);
}

TEST_HARNESS_MAIN
