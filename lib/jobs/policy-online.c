// SPDX-License-Identifier: LGPL-2.1-or-later
/* policy-online.c - `online --policy`: lock, load, regions made, load
 * again, plan, run (policy-online.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "jobs/policy-online.h"
#include "jobs/blocks-run.h"
#include "jobs/weights-set.h"
#include "jobs/job-session.h"
#include "change/policy-plan.h"
#include "change/policy-region.h"
#include "core/conf.h"
#include "core/context.h"
#include "core/say.h"

/* the policy file (absent and not given: the default policy) */
static enum ct_job_end read_policy(struct ct_context *ctx, const char *config, struct ct_policy *p)
{
	const char *path = config ? config : CT_CONF_PATH;
	int rc = ct_policy_load(path, p, &ctx->err);

	if (rc == -ENOENT && !config) {
		ct_error_clear(&ctx->err);
		ct_say(&ctx->say, 1, "no %s: online movable (the default policy)", path);
		return CT_JOB_DONE;
	}
	if (rc) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		return CT_JOB_FAILED;
	}
	return CT_JOB_DONE;
}

/* what became of one memdev without a region, said */
static void say_new_region(struct ct_context *ctx, const struct ct_policy_new_region *nr)
{
	if (nr->state == CT_NEWREG_FAILED)
		ct_say(&ctx->say, CT_SAY_ERROR, "%s: no region created: %s", nr->memdev, nr->note);
	else if (nr->state == CT_NEWREG_PLANNED)
		ct_say(&ctx->say, 0, "dry run: %s: %s", nr->memdev, nr->note);
	else if (nr->state == CT_NEWREG_CREATED && nr->err)
		ct_say(&ctx->say, CT_SAY_ERROR, "%s: %s", nr->memdev, nr->note);
	else
		ct_say(&ctx->say, 0, "%s", nr->note);
}

/* a region for every target memdev without one that the policy wants; on a
 * creation the topology read again. A failure is named, and the blocks of
 * what exists are still onlined */
static enum ct_job_end make_regions(struct ct_context *ctx, struct job_session *js, struct ct_topology *t,
				       const struct ct_policy *pol, const struct ct_policy_online_opts *o,
				       struct ct_blocks_change_report *r, struct blocks_before *b)
{
	size_t created = 0;
	int rc = ct_policy_region_create(ctx, t, pol, o->targets, o->ntargets, o->dry_run, &r->new_regions,
					 &r->nnew_regions);
	enum ct_job_end st;

	for (size_t i = 0; i < r->nnew_regions; i++) {
		say_new_region(ctx, &r->new_regions[i]);
		created += r->new_regions[i].state == CT_NEWREG_CREATED;
	}
	if (rc == -ENOMEM) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		return CT_JOB_FAILED;
	}
	ct_error_clear(&ctx->err);
	if (created) {	/* the new regions' dax devices and blocks */
		ct_topology_free(t);
		if ((st = job_session_load(js, o->targets, o->ntargets, true, t)))
			return st;
	}
	b->regions_failed = rc != 0;
	b->regions_made = created > 0;
	return CT_JOB_DONE;
}

/* the blocks of each dax device the policy onlines, the zone and whether
 * to re-online; a device whose blocks cannot be planned is named, and the
 * run is partial or failed */
static enum ct_job_end plan_blocks(struct ct_context *ctx, const struct ct_topology *t, const struct ct_policy *pol,
				      const struct ct_policy_online_opts *o, struct ct_blocks_change_report *r,
				      struct blocks_before *b, bool *weights)
{
	struct ct_policy_outcome *out;
	size_t nout;
	bool movable;
	int rc = ct_policy_plan(&ctx->sys, t, pol, o->targets, o->ntargets, &r->plan, &movable, &out, &nout);

