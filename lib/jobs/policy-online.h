/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-online.h - the job of `cxltier online --policy`, which the hotplug
 * watch runs for the devices udev hands over, in one call: under the
 * memory-blocks lock (none in a dry run), after what killed runs left is
 * finished or undone, the policy file read (config/policy.h); a region
 * made for each target memdev that backs none when the policy says
 * create-region = yes (change/policy-region.h), the topology read again;
 * the blocks of each CXL dax device the policy onlines planned in the zone
 * it wants (change/policy-plan.h); then carried out as `online` carries
 * them out (jobs/blocks-change.h). The report is online's, with each
 * memdev without a region and what became of it (new_regions).
 */
#ifndef CXLTIER_POLICY_ONLINE_H
#define CXLTIER_POLICY_ONLINE_H

#include <stdbool.h>
#include "jobs/blocks-change.h"

struct ct_policy_online_opts {
	const char *config;		/* the policy file; NULL: CT_CONF_PATH, whose absence is the default policy */
	char *const *targets;		/* memN, daxX.Y, regionN, memoryN...; none: all CXL memory */
	int ntargets;
	bool reonline;			/* blocks online in another zone moved, whatever the policy says */
	bool dry_run, rollback;
	unsigned timeout_s;		/* per block, and the wait for the lock */
	struct ct_job_signals signals;
	struct ct_job_progress progress;	/* each block told as it is carried out */
};

/* the job: how it ended (also in r), everything it had to tell said;
 * free r with ct_blocks_change_report_free() */
enum ct_job_end ct_policy_online(struct ct_context *ctx, const struct ct_policy_online_opts *o,
				    struct ct_blocks_change_report *r);

#endif
