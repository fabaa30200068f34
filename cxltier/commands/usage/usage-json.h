/* SPDX-License-Identifier: GPL-2.0-only */
/* usage-json.h - where a process's or a cgroup's memory is, as JSON */
#ifndef CXLTIER_USAGE_JSON_H
#define CXLTIER_USAGE_JSON_H

#include <stdbool.h>
#include <json-c/json.h>
#include "mm/tiers.h"
#include "mm/usage.h"

/* into o: "bytes", "nodes" (each with its tier; "huge" for a process,
 * "kernel" for a cgroup) and "tiers" */
void usage_json(json_object *o, const struct ct_usage *u, const struct ct_tiers *tiers, bool process);

#endif
