// SPDX-License-Identifier: GPL-2.0-only
/* health-prometheus.c - `cxltier health --format prometheus`
 * (health-prometheus.h) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "health-prometheus.h"
#include "cli/output.h"

/* the families, as `cxltier metrics` names, types and explains them
 * (commands/metrics/metrics-model.c; test/cli/health.bats holds the two
 * together): one name a quantity, whichever command prints it */
static const struct family {
	const char *name, *type, *help;
} fam[] = {
	{ "cxltier_memdev_health_supported", "gauge", "1 when the device answered Get Health Info" },
	{ "cxltier_memdev_health_status", "gauge", "Get Health Info health status flag, 1 when set" },
	{ "cxltier_memdev_media_status", "gauge", "Get Health Info media status (value 1)" },
	{ "cxltier_memdev_alert_level", "gauge", "Get Health Info life-used and temperature level (value 1)" },
	{ "cxltier_memdev_life_used_percent", "gauge", "device life used, percent" },
	{ "cxltier_memdev_temperature_celsius", "gauge", "device temperature" },
	{ "cxltier_memdev_dirty_shutdowns_total", "counter", "dirty shutdowns the device counted" },
	{ "cxltier_memdev_corrected_errors_total", "counter", "corrected memory errors the device counted, by kind" },
};

/* a label as the exposition format takes it: '\\', '"' and newline escaped */
static void label(const char *sep, const char *k, const char *v)
{
	printf("%s%s=\"", sep, k);
	for (; *v; v++)
		if (*v == '\\' || *v == '"')
			printf("\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", stdout);
		else
			putchar(*v);
	putchar('"');
}

/* one sample of family f for memdev name; k1, k2: its other labels (NULL: none) */
static void sample(size_t f, const char *name, const char *k1, const char *v1, const char *k2, const char *v2,
		   int64_t val)
{
	fputs(fam[f].name, stdout);
	label("{", "memdev", name);
	if (k1)
		label(",", k1, v1 ? v1 : "");
	if (k2)
		label(",", k2, v2 ? v2 : "");
	printf("} %" PRId64 "\n", val);
}

static bool listed(json_object *arr, const char *word)
{
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(arr, i)), word))
			return true;
	return false;
}

/* family f's samples for one memdev, h its health (NULL: not supported) */
static void memdev_samples(size_t f, const char *name, json_object *h)
{
	static const char *const flags[] = { "maintenance_needed", "performance_degraded", "hw_replacement_needed",
					     "capacity_degraded" };
	static const char *const values[] = { [4] = "life_used_percent", [5] = "temperature_celsius",
					      [6] = "dirty_shutdowns" };
	json_object *v;

	if (f == 0)
		sample(f, name, NULL, NULL, NULL, NULL, h != NULL);
	if (!h)
		return;
	if (f == 1)
		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			sample(f, name, "state", flags[i], NULL, NULL, listed(out_lookup(h, "status"), flags[i]));
	if (f == 2)
		sample(f, name, "state", json_object_get_string(out_lookup(h, "media_status")), NULL, NULL, 1);
	if (f == 3) {
		sample(f, name, "kind", "life_used", "severity", json_object_get_string(out_lookup(h, "life_used_state")), 1);
		sample(f, name, "kind", "temperature", "severity",
		       json_object_get_string(out_lookup(h, "temperature_state")), 1);
	}
	if (f >= 4 && f <= 6 && (v = out_lookup(h, values[f])))
		sample(f, name, NULL, NULL, NULL, NULL, json_object_get_int64(v));
	if (f == 7) {
		sample(f, name, "kind", "volatile", NULL, NULL,
		       json_object_get_int64(out_lookup(h, "corrected_volatile_errors")));
		sample(f, name, "kind", "persistent", NULL, NULL,
		       json_object_get_int64(out_lookup(h, "corrected_persistent_errors")));
	}
}

void health_prometheus(json_object *root)
{
	json_object *arr = out_lookup(root, "memdevs");

	for (size_t f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
		printf("# HELP %s %s\n# TYPE %s %s\n", fam[f].name, fam[f].help, fam[f].name, fam[f].type);
		for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
			json_object *m = json_object_array_get_idx(arr, i);
			memdev_samples(f, json_object_get_string(out_lookup(m, "name")), out_lookup(m, "health"));
		}
	}
}
