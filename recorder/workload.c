// SPDX-License-Identifier: GPL-2.0
/*
 * The workload: forked first, held on a pipe until its events are open (so
 * that enable_on_exec starts counting exactly at exec), then released.  A
 * second, close-on-exec pipe carries exec's errno back: EOF means it ran.
 * A third tells the recorder the child has taken perf's name, as perf's
 * child does, before anything reads its task from /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "recorder/workload.h"
#include "util/sys.h"

int rec_workload_prepare(struct rec_workload *wl, char **argv, struct pc_error *err)
{
	int go[2], ex[2], ready[2];
	sigset_t none;
	char c;

	memset(wl, 0, sizeof(*wl));
	wl->pid = -1;
	wl->go_fd = wl->err_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		return pc_error_set(err, errno, "pipe: %s", strerror(errno));
	if (pipe2(ex, O_CLOEXEC)) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		return pc_error_set(err, e, "pipe: %s", strerror(e));
	}
	if (pipe2(ready, O_CLOEXEC)) {
		int e = errno;

		close(go[0]); close(go[1]); close(ex[0]); close(ex[1]);
		return pc_error_set(err, e, "pipe: %s", strerror(e));
	}
	wl->pid = fork();
	if (wl->pid < 0) {
		int e = errno;

		close(go[0]); close(go[1]); close(ex[0]); close(ex[1]);
		close(ready[0]); close(ready[1]);
		return pc_error_set(err, e, "fork: %s", strerror(e));
	}
	if (wl->pid == 0) {
		int e;

		close(go[1]);
		close(ex[0]);
		close(ready[0]);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);
		/* perf's name up to the exec, not the recorder's */
		prctl(PR_SET_NAME, "perf-exec");
		/* named: the recorder may read /proc now */
		close(ready[1]);
		/* EOF: the recorder gave up before releasing us */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	close(ready[1]);
	/* EOF once the child is named (or gone: its exit is found at release) */
	while (read(ready[0], &c, 1) < 0 && errno == EINTR)
		;
	close(ready[0]);
	wl->go_fd = go[1];
	wl->err_fd = ex[0];
	return 0;
}

int rec_workload_start(struct rec_workload *wl, char **argv, struct pc_error *err)
{
	ssize_t n;
	int e = 0;

	if (write(wl->go_fd, "g", 1) != 1) {
		e = errno;
		close(wl->go_fd);
		wl->go_fd = -1;
		return pc_error_set(err, e, "cannot release the workload: %s", strerror(e));
	}
	close(wl->go_fd);
	wl->go_fd = -1;
	do
		n = read(wl->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(wl->err_fd);
	wl->err_fd = -1;
	if (n == (ssize_t)sizeof(e))
		return pc_error_set(err, e, "cannot run '%s': %s", argv[0], strerror(e));
	return 0;
}

bool rec_workload_reap(struct rec_workload *wl, bool block)
{
	siginfo_t si = { 0 };
	pid_t r;

	if (wl->pid <= 0 || wl->exited)
		return wl->exited;
	/* exited: its comm while it is a zombie, which perf's tail synthesis reads */
	if (!waitid(P_PID, (id_t)wl->pid, &si, WEXITED | WNOWAIT | (block ? 0 : WNOHANG)) &&
	    si.si_pid == wl->pid) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/comm", wl->pid);
		if (pc_read_file(path, wl->comm, sizeof(wl->comm)) > 0)
			wl->comm[strcspn(wl->comm, "\n")] = '\0';
		else
			wl->comm[0] = '\0';
	}
	do
		r = waitpid(wl->pid, &wl->status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == wl->pid)
		wl->exited = true;
	else if (r < 0)
		wl->exited = true;	/* not our child any more: nothing to wait for */
	return wl->exited;
}

void rec_workload_kill(struct rec_workload *wl, int sig)
{
	if (wl->pid > 0 && !wl->exited)
		kill(wl->pid, sig);
	if (wl->go_fd >= 0) {
		close(wl->go_fd);
		wl->go_fd = -1;
	}
	if (wl->err_fd >= 0) {
		close(wl->err_fd);
		wl->err_fd = -1;
	}
}
