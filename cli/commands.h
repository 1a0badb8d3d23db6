/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFCHECK_CLI_COMMANDS_H
#define PERFCHECK_CLI_COMMANDS_H

/* Each subcommand lives in the folder that owns it. */
int cmd_record(int argc, char **argv);	/* recorder/ */
int cmd_script(int argc, char **argv);	/* reader/ */
int cmd_report(int argc, char **argv);	/* reader/ */
int cmd_probe(int argc, char **argv);	/* probes/ */
int cmd_stat(int argc, char **argv);	/* stat/ */
int cmd_emulate(int argc, char **argv);	/* emulate/ */
int cmd_version(int argc, char **argv);

#endif
