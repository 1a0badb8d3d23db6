// SPDX-License-Identifier: GPL-2.0
/*
 * --timeout (seed 000; milliseconds, from fractional seconds): a one-shot timerfd in the poll set, so the expiry
 * is just another wakeup of the loop and the file is finalized normally.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "recorder/timeout.h"

int rec_timeout_create(uint64_t ms, struct pc_error *err)
{
	struct itimerspec its = {
		.it_value = { .tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000) * 1000000 },
	};
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);

	if (fd < 0)
		return pc_error_set(err, errno, "--timeout: timerfd_create: %s", strerror(errno));
	if (timerfd_settime(fd, 0, &its, NULL) < 0) {
		int e = errno;

		close(fd);
		return pc_error_set(err, e, "--timeout: timerfd_settime: %s", strerror(e));
	}
	return fd;
}

bool rec_timeout_expired(int fd)
{
	uint64_t expirations = 0;

	return read(fd, &expirations, sizeof(expirations)) == sizeof(expirations) &&
	       expirations > 0;
}
