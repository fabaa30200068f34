/* SPDX-License-Identifier: GPL-2.0-only */
/* tiers-table.h - `cxltier tiers` as tables (tiers-table.c) */
#ifndef CXLTIER_TIERS_TABLE_H
#define CXLTIER_TIERS_TABLE_H

#include <json-c/json.h>
#include "cli/cli.h"

/* the nodes' table (-o picks from its columns) */
extern const struct out_table tiers_nodes_table;
extern const struct out_table tiers_nodes_wi_table;	/* with WEIGHT */
/* after the nodes, in the full table only: the footnote, the settings, the
 * disagreements; a missing tiering said on stderr */
void tiers_print_more(struct cmd_env *env, json_object *root, size_t ntiers);

#endif
