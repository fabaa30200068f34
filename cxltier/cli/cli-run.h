/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli-run.h - the harness a command runs in: its command line parsed from
 * its table (each option's value stored where the table says, the common
 * options into the environment), the table's rules checked (conflicts,
 * operands, the live system, -o against the command's columns), the
 * library's context opened, run() called, and what the command line made
 * freed. A usage error is said once, here.
 */
#ifndef CXLTIER_CLI_RUN_H
#define CXLTIER_CLI_RUN_H

#include "cli/cli.h"

/* argv[0] is the command's name; an exit code */
int cli_run(const struct cli_command *c, int argc, char **argv, struct cmd_env *env);
/* the table's own consistency (no letter or name twice, none of the
 * common ones taken): 0, or -1 with the fault on stderr */
int cli_check_table(const struct cli_command *c);
/* stdout flushed and closed at the end of the run, as util-linux's
 * close_stdout: a write that failed (a full disk, /dev/full) is said as
 * "write error" and the run's code becomes 1 (a failing run keeps its own);
 * a reader that left (EPIPE) is not an error. Returns the exit code. */
int cli_close_stdout(int rc);

#endif
