/* SPDX-License-Identifier: GPL-2.0-only */
/* health-live.h - `cxltier health MEMDEV...` on the running system: which
 * memdevs, and their health read from their mailboxes */
#ifndef CXLTIER_HEALTH_LIVE_H
#define CXLTIER_HEALTH_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "cli/cli.h"
#include "cxl/topology.h"

/* how the memdevs answered */
struct health_count {
	size_t ok, unsupported, failed;
};

/* which memdevs the operands name (none: all; "all" too) into wanted
 * [nmemdevs]: 0, or an exit code with the bad name said */
int health_select(struct cmd_env *env, const struct ct_topology *t, int argc, char **argv, bool *wanted);
/* the wanted memdevs' health and alert configuration into arr, each
 * outcome counted in n (and each failure said) */
void health_read_live(struct cmd_env *env, const struct ct_topology *t, const bool *wanted, json_object *arr,
		      struct health_count *n);

#endif
