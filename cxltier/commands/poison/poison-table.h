/* SPDX-License-Identifier: GPL-2.0-only */
/* poison-table.h - `cxltier poison` as a table: a tree of memdevs and their
 * poisoned DPA ranges */
#ifndef CXLTIER_POISON_TABLE_H
#define CXLTIER_POISON_TABLE_H

#include "cli/output.h"

extern const struct out_table poison_table;

#endif
