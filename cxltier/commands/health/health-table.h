/* SPDX-License-Identifier: GPL-2.0-only */
/* health-table.h - `cxltier health` as a table: a row a memdev */
#ifndef CXLTIER_HEALTH_TABLE_H
#define CXLTIER_HEALTH_TABLE_H

#include "cli/output.h"

extern const struct out_table health_table;

#endif
