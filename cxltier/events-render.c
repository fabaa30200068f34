// SPDX-License-Identifier: GPL-2.0-only
/* events-render.c - CXL event records (lib/event.h) as JSON through the one
 * JSON builder, and the table's columns for the one output layer */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "events-render.h"
#include "health-json.h"
#include "json-build.h"

static const char *const levels[] = { "events", NULL };
static void fmt_detail(json_object *rec, char *buf, size_t len);
static const struct out_column columns[] = {
	{ "TIME", "time|trace_time", OUT_STR, 0.1, 0, "when the device logged it (UTC); else when the kernel emitted it", NULL },
	{ "MEMDEV", "memdev", OUT_STR, 0.1, 0, "memdev", NULL },
	{ "KIND", "kind", OUT_STR, 0.1, 0, "general_media, dram, memory_module, poison, overflow, aer, generic", NULL },
	{ "SEVERITY", "severity", OUT_STR, 0.1, 0, "informational, warning, failure, fatal (see the manual)", NULL },
	{ "DPA", "dpa", OUT_HEX, 0.1, 0, "device physical address", NULL },
	{ "HPA", "hpa", OUT_HEX, 0.1, 0, "host physical address (when in a region)", NULL },
	{ "REGION", "region", OUT_STR, 0.1, 0, "region", NULL },
	{ "DETAIL", "type", OUT_STR, 0.1, 0, "what happened", fmt_detail },
};
static const struct out_table table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]), "TIME,MEMDEV,KIND,SEVERITY,DPA,HPA,REGION,DETAIL",
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
	} else if ((v = out_lookup(rec, "event"))) {
		snprintf(buf, len, "%s", json_object_get_string(v));
	}
}

static void iso_time(uint64_t ns, char *buf, size_t len)
{
	time_t s = (time_t)(ns / 1000000000ULL);
	struct tm tm;

	if (!ns || !gmtime_r(&s, &tm)) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%09" PRIu64 "Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour, tm.tm_min, tm.tm_sec, (uint64_t)(ns % 1000000000ULL));
}

static void names(json_object *o, const char *key, enum ct_flag_set set, uint64_t v)
{
	const char *n[32];
	size_t k = ct_flag_names(set, v, n, 32);
	json_object *a = jb_arr(o, key);

	for (size_t i = 0; i < k; i++)
		json_object_array_add(a, json_object_new_string(n[i]));
}

static bool is_record(const struct ct_event *e)
{
	return e->kind <= CT_EV_MEMORY_MODULE || e->kind == CT_EV_GENERIC;
}

/* what only some kinds carry, first (the keys' order is the JSON's) */
static void kind_keys(const struct ct_event *e, json_object *o)
{
	if (e->kind == CT_EV_POISON) {
		jb_str(o, "trace_type", ct_poison_trace_type_name(e->trace_type));
		jb_str(o, "source", e->source < 8 ? ct_poison_source_name(e->source) : "unknown");
		jb_u64(o, "dpa", e->dpa);
		jb_u64(o, "dpa_length", e->dpa_length);
	} else if (e->kind == CT_EV_OVERFLOW) {
		jb_u64(o, "count", e->count);
	} else if (e->kind == CT_EV_AER || (e->kind == CT_EV_GENERIC && e->event[0])) {
		jb_str(o, "event", e->event);
		if (e->kind == CT_EV_AER) {
			jb_u64(o, "status", e->status);
			jb_u64(o, "first_error", e->first_error);
		}
	}
}

static void media_keys(const struct ct_event *e, json_object *o)
{
	jb_u64(o, "dpa", e->dpa);
	names(o, "dpa_flags", CT_FLAGS_DPA, e->dpa_flags);
	names(o, "descriptor", CT_FLAGS_DESCRIPTOR, e->descriptor);
	jb_int(o, "memory_event_type_id", e->type);
	jb_str(o, "memory_event_type", e->kind == CT_EV_DRAM ? ct_dram_event_type_name(e->type) : ct_gm_event_type_name(e->type));
	jb_int(o, "transaction_type_id", e->transaction_type);
	jb_str(o, "transaction_type", ct_transaction_type_name(e->transaction_type));
	jb_int(o, "validity_flags", e->validity);
	if (e->validity & 1)
		jb_int(o, "channel", e->channel);
	if (e->validity & 2)
		jb_int(o, "rank", e->rank);
	if (e->kind == CT_EV_GENERAL_MEDIA && (e->validity & 4))
		jb_int(o, "device", e->device);
	if (e->kind == CT_EV_DRAM) {
		if (e->validity & 4)
			jb_int(o, "nibble_mask", e->nibble_mask);
		if (e->validity & 8)
			jb_int(o, "bank_group", e->bank_group);
		if (e->validity & 16)
			jb_int(o, "bank", e->bank);
		if (e->validity & 32)
			jb_int(o, "row", e->row);
		if (e->validity & 64)
			jb_int(o, "column", e->column);
	}
}

json_object *events_json(const struct ct_event *e)
{
	json_object *o = json_object_new_object();
	int sev = ct_event_severity(e);
	char t[64];

	kind_keys(e, o);
	jb_str(o, "kind", ct_event_kind_name(e->kind));
	jb_str(o, "memdev", e->memdev);
	if (e->has_serial)
		jb_u64(o, "serial", e->serial);
	if (sev >= 0)
		jb_str(o, "severity", ct_severity_name((uint8_t)sev));
	if (e->timestamp) {
		jb_u64(o, "timestamp", e->timestamp);
		iso_time(e->timestamp, t, sizeof(t));
		jb_str(o, "time", t);
	}
	if (e->trace_time) {	/* when the kernel emitted it */
		jb_u64(o, "trace_timestamp", e->trace_time);
		iso_time(e->trace_time, t, sizeof(t));
		jb_str(o, "trace_time", t);
	}
	if (is_record(e)) {
		jb_int(o, "flags", e->flags);
		jb_bool(o, "permanent", e->flags & CT_EVENT_FLAG_PERMANENT);
		jb_bool(o, "maintenance_needed", e->flags & CT_EVENT_FLAG_MAINT_NEEDED);
		jb_int(o, "handle", e->handle);
	}
	if (e->kind == CT_EV_GENERAL_MEDIA || e->kind == CT_EV_DRAM)
		media_keys(e, o);
	if (e->kind == CT_EV_MEMORY_MODULE) {
		jb_int(o, "device_event_type_id", e->device_event_type);
		jb_str(o, "device_event_type", ct_module_event_type_name(e->device_event_type));
		json_object_object_add(o, "health", health_json(&e->health));
	}
	if (e->has_hpa)
		jb_u64(o, "hpa", e->hpa);
	jb_str(o, "region", e->region);
	return o;
}

int events_print(struct cmd_env *env, json_object *root)
{
	char err[256];

	if (out_print(&env->out, &table, root, err, sizeof(err))) {
		cmd_err(env, "%s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int events_print_line(const struct cmd_env *env, const struct ct_event *e)
{
	json_object *o = events_json(e);
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
	json_object_put(o);
	if (fflush(stdout) || ferror(stdout))
		return errno ? -errno : -EIO;
	return 0;
}

void events_columns_help(void)
{
	out_columns_help(&table);
}
