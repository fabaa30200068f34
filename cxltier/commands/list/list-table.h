/* SPDX-License-Identifier: GPL-2.0-only */
/* list-table.h - the columns of `cxltier list` (the rows are
 * render/topology-json.c's) */
#ifndef CXLTIER_LIST_TABLE_H
#define CXLTIER_LIST_TABLE_H

#include "cli/output.h"

extern const struct out_table list_table;

#endif
