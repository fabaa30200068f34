// SPDX-License-Identifier: GPL-2.0-only
#include "health-json.h"
#include "json-build.h"

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

