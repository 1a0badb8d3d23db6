// SPDX-License-Identifier: GPL-2.0
/* perfcheck emulate KERNEL -- CMD...: run a program under an old kernel's perf_event_open. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "emulate/emulate.h"
#include "util/log.h"

static void usage(FILE *out)
{
	fprintf(out,
"usage: perfcheck emulate [-v] KERNEL [--] COMMAND [ARGS]\n"
"       perfcheck emulate --report [--] [PERF [ARGS]]\n"
"       perfcheck emulate --list\n"
"\n"
"Runs COMMAND with every perf_event_open it (or its children) makes answered\n"
"as KERNEL would: the errno of a bit that kernel lacks, E2BIG with its attr\n"
"size for a longer attr; everything else goes to the real kernel.  Nothing\n"
"but perf_event_open is changed.\n"
"\n"
"  -v, --verbose   print every perf_event_open and its answer\n"
"      --list      the kernels that can be emulated\n"
"      --report    the finding table for PERF (default: perf in PATH); PERF\n"
"                  may be a command prefix, e.g. a staged perf through its\n"
"                  ld.so: /R/lib64/ld-linux-x86-64.so.2 --library-path\n"
"                  /R/lib/x86_64-linux-gnu /R/perfcheck/upstream/perf\n"
"\n"
"Exit status: COMMAND's (128+N when signal N killed it), 127 when it cannot\n"
"be run, 129 for a usage error, 255 for any other error.\n");
}

static void list_kernels(FILE *out)
{
	for (const struct pc_kernel_model *k = pc_kernel_models; k->name; k++)
		fprintf(out, "%s%s", k == pc_kernel_models ? "" : " ", k->name);
	fputc('\n', out);
}

int cmd_emulate(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "list", no_argument, NULL, 'l' },
		{ "report", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct pc_kernel_model *k;
	struct pc_error err = { 0 };
	bool report = false;
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+vh", longs, NULL)) != -1) {
		switch (c) {
		case 'v':
			pc_verbose++;
			break;
		case 'l':
			list_kernels(stdout);
			return 0;
		case 'r':
			report = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "perfcheck emulate: unknown option '%s'\n", argv[optind - 1]);
			return 129;
		}
	}
	if (report) {
		char *dflt[] = { "perf", NULL };

		if (optind < argc && !strcmp(argv[optind], "--"))
			optind++;
		ret = emu_report(optind < argc ? argv + optind : dflt, &err);
		if (ret < 0) {
			fprintf(stderr, "perfcheck emulate: %s\n", err.msg);
			return 255;
		}
		return 0;
	}
	if (optind >= argc) {
		usage(stderr);
		return 129;
	}
	k = pc_kernel_model_find(argv[optind]);
	if (!k) {
		fprintf(stderr, "perfcheck emulate: no kernel '%s' to emulate; known: ", argv[optind]);
		list_kernels(stderr);
		return 129;
	}
	optind++;
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	if (optind >= argc) {
		fprintf(stderr, "perfcheck emulate: no command to run\n");
		return 129;
	}
	ret = emu_run(k, argv + optind, &(struct emu_opts){ 0 }, &err);
	if (ret < 0) {
		fprintf(stderr, "perfcheck emulate: %s\n", err.msg);
		return strncmp(err.msg, "cannot run", 10) ? 255 : 127;
	}
	return ret;
}
