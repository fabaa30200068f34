/* SPDX-License-Identifier: GPL-2.0-only */
/* cdat-table.h - `cxltier cdat` as tables: the structures under their
 * device, the kernel's figures beside them, the hex dumps */
#ifndef CXLTIER_CDAT_TABLE_H
#define CXLTIER_CDAT_TABLE_H

#include <stdbool.h>
#include <json-c/json.h>
#include "cli/cli.h"

/* the structures, one row each under their device */
extern const struct out_table cdat_out_table;
/* the kernel's figures beside them */
extern const struct out_table cdat_kernel_out_table;

/* {"tables":[...]} as JSON, or the tables, then (not with -o) the kernel's
 * figures and (raw) the hex dumps; an exit code (EXIT_USAGE for an unknown
 * column, said) */
int cdat_print(struct cmd_env *env, json_object *root, bool raw);

#endif
