/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFCHECK_RECORDER_USER_H
#define PERFCHECK_RECORDER_USER_H

#include <sys/types.h>

#include "util/error.h"

/* -u USER (a name or a uid): the processes whose real uid it is, from /proc. */
int rec_user_pids(const char *user, pid_t **pids, int *nr, struct pc_error *err);

#endif
