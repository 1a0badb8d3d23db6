// SPDX-License-Identifier: GPL-2.0
/*
 * A file without the kernel's MMAP record ("[kernel.kallsyms]_text", as a
 * recording made where kallsyms is hidden lacks it), against the system
 * perf 6.1: perf then has no kernel map, and shows kernel samples as
 * "[unknown]" in script (symbol and object) and report (object, the
 * address as symbol, the object column at least 16 wide).  The test takes
 * a file perf records here and turns that one record into a
 * FINISHED_ROUND of the same size (both readers pass over it).  Skips
 * where no perf is installed or it may not record.
 */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/perfcmp.h"

PERFCMP_FIXTURE(nokmap, "interop-no-kernel-map")

/* The kernel's MMAP record of the file at path becomes a FINISHED_ROUND: how many. */
static int drop_kernel_mmap(const char *path)
{
	int fd = open(path, O_RDWR), n = 0;
	uint64_t off, size, pos;

	if (fd < 0)
		return -1;
	if (pread(fd, &off, 8, 40) != 8 || pread(fd, &size, 8, 48) != 8) {
		close(fd);
		return -1;
	}
	for (pos = off; pos + 8 <= off + size;) {
		struct { uint32_t type; uint16_t misc, size; } h;
		char name[24] = "";

		if (pread(fd, &h, 8, (off_t)pos) != 8 || h.size < 8)
			break;
		/* MMAP: header, pid, tid, start, len, pgoff, then the name */
		if (h.type == 1 && (h.misc & 7) == 1 && h.size >= 40 + 17 &&
		    pread(fd, name, 17, (off_t)(pos + 40)) == 17 &&
		    !memcmp(name, "[kernel.kallsyms]", 17)) {
			uint32_t round = 68;

			if (pwrite(fd, &round, 4, (off_t)pos) == 4)
				n++;
		}
		pos += h.size;
	}
	close(fd);
	return n;
}

#define RECORD(opts)                                                                       \
	do {                                                                               \
		PERFCMP_RECORD(self->c.path, opts, PERFCMP_SPIN);                          \
		ASSERT_EQ(1, drop_kernel_mmap(self->c.path));                              \
	} while (0)

TEST_F(nokmap, script_shows_kernel_samples_unknown_as_perf)
{
	RECORD("-e cpu-clock -c 100000");
	perfcmp_same_on_file(_metadata, &self->c, "script", "[unknown] ([unknown])");
	EXPECT_EQ(NULL, strstr(self->c.ours.out, "[kernel.kallsyms]"));
}

TEST_F(nokmap, report_shows_kernel_samples_unknown_as_perf)
{
	RECORD("-e cpu-clock -c 100000");
	perfcmp_same_on_file(_metadata, &self->c, "report --stdio", "[k] 0xffff");
	EXPECT_NE(NULL, strstr(self->c.ours.out, "  [unknown]  "));
}

TEST_F(nokmap, callchains_without_a_kernel_map_match_perf)
{
	RECORD("-e cpu-clock -c 100000 -g");
	perfcmp_same_on_file(_metadata, &self->c, "script", "[unknown] ([unknown])");
	perfcmp_same_on_file(_metadata, &self->c, "report --stdio --no-children", "[k] 0x");
}

TEST_HARNESS_MAIN
