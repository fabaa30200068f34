// SPDX-License-Identifier: GPL-2.0-only
/* cmd-health.c - `cxltier health`: Get Health Info and alert configuration
 * of CXL memdevs (health-live.c; from payload files: health-file.c), as a
 * table (health-table.c), JSON (render/health-json.c), or Prometheus
 * textfile metrics (health-prometheus.c); --set-alert sets the warning
 * alerts first (health-set-alert.c) */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli/cli.h"
#include "cli/json-build.h"
#include "health-file.h"
#include "health-live.h"
#include "health-prometheus.h"
#include "health-set-alert.h"
#include "health-table.h"
#include "core/context.h"
#include "cxl/health.h"
#include "cxl/topology.h"

enum { FORMAT_TABLE, FORMAT_JSON, FORMAT_PROMETHEUS };

struct health_args {
	int format;
	const char *file, *alert_file, *set_alert;
};

/* what a run on the devices is given */
struct devices_run {
	const struct health_args *a;
	const struct ct_alert_set *set;	/* --set-alert, parsed */
	int argc;
	char **argv;
};

/* the memdevs the operands name, their alerts set (--set-alert: *set_rc
 * its exit code), their health into arr; 0, or an exit code when there is
 * nothing to show */
static int read_devices(struct cmd_env *env, const struct devices_run *d, const struct ct_topology *t,
			json_object *arr, struct health_count *n, int *set_rc)
{
	bool *wanted = calloc(t->nmemdevs + 1, sizeof(bool));
	int rc;

	if (!wanted) {
		cmd_err(env, "out of memory");
		return EXIT_FAIL;
	}
	if (!(rc = health_select(env, t, d->argc, d->argv, wanted)) && d->set) {
		*set_rc = health_set_alerts(env, t, wanted, d->set, d->a->set_alert);
		if (*set_rc != EXIT_OK && *set_rc != EXIT_PARTIAL)
			rc = *set_rc;	/* nothing was set: nothing new to show */
	}
	if (!rc) {
		health_read_live(env, t, wanted, arr, n);
		if (!t->nmemdevs && !env->out.json && d->a->format != FORMAT_PROMETHEUS)
			fprintf(stderr, "cxltier health: no CXL memdevs on this system\n");
	}
	free(wanted);
	return rc;
}

/* the running system's memdevs; 0, or an exit code */
static int live(struct cmd_env *env, const struct devices_run *d, json_object *arr, struct health_count *n,
		int *set_rc)
{
	struct ct_topology t;
	int rc;

	if ((rc = cmd_context(env)))
		return rc;
	if (!env->ctx->live) {
		cmd_err(env, "health reads the devices' mailboxes: not possible on a captured tree (--sysroot)");
		return EXIT_UNSUPPORTED;
	}
	if (ct_topology_load(env->ctx, &t))
		return cmd_fail(env, EXIT_FAIL);
	rc = read_devices(env, d, &t, arr, n, set_rc);
	ct_topology_free(&t);
	return rc;
}

static int outcome(const struct health_count *n, int set_rc)
{
	if (set_rc >= 0)	/* what was asked was the setting */
		return set_rc;
	if (!n->failed && !n->unsupported)
		return EXIT_OK;
	if (n->ok)
		return EXIT_PARTIAL;
	return n->failed ? EXIT_FAIL : EXIT_UNSUPPORTED;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct health_args *a = args;
	struct health_count n = { 0 };
	struct ct_alert_set set;
	struct devices_run d = { a, a->set_alert ? &set : NULL, argc, argv };
	json_object *root, *arr;
	int rc, set_rc = -1;
	char err[256];

	if (a->format == FORMAT_PROMETHEUS && env->given & (CLI_GIVEN_COLUMNS | CLI_GIVEN_NOHEADINGS | CLI_GIVEN_BYTES)) {
		cmd_err(env, "--format prometheus prints metric families: -o, -n and -b choose a table's form");
		return EXIT_USAGE;
	}
	if (a->set_alert && (rc = health_set_parse(env, a->set_alert, argc, &set)))
		return rc;
	env->out.json |= a->format == FORMAT_JSON;
	root = json_object_new_object();
	arr = jb_arr(root, "memdevs");
	if (a->file)
		rc = health_file(env, a->file, a->alert_file, arr);
	else
		rc = live(env, &d, arr, &n, &set_rc);
	n.ok += a->file && !rc;
	if (!rc && a->format == FORMAT_PROMETHEUS) {
		health_prometheus(root);
	} else if (!rc && out_print(&env->out, &health_table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
	}
	json_object_put(root);
	return rc ? rc : outcome(&n, set_rc);
}

#define ARG(field) offsetof(struct health_args, field)
static const struct cli_opt opts[] = {
	{ .name = "format", .arg = "FORMAT", .store = CLI_CHOICE, .offset = ARG(format), .words = "table json prometheus",
	  .complete = CLI_C_WORDS, .bad = "table, json or prometheus", .conflicts = "json",
	  .conflict_msg = "--format and -j both say the output's form: give one (-j is --format json)",
	  .help = "table (default), json, prometheus (node_exporter textfile)" },
	{ .name = "file", .arg = "FILE", .store = CLI_STRING, .offset = ARG(file), .complete = CLI_C_FILE,
	  .help = "decode an 18-byte Get Health Info payload instead" },
	{ .name = "alert-file", .arg = "FILE", .store = CLI_STRING, .offset = ARG(alert_file), .complete = CLI_C_FILE,
	  .help = "and a 16-byte Get Alert Configuration payload" },
	{ .name = "set-alert", .arg = "LIST", .store = CLI_STRING, .offset = ARG(set_alert), .complete = CLI_C_WORDS,
	  .words = "life-used= over-temperature= under-temperature= volatile-mem-err= pmem-err=",
	  .conflicts = "file", .conflict_msg = "--set-alert sets a device's alerts: not with --file",
	  .help = "set warning alerts, then show (MEMDEV... or all needed):\n"
		  "life-used=PERCENT, over-temperature=C, under-temperature=C,\n"
		  "volatile-mem-err=COUNT, pmem-err=COUNT; NAME=off turns one off" },
	{ NULL },
};
static const struct out_table *const tables[] = { &health_table, NULL };

const struct cli_command command_health = {
	.name = "health",
	.summary = "device health and alert configuration (Get Health Info), also for Prometheus",
	.synopsis = "[MEMDEV...] [-j | --format prometheus] [-o COLS]\n"
		    "--set-alert NAME=VALUE[,...] MEMDEV...|all\n"
		    "--file HEALTH.bin [--alert-file ALERT.bin]",
	.about = "Get Health Info (health and media status, life used, temperature, dirty\n"
		 "shutdowns, corrected error counts) and Get Alert Configuration of CXL memdevs.",
	.exit_help = "Exit: 0 read, 77 not supported by any device, 64 some read and some not, 1 failure.",
	.opts = opts,
	.tables = tables,
	.args_size = sizeof(struct health_args),
	.operands = "MEMDEV",
	.operand_kind = CLI_C_MEMDEV,
	.max_operands = -1,
	.flags = CLI_NO_CONTEXT,
	.run = run,
};
