// SPDX-License-Identifier: GPL-2.0-only
/* metrics-prom.c - metric families (metrics-model.h) in the Prometheus text
 * exposition format 0.0.4, as node_exporter's textfile collector reads it */
#include <inttypes.h>
#include <stdbool.h>
#include "metrics-prom.h"

/* HELP text: backslash and newline escaped; label values also '"' */
static void escaped(FILE *f, const char *s, bool label)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (label && *s == '"')
			fputs("\\\"", f);
		else
			fputc(*s, f);
	}
}

void metrics_prom(FILE *f, json_object *root)
{
	json_object *arr = json_object_object_get(root, "families");

	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *fam = json_object_array_get_idx(arr, i), *samples = json_object_object_get(fam, "samples");
		const char *name = json_object_get_string(json_object_object_get(fam, "name"));

		fprintf(f, "# HELP %s ", name);
		escaped(f, json_object_get_string(json_object_object_get(fam, "help")), false);
		fprintf(f, "\n# TYPE %s %s\n", name, json_object_get_string(json_object_object_get(fam, "type")));
		for (size_t k = 0; k < json_object_array_length(samples); k++) {
			json_object *s = json_object_array_get_idx(samples, k), *labels = json_object_object_get(s, "labels");
			bool first = true;

			fputs(name, f);
			json_object_object_foreach(labels, key, val) {
				fprintf(f, "%s%s=\"", first ? "{" : ",", key);
				escaped(f, json_object_get_string(val), true);
				fputc('"', f);
				first = false;
			}
			fprintf(f, "%s %" PRId64 "\n", first ? "" : "}", json_object_get_int64(json_object_object_get(s, "value")));
		}
	}
}
