/* SPDX-License-Identifier: GPL-2.0 */
/* For the fuzz targets: the input as a file path, and the command's output thrown away. */
#ifndef PERFCHECK_FUZZ_INPUT_H
#define PERFCHECK_FUZZ_INPUT_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/log.h"

/* Writes data to a memfd; path names it.  Returns the fd, or -1. */
static inline int fuzz_input(const uint8_t *data, size_t size, char *path, size_t path_size)
{
	static int once;
	int fd;

	if (!once) {
		int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);

		/* the command writes to stdout: away with it (libFuzzer reports on stderr) */
		if (devnull >= 0)
			dup2(devnull, STDOUT_FILENO);
		pc_set_print(NULL);	/* warnings about recovered files would flood the log */
		once = 1;
	}
	fd = memfd_create("fuzz.data", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, path_size, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
