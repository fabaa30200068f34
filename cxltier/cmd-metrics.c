// SPDX-License-Identifier: GPL-2.0-only
/* cmd-metrics.c - `cxltier metrics`: one node_exporter textfile with the
 * figures a fleet watches: CXL capacity by memdev, region and node, state
 * and zone; the memory tier of each node; device health; the AER errors the
 * kernel counted on each memdev since boot (the families: metrics-model.c) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cmd-metrics.h"
#include "events-store.h"
#include "events/retire-log.h"
#include "cxl/aer-stats.h"
#include "core/context.h"
#include "cxl/health-read.h"
#include "core/atomic-file.h"
#include "mm/tiers.h"
#include "views/mem-summary.h"

struct run {
	struct cmd_env *env;
	json_object *root;
	unsigned failed;	/* collectors that failed */
};

static void usage(void)
{
	printf("usage: cxltier metrics [-o FILE] [--store-path P] [--config FILE] [-j]\n\n"
	       "The figures a fleet watches, as one node_exporter textfile (Prometheus text\n"
	       "format; metric names cxltier_*): CXL capacity by memdev, region and node, by\n"
	       "state and zone; each node's memory tier; device health (where the device\n"
	       "answers); the PCIe AER errors the kernel counted on each memdev since boot,\n"
	       "by severity and kind; the CXL event records the follower stored, by memdev,\n"
	       "kind and severity (counters that only grow). Nothing is left behind in the kernel.\n\n"
	       "  -o, --output FILE   write FILE atomically (a temporary file in its directory,\n"
	       "                      then renamed) instead of stdout; node_exporter reads\n"
	       "                      /var/lib/prometheus/node-exporter/*.prom. The directory:\n"
	       "                      root's (or yours), no symbolic link on its path\n"
	       "  -j, --json          the same families as JSON\n"
	       "      --store-path P  the event store (default: [events] store = of the\n"
	       "                      configuration, else " CT_EVENT_STORE_PATH ")\n"
	       "      --config FILE   the [events] section of FILE, not /etc/cxltier.conf\n"
	       "  -v, --verbose       say what was not collected, and why\n"
	       "      --sysroot DIR   as for every command (a captured tree: no health)\n"
	       "Exit: 0 written, 64 written but a collector failed (named on stderr and in\n"
	       "cxltier_metrics_collector_success), 1 nothing written.\n");
}

/* a collector that could not read: said, and counted against the run */
static void collector_failed(struct run *r, const char *collector)
{
	cmd_warn(r->env, "%s: %s", collector, ct_context_message(r->env->ctx));
	ct_error_clear(&r->env->ctx->err);
	metrics_collector(r->root, collector, false);
	r->failed++;
}

static void memory(struct run *r, struct ct_topology *t, bool *have_topo)
{
	struct ct_context *ctx = r->env->ctx;
	struct ct_mem_summary s;
	struct ct_tiers tiers;

	*have_topo = ct_topology_load(ctx, t) == 0;
	if (!*have_topo) {
		collector_failed(r, "topology");
		return;
	}
	metrics_topology(r->root, t);
	metrics_collector(r->root, "topology", true);
	if (ct_mem_summary_load(ctx, t, &s) == 0) {
		metrics_nodes(r->root, &s);
		metrics_collector(r->root, "memory_blocks", true);
		ct_mem_summary_free(&s);
	} else if (ctx->err.code == EOPNOTSUPP) {
		cmd_info(r->env, 1, "memory_blocks: %s", ct_context_message(ctx));
		ct_error_clear(&ctx->err);
	} else {
		collector_failed(r, "memory_blocks");
	}
	if (ct_tiers_load(&ctx->sys, &tiers) == 0) {
		metrics_tiers(r->root, &tiers);
		metrics_collector(r->root, "tiers", true);
		ct_tiers_free(&tiers);
	} else {
		collector_failed(r, "tiers");
	}
}

/* Get Health Info of every memdev that answers it (live systems only) */
static void health(struct run *r, const struct ct_topology *t)
{
	struct ct_context *ctx = r->env->ctx;
	unsigned tried = 0, bad = 0;

	for (size_t i = 0; i < t->nmemdevs; i++) {
		struct ct_health h;
		struct ct_alert_config a;
		bool have_alert;
		int rc = ct_health_read(ctx, t->memdevs[i].name, &h, &a, &have_alert);

		if (rc == -EOPNOTSUPP) {
			cmd_info(r->env, 1, "health: %s: not supported by the device", t->memdevs[i].name);
			ct_error_clear(&ctx->err);
			continue;
		}
		tried++;
		if (rc) {
			cmd_warn(r->env, "health: %s", ct_context_message(ctx));
			ct_error_clear(&ctx->err);
			bad++;
			continue;
		}
		metrics_health(r->root, t->memdevs[i].name, &h);
	}
	if (tried)
		metrics_collector(r->root, "health", !bad);
	r->failed += !!bad;
}

