// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck: one binary, one subcommand per job.  Each subcommand lives in
 * the folder that owns it and exports `int cmd_NAME(int argc, char **argv)`.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "record", cmd_record, "run a command and record its profile into perf.data" },
	{ "script", cmd_script, "print the samples of a perf.data file, as perf script does" },
	{ "report", cmd_report, "per-symbol overhead table of a perf.data file" },
	{ "stat",   cmd_stat,   "count events of a command, cpus or threads, as perf stat does" },
	{ "emulate", cmd_emulate, "run a program with an older kernel's perf_event_open answers" },
	{ "probe",  cmd_probe,  "report which perf_event features the running kernel has" },
	{ "version", cmd_version, "print perfcheck's version" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: perfcheck [--help] [--version] COMMAND [ARGS]\n\n"
		     "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s  %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nSee 'perfcheck COMMAND --help' for a command's options.\n");
}

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("perfcheck %s\n", PERFCHECK_VERSION);
	return 0;
}

int main(int argc, char **argv)
{
	const char *name;

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version"))
		name = "version";
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(commands[i].name, name))
			continue;
		return commands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "perfcheck: '%s' is not a perfcheck command.\n\n", argv[1]);
	usage(stderr);
	return 1;
}
