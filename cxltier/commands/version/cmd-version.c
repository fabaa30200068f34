// SPDX-License-Identifier: GPL-2.0-only
/* cmd-version.c - `cxltier version` (and `cxltier --version`): cxltier's
 * version; with -j also that of the JSON schemas (docs/schema) */
#include <stdio.h>
#include "cli/cli.h"
#include "cli/json-build.h"
#include "config.h"

static const char *const levels[] = { "version", NULL };
static const struct out_column columns[] = {
	{ "CXLTIER", "cxltier", OUT_STR, 0.1, 0, "cxltier's version", NULL },
	{ "JSON-SCHEMA", "json_schema", OUT_STR, 0.1, 0, "the JSON schemas' version", NULL },
};
static const struct out_table table = { levels, NULL, columns, 2, "CXLTIER,JSON-SCHEMA" };

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	json_object *root, *o;
	char err[64];

	(void)args, (void)argc, (void)argv;
	if (!env->out.json) {
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

static const struct out_table *const tables[] = { &table, NULL };

const struct cli_command command_version = {
	.name = "version",
	.summary = "print the version",
	.synopsis = "[-j]",
	.about = "cxltier's version; with -j also the version of its JSON schemas.",
	.notes = "JSON: {\"version\":[{\"cxltier\":...,\"json_schema\":...}]}",
	.tables = tables,
	.max_operands = 0,
	.flags = CLI_NO_CONTEXT,
	.run = run,
};
