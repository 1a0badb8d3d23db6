/* SPDX-License-Identifier: GPL-2.0 */
/* The forked workload, held on a pipe until its events are open. */
#ifndef PERFCHECK_RECORDER_WORKLOAD_H
#define PERFCHECK_RECORDER_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>

#include "util/error.h"

struct rec_workload {
	pid_t pid;
	int go_fd;			/* write end: one byte releases the child */
	int err_fd;			/* read end: errno of a failed exec, EOF on success */
	bool exited;
	int status;			/* wait status once exited */
	char comm[16];			/* its comm when it exited ("" if unknown) */
};

int rec_workload_prepare(struct rec_workload *wl, char **argv, struct pc_error *err);
/* Releases the child; returns -errno (err set) if its exec failed. */
int rec_workload_start(struct rec_workload *wl, char **argv, struct pc_error *err);
/* Non-blocking reap; true once it has exited. */
bool rec_workload_reap(struct rec_workload *wl, bool block);
void rec_workload_kill(struct rec_workload *wl, int sig);

#endif
