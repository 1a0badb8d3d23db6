// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the read path: the perf.data parser, the session
 * (ordering, thread state, deferred merge) and the script, -D and merge
 * variants of the printer, with output thrown away.  DSO paths from the
 * input are looked up under a root that does not exist, so the fuzzer
 * never opens the machine's files.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "reader/dump.h"
#include "reader/print.h"
#include "reader/session.h"
#include "util/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run(const char *path, int devnull, int mode)
{
	struct rd_session *s = calloc(1, sizeof(*s));
	struct rd_printer pr = { .compat = mode == 1 ? RD_COMPAT_6_1 : RD_COMPAT_7_2,
				 .merge = mode != 2 };
	struct pc_error err = { 0 };
	struct rd_out out;

	if (!s || rd_out_init(&out, devnull)) {
		free(s);
		return;
	}
	if (!rd_session_open(s, path, &err)) {
		s->dsos.root = "/nonexistent-fuzz-root";
		s->kernel_local = false;
		s->dsos.own_vdso = false;
		s->dsos.buildid_dir = NULL;
		if (mode == 3) {
			pr.out = &out;
			rd_dump(s, &out, true, &pr, &err);
		} else {
			pr.out = &out;
			s->merge = pr.merge;
			s->merge_late = mode == 1;
			s->ops.sample = rd_print_sample;
			s->ops.deferred = rd_print_deferred;
			s->ops.ctx = &pr;
			rd_session_process(s, &err);
		}
	}
	rd_out_flush(&out);
	rd_printer_free(&pr);
	rd_session_close(s);
	free(s);
	rd_out_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int devnull = -1;
	char path[64];
	int fd;

	if (devnull < 0) {
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
		pc_set_print(NULL);	/* warnings about recovered files would flood the log */
	}
	fd = memfd_create("fuzz.data", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (int mode = 0; mode < 4; mode++)
		run(path, devnull, mode);
	close(fd);
	return 0;
}
