/* SPDX-License-Identifier: GPL-2.0-only */
/* offline-remove-table.h - `offline --remove`'s report (jobs/offline-remove.h):
 * each memdev with its regions, whether it is disabled and safe to remove;
 * the blocks that stayed online with who pins them */
#ifndef CXLTIER_OFFLINE_REMOVE_TABLE_H
#define CXLTIER_OFFLINE_REMOVE_TABLE_H

#include <stddef.h>
#include "cli/output.h"
#include "jobs/offline-remove.h"

extern const struct out_table remove_table;

/* {"memdevs":[...], "busy_blocks":[...], "recovered":[...] (-j)} printed;
 * 0, or -errno with the reason in err */
int remove_table_print(const struct out_opts *out, const struct ct_offline_remove_report *r, char *err,
		       size_t errlen);

#endif
