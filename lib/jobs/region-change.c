// SPDX-License-Identifier: LGPL-2.1-or-later
/* region-change.c - a region created over memdevs, or regions destroyed,
 * under the lock (region-change.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jobs/region-change.h"
#include "jobs/job-session.h"
#include "change/region.h"
#include "core/context.h"
#include "core/say.h"

static enum ct_job_end status_of(int rc)
{
	return rc == -EOPNOTSUPP ? CT_JOB_UNSUPPORTED : CT_JOB_FAILED;
}

static enum ct_job_end said(struct ct_context *ctx, enum ct_job_end st)
{
	ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
	return st;
}

/* one more region to show (state NULL: its own) */
static enum ct_job_end show(struct ct_context *ctx, struct ct_region_change_report *r, const struct ct_region *reg,
			       const char *state)
{
	struct ct_region_shown *v = realloc(r->shown, (r->nshown + 1) * sizeof(*v));

	if (!v) {
		ct_say(&ctx->say, CT_SAY_ERROR, "out of memory");
		return CT_JOB_FAILED;
	}
	r->shown = v;
	v[r->nshown++] = (struct ct_region_shown){ *reg, state };
	return CT_JOB_DONE;
}

/* a region known by its name alone: one that is planned or gone */
static struct ct_region named(const char *name)
{
	struct ct_region reg;

	memset(&reg, 0, sizeof(reg));
	snprintf(reg.name, sizeof(reg.name), "%s", name);
	snprintf(reg.mode, sizeof(reg.mode), "ram");
	return reg;
}

/* ---- create ---- */

/* each argument names exactly one memdev */
static enum ct_job_end resolve(struct ct_context *ctx, const struct ct_topology *t, char *const *specs, int n,
				  const char **names)
{
	for (int i = 0; i < n; i++) {
		const struct ct_memdev *hit = NULL;
		for (size_t k = 0; k < t->nmemdevs; k++) {
			if (!ct_memdev_matches(&t->memdevs[k], specs[i]))
				continue;
			if (hit) {
				ct_say(&ctx->say, CT_SAY_ERROR, "'%s' names both %s and %s (by id and by serial): say memN "
				       "or 0x<serial>", specs[i], hit->name, t->memdevs[k].name);
				return CT_JOB_BAD_INPUT;
			}
			hit = &t->memdevs[k];
		}
		if (!hit) {
			ct_say(&ctx->say, CT_SAY_ERROR, "no memdev '%s' on this system%s", specs[i],
			       t->nmemdevs ? " (see 'cxltier list')" : " (no CXL memdevs found)");
			return CT_JOB_FAILED;
		}
		names[i] = hit->name;
	}
	return CT_JOB_DONE;
}

/* the region a plan would make, as the topology would have it */
static struct ct_region planned(const struct ct_region_plan *p)
{
	struct ct_region reg = named(p->next_name[0] ? p->next_name : "(new)");

	snprintf(reg.root_decoder, sizeof(reg.root_decoder), "%s", p->root_decoder);
	reg.size = p->size;
	reg.ways = p->ways;
	reg.granularity = p->granularity;
	reg.ntargets = p->ways;
	for (unsigned i = 0; i < p->ways; i++) {
		snprintf(reg.targets[i], CT_NAME, "%s", p->members[i].decoder);
		snprintf(reg.memdevs[i], CT_NAME, "%s", p->members[i].memdev);
		reg.dpa[i].size = p->members[i].dpa_size;
		reg.dpa[i].resource = UINT64_MAX;	/* the kernel allocates it */
	}
	return reg;
}

/* the plan carried out (the lock released), the region read back */
static enum ct_job_end create(struct ct_context *ctx, struct job_session *js, struct ct_region_plan *plan,
				 struct ct_region_change_report *r)
{
	const struct ct_region *reg;
	int rc;

	job_warn_auto_online(ctx);	/* its memory could land in ZONE_NORMAL by itself */
	rc = ct_region_create(ctx, plan);
	job_session_end(js);
	if (rc)
		return said(ctx, status_of(rc));
	ct_topology_free(&r->topology);
	if (ct_topology_load(ctx, &r->topology) || !(reg = ct_topology_region(&r->topology, plan->region))) {
		ct_say(&ctx->say, CT_SAY_ERROR, "created %s, but cannot read it back: %s", plan->region,
		       ct_context_message(ctx));
		return CT_JOB_FAILED;
	}
	ct_say(&ctx->say, 0, "created %s under %s (through %s)", plan->region, plan->root_decoder, plan->method);
	if (!reg->ndax)
		ct_say(&ctx->say, CT_SAY_WARNING, "%s has no dax device yet (is dax_cxl loaded?)", plan->region);
	return show(ctx, r, reg, NULL);
}

/* planned under the lock (two runs must not pick the same decoders), then
 * shown (dry) or created */
static enum ct_job_end plan_and_create(struct ct_context *ctx, const struct ct_region_create_opts *o,
					  const struct ct_region_req *req, struct ct_region_change_report *r)
{
	struct ct_blocks_opts eo = job_exec_opts(&o->signals, NULL, false, 0);
	struct job_session js = JOB_SESSION_INIT;
	struct ct_region_plan plan;
	enum ct_job_end st;
	struct ct_region pr;
	int rc;

	if ((st = job_session_begin(&js, ctx, &eo, 0, o->dry_run, &r->recovered)))
		return st;
	if ((rc = ct_region_plan_create(ctx, req, &plan))) {
		job_session_end(&js);
		return said(ctx, status_of(rc));
	}
	plan.tell = (struct ct_region_tell){ o->progress.step, o->progress.arg };
	if (!o->dry_run)
		return create(ctx, &js, &plan, r);
	job_session_end(&js);
	pr = planned(&plan);
	ct_say(&ctx->say, 0, "dry run: would create %s under %s: %u way%s x %llu MiB, granularity %u, through %s; "
	       "nothing was changed", pr.name, plan.root_decoder, plan.ways, plan.ways == 1 ? "" : "s",
	       (unsigned long long)(plan.size / plan.ways >> 20), plan.granularity, plan.method);
	return show(ctx, r, &pr, "planned");
}

