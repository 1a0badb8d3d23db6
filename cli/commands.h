/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFCHECK_CLI_COMMANDS_H
#define PERFCHECK_CLI_COMMANDS_H

/*
 * Weak while the subcommands are being built in parallel, so that a tree
 * without one still links; main() lists only the ones present.
 */
#define PC_CMD __attribute__((weak))

PC_CMD int cmd_record(int argc, char **argv);
PC_CMD int cmd_script(int argc, char **argv);
PC_CMD int cmd_report(int argc, char **argv);
PC_CMD int cmd_probe(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
