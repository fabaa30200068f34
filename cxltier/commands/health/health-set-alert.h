/* SPDX-License-Identifier: GPL-2.0-only */
/* health-set-alert.h - `cxltier health --set-alert NAME=VALUE,... MEMDEV...` */
#ifndef CXLTIER_HEALTH_SET_ALERT_H
#define CXLTIER_HEALTH_SET_ALERT_H

#include <stdbool.h>
#include "cli/cli.h"
#include "cxl/health.h"
#include "cxl/topology.h"

/* the settings, and the memdevs to set them on (nargs of them): 0, or
 * EXIT_USAGE with the fault said */
int health_set_parse(struct cmd_env *env, const char *spec, int nargs, struct ct_alert_set *s);
/* set them on every wanted memdev: an exit code (0, 64, 77, 1), each
 * refusal named on stderr */
int health_set_alerts(struct cmd_env *env, const struct ct_topology *t, const bool *wanted,
		      const struct ct_alert_set *s, const char *spec);

#endif
