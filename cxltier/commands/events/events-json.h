/* SPDX-License-Identifier: GPL-2.0-only */
/* events-json.h - one CXL event record as JSON */
#ifndef CXLTIER_EVENTS_JSON_H
#define CXLTIER_EVENTS_JSON_H

#include <json-c/json.h>
#include "events/event.h"

/* one record as a JSON object (the caller owns it): the decoded keys, and
 * "fields", every field under the kernel's name */
json_object *events_json(const struct ct_event *e);

#endif
