/* SPDX-License-Identifier: GPL-2.0-only */
/* spread-nodes.h - `cxltier migrate --spread weighted`: the nodes of the
 * spread and their weights, from --weights or from the kernel's
 * weighted-interleave weights (mm/interleave-weights.h) */
#ifndef CXLTIER_SPREAD_NODES_H
#define CXLTIER_SPREAD_NODES_H

#include <stdbool.h>
#include "cli/cli.h"

/* weight[0..CT_MIG_MAX_NODES): with given (--weights), as given, each
 * weighted node checked to have memory online; else the kernel's weights
 * of the nodes of `nodes` (a node list or tierN,...; NULL: every node with
 * memory that the kernel has a weight for). *kernel says which. 0, or an
 * exit code with the fault said (77: no weighted interleave in this kernel) */
int spread_nodes_resolve(struct cmd_env *env, const char *nodes, bool given, unsigned *weight, bool *kernel);

#endif
