// SPDX-License-Identifier: GPL-2.0-only
/* cmd-help.c - `cxltier help [COMMAND]`: the command's manual when it is
 * installed and a person reads it, else its --help; without COMMAND every
 * command (the table comes through the environment: env->commands) */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/cli-help.h"

/* man cxltier-NAME in place of this process, when stdout is a terminal, the
 * page is installed and CXLTIER_NO_MAN is not set; returns when not */
static void manual(const char *name)
{
	char page[64], cmdline[128];
	int st;

	if (!isatty(STDOUT_FILENO) || getenv("CXLTIER_NO_MAN"))
		return;
	snprintf(page, sizeof(page), "cxltier-%s", name);
	snprintf(cmdline, sizeof(cmdline), "man -w %s >/dev/null 2>&1", page);
	st = system(cmdline);
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		execlp("man", "man", page, (char *)NULL);
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct cli_command *c;
	char *hargv[3] = { NULL, "--help", NULL };

	(void)args;
	if (!argc) {
		cli_usage(stdout, env->commands, env->ncommands);
		return EXIT_OK;
	}
	if (!(c = cli_find(env->commands, env->ncommands, argv[0])))
		return cli_unknown_command(env->commands, env->ncommands, argv[0]);
	manual(c->name);
	if (c->legacy) {	/* (during the move to the tables: its own --help) */
		hargv[0] = (char *)c->name;
		env->cmd = c->name;
		optind = 0;
		return c->legacy(2, hargv, env);
	}
	cli_help(stdout, c, NULL);
	return EXIT_OK;
}

const struct cli_command command_help = {
	.name = "help",
	.summary = "show a command's manual (or its usage)",
	.synopsis = "[COMMAND]",
	.about = "The manual page cxltier-COMMAND(1) when it is installed and the output is a\n"
		 "terminal (CXLTIER_NO_MAN set: never); otherwise the command's usage, as\n"
		 "'cxltier COMMAND --help' prints it. Without COMMAND: every command.",
	.operands = "COMMAND",
	.operand_kind = CLI_C_COMMAND,
	.max_operands = 1,
	.flags = CLI_NO_CONTEXT | CLI_NO_OUTPUT,
	.run = run,
};
