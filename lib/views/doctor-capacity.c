// SPDX-License-Identifier: LGPL-2.1-or-later
/* doctor-capacity.c - the doctor's capacity check (doctor.h): device
 * capacity an endpoint decoder holds for no region. A region create or
 * destroy cut short leaves it (or another tool's region is being made at
 * this moment); no region can use it until it is freed, and nothing frees
 * it by itself. (A region never committed is doctor-chain.c's.) */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "core/context.h"
#include "cxl/fabric.h"
#include "change/region.h"
#include "views/doctor.h"
#include "views/findings.h"

static void orphan_decoders(const struct ct_endpoint_info *e, struct ct_findings *f)
{
	unsigned n = e->ndecoders < CT_MAX_EP_DECODERS ? e->ndecoders : CT_MAX_EP_DECODERS;

	for (unsigned i = 0; i < n; i++) {
		const struct ct_ep_decoder *d = &e->decoders[i];
		char fix[512];

		if (!d->dpa_size || d->region[0])
			continue;
		if (!strcmp(e->last_decoder, d->name))
			snprintf(fix, sizeof(fix), "cxl free-dpa %s -d %s (ndctl)", e->memdev, d->name);
		else	/* the kernel frees a device's DPA last-allocated first */
			snprintf(fix, sizeof(fix), "free what %s allocated after it first (%s is the last), then "
				 "cxl free-dpa %s -d %s (ndctl)", e->memdev, e->last_decoder, e->memdev, d->name);
		ct_finding_add(f, "capacity", d->name, CT_FINDING_PROBLEM, fix,
			       "%s holds %llu MiB of %s's capacity (DPA %#llx) for no region: a region create or destroy "
			       "was cut short, or another tool is making a region right now; no region can use it until "
			       "it is freed", d->name, (unsigned long long)(d->dpa_size >> 20), e->memdev,
			       (unsigned long long)d->dpa_resource);
	}
}

/* region creates and destroys (and --reonline blocks) a killed run left,
 * not yet recovered */
static void killed_changes(struct ct_context *ctx, struct ct_findings *f)
{
	struct ct_region_recovery v[8];
	size_t n;

	if (ct_region_recover_pending(ctx, v, 8, &n)) {
		if (ctx->err.code == EINVAL || ctx->err.code == ELOOP)
			ct_finding_add(f, "region-change", "/run/cxltier", CT_FINDING_PROBLEM,
				       "check what it names, then remove it", "%s", ct_context_message(ctx));
		ct_error_clear(&ctx->err);	/* not readable by this user: not a finding */
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(v[i].command, "tiering")) {
			ct_finding_add(f, "tiering-change", "tiering", CT_FINDING_PROBLEM,
				       "the next 'cxltier tiering' (or online, offline, region) run sets them back",
				       "a change of the kernel's tiering switches (pid %d) was killed midway: some "
				       "switches may hold the new value, some the old", v[i].pid);
			continue;
		}
		if (v[i].block[0]) {
			ct_finding_add(f, "region-change", v[i].block, CT_FINDING_PROBLEM,
				       "the next 'cxltier online' or 'offline' run onlines it movable",
				       "a --reonline of %s (pid %d) was killed between its offline and its online: "
				       "the block is left offline", v[i].block, v[i].pid);
			continue;
		}
		ct_finding_add(f, "region-change", v[i].region[0] ? v[i].region : v[i].decoders, CT_FINDING_PROBLEM,
			       v[i].command[0] == 'c' ? "the next 'cxltier region', 'online' or 'offline' run undoes it"
						   : "the next 'cxltier region', 'online' or 'offline' run finishes it",
			       "a region %s (pid %d%s%s, decoders %s) was killed midway and is not yet %s", v[i].command,
			       v[i].pid, v[i].region[0] ? ", " : "", v[i].region, v[i].decoders[0] ? v[i].decoders : "none",
			       v[i].command[0] == 'c' ? "undone" : "finished");
	}
}

void ct_doctor_capacity(struct ct_context *ctx, struct ct_findings *f)
{
	struct ct_fabric fab;

	killed_changes(ctx, f);

	if (ct_fabric_load(ctx, &fab)) {
		ct_error_clear(&ctx->err);
		return;
	}
	for (size_t i = 0; i < fab.neps; i++)
		orphan_decoders(&fab.eps[i], f);
	ct_fabric_free(&fab);
}
