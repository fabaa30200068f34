// SPDX-License-Identifier: GPL-2.0-only
/* a moved batch's statuses counted by outcome; whether the target is
 * nearly full (a node's meminfo read) is asked once per batch at most */
#include <errno.h>
#include "tap.h"
#include "mm/migrate-batch.h"
#include "mm/migrate-tally.h"

static int asked;
static bool full(void *arg)
{
	asked++;
	return *(bool *)arg;
}

int main(void)
{
	const int U = CT_STATUS_UNSET;
	/* moved, three left without a reason, EBUSY, one on node 3, EACCES */
	int st[] = { 1, U, U, -EBUSY, 3, U, -EACCES, 1 };
	bool yes = true, no = false;
	struct ct_migrate_tally t = { 0 };

	ct_migrate_tally(&t, st, 8, 1, 1, false, full, &yes);
	is_int(asked, 1, "the target's meminfo asked once for four pages left without a reason");
	is_int(t.moved, 2, "two moved");
	is_int(t.failed, 6, "six failed");
	is_int(t.by[CT_MIG_ENOMEM], 4, "left without a reason on a nearly full target: ENOMEM");
	is_int(t.by[CT_MIG_EBUSY], 1, "EBUSY");
	is_int(t.by[CT_MIG_EACCES], 1, "EACCES");

	asked = 0;
	memset(&t, 0, sizeof(t));
	ct_migrate_tally(&t, st, 8, 1, 512, false, full, &no);
	is_int(asked, 1, "asked once again");
	is_int(t.by[CT_MIG_OTHER], 4 * 512, "room on the target: other, in base pages of the entries");

	asked = 0;
	memset(&t, 0, sizeof(t));
	int fine[] = { 1, 1, -ENOENT, -EFAULT };
	ct_migrate_tally(&t, fine, 4, 1, 1, true, full, &yes);
	is_int(asked, 0, "not asked when every page has its reason");
	is_int(t.failed, 0, "unasked pages freed since (ENOENT, EFAULT): nothing there, not failed");
	ct_migrate_tally(&t, fine, 4, 1, 1, false, NULL, NULL);
	is_int(t.by[CT_MIG_ENOENT] + t.by[CT_MIG_EFAULT], 2, "asked pages: counted by their errno");
	return tap_done();
}
