/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFCHECK_RECORDER_TIMEOUT_H
#define PERFCHECK_RECORDER_TIMEOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

/* A one-shot timerfd firing after ms milliseconds (--timeout, -D). */
int rec_timeout_create(uint64_t ms, struct pc_error *err);
bool rec_timeout_expired(int fd);

#endif