enum ct_job_end ct_region_change_create(struct ct_context *ctx, const struct ct_region_create_opts *o,
					   struct ct_region_change_report *r)
{
	const char *names[CT_MAX_TARGETS];
	struct ct_region_req req = { names, (size_t)o->n, o->root_decoder, o->ways, o->granularity, o->size };
	enum ct_job_end st;

	*r = (struct ct_region_change_report){ 0 };
	if (o->n > CT_MAX_TARGETS) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%d memdevs: a region interleaves at most %d", o->n, CT_MAX_TARGETS);
		return r->end = CT_JOB_BAD_INPUT;
	}
	if (ct_topology_load(ctx, &r->topology))
		return r->end = said(ctx, CT_JOB_FAILED);
	if (!(st = resolve(ctx, &r->topology, o->memdevs, o->n, names)))
		st = plan_and_create(ctx, o, &req, r);
	return r->end = st;
}

/* ---- destroy ---- */

/* gone already: a killed destroy of it finished, or a killed create of it
 * undone, by this run's recovery */
static bool recovered_away(const struct ct_region_change_report *r, const char *name)
{
	for (size_t i = 0; i < r->recovered.n; i++) {
		const struct ct_region_recovery *v = &r->recovered.v[i];
		if (!strcmp(v->region, name) && (!strcmp(v->outcome, "finished") || !strcmp(v->outcome, "undone")))
			return true;
	}
	return false;
}

/* what a destroy would do, said */
static enum ct_job_end dry_destroy(struct ct_context *ctx, const struct ct_region_teardown *td, bool offline)
{
	unsigned nfree = 0;	/* (a position a destroy cut short emptied has none) */

	if (td->online_blocks && !offline) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s has %u memory blocks online: destroy would refuse without --offline",
		       td->region, td->online_blocks);
		return CT_JOB_FAILED;
	}
	for (unsigned i = 0; i < td->ntargets; i++)
		nfree += td->targets[i][0] != '\0';
	ct_say(&ctx->say, 0, "dry run: would %s%s%sfree %u endpoint decoder%s and delete %s (through %s); nothing was "
	       "changed", td->online_blocks ? "offline its online memory blocks, " : "", td->enabled ? "unbind it, " : "",
	       td->committed ? "reset its decoders, " : "", nfree, nfree == 1 ? "" : "s", td->region, td->method);
	return CT_JOB_DONE;
}

static enum ct_job_end destroy_one(struct ct_context *ctx, const struct ct_region_destroy_opts *o,
				      const struct ct_blocks_opts *eo, const char *name, struct ct_region_change_report *r)
{
	const struct ct_region *reg = ct_topology_region(&r->topology, name);
	struct ct_region_teardown td;
	enum ct_job_end st;
	int rc;

	if (!reg && !o->dry_run && recovered_away(r, name)) {
		struct ct_region gone = named(name);
		ct_say(&ctx->say, 0, "destroyed %s (by finishing or undoing the killed run above)", name);
		return show(ctx, r, &gone, "destroyed");
	}
	if ((rc = ct_region_plan_destroy(ctx, &r->topology, name, &td)))
		return said(ctx, status_of(rc));
	if (o->dry_run)
		return (st = dry_destroy(ctx, &td, o->offline)) ? st : show(ctx, r, reg, NULL);
	td.tell = (struct ct_region_tell){ o->progress.step, o->progress.arg };
	if ((rc = ct_region_destroy(ctx, &r->topology, &td, o->offline ? eo : NULL)))
		return said(ctx, status_of(rc));
	ct_say(&ctx->say, 0, "destroyed %s (through %s)", name, td.method);
	return show(ctx, r, reg, "destroyed");
}

enum ct_job_end ct_region_change_destroy(struct ct_context *ctx, const struct ct_region_destroy_opts *o,
					    struct ct_region_change_report *r)
{
	struct ct_blocks_opts eo = job_exec_opts(&o->signals, &o->progress, true, o->timeout_s);
	struct job_session js = JOB_SESSION_INIT;
	enum ct_job_end st, first = CT_JOB_DONE;
	int failed = 0, done = 0;

	*r = (struct ct_region_change_report){ 0 };
	/* the lock first: no other cxltier changes blocks or regions meanwhile */
	if ((st = job_session_begin(&js, ctx, &eo, o->timeout_s, o->dry_run, &r->recovered)))
		return r->end = st;
	if (ct_topology_load(ctx, &r->topology)) {
		job_session_end(&js);
		return r->end = said(ctx, CT_JOB_FAILED);
	}
	for (int i = 0; i < o->n; i++) {
		st = destroy_one(ctx, o, &eo, o->regions[i], r);
		if (st && !failed)
			first = st;
		st ? failed++ : done++;
	}
	job_session_end(&js);
	return r->end = !failed ? CT_JOB_DONE : done ? CT_JOB_PARTIAL : first;
}

void ct_region_change_report_free(struct ct_region_change_report *r)
{
	ct_topology_free(&r->topology);
	free(r->shown);
	*r = (struct ct_region_change_report){ 0 };
}
