// SPDX-License-Identifier: LGPL-2.1-or-later
/* job-session.c - a job's hold of the memory blocks and regions, with what
 * it says (job-session.h) */
#include <string.h>
#include "jobs/job-session.h"
#include "core/context.h"
#include "core/kernel.h"
#include "core/say.h"

struct ct_blocks_opts job_exec_opts(const struct ct_job_signals *sig, const struct ct_job_progress *pr, bool rollback,
				    unsigned timeout_s)
{
	return (struct ct_blocks_opts){ .rollback = rollback, .block_timeout_ms = timeout_s * 1000,
					.stop = sig->stop, .timed_out = sig->timed_out, .arm_timer = sig->arm_timer,
					.on_block = pr ? pr->block : NULL, .on_block_arg = pr ? pr->arg : NULL };
}

/* what the session found of a run killed while it held the kernel's own
 * onlining off, said */
static void say_recovery(struct ct_context *ctx, const struct ct_blocks_session *s)
{
	switch (s->recovery) {
	case CT_BLOCKS_RECOVERY_FAILED:
		ct_say(&ctx->say, CT_SAY_WARNING, "%s", s->recovery_error);
		break;
	case CT_BLOCKS_RECOVERY_RESTORED:
		ct_say(&ctx->say, CT_SAY_WARNING, "an earlier cxltier was killed while it held the kernel's own "
		       "onlining off: auto_online_blocks set back to %s", s->restored);
		break;
	case CT_BLOCKS_RECOVERY_LEFT:
		ct_say(&ctx->say, 1, "an earlier cxltier was killed while it held the kernel's own onlining off; "
		       "auto_online_blocks has been set since: left as it is");
		break;
	case CT_BLOCKS_RECOVERY_NONE:
		break;
	}
}

/* the region creates and destroys killed runs left, and what this run did
 * of them (the one that failed is said by the error that follows) */
static void say_regions(struct ct_context *ctx, const struct ct_blocks_session *s)
{
	for (size_t i = 0; i < s->nregions; i++) {
		const struct ct_region_recovery *r = &s->regions[i];
		if (r->failed)
			continue;
		if (!strcmp(r->command, "tiering")) {
			ct_say(&ctx->say, CT_SAY_WARNING, "a change of the tiering switches (pid %d) was killed midway: "
			       "%s: %s", r->pid, r->outcome, r->done);
			continue;
		}
		if (r->block[0]) {
			ct_say(&ctx->say, CT_SAY_WARNING, "a --reonline (pid %d, %s) was killed midway: %s: %s", r->pid,
			       r->block, r->outcome, r->done);
			continue;
		}
		ct_say(&ctx->say, CT_SAY_WARNING, "a region %s (pid %d%s%s%s%s) was killed midway: %s: %s", r->command,
		       r->pid, r->region[0] ? ", " : "", r->region, r->decoders[0] ? ", decoders " : "", r->decoders,
		       r->outcome, r->done);
	}
}

enum ct_job_end job_session_begin(struct job_session *js, struct ct_context *ctx, const struct ct_blocks_opts *eo,
				     unsigned timeout_s, bool dry_run, struct ct_job_recovered *rec)
{
	int rc;

	js->ctx = ctx;
	rc = ct_blocks_session_begin(&js->s, ctx, eo, timeout_s * 1000, dry_run);
	rec->n = js->s.nregions;
	memcpy(rec->v, js->s.regions, rec->n * sizeof(rec->v[0]));
	if (rc) {
		say_regions(ctx, &js->s);
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		return CT_JOB_FAILED;
	}
	say_recovery(ctx, &js->s);
	say_regions(ctx, &js->s);
	return CT_JOB_DONE;
}

enum ct_job_end job_session_begin_load(struct job_session *js, struct ct_context *ctx, const struct ct_blocks_opts *eo,
					  unsigned timeout_s, bool dry_run, struct ct_job_recovered *rec,
					  char *const *targets, int n, bool full, struct ct_topology *t)
{
	enum ct_job_end st;
	int has;

	js->ctx = ctx;
	job_session_phase(js, "start");
	if ((has = ct_kernel_has_memory_hotplug(ctx)) < 0) {	/* not absent: unseen */
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		return CT_JOB_FAILED;
	}
	if (!has) {
		ct_say(&ctx->say, CT_SAY_ERROR, "this kernel has no memory hotplug (no memory blocks in sysfs: "
		       "CONFIG_MEMORY_HOTPLUG)");
		return CT_JOB_UNSUPPORTED;
	}
	if ((st = job_session_begin(js, ctx, eo, timeout_s, dry_run, rec)))
		return st;
	job_session_phase(js, "lock");
	if ((st = job_session_load(js, targets, n, full, t)))
		job_session_end(js);
	job_session_phase(js, "topology");
	return st;
}

enum ct_job_end job_session_load(struct job_session *js, char *const *targets, int n, bool full,
				    struct ct_topology *t)
{
	if (ct_blocks_session_load(&js->s, targets, n, full, t)) {
		ct_say(&js->ctx->say, CT_SAY_ERROR, "%s", ct_context_message(js->ctx));
		return CT_JOB_FAILED;
	}
	return CT_JOB_DONE;
}

void job_session_end(struct job_session *js)
{
	ct_blocks_session_end(&js->s);
}

void job_session_phase(struct job_session *js, const char *what)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (js->phase.tv_sec)
		ct_say(&js->ctx->say, 2, "%s: %.2f ms", what,
		       (now.tv_sec - js->phase.tv_sec) * 1e3 + (now.tv_nsec - js->phase.tv_nsec) / 1e6);
	js->phase = now;
}

void job_warn_auto_online(struct ct_context *ctx)
{
	struct ct_auto_online a;

	ct_kernel_auto_online(ctx, &a);
	if (a.known && a.onlines && !a.movable)
		ct_say(&ctx->say, CT_SAY_WARNING, "the kernel onlines hot-added memory itself (auto_online_blocks=%s): "
		       "new CXL memory can land in ZONE_NORMAL before cxltier runs and then never be removable; set it "
		       "to offline (memhp_default_state=offline on the kernel command line)", a.blocks);
	if (a.movable_node)
		ct_say(&ctx->say, 1, "movable_node is on the kernel command line");
}
