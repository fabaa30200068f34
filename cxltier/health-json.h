/* SPDX-License-Identifier: GPL-2.0-only */
/* health-json.h - device health as JSON, for `health` and for the health
 * inside Memory Module event records */
#ifndef CXLTIER_HEALTH_JSON_H
#define CXLTIER_HEALTH_JSON_H

#include <json-c/json.h>
#include "../lib/health.h"

json_object *health_json(const struct ct_health *h);

#endif
