// SPDX-License-Identifier: LGPL-2.1-or-later
/* policy-plan.c - the policy applied to the topology: see policy-plan.h */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "change/policy-plan.h"

/* does any target name this dax device (or a block of it)? */
static bool dax_targeted(struct ct_sysfs *s, const struct ct_topology *t, const struct ct_region *r,
			 const struct ct_dax *d, char *const *targets, int ntargets)
{
	bool hit = ntargets == 0;

	for (int k = 0; k < ntargets && !hit; k++) {
		struct ct_blocks_plan probe = { 0 };
		if (!strcmp(targets[k], d->name) || !strcmp(targets[k], r->name) || ct_region_has_memdev(r, targets[k]))
			hit = true;
		else if (!strncmp(targets[k], "memory", 6) && ct_blocks_plan_add_target(s, t, &probe, targets[k], NULL) == 0)
			for (size_t b = 0; b < probe.n; b++)
				hit |= !strcmp(probe.op[b].owner, d->name);
		ct_blocks_plan_free(&probe);
		ct_error_clear(s->err);
	}
	return hit;
}

static void decide(const struct ct_topology *t, const struct ct_region *r, const struct ct_policy *pol,
		   struct ct_policy_decision *dec)
{
	uint64_t serials[CT_MAX_TARGETS];
	const char *hosts[CT_MAX_TARGETS];

	for (unsigned m = 0; m < r->ntargets && m < CT_MAX_TARGETS; m++) {
		const struct ct_memdev *md = ct_topology_memdev(t, r->memdevs[m]);
		serials[m] = md ? md->serial : 0;
		hosts[m] = md ? md->host : NULL;
	}
	struct ct_policy_subject subj = { r->name, serials, hosts, r->ntargets };
	ct_policy_decide(pol, &subj, dec);
}

int ct_policy_plan(struct ct_sysfs *s, const struct ct_topology *t, const struct ct_policy *pol,
		   char *const *targets, int ntargets, struct ct_blocks_plan *plan, bool *movable,
		   struct ct_policy_outcome **out, size_t *nout)
{
	size_t normal = 0, movable_n = 0;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		for (size_t j = 0; j < r->ndax; j++) {
			const struct ct_dax *d = &r->dax[j];
			struct ct_policy_outcome *o;

			if (strcmp(d->mode, "system-ram") || !dax_targeted(s, t, r, d, targets, ntargets))
				continue;
			o = realloc(*out, (*nout + 1) * sizeof(*o));
			if (!o)
				return ct_fail(s->err, ENOMEM, "out of memory");
			*out = o;
			o = &o[(*nout)++];
			memset(o, 0, sizeof(*o));
			ct_strlcpy(o->dax, d->name, sizeof(o->dax));
			decide(t, r, pol, &o->decision);
			if (!o->decision.online)
				continue;
			size_t first = plan->n;
			/* (blocks kmem could not add are left out, no error) */
			int rc = ct_blocks_plan_add_target(s, t, plan, d->name, NULL);
			if (rc == -ENOMEM)
				return rc;
			if (rc) {	/* the device's, named; none of its blocks */
				o->err = rc;
				ct_strlcpy(o->why, s->err->msg, sizeof(o->why));
				ct_error_clear(s->err);
				plan->n = first;
				continue;
			}
			for (size_t b = first; b < plan->n; b++)	/* per device, not for the run */
				plan->op[b].reonline = o->decision.reonline;
			if (o->decision.movable)
				movable_n++;
			else
				normal++;
		}
	}
	*movable = normal == 0;
	if (normal && movable_n)
		return ct_fail(s->err, EINVAL, "the policy asks for both zones in one run; run cxltier online --policy "
			       "per device");
	return 0;
}
