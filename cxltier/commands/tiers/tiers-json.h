/* SPDX-License-Identifier: GPL-2.0-only */
/* tiers-json.h - `cxltier tiers` output: the model as JSON, the SLIT matrix */
#ifndef CXLTIER_TIERS_JSON_H
#define CXLTIER_TIERS_JSON_H

#include <json-c/json.h>
#include "cli/cli.h"

struct ct_tier_model;

/* {"nodes":[...],"disagreements":[...],"tiers":[...],"settings":{...}},
 * and "incomplete":[...] when the CXL topology could not be read */
json_object *tiers_json(const struct ct_tier_model *m);
/* --matrix: node rows, one column per node, CPU nodes first; an exit code */
int tiers_print_matrix(struct cmd_env *env, const struct ct_tier_model *m);

#endif
