/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-region.h - `online --policy` for a memdev that backs no region (a
 * device hot-added after boot: the firmware programmed nothing for it):
 * when the policy says create-region = yes, a RAM region over that memdev
 * alone, through the region code (region.h); its dax device put in
 * system-ram mode when the kernel left it in devdax.
 */
#ifndef CXLTIER_POLICY_REGION_H
#define CXLTIER_POLICY_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include "config/policy.h"
#include "cxl/topology.h"

struct ct_context;

enum ct_new_region_state {
	CT_NEWREG_LEFT,		/* the policy creates no region for it: see note */
	CT_NEWREG_PLANNED,	/* dry run: what would be created */
	CT_NEWREG_CREATED,
	CT_NEWREG_FAILED,	/* err, note */
};

struct ct_policy_new_region {
	char memdev[CT_NAME];
	char region[CT_NAME];	/* created (planned: the name the kernel offers now) */
	char dax[CT_NAME];	/* its dax device, "" none yet */
	enum ct_new_region_state state;
	bool converted;		/* the dax device was switched from devdax to system-ram */
	struct ct_policy_decision decision;
	int err;
	char note[320];
};

/*
 * Every memdev named by a target (memN; every memdev when ntargets is 0)
 * that is enabled, has volatile capacity and backs no region: the policy's
 * decision for it (by serial and host); when it onlines and creates
 * regions, a RAM region over it (dry: planned only). *out (malloc'd, *nout
 * entries) says what happened to each. Returns 0 when every region the
 * policy asked for exists (or was planned), else the first failure's
 * -errno (each failure in its entry; the context's message is the first).
 * The caller reloads its topology after a creation.
 */
int ct_policy_region_create(struct ct_context *ctx, const struct ct_topology *t, const struct ct_policy *pol,
			     char *const *targets, int ntargets, bool dry, struct ct_policy_new_region **out,
			     size_t *nout);

const char *ct_policy_region_state_name(enum ct_new_region_state s);

#endif
