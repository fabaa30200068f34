// SPDX-License-Identifier: GPL-2.0-only
/* cmd-health.c - `cxltier health`: Get Health Info and alert configuration
 * of CXL memdevs, as a table, JSON, or Prometheus textfile metrics */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "render/health-json.h"
#include "health-set-alert.h"
#include "cli/json-build.h"
#include "core/context.h"
#include "cxl/health-read.h"
#include "cxl/topology.h"

static void fmt_status(json_object *rec, char *buf, size_t len);
static const char *const levels[] = { "memdevs", NULL };
static const struct out_column columns[] = {
	{ "MEMDEV", "name", OUT_STR, 0.1, 0, "memdev", NULL },
	{ "SERIAL", "serial", OUT_HEX, 0.1, 0, "serial number", NULL },
	{ "STATUS", "health.status", OUT_STR, 0.1, 0, "health status flags (ok when none)", fmt_status },
	{ "MEDIA", "health.media_status", OUT_STR, 0.1, 0, "media status", NULL },
	{ "LIFE-USED", "health.life_used_percent", OUT_NUM, 0.1, 0, "life used (%)", NULL },
	{ "LIFE", "health.life_used_state", OUT_STR, 0.1, 0, "life used: normal, warning, critical", NULL },
	{ "TEMP", "health.temperature_celsius", OUT_NUM, 0.1, 0, "device temperature (C)", NULL },
	{ "TEMP-STATE", "health.temperature_state", OUT_STR, 0.1, 0, "temperature: normal, warning, critical", NULL },
	{ "DIRTY-SHUTDOWNS", "health.dirty_shutdowns", OUT_NUM, 0.1, 0, "dirty shutdown count", NULL },
	{ "CORR-VOL", "health.corrected_volatile_errors", OUT_NUM, 0.1, 0, "corrected volatile errors", NULL },
	{ "CORR-PERS", "health.corrected_persistent_errors", OUT_NUM, 0.1, 0, "corrected persistent errors", NULL },
	{ "ALERTS", "alert_config", OUT_STR, 0.1, 0, "warning alerts on, as --set-alert takes them", health_fmt_alerts },
	{ "PROGRAMMABLE", "alert_config.programmable", OUT_STR, 0.1, 0, "warning alerts the host may set", NULL },
	{ "LIFE-WARN", "alert_config.life_used_warning_percent", OUT_NUM, 0.1, 0, "life used warning threshold (%)", NULL },
	{ "LIFE-CRIT", "alert_config.life_used_critical_percent", OUT_NUM, 0.1, 0, "life used critical threshold (%)", NULL },
	{ "OVERTEMP-WARN", "alert_config.over_temperature_warning_celsius", OUT_NUM, 0.1, 0, "over-temperature warning (C)", NULL },
	{ "OVERTEMP-CRIT", "alert_config.over_temperature_critical_celsius", OUT_NUM, 0.1, 0, "over-temperature critical (C)", NULL },
	{ "UNDERTEMP-WARN", "alert_config.under_temperature_warning_celsius", OUT_NUM, 0.1, 0, "under-temperature warning (C)", NULL },
	{ "UNDERTEMP-CRIT", "alert_config.under_temperature_critical_celsius", OUT_NUM, 0.1, 0, "under-temperature critical (C)", NULL },
	{ "CORR-VOL-WARN", "alert_config.corrected_volatile_errors_warning", OUT_NUM, 0.1, 0, "corrected volatile errors warning", NULL },
	{ "CORR-PERS-WARN", "alert_config.corrected_persistent_errors_warning", OUT_NUM, 0.1, 0, "corrected persistent errors warning", NULL },
	{ "NOTE", "error", OUT_STR, 0.1, 0, "why nothing could be read", NULL },
};
static const struct out_table table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"MEMDEV,SERIAL,STATUS,MEDIA,LIFE-USED,TEMP,DIRTY-SHUTDOWNS,CORR-VOL,CORR-PERS,ALERTS,NOTE",
};

static void usage(void)
{
	printf("usage: cxltier health [MEMDEV...] [-j | --format prometheus] [-o COLS]\n"
	       "       cxltier health --set-alert NAME=VALUE[,...] MEMDEV...|all\n"
	       "       cxltier health --file HEALTH.bin [--alert-file ALERT.bin]\n\n"
	       "Get Health Info (health and media status, life used, temperature, dirty\n"
	       "shutdowns, corrected error counts) and Get Alert Configuration of CXL memdevs.\n\n"
	       "      --format F        table (default), json, prometheus (node_exporter textfile)\n"
	       "      --file F          decode an 18-byte Get Health Info payload instead\n"
	       "      --alert-file F    and a 16-byte Get Alert Configuration payload\n"
	       "      --set-alert LIST  set warning alerts, then show (MEMDEV... or all needed):\n"
	       "                        life-used=PERCENT, over-temperature=C, under-temperature=C,\n"
	       "                        volatile-mem-err=COUNT, pmem-err=COUNT; NAME=off turns one off\n"
	       "Exit: 0 read, 77 not supported by any device, 64 some read and some not, 1 failure.\n");
	out_columns_help(&table);
}

