// SPDX-License-Identifier: LGPL-2.1-or-later
/* tiering-set.c - the kernel's tiering switches set under the lock, with a
 * record of the change while it is half done (tiering-set.h) */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "jobs/tiering-set.h"
#include "jobs/job-session.h"
#include "core/context.h"
#include "core/say.h"

/* what a kernel without the switch's file lacks */
static const char *const lacks[CT_TIERING_NSWITCHES] = {
	"no demotion switch (Linux 5.15 and later, with CONFIG_NUMA and CONFIG_MIGRATION)",
	"no NUMA balancing (CONFIG_NUMA_BALANCING)",
	"no promotion rate limit (Linux 6.0 and later, with CONFIG_NUMA_BALANCING)",
};

/* every switch asked for has its file (else said, CT_JOB_UNSUPPORTED),
 * and its value was read (else said, CT_JOB_FAILED: without it a half-done
 * change could not be set back) */
static enum ct_job_end check_files(struct ct_context *ctx, const struct ct_tiering_set_opts *o,
				   const struct ct_tiering_settings *now)
{
	enum ct_job_end st = CT_JOB_DONE;

	for (int w = 0; w < CT_TIERING_NSWITCHES; w++) {
		if (o->want[w] < 0)
			continue;
		if (!ct_sysfs_exists(&ctx->sys, ct_tiering_path(w))) {
			ct_say(&ctx->say, CT_SAY_ERROR, "--%s: %s%s is not there: this kernel has %s", ct_tiering_name(w),
			       ctx->sys.root, ct_tiering_path(w), lacks[w]);
			st = CT_JOB_UNSUPPORTED;
		} else if (ct_tiering_value(now, w) < 0 && st == CT_JOB_DONE) {
			ct_say(&ctx->say, CT_SAY_ERROR, "--%s: %s%s cannot be read as the kernel writes it: nothing was "
			       "changed", ct_tiering_name(w), ctx->sys.root, ct_tiering_path(w));
			st = CT_JOB_FAILED;
		}
	}
	return st;
}

/* the steps from the settings read now; the number that change */
static size_t plan(const struct ct_tiering_set_opts *o, struct ct_tiering_set_report *r)
{
	size_t changing = 0;

	r->nsteps = 0;
	for (int w = 0; w < CT_TIERING_NSWITCHES; w++) {
		struct ct_tiering_step *s = &r->steps[r->nsteps];

		if (o->want[w] < 0)
			continue;
		*s = (struct ct_tiering_step){ .sw = w, .from = ct_tiering_value(&r->before, w), .to = o->want[w] };
		s->result = s->from == s->to ? "unchanged" : o->dry_run ? "planned" : "not reached";
		changing += s->from != s->to;
		r->nsteps++;
	}
	return changing;
}

/* the changing steps written as one change; the end */
static enum ct_job_end write_steps(struct ct_context *ctx, struct ct_tiering_set_report *r)
{
	if (ct_tiering_change_apply(ctx, r->steps, r->nsteps)) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		return CT_JOB_FAILED;
	}
	return CT_JOB_DONE;
}

/* what a dry run would write, said */
static void say_planned(struct ct_context *ctx, const struct ct_tiering_set_report *r)
{
	for (size_t i = 0; i < r->nsteps; i++) {
		const struct ct_tiering_step *s = &r->steps[i];
		if (s->from != s->to)
			ct_say(&ctx->say, 0, "would write %lld to %s%s (now %lld)", (long long)s->to, ctx->sys.root,
			       ct_tiering_path(s->sw), (long long)s->from);
	}
	ct_say(&ctx->say, 0, "dry run: nothing was changed");
}

enum ct_job_end ct_tiering_set(struct ct_context *ctx, const struct ct_tiering_set_opts *o,
			       struct ct_tiering_set_report *r)
{
	struct job_session js = JOB_SESSION_INIT;
	struct ct_blocks_opts eo = job_exec_opts(&o->signals, NULL, false, o->timeout_s);

	memset(r, 0, sizeof(*r));
	ct_tiering_settings_read(&ctx->sys, &r->before);
	r->after = r->before;
	plan(o, r);
	if ((r->end = check_files(ctx, o, &r->before)))
		return r->end;
	if (o->dry_run) {
		say_planned(ctx, r);
		return r->end = CT_JOB_DONE;
	}
	if (geteuid() != 0) {
		ct_say(&ctx->say, CT_SAY_ERROR, "permission denied: the kernel's tiering switches are root's (and "
		       "numa_balancing needs CAP_SYS_ADMIN); run it as root, or see what it would do with --dry-run");
		return r->end = CT_JOB_FAILED;
	}
	if ((r->end = job_session_begin(&js, ctx, &eo, o->timeout_s, false, &r->recovered)))
		return r->end;
	/* read again: a killed run's half-done change was set back meanwhile */
	ct_tiering_settings_read(&ctx->sys, &r->before);
	if (!(r->end = check_files(ctx, o, &r->before)))
		r->end = plan(o, r) ? write_steps(ctx, r) : CT_JOB_DONE;
	ct_tiering_settings_read(&ctx->sys, &r->after);
	job_session_end(&js);
	return r->end;
}
