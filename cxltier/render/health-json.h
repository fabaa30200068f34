/* SPDX-License-Identifier: GPL-2.0-only */
/* health-json.h - device health and alert configuration as JSON, for
 * `health`, for `list -vvv` and for the health inside Memory Module event
 * records */
#ifndef CXLTIER_HEALTH_JSON_H
#define CXLTIER_HEALTH_JSON_H

#include <json-c/json.h>
#include "cxl/health.h"

json_object *health_json(const struct ct_health *h);
json_object *alert_json(const struct ct_alert_config *a);

#endif