static void fmt_status(json_object *rec, char *buf, size_t len)
{
	json_object *s = out_lookup(rec, "health.status");
	size_t n = s ? json_object_array_length(s) : 0, off = 0;

	buf[0] = '\0';
	if (!out_lookup(rec, "health"))
		return;
	if (!n) {
		snprintf(buf, len, "ok");
		return;
	}
	for (size_t i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? "," : "", json_object_get_string(json_object_array_get_idx(s, i)));
}

/* node_exporter textfile format: one family per field, labelled by memdev and serial */
static void prometheus(json_object *root)
{
	static const struct { const char *name, *key, *help, *type; } fam[] = {
		{ "cxl_health_supported", NULL, "1 when the device answered Get Health Info", "gauge" },
		{ "cxl_health_maintenance_needed", "health.maintenance_needed", "health status: maintenance needed", "gauge" },
		{ "cxl_health_performance_degraded", "health.performance_degraded", "health status: performance degraded", "gauge" },
		{ "cxl_health_hw_replacement_needed", "health.hw_replacement_needed", "health status: hardware replacement needed", "gauge" },
		{ "cxl_health_media_normal", "health.media_status", "1 when the media status is normal", "gauge" },
		{ "cxl_health_life_used_percent", "health.life_used_percent", "life used, percent", "gauge" },
		{ "cxl_health_temperature_celsius", "health.temperature_celsius", "device temperature", "gauge" },
		{ "cxl_health_dirty_shutdowns_total", "health.dirty_shutdowns", "dirty shutdown count", "counter" },
		{ "cxl_health_corrected_volatile_errors_total", "health.corrected_volatile_errors", "corrected volatile memory errors", "counter" },
		{ "cxl_health_corrected_persistent_errors_total", "health.corrected_persistent_errors", "corrected persistent memory errors", "counter" },
	};
	json_object *arr = out_lookup(root, "memdevs");

	for (size_t f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
		printf("# HELP %s %s\n# TYPE %s %s\n", fam[f].name, fam[f].help, fam[f].name, fam[f].type);
		for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
			json_object *m = json_object_array_get_idx(arr, i), *v;
			const char *name = json_object_get_string(out_lookup(m, "name"));
			json_object *ser = out_lookup(m, "serial");
			int64_t val;	/* every family is a count, a flag or whole degrees: exact integers */
			if (!fam[f].key) {
				val = out_lookup(m, "health") ? 1 : 0;
			} else if (!(v = out_lookup(m, fam[f].key))) {
				continue;
			} else if (json_object_is_type(v, json_type_boolean)) {
				val = json_object_get_boolean(v);
			} else if (json_object_is_type(v, json_type_string)) {
				val = !strcmp(json_object_get_string(v), "normal");
			} else {
				val = json_object_get_int64(v);
			}
			printf("%s{memdev=\"%s\",serial=\"0x%" PRIx64 "\"} %" PRId64 "\n", fam[f].name, name,
			       ser ? json_object_get_uint64(ser) : 0, val);
		}
	}
}

static int read_blob(const char *path, uint8_t *buf, size_t want, struct cmd_env *env)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		cmd_err(env, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, want, f);
	fclose(f);
	if (n < want) {
		cmd_err(env, "%s: %zu bytes, a payload needs %zu", path, n, want);
		return -1;
	}
	return 0;
}

/* the live devices' health into arr; the counts of each outcome */
static void read_live(struct cmd_env *env, const struct ct_topology *t, const bool *wanted, json_object *arr,
		      size_t *ok, size_t *unsupported, size_t *failed)
{
	for (size_t i = 0; i < t->nmemdevs; i++) {
		const struct ct_memdev *md = &t->memdevs[i];
		struct ct_health h;
		struct ct_alert_config a;
		bool have_alert;
		json_object *m;
		int rc;
		if (!wanted[i])
			continue;
		m = json_object_new_object();
		jb_str(m, "name", md->name);
		if (md->has_serial)
			jb_u64(m, "serial", md->serial);
		rc = ct_health_read(env->ctx, md->name, &h, &a, &have_alert);
		if (rc == -EOPNOTSUPP) {
			(*unsupported)++;
			jb_bool(m, "supported", false);
			jb_str(m, "error", "not supported by the device");
			cmd_err(env, "Get Health Info is not supported by %s: no health data from it", md->name);
		} else if (rc) {
			(*failed)++;
			jb_bool(m, "supported", true);
			jb_str(m, "error", ct_context_message(env->ctx));
			cmd_err(env, "%s", ct_context_message(env->ctx));
		} else {
			(*ok)++;
			jb_bool(m, "supported", true);
			json_object_object_add(m, "health", health_json(&h));
			if (have_alert)
				json_object_object_add(m, "alert_config", alert_json(&a));
		}
		ct_error_clear(&env->ctx->err);
		json_object_array_add(arr, m);
	}
}

