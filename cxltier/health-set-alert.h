/* SPDX-License-Identifier: GPL-2.0-only */
/* health-set-alert.h - `cxltier health --set-alert` */
#ifndef CXLTIER_HEALTH_SET_ALERT_H
#define CXLTIER_HEALTH_SET_ALERT_H

#include <stdbool.h>
#include "cli/cli.h"
#include "cxl/health.h"
#include "cxl/topology.h"

/* the settings, checked against how they were asked for: 0 or an exit code */
int health_set_parse(struct cmd_env *env, const char *spec, bool have_file, int nargs, struct ct_alert_set *s);
/* set them on every wanted memdev: an exit code (0, 64, 77, 1), each
 * refusal named on stderr */
int health_set_alerts(struct cmd_env *env, const struct ct_topology *t, const bool *wanted,
		      const struct ct_alert_set *s, const char *spec);

#endif
