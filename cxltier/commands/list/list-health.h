/* SPDX-License-Identifier: GPL-2.0-only */
/* list-health.h - what `list -vvv` adds to a live memdev as ndctl's -vvv
 * does: its health, alert configuration and media errors */
#ifndef CXLTIER_LIST_HEALTH_H
#define CXLTIER_LIST_HEALTH_H

#include <stdbool.h>
#include <json-c/json.h>
#include "cli/cli.h"
#include "cxl/topology.h"
#include "events/poison.h"

/* "health" and "alert_config" into mo, and the memdev's poison list into l
 * (the caller frees it): true when its ranges are the memdev's
 * "media_errors". Each only when it could be read (live systems); why not
 * is said at -v */
bool list_health_detail(struct cmd_env *env, json_object *mo, const struct ct_memdev *m, struct ct_poison_list *l);

#endif
