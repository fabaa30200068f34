// SPDX-License-Identifier: GPL-2.0-only
/* main.c - the command table and the dispatcher: the global options, then
 * the command, run in the harness (cli/cli-run.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <json-c/json.h>
#include "cli/cli.h"
#include "cli/cli-run.h"
#include "cli/json-build.h"
#include "core/context.h"
#include "config.h"

/* the commands (each in cxltier/commands/NAME/) */
extern const struct cli_command command_tiers;
extern const struct cli_command command_events;
extern const struct cli_command command_metrics;
extern const struct cli_command command_doctor;

/* during the move to the tables: the commands that parse their own options */
int cmd_list(int argc, char **argv, struct cmd_env *env);
int cmd_region(int argc, char **argv, struct cmd_env *env);
int cmd_cdat(int argc, char **argv, struct cmd_env *env);
int cmd_health(int argc, char **argv, struct cmd_env *env);
int cmd_poison(int argc, char **argv, struct cmd_env *env);
int cmd_migrate(int argc, char **argv, struct cmd_env *env);
int cmd_usage(int argc, char **argv, struct cmd_env *env);
int cmd_online(int argc, char **argv, struct cmd_env *env);
int cmd_offline(int argc, char **argv, struct cmd_env *env);
int cmd_hotplug(int argc, char **argv, struct cmd_env *env);

static const struct cli_command command_list = { .name = "list", .summary = "show CXL memdevs, regions, dax devices, memory blocks, nodes and tiers", .legacy = cmd_list };
static const struct cli_command command_region = { .name = "region", .summary = "create a CXL RAM region over memdevs (interleaved), or destroy one", .legacy = cmd_region };
static const struct cli_command command_cdat = { .name = "cdat", .summary = "decode the CDAT tables of CXL devices (or of a file)", .legacy = cmd_cdat };
static const struct cli_command command_health = { .name = "health", .summary = "device health and alert configuration (Get Health Info), also for Prometheus", .legacy = cmd_health };
static const struct cli_command command_poison = { .name = "poison", .summary = "the devices' poison lists (media errors) with region and host address; inject/clear", .legacy = cmd_poison };
static const struct cli_command command_migrate = { .name = "migrate", .summary = "move chosen processes' pages to a node or tier, once, with a report", .legacy = cmd_migrate };
static const struct cli_command command_usage = { .name = "usage", .summary = "where processes' and cgroups' memory is, per node and per memory tier", .legacy = cmd_usage };
static const struct cli_command command_online = { .name = "online", .summary = "online memory blocks into ZONE_MOVABLE (dax, region, memdev, node, blocks)", .legacy = cmd_online };
static const struct cli_command command_offline = { .name = "offline", .summary = "offline memory blocks, with bounded retries when busy", .legacy = cmd_offline };
static const struct cli_command command_hotplug = { .name = "hotplug", .summary = "wait for CXL devices udev's rule marks and online them per the policy, as they come", .legacy = cmd_hotplug };
static int cmd_help(int argc, char **argv, struct cmd_env *env);
static int cmd_version(int argc, char **argv, struct cmd_env *env);
static const struct cli_command command_help = { .name = "help", .summary = "show a command's manual (or its usage)", .legacy = cmd_help };
static const struct cli_command command_version = { .name = "version", .summary = "print the version", .legacy = cmd_version };

