// SPDX-License-Identifier: GPL-2.0-only
/* recovered-json.c - a run's recovery of killed runs as JSON
 * (recovered-json.h) */
#include <stdio.h>
#include <string.h>
#include "render/recovered-json.h"
#include "cli/json-build.h"

json_object *recovered_json(const struct ct_job_recovered *rec)
{
	json_object *a;

	if (!rec->n)
		return NULL;
	a = json_object_new_array();
	for (size_t i = 0; i < rec->n; i++) {
		const struct ct_region_recovery *v = &rec->v[i];
		json_object *o = json_object_new_object(), *d = json_object_new_array();
		char names[sizeof(v->decoders)], *save = NULL;

		jb_int(o, "pid", v->pid);
		jb_str(o, "command", v->command);
		if (v->region[0])
			jb_str(o, "region", v->region);
		if (v->block[0])
			jb_str(o, "block", v->block);
		snprintf(names, sizeof(names), "%s", v->decoders);
		for (char *tok = strtok_r(names, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
			json_object_array_add(d, json_object_new_string(tok));
		json_object_object_add(o, "decoders", d);
		jb_str(o, "outcome", v->outcome);
		jb_str(o, "done", v->done);
		json_object_array_add(a, o);
	}
	return a;
}
