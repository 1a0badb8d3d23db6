/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFCHECK_RECORDER_TIMEOUT_H
#define PERFCHECK_RECORDER_TIMEOUT_H

#include <stdbool.h>

#include "util/error.h"

int rec_timeout_create(unsigned int seconds, struct pc_error *err);
bool rec_timeout_expired(int fd);

#endif
