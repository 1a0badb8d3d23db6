/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --control fifo:CTL[,ACK] and fd:CTL[,ACK] (control.c): perf record's
 * control commands, one per line ("enable", "disable", "snapshot", "stop",
 * "ping"), each answered with "ack\n" on the ACK fifo or fd when there is one.
 */
#ifndef PERFCHECK_RECORDER_CONTROL_H
#define PERFCHECK_RECORDER_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

enum rec_ctl_cmd {
	REC_CTL_NONE,			/* nothing (more) to read */
	REC_CTL_ENABLE,
	REC_CTL_DISABLE,
	REC_CTL_SNAPSHOT,
	REC_CTL_STOP,
	REC_CTL_PING,
	REC_CTL_UNKNOWN,		/* a line that is none of them: named at -v */
};

struct rec_control {
	int ctl_fd, ack_fd;		/* -1 when absent */
	bool own_fds;			/* fifo: opened here, closed here */
	char buf[256];
	size_t len;
};

int rec_control_open(struct rec_control *c, const char *spec, struct pc_error *err);
/* The next whole command line read from the control fd (non-blocking). */
enum rec_ctl_cmd rec_control_next(struct rec_control *c);
void rec_control_ack(struct rec_control *c);
void rec_control_close(struct rec_control *c);

#endif
