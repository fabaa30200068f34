/* SPDX-License-Identifier: GPL-2.0-only */
/* usage-table.h - `cxltier usage` as tables: the processes and their nodes,
 * then the cgroups and theirs */
#ifndef CXLTIER_USAGE_TABLE_H
#define CXLTIER_USAGE_TABLE_H

#include "cli/output.h"

extern const struct out_table usage_process_table;
extern const struct out_table usage_cgroup_table;

#endif
