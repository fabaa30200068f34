// SPDX-License-Identifier: GPL-2.0-only
/* online-policy.c - `online --policy`: see online-policy.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/json-build.h"
#include "online-policy.h"
#include "core/context.h"
#include "change/policy-plan.h"
#include "change/policy-region.h"

int policy_read(struct cmd_env *env, const char *path, bool explicit, struct ct_policy *p)
{
	int rc = ct_policy_load(path, p, &env->ctx->err);

	if (rc == -ENOENT && !explicit) {
		ct_error_clear(&env->ctx->err);
		cmd_info(env, 1, "no %s: online movable (the default policy)", path);
		return 0;
	}
	if (rc)
		cmd_err(env, "%s", ct_context_message(env->ctx));
	return rc;
}

static json_object *new_region_json(const struct ct_policy_new_region *r)
{
	json_object *o = json_object_new_object();

	jb_str(o, "memdev", r->memdev);
	if (r->region[0])
		jb_str(o, "region", r->region);
	if (r->dax[0])
		jb_str(o, "dax_device", r->dax);
	jb_str(o, "state", ct_policy_region_state_name(r->state));
	if (r->converted)
		jb_bool(o, "converted_to_system_ram", true);
	jb_str(o, "note", r->note);
	return o;
}

int policy_regions(struct cmd_env *env, struct ct_topology *t, const struct ct_policy *pol, char **targets, int n,
		   struct change_opts *o)
{
	struct ct_policy_new_region *r;
	size_t nr, created = 0;
	int rc = ct_policy_region_create(env->ctx, t, pol, targets, n, o->dry_run, &r, &nr);

	for (size_t i = 0; i < nr; i++) {
		if (!o->regions)
			o->regions = json_object_new_array();
		json_object_array_add(o->regions, new_region_json(&r[i]));
		if (r[i].state == CT_NEWREG_FAILED)
			cmd_err(env, "%s: no region created: %s", r[i].memdev, r[i].note);
		else if (r[i].state == CT_NEWREG_PLANNED)
			fprintf(stderr, "cxltier online: dry run: %s: %s\n", r[i].memdev, r[i].note);
		else if (r[i].state == CT_NEWREG_CREATED && r[i].err)
			cmd_err(env, "%s: %s", r[i].memdev, r[i].note);
		else
			cmd_info(env, 0, "%s", r[i].note);
		created += r[i].state == CT_NEWREG_CREATED;
	}
	free(r);
	if (rc == -ENOMEM) {
		cmd_err(env, "%s", ct_context_message(env->ctx));
		return EXIT_FAIL;
	}
	ct_error_clear(&env->ctx->err);
	if (created) {	/* the new regions' dax devices and blocks */
		ct_topology_free(t);
		int lrc = change_load(env, targets, n, true, t);
		if (lrc)
			return lrc;
	}
	/* a failure is named; the blocks of what exists are still onlined */
	o->regions_failed = rc != 0;
	o->regions_made = created > 0;
	return EXIT_OK;
}

int policy_plan(struct cmd_env *env, const struct ct_topology *t, const struct ct_policy *pol, char **targets,
		int n, struct ct_blocks_plan *plan, struct change_opts *o)
{
	struct ct_policy_outcome *out;
	size_t nout;
	bool movable;
	int rc = ct_policy_plan(&env->ctx->sys, t, pol, targets, n, plan, &movable, &out, &nout);

	for (size_t i = 0; i < nout; i++) {
		if (!out[i].decision.online)
			fprintf(stderr, "cxltier online: %s: the policy%s says leave it offline\n", out[i].dax,
				out[i].decision.line ? " (a [device] section)" : "");
		if (out[i].err) {	/* named; the other devices are onlined */
			cmd_err(env, "%s: its blocks cannot be planned, none is onlined: %s", out[i].dax, out[i].why);
			o->targets_failed = true;
		}
	}	/* reonline: per device, on its blocks (ct_policy_plan) */
	free(out);
	if (rc)
		cmd_err(env, "%s", ct_context_message(env->ctx));
	o->want = movable ? CT_WANT_MOVABLE : CT_WANT_KERNEL;
	return rc;
}
