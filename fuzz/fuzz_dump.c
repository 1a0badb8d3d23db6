// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for perfcheck script -D --header: the header view (each
 * attr in perf's layout, every feature section) and every record in file
 * order with its fields.
 */
#include "cli/commands.h"
#include "fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_input(data, size, path, sizeof(path));
	char *argv[] = { "script", "-D", "--header", "-i", path, NULL };

	if (fd < 0)
		return 0;
	cmd_script(5, argv);
	close(fd);
	return 0;
}
