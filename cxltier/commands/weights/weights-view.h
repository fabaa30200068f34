/* SPDX-License-Identifier: GPL-2.0-only */
/* weights-view.h - `cxltier weights` as JSON and tables (weights-view.c) */
#ifndef CXLTIER_WEIGHTS_VIEW_H
#define CXLTIER_WEIGHTS_VIEW_H

#include <json-c/json.h>
#include "cli/cli.h"
#include "jobs/weights-set.h"
#include "views/tier-model.h"

extern const struct out_table weights_table;

/* the nodes, their bandwidth, the computed weight and its arithmetic, the
 * kernel's weight and mode; with a set's report (r, may be NULL) each
 * node's weight before and after, and the set */
json_object *weights_json(const struct ct_tier_model *m, const struct ct_weights_set_report *r, const char *how,
			  bool dry_run);
/* the table (its default columns: -v adds the arithmetic, a set its
 * before and after), then the mode and, with -v, the formula */
int weights_print(struct cmd_env *env, json_object *root, bool set, char *err, size_t len);

#endif