/* the AER counts of every memdev whose PCI device keeps them */
static void aer(struct run *r, const struct ct_topology *t)
{
	struct ct_context *ctx = r->env->ctx;
	unsigned tried = 0, bad = 0;

	for (size_t i = 0; i < t->nmemdevs; i++) {
		struct ct_aer_stats st;
		int rc = ct_aer_stats_read(&ctx->sys, t->memdevs[i].name, &st);

		if (rc == -ENOENT) {
			cmd_info(r->env, 1, "aer: %s: its PCI device keeps no AER counts", t->memdevs[i].name);
			ct_error_clear(&ctx->err);
			continue;
		}
		tried++;
		if (rc) {
			cmd_warn(r->env, "aer: %s", ct_context_message(ctx));
			ct_error_clear(&ctx->err);
			bad++;
			continue;
		}
		metrics_aer(r->root, t->memdevs[i].name, &st);
		ct_aer_stats_free(&st);
	}
	if (tried)
		metrics_collector(r->root, "aer", !bad);
	r->failed += !!bad;
}

/* the event store's counters (none yet: no family; an unreadable store: a
 * failed collector) */
static void on_count(const char *memdev, uint64_t serial, const char *kind, const char *severity, uint64_t n,
		     void *root)
{
	metrics_events(root, memdev, serial, kind, severity, n);
}

static void on_retired(const char *memdev, uint64_t serial, enum ct_retire_action action, uint64_t n, void *root)
{
	if (action != CT_RETIRE_ALREADY)	/* (found taken: not cxltier's doing) */
		metrics_retired(root, memdev, serial, ct_retire_log_action_name(action), n);
}

static void events(struct run *r, const char *config, const char *path)
{
	struct events_store es;
	uint64_t rows, pruned;
	int rc;

	if ((rc = events_store_open(r->env, &es, config, path, false)) || !es.s) {
		if (rc || es.failed) {
			metrics_collector(r->root, "events", false);
			r->failed++;
		}
		return;
	}
	if (ct_event_store_counts(es.s, on_count, r->root, &r->env->ctx->err) ||
	    ct_retire_log_counts(es.s, on_retired, r->root, &r->env->ctx->err) ||
	    ct_event_store_totals(es.s, &rows, &pruned, &r->env->ctx->err)) {
		collector_failed(r, "events");
	} else {
		metrics_add(r->root, "cxltier_events_stored_records", (int64_t)rows, NULL);
		metrics_add(r->root, "cxltier_events_pruned_total", (int64_t)pruned, NULL);
		metrics_collector(r->root, "events", true);
	}
	events_store_close(r->env, &es);
}

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

	if (!path) {
		if (fwrite(text, 1, len, stdout) != len || fflush(stdout)) {
			cmd_err(env, "cannot write to stdout: %s", strerror(errno));
			return EXIT_FAIL;
		}
		return EXIT_OK;
	}
	/* node_exporter (user prometheus) reads it */
	if (ct_file_write_atomic(&err, path, text, len, 0644)) {
		cmd_err(env, "%s", err.msg);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int cmd_metrics(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_STORE_PATH = 0x7101, OPT_CONFIG };
	static const struct option opts[] = {
		COMMON_LONG_OPTS,	/* -o/--output: the file here, not table columns */
		{ "store-path", required_argument, NULL, OPT_STORE_PATH },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *store_path = NULL, *config = NULL;
	bool have_topo;
	struct ct_topology t = { 0 };
	struct run r = { .env = env };
	char *text;
	size_t len;
	int c, rc;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == 'o')
			output = optarg;
		else if (c == OPT_STORE_PATH)
			store_path = optarg;
		else if (c == OPT_CONFIG)
			config = optarg;
		else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage)))
			return cmd_exit_code(rc);
	}
	if (optind < argc) {
		cmd_err(env, "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if ((rc = cmd_context(env)))
		return rc;
	r.root = metrics_new();
	memory(&r, &t, &have_topo);
	if (env->ctx->live && have_topo)
		health(&r, &t);
	if (have_topo)
		aer(&r, &t);
	/* the store of this machine (a captured tree has none, unless named) */
	if (env->ctx->live || store_path)
		events(&r, config, store_path);
	metrics_prune(r.root);
	text = render(env, r.root, &len);
	if (!text) {
		cmd_err(env, "out of memory");
		rc = EXIT_FAIL;
	} else {
		rc = write_out(env, output, text, len);
		free(text);
	}
	if (rc == EXIT_OK && r.failed)
		rc = EXIT_PARTIAL;
	json_object_put(r.root);
	if (have_topo)
		ct_topology_free(&t);
	return rc;
}
