/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-plan.h - `online --policy`: which CXL dax devices the policy
 * onlines, in which zone, as a plan of their blocks.
 */
#ifndef CXLTIER_POLICY_PLAN_H
#define CXLTIER_POLICY_PLAN_H

#include <stdbool.h>
#include "change/blocks.h"
#include "config/policy.h"
#include "cxl/topology.h"

struct ct_policy_outcome {
	char dax[CT_NAME];		/* the dax device decided on */
	struct ct_policy_decision decision;
	int err;			/* 0, or -errno: its blocks could not be planned */
	char why[sizeof(((struct ct_error *)0)->msg)];	/* that, naming what */
};

/*
 * Add the blocks of every system-ram CXL dax device named by one of
 * targets (a target names a device when it is the device, its region, one
 * of its memdevs, or covers one of its blocks; every device when ntargets
 * is 0) and that the policy onlines. *out (malloc'd, *nout entries) holds
 * each device's decision; *movable says which zone they want.
 * A device whose blocks cannot be planned (a block's state unreadable...)
 * has err and why set and none of its blocks in the plan (never half a
 * device); the others are planned. Blocks kmem did not add are no error.
 * -ENOMEM; -EINVAL when the devices want both zones (one zone per run).
 */
int ct_policy_plan(struct ct_sysfs *s, const struct ct_topology *t, const struct ct_policy *pol,
		   char *const *targets, int ntargets, struct ct_blocks_plan *plan, bool *movable,
		   struct ct_policy_outcome **out, size_t *nout);

#endif
