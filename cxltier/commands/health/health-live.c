// SPDX-License-Identifier: GPL-2.0-only
/* health-live.c - the running system's memdevs: which ones, and their Get
 * Health Info and alert configuration (health-live.h) */
#include <errno.h>
#include <string.h>
#include "health-live.h"
#include "cli/json-build.h"
#include "render/health-json.h"
#include "core/context.h"
#include "cxl/health-read.h"

void health_read_live(struct cmd_env *env, const struct ct_topology *t, const bool *wanted, json_object *arr,
		      struct health_count *n)
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
			n->unsupported++;
			jb_bool(m, "supported", false);
			jb_str(m, "error", "not supported by the device");
			cmd_err(env, "Get Health Info is not supported by %s: no health data from it", md->name);
		} else if (rc) {
			n->failed++;
			jb_bool(m, "supported", true);
			jb_str(m, "error", ct_context_message(env->ctx));
			cmd_err(env, "%s", ct_context_message(env->ctx));
		} else {
			n->ok++;
			jb_bool(m, "supported", true);
			json_object_object_add(m, "health", health_json(&h));
			if (have_alert)
				json_object_object_add(m, "alert_config", alert_json(&a));
		}
		ct_error_clear(&env->ctx->err);
		json_object_array_add(arr, m);
	}
}

int health_select(struct cmd_env *env, const struct ct_topology *t, int argc, char **argv, bool *wanted)
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

