/* SPDX-License-Identifier: GPL-2.0-only */
/* region-show.h - how `cxltier region create` and `destroy` show what they
 * made or took apart: each region as `list` prints it */
#ifndef CXLTIER_REGION_SHOW_H
#define CXLTIER_REGION_SHOW_H

#include "cli/cli.h"
#include "jobs/region-change.h"

extern const struct out_table region_table;

/* each region of the report printed: with -j a document each,
 * {"regions":[...]} (and "recovered"), else its tree; an exit code
 * (EXIT_USAGE when -o names a column the table does not have) */
int region_show(struct cmd_env *env, const struct ct_region_change_report *r);

#endif
