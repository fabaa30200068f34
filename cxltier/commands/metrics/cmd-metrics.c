// SPDX-License-Identifier: GPL-2.0-only
/* cmd-metrics.c - `cxltier metrics`: one node_exporter textfile with the
 * figures a fleet watches: CXL capacity by memdev, region and node, state
 * and zone; the memory tier of each node; device health; the AER errors the
 * kernel counted on each memdev since boot; the event store's counters
 * (collected by lib/jobs/metrics-collect.h; the families: metrics-model.c;
 * the Prometheus text: metrics-prom.c) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "metrics-model.h"
#include "metrics-prom.h"
#include "core/atomic-file.h"
#include "events/event-store.h"
#include "jobs/metrics-collect.h"

struct metrics_args {
	const char *store_path, *config, *output_file;
};

/* the text to write: Prometheus, or the JSON */
static char *render(const struct cmd_env *env, json_object *root, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	if (env->out.json)
		out_json_fprint(f, root);
	else
		metrics_prom(f, root);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int write_out(struct cmd_env *env, const char *path, const char *text, size_t len)
{
	struct ct_error err = { 0 };

	if (!path) {	/* a failed write is said once, when stdout is closed (cli_close_stdout) */
		fwrite(text, 1, len, stdout);
		return EXIT_OK;
	}
	/* node_exporter (user prometheus) reads it */
	if (ct_file_write_atomic(&err, path, text, len, 0644)) {
		cmd_err(env, "%s", err.msg);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int run(struct cmd_env *env, void *args, int argc, char **argv)
{
	const struct metrics_args *a = args;
	struct ct_metrics_collect_opts o = { .store_path = a->store_path, .config = a->config };
	struct ct_metrics_report r;
	json_object *root = NULL;
	char *text = NULL;
	size_t len;
	int rc;

	(void)argc, (void)argv;
	if (env->given & CLI_GIVEN_COLUMNS) {	/* -o is a table's columns in every command, never a file */
		cmd_err(env, "-o chooses a table's columns, and metrics prints no table: to write a file, give "
			"--output-file FILE");
		return EXIT_USAGE;
	}
	if (ct_metrics_collect(env->ctx, &o, &r) || !(root = metrics_json(&r)) || !(text = render(env, root, &len))) {
		cmd_err(env, "out of memory");
		rc = EXIT_FAIL;
	} else {
		rc = write_out(env, a->output_file, text, len);
	}
	if (rc == EXIT_OK && r.failed)
		rc = EXIT_PARTIAL;
	free(text);
	json_object_put(root);
	ct_metrics_collect_free(&r);
	return rc;
}

#define ARG(field) offsetof(struct metrics_args, field)
static const struct cli_opt opts[] = {
	{ .name = "output-file", .arg = "FILE", .store = CLI_STRING, .offset = ARG(output_file), .complete = CLI_C_FILE,
	  .help = "write FILE atomically (a temporary file in its directory,\n"
		  "then renamed) instead of stdout; node_exporter reads\n"
		  "/var/lib/prometheus/node-exporter/*.prom. The directory:\n"
		  "root's (or yours), no symbolic link on its path" },
	{ .name = "store-path", .arg = "PATH", .store = CLI_STRING, .offset = ARG(store_path), .complete = CLI_C_FILE,
	  .help = "the event store (default: [events] store = of the\nconfiguration, else " CT_EVENT_STORE_PATH ")" },
	{ .name = "config", .arg = "FILE", .store = CLI_STRING, .offset = ARG(config), .complete = CLI_C_FILE,
	  .help = "the [events] section of FILE, not /etc/cxltier.conf" },
	{ NULL },
};

const struct cli_command command_metrics = {
	.name = "metrics",
	.summary = "CXL capacity, tiers, health and error counts as a node_exporter textfile",
	.synopsis = "[--output-file FILE] [--store-path PATH] [--config FILE] [-j]",
	.about = "The figures a fleet watches, as one node_exporter textfile (Prometheus text\n"
		 "format; metric names cxltier_*): CXL capacity by memdev, region and node, by\n"
		 "state and zone; each node's memory tier; device health (where the device\n"
		 "answers); the PCIe AER errors the kernel counted on each memdev since boot,\n"
		 "by severity and kind; the CXL event records the follower stored, by memdev,\n"
		 "kind and severity (counters that only grow). Nothing is left behind in the kernel.",
	.notes = "  -j, --json          the same families as JSON\n"
		 "  -v, --verbose       say what was not collected, and why\n"
		 "      --sysroot DIR   a captured tree: no health; the store read only when named",
	.exit_help = "Exit: 0 written, 64 written but a collector failed (named on stderr and in\n"
		     "cxltier_metrics_collector_success), 1 nothing written.",
	.opts = opts,
	.args_size = sizeof(struct metrics_args),
	.max_operands = 0,
	.run = run,
};
