// SPDX-License-Identifier: GPL-2.0-only
/* health-set-alert.c - `cxltier health --set-alert NAME=VALUE,... MEMDEV...`: the
 * devices' programmable warning alerts (Set Alert Configuration) */
#include <errno.h>
#include <stdio.h>
#include "health-set-alert.h"
#include "core/context.h"
#include "cxl/health-read.h"

int health_set_parse(struct cmd_env *env, const char *spec, int nargs, struct ct_alert_set *s)
{
	char why[256];

	if (ct_alert_set_parse(spec, s, why, sizeof(why))) {
		cmd_err(env, "--set-alert %s: %s", spec, why);
		return EXIT_USAGE;
	}
	if (!nargs) {
		cmd_err(env, "--set-alert needs the memdevs to set: MEMDEV... or all");
		return EXIT_USAGE;
	}
	return 0;
}

int health_set_alerts(struct cmd_env *env, const struct ct_topology *t, const bool *wanted,
		      const struct ct_alert_set *s, const char *spec)
{
	size_t ok = 0, unsupported = 0, failed = 0;

	for (size_t i = 0; i < t->nmemdevs; i++) {
		const char *name = t->memdevs[i].name;
		int rc;
		if (!wanted[i])
			continue;
		rc = ct_alert_config_set(env->ctx, name, s);
		if (!rc) {
			ok++;
			cmd_info(env, 0, "%s: alerts set (%s, through %s)", name, spec, ct_alert_config_set_method());
		} else {
			rc == -EOPNOTSUPP ? unsupported++ : failed++;
			cmd_err(env, "%s", ct_context_message(env->ctx));
		}
		ct_error_clear(&env->ctx->err);
	}
	if (!failed && !unsupported)
		return EXIT_OK;
	if (ok)
		return EXIT_PARTIAL;
	return failed ? EXIT_FAIL : EXIT_UNSUPPORTED;
}
