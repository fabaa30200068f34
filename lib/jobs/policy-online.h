/* SPDX-License-Identifier: GPL-2.0-only */
/* online-policy.h - `online --policy`: the policy file, regions for memdevs
 * that back none, and the plan of the blocks the policy onlines */
#ifndef CXLTIER_ONLINE_POLICY_H
#define CXLTIER_ONLINE_POLICY_H

#include "blocks-change.h"
#include "config/policy.h"

#define DEFAULT_CONFIG "/etc/cxltier.conf"

/* the policy file (absent and not given: the default policy); 0 or -errno */
int policy_read(struct cmd_env *env, const char *path, bool explicit, struct ct_policy *p);
/* a region for every target memdev without one that the policy wants; on a
 * creation *t is reloaded; each region into o->regions (JSON); an exit code */
int policy_regions(struct cmd_env *env, struct ct_topology *t, const struct ct_policy *pol, char **targets, int n,
		   struct change_opts *o);
/* the blocks of each dax device the policy onlines, the zone and
 * whether to re-online (into o); a device whose blocks cannot be planned
 * is named and sets o->targets_failed (the run is partial or failed).
 * 0 or -errno */
int policy_plan(struct cmd_env *env, const struct ct_topology *t, const struct ct_policy *pol, char **targets,
		int n, struct ct_blocks_plan *plan, struct change_opts *o);

#endif
