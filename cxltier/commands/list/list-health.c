// SPDX-License-Identifier: GPL-2.0-only
/* list-health.c - what `list -vvv` adds to a live memdev as ndctl's -vvv
 * does: "health" and "alert_config" (Get Health Info, Get Alert
 * Configuration) and the poison list its "media_errors" are made of (the
 * kernel reads it from the device for this: see cxltier-poison(1)). Each
 * key only when it could be read; why not is said at -v (list-health.h). */
#include "list-health.h"
#include "render/health-json.h"
#include "core/context.h"
#include "cxl/health-read.h"

static void skipped(struct cmd_env *env)
{
	cmd_info(env, 1, "%s", ct_context_message(env->ctx));
	ct_error_clear(&env->ctx->err);
}

bool list_health_detail(struct cmd_env *env, json_object *mo, const struct ct_memdev *m, struct ct_poison_list *l)
{
	struct ct_health h;
	struct ct_alert_config a;
	bool have_alert = false;

	if (!env->ctx->live)
		return false;
	if (!ct_health_read(env->ctx, m->name, &h, &a, &have_alert))
		json_object_object_add(mo, "health", health_json(&h));
	else {
		skipped(env);
		have_alert = !ct_alert_config_read(env->ctx, m->name, &a);
	}
	if (have_alert)
		json_object_object_add(mo, "alert_config", alert_json(&a));
	else
		skipped(env);
	if (!ct_poison_read_one(env->ctx, m->name, l) && !l->lost)
		return true;
	if (l->lost)
		cmd_info(env, 1, "%s: the trace buffer dropped %lu poison records: no media_errors", m->name, l->lost);
	else
		skipped(env);
	return false;
}