	for (size_t i = 0; i < nout; i++) {
		*weights |= out[i].decision.online && out[i].decision.weights && !out[i].err;
		if (!out[i].decision.online)
			ct_say(&ctx->say, 0, "%s: the policy%s says leave it offline", out[i].dax,
			       out[i].decision.line ? " (a [device] section)" : "");
		if (out[i].err) {	/* named; the other devices are onlined */
			ct_say(&ctx->say, CT_SAY_ERROR, "%s: its blocks cannot be planned, none is onlined: %s", out[i].dax,
			       out[i].why);
			b->targets_failed = true;
		}
	}	/* reonline: per device, on its blocks (ct_policy_plan) */
	free(out);
	if (rc) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		return CT_JOB_FAILED;
	}
	r->want = movable ? CT_WANT_MOVABLE : CT_WANT_KERNEL;
	if (!r->plan.n)
		ct_say(&ctx->say, 1, "nothing for the policy to online");
	return CT_JOB_DONE;
}

/* interleave-weights = yes: once the blocks are online, the weights computed
 * from every node's bandwidth and set, under the lock this run holds; what
 * it did is said, a kernel without weighted interleave too (not a failure) */
static void set_weights(struct ct_context *ctx, const struct ct_policy_online_opts *o, struct ct_blocks_change_report *r)
{
	struct ct_weights_set_report w;
	struct ct_wi_state st;
	enum ct_job_end end;
	int rc = ct_wi_read(&ctx->sys, &st);

	ct_wi_free(&st);
	if (rc == -EOPNOTSUPP) {
		ct_error_clear(&ctx->err);
		ct_say(&ctx->say, 0, "the policy's interleave-weights: this kernel has no weighted interleave "
		       "(Linux 6.9 or later): no weights set");
		return;
	}
	ct_error_clear(&ctx->err);	/* (any other failure: the job says it) */
	if (o->dry_run) {
		ct_say(&ctx->say, 0, "the policy would set the interleave weights from bandwidth (cxltier weights --set)");
		return;
	}
	end = ct_weights_set(ctx, &(struct ct_weights_set_opts){ .how = CT_WEIGHTS_COMPUTED, .lock_held = true,
								  .timeout_s = o->timeout_s }, &w);
	if (end == CT_JOB_DONE) {
		char buf[256] = "";
		size_t off = 0;

		for (unsigned i = 0; i < w.n && off < sizeof(buf); i++)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%snode%d %u", off ? ", " : "", w.v[i].node,
						w.v[i].new);
		ct_say(&ctx->say, 0, "interleave weights from bandwidth (the policy): %s%s", buf,
		       w.writes ? "" : " (unchanged)");
	} else if (end != CT_JOB_UNSUPPORTED && r->end == CT_JOB_DONE) {
		r->end = CT_JOB_PARTIAL;	/* the memory is online; the weights were not set (said) */
	}
	ct_weights_set_report_free(&w);
}

enum ct_job_end ct_policy_online(struct ct_context *ctx, const struct ct_policy_online_opts *o,
				    struct ct_blocks_change_report *r)
{
	struct ct_blocks_opts eo = job_exec_opts(&o->signals, &o->progress, o->rollback, o->timeout_s);
	struct job_session js = JOB_SESSION_INIT;
	struct ct_policy pol = { 0 };
	struct blocks_before b = { 0 };
	enum ct_job_end st;
	bool weights = false;

	*r = (struct ct_blocks_change_report){ .dry_run = o->dry_run, .want = CT_WANT_MOVABLE };
	r->plan.all_zones = o->dry_run;	/* a dry run shows every block's zones */
	st = job_session_begin_load(&js, ctx, &eo, o->timeout_s, o->dry_run, &r->recovered, o->targets, o->ntargets,
				    true, &r->topology);
	if (!st) {
		job_warn_auto_online(ctx);
		st = read_policy(ctx, o->config, &pol);
	}
	if (!st && !(st = make_regions(ctx, &js, &r->topology, &pol, o, r, &b))) {
		job_session_phase(&js, "policy and regions (created, topology read again)");
		st = plan_blocks(ctx, &r->topology, &pol, o, r, &b, &weights);
	}
	if (!st)
		blocks_run_finish(&js, &r->topology, o->targets, o->ntargets, o->reonline, &b, r);
	if (!st && weights && (r->end == CT_JOB_DONE || r->end == CT_JOB_PARTIAL))
		set_weights(ctx, o, r);
	else if (st)
		r->end = st;
	job_session_end(&js);
	ct_policy_free(&pol);
	return r->end;
}
