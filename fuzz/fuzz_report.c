// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for perfcheck report: the whole command (options, the
 * session's stages, the overhead tables) on each input, with the default
 * sort and by symbol.  DSO paths from the input are looked up under a root
 * that does not exist, so the fuzzer never opens the machine's files.
 */
#include "cli/commands.h"
#include "fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_input(data, size, path, sizeof(path));
	char *plain[] = { "report", "-i", path, "--symfs", "/nonexistent-fuzz-root", NULL };
	char *by_sym[] = { "report", "-i", path, "--symfs", "/nonexistent-fuzz-root", "-s", "sym",
			   NULL };

	if (fd < 0)
		return 0;
	cmd_report(5, plain);
	cmd_report(7, by_sym);
	close(fd);
	return 0;
}
