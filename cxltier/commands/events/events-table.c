// SPDX-License-Identifier: GPL-2.0-only
/* events-table.c - CXL event records (lib/events/event.h, as JSON:
 * events-json.c) as the table of the one output layer, and as the lines of
 * --follow */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>
#include "events-table.h"
#include "render/time-json.h"

static const char *const levels[] = { "events", NULL };
static void fmt_detail(json_object *rec, char *buf, size_t len);
static const struct out_column columns[] = {
	{ "TIME", "time|trace_time", OUT_STR, 0.1, 0, "when the device logged it (UTC); else when the kernel emitted it", NULL },
	{ "MEMDEV", "memdev", OUT_STR, 0.1, 0, "memdev", NULL },
	{ "KIND", "kind", OUT_STR, 0.1, 0, "general_media, dram, memory_module, poison, overflow, aer, generic", NULL },
	{ "SEVERITY", "severity", OUT_STR, 0.1, 0, "informational, warning, failure, fatal (see the manual)", NULL },
	{ "DPA", "dpa", OUT_HEX, 0.1, 0, "device physical address", NULL },
	{ "HPA", "hpa", OUT_HEX, 0.1, 0, "host physical address (when in a region)", NULL },
	{ "HPA_ALIAS", "hpa_alias0", OUT_HEX, 0.1, 0, "the same memory's address in an extended linear cache's alias range", NULL },
	{ "REGION", "region", OUT_STR, 0.1, 0, "region", NULL },
	{ "DETAIL", "type", OUT_STR, 0.2, OUT_TRUNC, "what happened", fmt_detail },
};
const struct out_table events_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "TIME,MEMDEV,KIND,SEVERITY,DPA,DETAIL",
};

static void fmt_detail(json_object *rec, char *buf, size_t len)
{
	const char *kind = json_object_get_string(out_lookup(rec, "kind"));
	json_object *v;

	buf[0] = '\0';
	if (!kind)
		return;
	if (!strcmp(kind, "general_media") || !strcmp(kind, "dram")) {
		json_object *d = out_lookup(rec, "descriptor");
		snprintf(buf, len, "%s on %s", json_object_get_string(out_lookup(rec, "memory_event_type")),
			 json_object_get_string(out_lookup(rec, "transaction_type")));
		for (size_t i = 0; d && i < json_object_array_length(d); i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? "," : " (",
				 json_object_get_string(json_object_array_get_idx(d, i)));
		if (d && json_object_array_length(d))
			snprintf(buf + strlen(buf), len - strlen(buf), ")");
	} else if (!strcmp(kind, "memory_module")) {
		snprintf(buf, len, "%s: media %s", json_object_get_string(out_lookup(rec, "device_event_type")),
			 json_object_get_string(out_lookup(rec, "health.media_status")));
		if ((v = out_lookup(rec, "health.temperature_celsius")))
			snprintf(buf + strlen(buf), len - strlen(buf), ", %d C", json_object_get_int(v));
		if ((v = out_lookup(rec, "health.life_used_percent")))
			snprintf(buf + strlen(buf), len - strlen(buf), ", life used %d%%", json_object_get_int(v));
	} else if (!strcmp(kind, "poison")) {
		snprintf(buf, len, "%s, source %s, %" PRIu64 " bytes", json_object_get_string(out_lookup(rec, "trace_type")),
			 json_object_get_string(out_lookup(rec, "source")), json_object_get_uint64(out_lookup(rec, "dpa_length")));
	} else if (!strcmp(kind, "overflow")) {
		snprintf(buf, len, "%" PRIu64 " records lost", json_object_get_uint64(out_lookup(rec, "count")));
	} else if (!strcmp(kind, "aer")) {
		json_object *n = out_lookup(rec, "status_names");
		snprintf(buf, len, "%s", json_object_get_string(out_lookup(rec, "event")));
		for (size_t i = 0; n && i < json_object_array_length(n); i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? "," : ": ",
				 json_object_get_string(json_object_array_get_idx(n, i)));
	} else if ((v = out_lookup(rec, "record_type|uuid"))) {
		snprintf(buf, len, "%s record", json_object_get_string(v));
	}
}

/* a field name: lower case letters, digits, '_' and '.' (nested keys) */
static bool field_name(const char *s, size_t n)
{
	if (!n || n >= 64 || !islower((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

/* -o may name any key of the JSON or any field of the tracepoint besides
 * the columns above: each becomes a column of its own */
int events_print(struct cmd_env *env, json_object *root, size_t nrows, out_row_fn row, void *ctx)
{
	enum { MAX_EXTRA = 32, NCOL = sizeof(columns) / sizeof(columns[0]) };
	struct out_column cols[NCOL + MAX_EXTRA];
	char names[MAX_EXTRA][64], keys[MAX_EXTRA][160], err[256];
	struct out_table t = events_table;
	const char *p = env->out.columns;
	size_t n = NCOL;

	memcpy(cols, columns, sizeof(columns));
	while (p && *p && n < NCOL + MAX_EXTRA) {
		size_t len;
		bool known = false;
		p += *p == '+' || *p == ',';
		len = strcspn(p, ",");
		for (size_t i = 0; i < n; i++)
			known |= strlen(cols[i].name) == len && !strncasecmp(cols[i].name, p, len);
		if (!known && field_name(p, len)) {
			size_t k = n - NCOL;
			snprintf(names[k], sizeof(names[k]), "%.*s", (int)len, p);
			snprintf(keys[k], sizeof(keys[k]), "%s|fields.%s", names[k], names[k]);
			cols[n++] = (struct out_column){ names[k], keys[k], OUT_STR, 0.1, 0, "", NULL };
		}
		p += len;
	}
	t.columns = cols;
	t.ncolumns = n;
	if (out_print_rows(&env->out, &t, root, "events", nrows, row, ctx, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int events_print_line(const struct cmd_env *env, const struct ct_event *e, json_object *o)
{
	const char *sev;
	char d[256], t[64];

	if (env->out.json) {
		out_json_line(o);
	} else {
		fmt_detail(o, d, sizeof(d));
		iso_time(ct_event_time(e), t, sizeof(t));
		sev = json_object_get_string(out_lookup(o, "severity"));
		printf("%s %s %s %s %s\n", t[0] ? t : "-", e->memdev[0] ? e->memdev : "-", ct_event_kind_name(e->kind),
		       sev ? sev : "-", d);
	}
	if (fflush(stdout) || ferror(stdout))
		return errno ? -errno : -EIO;
	return 0;
}

void events_detail(json_object *rec, char *buf, size_t len)
{
	fmt_detail(rec, buf, len);
}
