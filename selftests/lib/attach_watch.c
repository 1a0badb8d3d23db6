// SPDX-License-Identifier: GPL-2.0
/* Ending an attach target once its tool holds perf events (attach_watch.h). */
#include "attach_watch.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define POLL_MS 50

/* The parent pid of process pid, from /proc/PID/stat; -1 when it is gone. */
static pid_t parent_of(pid_t pid)
{
	char path[64], line[512];
	const char *close_paren;
	FILE *f;
	int ppid = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f)) {
		/* the command name in parentheses may hold blanks and parentheses */
		close_paren = strrchr(line, ')');
		if (!close_paren || sscanf(close_paren + 1, " %*c %d", &ppid) != 1)
			ppid = -1;
	}
	fclose(f);
	return ppid;
}

/* Whether process pid has a perf_event file descriptor open. */
static int holds_perf_event(pid_t pid)
{
	char path[64], link[96], target[64];
	struct dirent *e;
	ssize_t n;
	int found = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%.16s", path, e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		found = !strcmp(target, "anon_inode:[perf_event]");
	}
	closedir(d);
	return found;
}

/* Whether a child of parent other than self holds perf events now. */
static int a_sibling_holds_perf_events(pid_t parent, pid_t self)
{
	struct dirent *e;
	int found = 0;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		pid_t pid = (pid_t)atoi(e->d_name);

		if (pid > 0 && pid != self && parent_of(pid) == parent)
			found = holds_perf_event(pid);
	}
	closedir(d);
	return found;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

pid_t attach_watch_start(pid_t target, int hold_ms)
{
	pid_t parent = getpid();
	pid_t watcher = fork();

	if (watcher != 0)
		return watcher;
	for (int held_ms = 0;;) {
		if (kill(target, 0))
			_exit(0);		/* the target ended by itself */
		held_ms = a_sibling_holds_perf_events(parent, getpid()) ? held_ms + POLL_MS : 0;
		if (held_ms >= hold_ms) {
			kill(target, SIGTERM);
			_exit(1);
		}
		sleep_ms(POLL_MS);
	}
}

int attach_watch_end(pid_t watcher)
{
	int status;

	if (watcher <= 0)
		return 0;
	kill(watcher, SIGKILL);
	while (waitpid(watcher, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 1;
}
