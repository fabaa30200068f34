// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include "mm/migrate-batch.h"
#include "mm/migrate-tally.h"

static enum ct_mig_err classify(int status)
{
	switch (-status) {
	case EFAULT: return CT_MIG_EFAULT;
	case ENOENT: return CT_MIG_ENOENT;
	case EACCES: return CT_MIG_EACCES;
	case EBUSY: case EAGAIN: return CT_MIG_EBUSY;
	case ENOMEM: return CT_MIG_ENOMEM;
	default: return CT_MIG_OTHER;
	}
}

void ct_migrate_tally(struct ct_migrate_tally *t, const int *status, unsigned long n, int to, uint64_t per, bool direct,
		  bool (*nearly_full)(void *arg), void *arg)
{
	int full = -1;	/* not asked yet */

	for (unsigned long i = 0; i < n; i++) {
		int st = status[i];
		if (st == to) {
			t->moved += per;
			continue;
		}
		if (direct && (st == -ENOENT || st == -EFAULT))
			continue;	/* freed or unmapped since numa_maps was read: nothing there */
		t->failed += per;
		if (st < 0 && st != CT_STATUS_UNSET) {
			t->by[classify(st)] += per;
			continue;
		}
		/* left where it was: the kernel gave a count, not a reason (it
		 * stops a batch at the first page it cannot move and leaves the
		 * rest unwritten); a nearly full target is the reason it has */
		if (full < 0)
			full = nearly_full && nearly_full(arg);
		t->by[full ? CT_MIG_ENOMEM : CT_MIG_OTHER] += per;
	}
}
