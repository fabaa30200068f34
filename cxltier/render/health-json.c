// SPDX-License-Identifier: GPL-2.0-only
/* health-json.c - Get Health Info and Get Alert Configuration as JSON
 * (health-json.h) */
#include "health-json.h"
#include "cli/json-build.h"

json_object *health_json(const struct ct_health *h)
{
	json_object *o = json_object_new_object(), *st = jb_arr(o, "status");
	static const struct { unsigned bit; const char *name; } bits[] = {
		{ CT_HEALTH_MAINTENANCE_NEEDED, "maintenance_needed" },
		{ CT_HEALTH_PERFORMANCE_DEGRADED, "performance_degraded" },
		{ CT_HEALTH_HW_REPLACEMENT_NEEDED, "hw_replacement_needed" },
		{ CT_HEALTH_CAPACITY_DEGRADED, "capacity_degraded" },
	};

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (h->health_status & bits[i].bit)
			json_object_array_add(st, json_object_new_string(bits[i].name));
	jb_bool(o, "maintenance_needed", h->health_status & CT_HEALTH_MAINTENANCE_NEEDED);
	jb_bool(o, "performance_degraded", h->health_status & CT_HEALTH_PERFORMANCE_DEGRADED);
	jb_bool(o, "hw_replacement_needed", h->health_status & CT_HEALTH_HW_REPLACEMENT_NEEDED);
	jb_str(o, "media_status", ct_media_status_name(h->media_status));
	jb_str(o, "life_used_state", ct_level_name(h->life_used_state));
	jb_str(o, "temperature_state", ct_level_name(h->temperature_state));
	jb_bool(o, "corrected_volatile_warning", h->corrected_volatile_warning);
	jb_bool(o, "corrected_persistent_warning", h->corrected_persistent_warning);
	if (h->has_life_used)
		jb_int(o, "life_used_percent", h->life_used);
	if (h->has_temperature)
		jb_int(o, "temperature_celsius", h->temperature);
	jb_u64(o, "dirty_shutdowns", h->dirty_shutdowns);
	jb_u64(o, "corrected_volatile_errors", h->corrected_volatile_errors);
	jb_u64(o, "corrected_persistent_errors", h->corrected_persistent_errors);
	return o;
}

json_object *alert_json(const struct ct_alert_config *a)
{
	json_object *o = json_object_new_object(), *v = jb_arr(o, "valid"), *p = jb_arr(o, "programmable");
	static const struct { unsigned bit; const char *name; } bits[] = {
		{ CT_ALERT_LIFE_USED, "life_used" }, { CT_ALERT_OVER_TEMP, "over_temperature" },
		{ CT_ALERT_UNDER_TEMP, "under_temperature" }, { CT_ALERT_CORRECTED_VOLATILE, "corrected_volatile_errors" },
		{ CT_ALERT_CORRECTED_PERSISTENT, "corrected_persistent_errors" },
	};

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (a->valid & bits[i].bit)
			json_object_array_add(v, json_object_new_string(bits[i].name));
		if (a->programmable & bits[i].bit)
			json_object_array_add(p, json_object_new_string(bits[i].name));
	}
	jb_int(o, "life_used_critical_percent", a->life_used_critical);
	jb_int(o, "life_used_warning_percent", a->life_used_warning);
	jb_int(o, "over_temperature_critical_celsius", a->over_temp_critical);
	jb_int(o, "under_temperature_critical_celsius", a->under_temp_critical);
	jb_int(o, "over_temperature_warning_celsius", a->over_temp_warning);
	jb_int(o, "under_temperature_warning_celsius", a->under_temp_warning);
	jb_int(o, "corrected_volatile_errors_warning", a->corrected_volatile_warning);
	jb_int(o, "corrected_persistent_errors_warning", a->corrected_persistent_warning);
	return o;
}
