// SPDX-License-Identifier: GPL-2.0-only
/* health-table.c - the columns of `cxltier health`, and its cells made of
 * several JSON keys (health-table.h) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "health-table.h"
#include "cxl/health.h"

static void fmt_alerts(json_object *rec, char *buf, size_t len);
static void fmt_status(json_object *rec, char *buf, size_t len);
static const char *const levels[] = { "memdevs", NULL };
static const struct out_column columns[] = {
	{ "MEMDEV", "name", OUT_STR, 0.1, 0, "memdev", NULL },
	{ "SERIAL", "serial", OUT_HEX, 0.1, 0, "serial number", NULL },
	{ "STATUS", "health.status", OUT_STR, 0.1, OUT_TRUNC, "health status flags (ok when none)", fmt_status },
	{ "MEDIA", "health.media_status", OUT_STR, 0.1, OUT_TRUNC, "media status", NULL },
	{ "LIFE-USED", "health.life_used_percent", OUT_NUM, 0.1, 0, "life used (%)", NULL },
	{ "LIFE", "health.life_used_state", OUT_STR, 0.1, 0, "life used: normal, warning, critical", NULL },
	{ "TEMP", "health.temperature_celsius", OUT_NUM, 0.1, 0, "device temperature (C)", NULL },
	{ "TEMP-STATE", "health.temperature_state", OUT_STR, 0.1, 0, "temperature: normal, warning, critical", NULL },
	{ "DIRTY-SHUTDOWNS", "health.dirty_shutdowns", OUT_NUM, 0.1, 0, "dirty shutdown count", NULL },
	{ "CORR-VOL", "health.corrected_volatile_errors", OUT_NUM, 0.1, 0, "corrected volatile errors", NULL },
	{ "CORR-PERS", "health.corrected_persistent_errors", OUT_NUM, 0.1, 0, "corrected persistent errors", NULL },
	{ "ALERTS", "alert_config", OUT_STR, 0.1, OUT_TRUNC, "warning alerts on, as --set-alert takes them", fmt_alerts },
	{ "PROGRAMMABLE", "alert_config.programmable", OUT_STR, 0.1, OUT_TRUNC, "warning alerts the host may set", NULL },
	{ "LIFE-WARN", "alert_config.life_used_warning_percent", OUT_NUM, 0.1, 0, "life used warning threshold (%)", NULL },
	{ "LIFE-CRIT", "alert_config.life_used_critical_percent", OUT_NUM, 0.1, 0, "life used critical threshold (%)", NULL },
	{ "OVERTEMP-WARN", "alert_config.over_temperature_warning_celsius", OUT_NUM, 0.1, 0, "over-temperature warning (C)", NULL },
	{ "OVERTEMP-CRIT", "alert_config.over_temperature_critical_celsius", OUT_NUM, 0.1, 0, "over-temperature critical (C)", NULL },
	{ "UNDERTEMP-WARN", "alert_config.under_temperature_warning_celsius", OUT_NUM, 0.1, 0, "under-temperature warning (C)", NULL },
	{ "UNDERTEMP-CRIT", "alert_config.under_temperature_critical_celsius", OUT_NUM, 0.1, 0, "under-temperature critical (C)", NULL },
	{ "CORR-VOL-WARN", "alert_config.corrected_volatile_errors_warning", OUT_NUM, 0.1, 0, "corrected volatile errors warning", NULL },
	{ "CORR-PERS-WARN", "alert_config.corrected_persistent_errors_warning", OUT_NUM, 0.1, 0, "corrected persistent errors warning", NULL },
	{ "NOTE", "error", OUT_STR, 0.2, OUT_TRUNC, "why nothing could be read", NULL },
};
const struct out_table health_table = {
	levels, NULL, columns, sizeof(columns) / sizeof(columns[0]),
	"MEMDEV,STATUS,MEDIA,LIFE-USED,TEMP,CORR-VOL,CORR-PERS,NOTE",
};

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

/* the warning alerts that are on, as --set-alert takes them
 * ("life-used=80,over-temperature=75"); "none"; "" without alert_config */
static void fmt_alerts(json_object *rec, char *buf, size_t len)
{
	static const struct { const char *valid, *key; unsigned bit; } on[] = {
		{ "life_used", "life_used_warning_percent", CT_ALERT_LIFE_USED },
		{ "over_temperature", "over_temperature_warning_celsius", CT_ALERT_OVER_TEMP },
		{ "under_temperature", "under_temperature_warning_celsius", CT_ALERT_UNDER_TEMP },
		{ "corrected_volatile_errors", "corrected_volatile_errors_warning", CT_ALERT_CORRECTED_VOLATILE },
		{ "corrected_persistent_errors", "corrected_persistent_errors_warning", CT_ALERT_CORRECTED_PERSISTENT },
	};
	json_object *a, *valid, *v;
	size_t off = 0;

	buf[0] = '\0';
	if (!json_object_object_get_ex(rec, "alert_config", &a) || !json_object_object_get_ex(a, "valid", &valid))
		return;
	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]) && off < len; i++)
		for (size_t k = 0; k < json_object_array_length(valid); k++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(valid, k)), on[i].valid) &&
			    json_object_object_get_ex(a, on[i].key, &v))
				off += (size_t)snprintf(buf + off, len - off, "%s%s=%" PRId64, off ? "," : "",
							ct_alert_option_name(on[i].bit), json_object_get_int64(v));
	if (!off)
		snprintf(buf, len, "none");
}