/* which memdevs the arguments name (none: all; "all" too): 0 or an exit code */
static int select_memdevs(struct cmd_env *env, const struct ct_topology *t, int argc, char **argv, bool *wanted)
{
	for (int i = 0; i < argc; i++) {
		const struct ct_memdev *m = ct_topology_memdev(t, argv[i]);
		if (!m && strcmp(argv[i], "all")) {
			cmd_err(env, "no memdev '%s' (see 'cxltier list')", argv[i]);
			return EXIT_FAIL;
		}
		for (size_t k = 0; k < t->nmemdevs; k++)
			wanted[k] |= !m || &t->memdevs[k] == m;
	}
	for (size_t k = 0; !argc && k < t->nmemdevs; k++)
		wanted[k] = true;
	return 0;
}

int cmd_health(int argc, char **argv, struct cmd_env *env)
{
	enum { OPT_FORMAT = 0x6001, OPT_FILE, OPT_ALERT_FILE, OPT_SET_ALERT };
	static const struct option opts[] = {
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "file", required_argument, NULL, OPT_FILE },
		{ "alert-file", required_argument, NULL, OPT_ALERT_FILE },
		{ "set-alert", required_argument, NULL, OPT_SET_ALERT },
		COMMON_LONG_OPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *file = NULL, *alert_file = NULL, *set_spec = NULL;
	bool prom = false, *wanted = NULL;
	struct ct_topology t = { 0 };
	struct ct_alert_set set;
	json_object *root, *arr;
	size_t ok = 0, unsupported = 0, failed = 0;
	char err[256];
	int c, rc = EXIT_OK, set_rc = -1;

	env->opts = opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTS, opts, NULL)) != -1) {
		if (c == OPT_FORMAT) {
			if (!strcmp(optarg, "prometheus"))
				prom = true;
			else if (!strcmp(optarg, "json"))
				env->out.json = true;
			else if (strcmp(optarg, "table")) {
				cmd_err(env, "--format %s: table, json or prometheus", optarg);
				return EXIT_USAGE;
			}
		} else if (c == OPT_FILE) {
			file = optarg;
		} else if (c == OPT_ALERT_FILE) {
			alert_file = optarg;
		} else if (c == OPT_SET_ALERT) {
			set_spec = optarg;
		} else if ((rc = cmd_common_opt(env, c, optarg, argc, argv, usage)))
			return cmd_exit_code(rc);
	}
	if (set_spec && (rc = health_set_parse(env, set_spec, file != NULL, argc - optind, &set)))
		return rc;
	root = json_object_new_object();
	arr = jb_arr(root, "memdevs");
	if (file) {
		uint8_t hb[CT_HEALTH_LEN], ab[CT_ALERT_LEN];
		struct ct_health h;
		struct ct_alert_config a;
		json_object *m = json_object_new_object();
		if (read_blob(file, hb, sizeof(hb), env) || (alert_file && read_blob(alert_file, ab, sizeof(ab), env))) {
			json_object_put(m);
			json_object_put(root);
			return EXIT_FAIL;
		}
		ct_health_decode(hb, sizeof(hb), &h);
		jb_str(m, "name", file);
		json_object_object_add(m, "health", health_json(&h));
		if (alert_file) {
			ct_alert_config_decode(ab, sizeof(ab), &a);
			json_object_object_add(m, "alert_config", alert_json(&a));
		}
		json_object_array_add(arr, m);
		ok++;
	} else {
		if ((rc = cmd_context(env)))
			goto out;
		if (!env->ctx->live) {
			cmd_err(env, "health reads the devices' mailboxes: not possible on a captured tree (--sysroot)");
			rc = EXIT_UNSUPPORTED;
			goto out;
		}
		if (ct_topology_load(env->ctx, &t)) {
			cmd_err(env, "%s", ct_context_message(env->ctx));
			rc = EXIT_FAIL;
			goto out;
		}
		if (!(wanted = calloc(t.nmemdevs + 1, sizeof(bool)))) {
			cmd_err(env, "out of memory");
			rc = EXIT_FAIL;
			goto out;
		}
		if ((rc = select_memdevs(env, &t, argc - optind, argv + optind, wanted)))
			goto out;
		if (set_spec && (set_rc = health_set_alerts(env, &t, wanted, &set, set_spec)) != EXIT_OK &&
		    set_rc != EXIT_PARTIAL) {
			rc = set_rc;	/* nothing was set: nothing new to show */
			goto out;
		}
		read_live(env, &t, wanted, arr, &ok, &unsupported, &failed);
		if (!t.nmemdevs && !env->out.json && !prom)
			fprintf(stderr, "cxltier health: no CXL memdevs on this system\n");
	}
	if (prom)
		prometheus(root);
	else if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (set_rc >= 0)	/* what was asked was the setting */
		rc = set_rc;
	else if (!failed && !unsupported)
		rc = EXIT_OK;
	else if (ok)
		rc = EXIT_PARTIAL;
	else if (!failed)
		rc = EXIT_UNSUPPORTED;
	else
		rc = EXIT_FAIL;
out:
	free(wanted);
	ct_topology_free(&t);
	json_object_put(root);
	return rc;
}
