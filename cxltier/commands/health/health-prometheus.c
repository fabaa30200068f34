// SPDX-License-Identifier: GPL-2.0-only
/* health-prometheus.c - `cxltier health --format prometheus`
 * (health-prometheus.h) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "health-prometheus.h"
#include "cli/output.h"

/* node_exporter textfile format: one family per field, labelled by memdev and serial */
void health_prometheus(json_object *root)
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
