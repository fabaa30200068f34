/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/mm/ (unit tests in test/ may include it): other folders
 * and the CLI go through migrate.h */
/*
 * migrate-tally.h - a move_pages batch's final statuses (ct_migrate_batch_move)
 * counted by outcome: on the target (moved), an errno, or left where it
 * was without a reason, which is ENOMEM when the target is nearly full and
 * "other" otherwise. Whether the target is nearly full is asked once per
 * batch at most (a node's meminfo read), not once per page.
 */
#ifndef CXLTIER_MIGRATE_TALLY_H
#define CXLTIER_MIGRATE_TALLY_H

#include <stdbool.h>
#include <stdint.h>
#include "mm/migrate.h"

struct ct_migrate_tally {
	uint64_t moved, failed;		/* base pages */
	uint64_t by[CT_MIG_NERR];
};

/* status[0..n): entries of per base pages each, moved towards node to.
 * direct: the pages were not asked about first, so ENOENT and EFAULT mean
 * nothing is there (freed or unmapped since): not counted. nearly_full(arg)
 * says whether the target is nearly full; asked at most once, and only when
 * a page stayed without a reason. */
void ct_migrate_tally(struct ct_migrate_tally *t, const int *status, unsigned long n, int to, uint64_t per, bool direct,
		  bool (*nearly_full)(void *arg), void *arg);

#endif
