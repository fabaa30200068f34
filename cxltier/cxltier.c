// SPDX-License-Identifier: GPL-2.0-only
/* cxltier.c - the command table and the dispatcher */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <json-c/json.h>
#include "cmd.h"
#include "json-build.h"
#include "core/context.h"
#include "config.h"

static int cmd_help(int argc, char **argv, struct cmd_env *env);
static int cmd_version(int argc, char **argv, struct cmd_env *env);

const struct cmd commands[] = {
	{ "list", cmd_list, "show CXL memdevs, regions, dax devices, memory blocks, nodes and tiers" },
	{ "region", cmd_region, "create a CXL RAM region over memdevs (interleaved), or destroy one" },


	{ "cdat", cmd_cdat, "decode the CDAT tables of CXL devices (or of a file)" },
	{ "tiers", cmd_tiers, "memory nodes with their tier, distances, performance and demotion targets" },
	{ "health", cmd_health, "device health and alert configuration (Get Health Info), also for Prometheus" },
	{ "poison", cmd_poison, "the devices' poison lists (media errors) with region and host address; inject/clear" },
	{ "events", cmd_events, "CXL event records (media, DRAM, module, poison) drained by the kernel, decoded" },
	{ "migrate", cmd_migrate, "move chosen processes' pages to a node or tier, once, with a report" },
	{ "usage", cmd_usage, "where processes' and cgroups' memory is, per node and per memory tier" },
	{ "online", cmd_online, "online memory blocks into ZONE_MOVABLE (dax, region, memdev, node, blocks)" },
	{ "offline", cmd_offline, "offline memory blocks, with bounded retries when busy" },
	{ "hotplug", cmd_hotplug, "wait for CXL devices udev's rule marks and online them per the policy, as they come" },
	{ "metrics", cmd_metrics, "CXL capacity, tiers, health and error counts as a node_exporter textfile" },
	{ "doctor", cmd_doctor, "explain why CXL memory is missing, offline, in the wrong zone or tier" },
	{ "help", cmd_help, "show a command's manual (or its usage)" },
	{ "version", cmd_version, "print the version" },
};
const size_t ncommands = sizeof(commands) / sizeof(commands[0]);

static void usage(FILE *f)
{
	fprintf(f, "usage: cxltier [--version] [--help] [--list-cmds] [-v] [-j] [--sysroot DIR] COMMAND [ARGS]\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < ncommands; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'cxltier help COMMAND' or 'cxltier COMMAND --help' for more.\n"
		   "Exit codes: 0 ok, 1 failure, 2 usage, 64 partial success, 77 not supported.\n");
}

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < ncommands; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int unknown_cmd(const char *name)
{
	const char *names[32];
	const char *s;

	for (size_t i = 0; i < ncommands && i < 32; i++)
		names[i] = commands[i].name;
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
	const struct cmd *c;
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
	env->cmd = c->name;
	optind = 0;
	return c->run(2, hargv, env);
}

int main(int argc, char **argv)
{
	struct cmd_env env = { 0 };
	const struct cmd *c;
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
				printf("%s\n", commands[k].name);
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
	env.cmd = c->name;
	rc = c->run(argc - i, argv + i, &env);
	ct_context_free(env.ctx);
	return rc;
}
