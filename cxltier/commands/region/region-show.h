/* SPDX-License-Identifier: GPL-2.0-only */
/* cmd-region.h - what the parts of `cxltier region` share */
#ifndef CXLTIER_CMD_REGION_H
#define CXLTIER_CMD_REGION_H

#include "cli/cli.h"
#include "cxl/topology.h"

int region_create(int argc, char **argv, struct cmd_env *env);
int region_destroy(int argc, char **argv, struct cmd_env *env);

/* region-show.c: the help of `cxltier region` (its columns included) */
void region_usage(void);
/* print one region as `list` does (JSON {"regions":[...]} or its tree);
 * state, when given, replaces the region's state ("planned", "destroyed") */
int region_show(struct cmd_env *env, const struct ct_topology *t, const struct ct_region *r, const char *state);
/* the exit code for a lib failure: 77 when the kernel or device cannot */
int region_exit_code(int rc);

#endif
