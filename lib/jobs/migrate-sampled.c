// SPDX-License-Identifier: LGPL-2.1-or-later
/* migrate-sampled.c - processes watched with DAMON, then their hot or cold
 * pages moved (migrate-sampled.h) */
#include <errno.h>
#include <stdlib.h>
#include "core/say.h"
#include "jobs/migrate-sampled.h"

static void add_totals(struct ct_migrate_totals *sum, const struct ct_migrate_totals *t)
{
	sum->jobs = t->jobs > sum->jobs ? t->jobs : sum->jobs;
	sum->seconds += t->seconds;
	sum->scan_seconds += t->scan_seconds;
	sum->move_seconds += t->move_seconds;
	sum->bytes_moved += t->bytes_moved;
	sum->bytes_to_move += t->bytes_to_move;
}

/* watch the task's process; 0, or -errno (watched: whether DAMON was asked) */
static int watch(struct ct_context *ctx, const struct ct_migrate_opts *o, unsigned interval_ms,
		 struct ct_migrate_task *t, struct ct_migrate_sample *s, bool *watched)
{
	struct ct_damon_run run = { 0 };
	int rc = ct_process_check(&ctx->sys, t->proc);

	*watched = false;
	if (!rc)
		rc = ct_process_movable(&ctx->sys, t->proc);
	if (!rc) {
		*watched = true;
		rc = ct_damon_sample(&ctx->sys, t->proc->pid, interval_ms, o->stop, &s->reg, &s->nreg, &run);
	}
	if (run.stale_owner)
		ct_say(&ctx->say, CT_SAY_WARNING, "removed the DAMON setup that a killed cxltier (pid %d) left behind",
		       run.stale_owner);
	if (run.stat_paused)
		ct_say(&ctx->say, 1, "DAMON_STAT paused for %u ms (it holds DAMON exclusively), then on again",
		       interval_ms);
	return rc;
}

/* a process not watched (gone, refused, or DAMON failed for it): nothing of
 * it moves, its error is its record */
static void unwatched(struct ct_context *ctx, const struct ct_migrate_opts *o, struct ct_migrate_task *t, int rc,
		      struct ct_migrate_totals *sum)
{
	struct ct_migrate_totals one;
	char why[sizeof(t->r.error)];

	ct_strlcpy(why, ct_context_message(ctx), sizeof(why));
	ct_error_clear(&ctx->err);
	t->sel.on = true;
	if (!ct_migrate_run(&ctx->sys, o, t, 1, &one))
		add_totals(sum, &one);
	if (!t->r.err) {
		t->r.err = rc;
		ct_strlcpy(t->r.error, why, sizeof(t->r.error));
	}
}

int ct_migrate_sampled(struct ct_context *ctx, const struct ct_migrate_opts *o, bool hot, unsigned interval_ms,
		       struct ct_migrate_task *t, size_t n, struct ct_migrate_sample *samples,
		       struct ct_migrate_totals *tot)
{
	struct ct_migrate_opts one_by_one = *o;

	one_by_one.on_process = NULL;	/* each process told here, of all */
	for (size_t i = 0; i < n && !(o->stop && *o->stop); i++) {
		struct ct_migrate_sample *s = &samples[i];
		struct ct_migrate_totals one;
		bool watched;
		int rc = watch(ctx, o, interval_ms, &t[i], s, &watched);

		if (watched && (rc == -EOPNOTSUPP || rc == -EBUSY || rc == -EWOULDBLOCK || rc == -EPERM))
			return rc;	/* DAMON itself: no process could be watched */
		if (!rc && ct_migrate_select_access(&t[i].sel, s->reg, s->nreg, hot))
			return ct_fail(&ctx->err, ENOMEM, "out of memory");
		if (rc) {
			unwatched(ctx, &one_by_one, &t[i], rc, tot);
			if (o->on_process)
				o->on_process(o->on_process_arg, i + 1, n);
			continue;
		}
		s->chosen = true;
		if ((rc = ct_migrate_run(&ctx->sys, &one_by_one, &t[i], 1, &one)))
			return rc;
		add_totals(tot, &one);
		if (o->on_process)
			o->on_process(o->on_process_arg, i + 1, n);
	}
	return 0;
}

void ct_migrate_sampled_free(struct ct_migrate_sample *samples, size_t n)
{
	for (size_t i = 0; samples && i < n; i++)
		free(samples[i].reg);
}
