/* SPDX-License-Identifier: GPL-2.0-only */
/* health-json.h - device health and alert configuration as JSON, for
 * `health`, for `list -vvv` and for the health inside Memory Module event
 * records */
#ifndef CXLTIER_HEALTH_JSON_H
#define CXLTIER_HEALTH_JSON_H

#include <stddef.h>
#include <json-c/json.h>
#include "cxl/health.h"

json_object *health_json(const struct ct_health *h);
json_object *alert_json(const struct ct_alert_config *a);
/* a table cell: the warning alerts that are on, as --set-alert takes them
 * ("life-used=80,over-temperature=75"); "none"; "" without alert_config */
void health_fmt_alerts(json_object *rec, char *buf, size_t len);

#endif
