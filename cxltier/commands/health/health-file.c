// SPDX-License-Identifier: GPL-2.0-only
/* health-file.c - health payloads from files (health-file.h) */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "health-file.h"
#include "cli/json-build.h"
#include "render/health-json.h"
#include "cxl/health.h"

static int read_blob(const char *path, uint8_t *buf, size_t want, struct cmd_env *env)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		cmd_err(env, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, want, f);
	fclose(f);
	if (n < want) {
		cmd_err(env, "%s: %zu bytes, a payload needs %zu", path, n, want);
		return -1;
	}
	return 0;
}

int health_file(struct cmd_env *env, const char *file, const char *alert_file, json_object *arr)
{
	uint8_t hb[CT_HEALTH_LEN], ab[CT_ALERT_LEN];
	struct ct_health h;
	struct ct_alert_config a;
	json_object *m;

	if (read_blob(file, hb, sizeof(hb), env) || (alert_file && read_blob(alert_file, ab, sizeof(ab), env)))
		return EXIT_FAIL;
	m = json_object_new_object();
	ct_health_decode(hb, sizeof(hb), &h);
	jb_str(m, "name", file);
	json_object_object_add(m, "health", health_json(&h));
	if (alert_file) {
		ct_alert_config_decode(ab, sizeof(ab), &a);
		json_object_object_add(m, "alert_config", alert_json(&a));
	}
	json_object_array_add(arr, m);
	return 0;
}
