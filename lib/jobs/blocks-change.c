// SPDX-License-Identifier: LGPL-2.1-or-later
/* blocks-change.c - the memory blocks of targets onlined or offlined
 * (blocks-change.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "jobs/blocks-change.h"
#include "jobs/blocks-run.h"
#include "jobs/blocks-scope.h"
#include "jobs/job-session.h"
#include "change/dax-convert.h"
#include "core/context.h"
#include "core/say.h"

/* --convert: devdax to system-ram */
static enum ct_job_end convert_to_ram(struct ct_context *ctx, const char *name, bool force)
{
	struct ct_dax_convert_result res;
	int rc;

	if (!ctx->live) {
		ct_say(&ctx->say, CT_SAY_ERROR, "--convert works on the live system only (not with --sysroot)");
		return CT_JOB_BAD_INPUT;
	}
	rc = ct_dax_convert_to_ram(ctx, name, force, &res);
	if (res.loaded_kmem)
		ct_say(&ctx->say, 0, "loaded the kmem module");
	if (rc == -EBUSY && res.auto_online[0] && !res.paused) {
		ct_say(&ctx->say, CT_SAY_ERROR, "auto_online_blocks is '%s': converting %s would let the kernel online "
		       "its memory into ZONE_NORMAL first; add --force to switch auto-onlining off for the conversion",
		       res.auto_online, name);
		return CT_JOB_FAILED;
	}
	if (rc) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		return CT_JOB_FAILED;
	}
	if (res.paused)
		ct_say(&ctx->say, 0, "the kernel's own onlining (auto_online_blocks=%s) held off while %s switched, then "
		       "set back", res.auto_online, name);
	ct_say(&ctx->say, 0, "%s is now in system-ram mode (kmem%s)", name,
	       res.bound_by_kmem ? " took it as it loaded" : "");
	return CT_JOB_DONE;
}

/* the context's message said, the next target taken */
static void skip_target(struct ct_context *ctx, struct blocks_before *b)
{
	ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
	ct_error_clear(&ctx->err);
	b->targets_failed = true;
}

/* a target's dax device in devdax mode switched (a dry run says it would
 * be), the topology read again; 1: plan the target again */
static int convert_target(struct ct_context *ctx, struct job_session *js, const struct ct_blocks_change_opts *o,
			  const struct ct_dax *devdax, struct ct_topology *t, struct blocks_before *b,
			  enum ct_job_end *st)
{
	char name[CT_NAME];

	ct_error_clear(&ctx->err);
	if (o->dry_run) {	/* its blocks do not exist before */
		ct_say(&ctx->say, 0, "dry run: %s would be switched to system-ram mode (kmem), then its blocks onlined",
		       devdax->name);
		return 0;
	}
	ct_strlcpy(name, devdax->name, sizeof(name));
	if ((*st = convert_to_ram(ctx, name, o->force))) {
		b->targets_failed = *st != CT_JOB_BAD_INPUT;	/* named; the other targets go on */
		*st = *st == CT_JOB_BAD_INPUT ? *st : CT_JOB_DONE;
		return 0;
	}
	/* the same view as before (memdevs too): the target is found again */
	ct_topology_free(t);
	return (*st = job_session_load(js, o->targets, o->ntargets, false, t)) ? 0 : 1;
}

/* each target's blocks into the plan, online */
static enum ct_job_end plan_online(struct ct_context *ctx, struct job_session *js,
				      const struct ct_blocks_change_opts *o, struct ct_topology *t,
				      struct ct_blocks_plan *plan, struct blocks_before *b)
{
	enum ct_job_end st = CT_JOB_DONE;
	int converted = 0;

	for (int i = 0; i < o->ntargets; i++) {
		const char *target = o->targets[i];
		const struct ct_dax *devdax = NULL;
		int rc = ct_blocks_plan_add_target(&ctx->sys, t, plan, target, &devdax);

		if (rc == -EMEDIUMTYPE && o->convert && devdax) {
			if (convert_target(ctx, js, o, devdax, t, b, &st) == 1) {
				converted++;
				i--;	/* again, now in system-ram mode */
			}
			if (st)
				return st;
		} else if (rc == -EMEDIUMTYPE && strncmp(target, "dax", 3)) {
			/* a region or memdev: the blocks of its system-ram dax
			 * devices are planned all the same */
			skip_target(ctx, b);
		} else if (rc && converted) {
			/* a device was switched already: its blocks are
			 * onlined all the same, this target named */
			skip_target(ctx, b);
		} else if (rc) {
			ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
			return rc == -EINVAL ? CT_JOB_BAD_INPUT : CT_JOB_FAILED;
		}
	}
	return CT_JOB_DONE;
}

/* each target's blocks into the plan, offline */
static enum ct_job_end plan_offline(struct ct_context *ctx, const struct ct_blocks_change_opts *o,
				       const struct ct_topology *t, struct ct_blocks_plan *plan)
{
	for (int i = 0; i < o->ntargets; i++) {
		const struct ct_dax *devdax = NULL;
		int rc = ct_blocks_plan_add_target(&ctx->sys, t, plan, o->targets[i], &devdax);

		if (rc == -EMEDIUMTYPE && devdax && strncmp(o->targets[i], "dax", 3)) {
			/* a region or memdev: its system-ram dax devices are planned */
			ct_say(&ctx->say, 0, "%s is in %s mode: none of its memory is hot-plugged, nothing of it to offline",
			       devdax->name, devdax->mode);
			ct_error_clear(&ctx->err);
			continue;
		}
		if (rc) {
			ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
			return rc == -EINVAL ? CT_JOB_BAD_INPUT : CT_JOB_FAILED;
		}
	}
	return CT_JOB_DONE;
}

enum ct_job_end ct_blocks_change(struct ct_context *ctx, const struct ct_blocks_change_opts *o,
				    struct ct_blocks_change_report *r)
{
	struct ct_blocks_opts eo = job_exec_opts(&o->signals, &o->progress, o->rollback, o->timeout_s);
	struct job_session js = JOB_SESSION_INIT;
	struct blocks_before b = { 0 };
	bool online = o->want != CT_WANT_OFFLINE;
	enum ct_job_end st;

	*r = (struct ct_blocks_change_report){ .dry_run = o->dry_run, .want = o->want };
	r->plan.all_zones = o->dry_run;	/* a dry run shows every block's zones */
	st = job_session_begin_load(&js, ctx, &eo, o->timeout_s, o->dry_run, &r->recovered, o->targets, o->ntargets,
				    false, &r->topology);
	if (!st && online)
		job_warn_auto_online(ctx);
	if (!st)
		st = blocks_scope_refuse(ctx, &r->topology, o->targets, o->ntargets, o->whole_region, o->want);
	if (!st)
		st = online ? plan_online(ctx, &js, o, &r->topology, &r->plan, &b)
			    : plan_offline(ctx, o, &r->topology, &r->plan);
	if (!st)
		blocks_run_finish(&js, &r->topology, o->targets, o->ntargets, o->reonline, &b, r);
	else
		r->end = st;
	job_session_end(&js);
	return r->end;
}

void ct_blocks_change_report_free(struct ct_blocks_change_report *r)
{
	ct_blocks_plan_free(&r->plan);
	ct_topology_free(&r->topology);
	ct_interleave_touched_free(&r->memdevs);
	free(r->new_regions);
	r->new_regions = NULL;
	r->nnew_regions = 0;
}
