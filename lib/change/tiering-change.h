/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tiering-change.h - the kernel's tiering switches (mm/numa.h) changed as
 * one change: recorded with their old values (change-record.h, kind
 * tiering) before the first write, written in order, and on a write the
 * kernel refuses the ones already written set back, so that the kernel
 * ends with the old settings or the new ones. A run killed between two
 * writes leaves the record: the next run's recovery (region.h:
 * ct_region_recover) sets back what it wrote. The caller holds the
 * memory-blocks lock.
 */
#ifndef CXLTIER_TIERING_CHANGE_H
#define CXLTIER_TIERING_CHANGE_H

#include <stddef.h>
#include <stdint.h>
#include "core/context.h"
#include "mm/numa.h"

/* one switch asked for */
struct ct_tiering_step {
	enum ct_tiering_switch sw;
	int64_t from, to;
	/* "planned" (a dry run), "unchanged", "changed", "failed", "rolled back",
	 * "not reached" */
	const char *result;
};

/* the steps whose from and to differ written (each result set); 0, or
 * -errno with a message naming the file the kernel refused and whether
 * what was written before it was set back (when that failed too, the
 * record is kept for the next run, and the message says so) */
int ct_tiering_change_apply(struct ct_context *ctx, struct ct_tiering_step *steps, size_t n);

#endif
