// SPDX-License-Identifier: GPL-2.0-only
/* main.c - the command table and the dispatcher: the global options, then
 * the command, run in the harness (cli/cli-run.h) */
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli-help.h"
#include "cli/cli-run.h"
#include "core/context.h"

/* the commands (each in cxltier/commands/NAME/) */
extern const struct cli_command command_tiers;
extern const struct cli_command command_tiering;
extern const struct cli_command command_help;
extern const struct cli_command command_version;
extern const struct cli_command command_poison;
extern const struct cli_command command_list;
extern const struct cli_command command_cdat;
extern const struct cli_command command_health;
extern const struct cli_command command_usage;
extern const struct cli_command command_migrate;
extern const struct cli_command command_run;
extern const struct cli_command command_events;
extern const struct cli_command command_metrics;
extern const struct cli_command command_doctor;
extern const struct cli_command command_region;
extern const struct cli_command command_online;
extern const struct cli_command command_offline;
extern const struct cli_command command_hotplug;
extern const struct cli_command command_weights;

/* the commands, in the order `cxltier --help` lists them */
static const struct cli_command *const commands[] = {
	&command_list,
	&command_region,
	&command_cdat,
	&command_tiers,
	&command_weights,
	&command_tiering,
	&command_health,
	&command_poison,
	&command_events,
	&command_migrate,
	&command_run,
	&command_usage,
	&command_online,
	&command_offline,
	&command_hotplug,
	&command_metrics,
	&command_doctor,
	&command_help,
	&command_version,
};
static const size_t ncommands = sizeof(commands) / sizeof(commands[0]);

/* the options before the command: the index of its word, or -1 with *rc
 * the exit code when the run ends here */
static int global_options(int argc, char **argv, struct cmd_env *env, int *rc)
{
	int i;

	*rc = EXIT_OK;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--version")) {	/* -j anywhere: as JSON */
			for (int k = 1; k < argc; k++)
				env->out.json |= !strcmp(argv[k], "-j") || !strcmp(argv[k], "--json");
			*rc = cli_run(&command_version, 1, (char *[]){ "version", NULL }, env);
			return -1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cli_usage(stdout, commands, ncommands);
			return -1;
		} else if (!strcmp(a, "--list-cmds")) {
			for (size_t k = 0; k < ncommands; k++)
				printf("%s\n", commands[k]->name);
			return -1;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			env->verbose++;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			env->out.json = true;
		} else if (!strcmp(a, "--sysroot") && i + 1 < argc) {
			env->sysroot = argv[++i];
		} else if (!strncmp(a, "--sysroot=", 10)) {
			env->sysroot = a + 10;
		} else {
			fprintf(stderr, "cxltier: unknown option '%s'. See 'cxltier --help'.\n", a);
			*rc = EXIT_USAGE;
			return -1;
		}
	}
	if (i >= argc) {
		cli_usage(stderr, commands, ncommands);
		*rc = EXIT_USAGE;
		return -1;
	}
	return i;
}

int main(int argc, char **argv)
{
	struct cmd_env env = { .commands = commands, .ncommands = ncommands };
	const struct cli_command *c;
	int i, rc;

	if ((i = global_options(argc, argv, &env, &rc)) < 0)
		goto out;
	if (!(c = cli_find(commands, ncommands, argv[i])))
		return cli_unknown_command(commands, ncommands, argv[i]);
	/* the terminal's character set (a table's tree lines in UTF-8 where it
	 * is, ASCII otherwise); numbers read and written as C writes them */
	if (!(c->flags & CLI_NO_LOCALE)) {
		setlocale(LC_ALL, "");
		setlocale(LC_NUMERIC, "C");
	}
	rc = cli_run(c, argc - i, argv + i, &env);
out:
	ct_context_free(env.ctx);
	return cli_close_stdout(rc);
}