/* the commands, in the order `cxltier --help` lists them */
static const struct cli_command *const commands[] = {
	&command_list,
	&command_region,
	&command_cdat,
	&command_tiers,
	&command_health,
	&command_poison,
	&command_events,
	&command_migrate,
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

static void usage(FILE *f)
{
	fprintf(f, "usage: cxltier [--version] [--help] [--list-cmds] [-v] [-j] [--sysroot DIR] COMMAND [ARGS]\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < ncommands; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\n'cxltier help COMMAND' or 'cxltier COMMAND --help' for more.\n"
		   "Exit codes: 0 ok, 1 failure, 2 usage, 64 partial success, 77 not supported.\n");
}

static const struct cli_command *find_cmd(const char *name)
{
	for (size_t i = 0; i < ncommands; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static int unknown_cmd(const char *name)
{
	const char *names[32];
	const char *s;

	for (size_t i = 0; i < ncommands && i < 32; i++)
		names[i] = commands[i]->name;
	s = cmd_suggest(name, names, ncommands);
	fprintf(stderr, "cxltier: '%s' is not a cxltier command.%s%s%s See 'cxltier --help'.\n", name,
		s ? " Did you mean '" : "", s ? s : "", s ? "'?" : "");
	return EXIT_USAGE;
}

/* the version; with -j also that of the JSON schemas (docs/schema) */
static int print_version(int argc, char **argv, bool json)
{
	static const char *const levels[] = { "version", NULL };
	static const struct out_column columns[] = {
		{ "CXLTIER", "cxltier", OUT_STR, 0.1, 0, "cxltier's version", NULL },
		{ "JSON-SCHEMA", "json_schema", OUT_STR, 0.1, 0, "the JSON schemas' version", NULL },
	};
	static const struct out_table table = { levels, NULL, columns, 2, "CXLTIER,JSON-SCHEMA" };
	json_object *root, *o;
	char err[64];

	for (int i = 1; i < argc; i++)
		json |= !strcmp(argv[i], "-j") || !strcmp(argv[i], "--json");
	if (!json) {
		printf("%s\n", CXLTIER_VERSION);
		return EXIT_OK;
	}
	root = json_object_new_object();
	o = json_object_new_object();
	jb_str(o, "cxltier", CXLTIER_VERSION);
	jb_str(o, "json_schema", CXLTIER_SCHEMA_VERSION);
	json_object_array_add(jb_arr(root, "version"), o);
	out_print(&(struct out_opts){ .json = true }, &table, root, err, sizeof(err));
	json_object_put(root);
	return EXIT_OK;
}

static int cmd_version(int argc, char **argv, struct cmd_env *env)
{
	return print_version(argc, argv, env->out.json);
}

static int cmd_help(int argc, char **argv, struct cmd_env *env)
{
	const struct cli_command *c;
	char page[64], *hargv[] = { NULL, "--help", NULL };

	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	c = find_cmd(argv[1]);
	if (!c)
		return unknown_cmd(argv[1]);
	/* the manual when it is installed and a person reads it */
	snprintf(page, sizeof(page), "cxltier-%s", c->name);
	if (isatty(STDOUT_FILENO) && !getenv("CXLTIER_NO_MAN")) {
		char cmdline[128];
		snprintf(cmdline, sizeof(cmdline), "man -w %s >/dev/null 2>&1", page);
		int st = system(cmdline);
		if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			execlp("man", "man", page, (char *)NULL);
		}
	}
	hargv[0] = (char *)c->name;
	return cli_run(c, 2, hargv, env);
}

int main(int argc, char **argv)
{
	struct cmd_env env = { 0 };
	const struct cli_command *c;
	int i, rc;


	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--version")) {
			return print_version(argc, argv, false);
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--list-cmds")) {
			for (size_t k = 0; k < ncommands; k++)
				printf("%s\n", commands[k]->name);
			return EXIT_OK;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			env.verbose++;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			env.out.json = true;
		} else if (!strcmp(a, "--sysroot") && i + 1 < argc) {
			env.sysroot = argv[++i];
		} else if (!strncmp(a, "--sysroot=", 10)) {
			env.sysroot = a + 10;
		} else {
			fprintf(stderr, "cxltier: unknown option '%s'. See 'cxltier --help'.\n", a);
			return EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	c = find_cmd(argv[i]);
	if (!c)
		return unknown_cmd(argv[i]);
	rc = cli_run(c, argc - i, argv + i, &env);
	ct_context_free(env.ctx);
	return rc;
}
