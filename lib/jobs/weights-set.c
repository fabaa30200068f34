// SPDX-License-Identifier: LGPL-2.1-or-later
/* weights-set.c - the weighted-interleave weights set under the lock, with
 * a record that lets the next run put back what a killed one left half
 * written (weights-set.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lock.h"
#include "core/say.h"
#include "jobs/weights-set.h"
#include "views/tier-model.h"

static enum ct_job_end said(struct ct_context *ctx, enum ct_job_end end)
{
	ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
	ct_error_clear(&ctx->err);
	return end;
}

static int write_weight(struct ct_context *ctx, int node, unsigned w)
{
	char path[96], val[8];

	snprintf(path, sizeof(path), CT_WI_DIR "/node%d", node);
	snprintf(val, sizeof(val), "%u", w);
	return ct_sysfs_write_str(&ctx->sys, path, val);
}

/* a dead run's record: the kernel holds its new set whole (said, nothing
 * to do), else the old set is written back (auto on again when it was) */
static int recover_one(struct ct_context *ctx, const struct ct_weights_record *rec, struct ct_weights_set_report *r)
{
	struct ct_wi_state now;
	bool whole;
	int rc;

	if ((rc = ct_wi_read(&ctx->sys, &now)))
		return rc;
	whole = !rec->has_auto || now.auto_on == rec->auto_new;
	for (unsigned i = 0; i < rec->n && whole; i++)
		whole = ct_wi_weight(&now, rec->v[i].node) == rec->v[i].new;
	r->recovered++;
	r->recovered_whole = whole;
	r->recovered_pid = rec->owner.pid;
	if (whole) {
		ct_say(&ctx->say, 0, "a weights change killed before its end (pid %d) had written its whole new set: "
		       "the kernel holds it", rec->owner.pid);
	} else if (rec->has_auto && rec->auto_old) {
		rc = ct_sysfs_write_str(&ctx->sys, CT_WI_DIR "/auto", "true");
		ct_say(&ctx->say, 0, "a weights change killed between two writes (pid %d): auto mode put back, the old set",
		       rec->owner.pid);
	} else {
		for (unsigned i = 0; i < rec->n && !rc; i++)
			if (ct_wi_weight(&now, rec->v[i].node) && ct_wi_weight(&now, rec->v[i].node) != rec->v[i].old)
				rc = write_weight(ctx, rec->v[i].node, rec->v[i].old);
		if (!rc)
			ct_say(&ctx->say, 0, "a weights change killed between two writes (pid %d): its old set put back",
			       rec->owner.pid);
	}
	ct_wi_free(&now);
	return rc;
}

/* the records dead runs left, each recovered then removed */
static int recover(struct ct_context *ctx, struct ct_weights_set_report *r)
{
	struct ct_weights_found *v;
	size_t n;
	int rc;

	if ((rc = ct_weights_record_list(ctx, &v, &n)))
		return rc;
	for (size_t i = 0; i < n && !rc; i++) {
		if (v[i].state == CT_OWNER_RUNS)
			continue;	/* cannot be: every writer holds the lock */
		rc = recover_one(ctx, &v[i].rec, r);
		if (!rc)
			rc = ct_weights_record_remove(ctx, v[i].rec.file);
	}
	free(v);
	return rc;
}

/* the weight each node of the kernel's gets: r->v[].new */
static enum ct_job_end plan(struct ct_context *ctx, const struct ct_weights_set_opts *o, const struct ct_wi_state *st,
			    struct ct_weights_set_report *r)
{
	struct ct_tier_model m;

	r->v = calloc(st->n ? st->n : 1, sizeof(*r->v));
	if (!r->v)
		return ct_fail(&ctx->err, ENOMEM, "out of memory"), said(ctx, CT_JOB_FAILED);
	r->n = st->n;
	for (unsigned i = 0; i < st->n; i++)
		r->v[i] = (struct ct_weights_set_node){ st->nodes[i].node, st->nodes[i].weight, st->nodes[i].weight, false };
	for (unsigned g = 0; o->how == CT_WEIGHTS_GIVEN && g < o->ngiven; g++) {
		unsigned i = 0;

		while (i < r->n && r->v[i].node != o->given[g].node)
			i++;
		if (i == r->n) {
			ct_say(&ctx->say, CT_SAY_ERROR, "node%d: the kernel has no weight for it (no %s/node%d: "
			       "a node without memory, or none such)", o->given[g].node, CT_WI_DIR, o->given[g].node);
			return CT_JOB_BAD_INPUT;
		}
		if (o->given[g].new < 1 || o->given[g].new > CT_WI_WEIGHT_MAX) {
			ct_say(&ctx->say, CT_SAY_ERROR, "node%d: a weight is 1 to 255, not %u", o->given[g].node,
			       o->given[g].new);
			return CT_JOB_BAD_INPUT;
		}
		r->v[i].new = o->given[g].new;
	}
	if (o->how != CT_WEIGHTS_COMPUTED)
		return CT_JOB_DONE;
	if (ct_tier_model_load(ctx, -1, &m))
		return said(ctx, CT_JOB_FAILED);
	for (size_t k = 0; k < m.count; k++)
		for (unsigned i = 0; i < r->n; i++)
			if (r->v[i].node == m.nodes[k].node->id)
				r->v[i].new = m.nodes[k].wi->weight;
	ct_tier_model_free(&m);
	return CT_JOB_DONE;
}

/* the written ones back to their old weights, last first: 0 when all went */
static int undo(struct ct_context *ctx, struct ct_weights_set_report *r)
{
	int rc = 0;

	for (unsigned i = r->n; i-- > 0;)
		if (r->v[i].written && write_weight(ctx, r->v[i].node, r->v[i].old))
			rc = -1;
	return rc;
}

/* the nodes whose weight changes, recorded first, then written one by one;
 * in auto mode every node, so that the set holds (written weights turn the
 * kernel's auto mode off: it would recompute them when a node comes or goes) */
static enum ct_job_end write_set(struct ct_context *ctx, struct ct_weights_set_report *r)
{
	struct ct_weights_record *rec = calloc(1, sizeof(*rec));
	bool keep = false;
	int rc = 0;

	if (!rec)
		return ct_fail(&ctx->err, ENOMEM, "out of memory"), said(ctx, CT_JOB_FAILED);
	rec->has_auto = r->has_auto;
	rec->auto_old = r->auto_old;
	rec->auto_new = r->auto_new;
	for (unsigned i = 0; i < r->n; i++)
		if (r->v[i].new != r->v[i].old || r->auto_old)
			rec->v[rec->n++] = (struct ct_weights_change){ r->v[i].node, r->v[i].old, r->v[i].new };
	if (ct_weights_record_begin(ctx, rec)) {
		free(rec);
		return said(ctx, CT_JOB_FAILED);
	}
	for (unsigned i = 0; i < r->n && !rc; i++) {
		if (r->v[i].new == r->v[i].old && !r->auto_old)
			continue;
		if (!(rc = write_weight(ctx, r->v[i].node, r->v[i].new))) {
			r->v[i].written = true;
			r->writes++;
		}
	}
	if (rc) {
		ct_say(&ctx->say, CT_SAY_ERROR, "%s", ct_context_message(ctx));
		ct_error_clear(&ctx->err);
		keep = undo(ctx, r) != 0;
		ct_say(&ctx->say, CT_SAY_ERROR, keep ? "the weights written could not all be put back: the next "
		       "'cxltier weights --set' puts the old set back" : "the weights written were put back: the old set");
	}
	ct_weights_record_end(rec, keep);
	free(rec);
	return rc ? CT_JOB_FAILED : CT_JOB_DONE;
}

/* --auto: the kernel's own weights from bandwidth; then its weights read */
static enum ct_job_end set_auto(struct ct_context *ctx, const struct ct_weights_set_opts *o,
				struct ct_weights_set_report *r)
{
	struct ct_wi_state now;
	int rc = ct_sysfs_write_str(&ctx->sys, CT_WI_DIR "/auto", "true");

	if (rc == -ENODEV) {
		ct_error_clear(&ctx->err);
		ct_say(&ctx->say, CT_SAY_ERROR, "%s/auto: the kernel has no bandwidth figures for any node "
		       "(HMAT or CDAT): it cannot derive weights; set them with --set", CT_WI_DIR);
		return CT_JOB_UNSUPPORTED;
	}
	if (rc)
		return said(ctx, CT_JOB_FAILED);
	(void)o;
	r->writes++;
	if (ct_wi_read(&ctx->sys, &now))
		return said(ctx, CT_JOB_FAILED);
	for (unsigned i = 0; i < r->n; i++)
		r->v[i].new = ct_wi_weight(&now, r->v[i].node);
	ct_wi_free(&now);
	return CT_JOB_DONE;
}

/* under the lock: what dead runs left, then the state again */
static enum ct_job_end begin(struct ct_context *ctx, const struct ct_weights_set_opts *o, int *lockfd,
			     struct ct_wi_state *st, struct ct_weights_set_report *r)
{
	if (!o->lock_held && ct_lock_acquire(&ctx->sys, o->timeout_s * 1000, o->stop, lockfd))
		return said(ctx, CT_JOB_FAILED);
	if (recover(ctx, r))
		return said(ctx, CT_JOB_FAILED);
	ct_wi_free(st);
	if (ct_wi_read(&ctx->sys, st))
		return said(ctx, CT_JOB_FAILED);
	r->auto_old = r->auto_new = st->auto_on;
	return CT_JOB_DONE;
}

static enum ct_job_end run(struct ct_context *ctx, const struct ct_weights_set_opts *o, int *lockfd,
			   struct ct_wi_state *st, struct ct_weights_set_report *r)
{
	enum ct_job_end end;
	unsigned changes = 0;

	if (o->how == CT_WEIGHTS_AUTO && !st->has_auto) {
		ct_say(&ctx->say, CT_SAY_ERROR, "this kernel has no auto mode for weighted interleave (no %s/auto: "
		       "Linux 6.16 or later has it); set the weights with --set", CT_WI_DIR);
		return CT_JOB_UNSUPPORTED;
	}
	if (!o->dry_run && (end = begin(ctx, o, lockfd, st, r)) != CT_JOB_DONE)
		return end;
	if ((end = plan(ctx, o, st, r)) != CT_JOB_DONE)
		return end;
	if (o->how == CT_WEIGHTS_AUTO) {
		r->auto_new = true;
		return o->dry_run || r->auto_old ? CT_JOB_DONE : set_auto(ctx, o, r);
	}
	for (unsigned i = 0; i < r->n; i++)
		changes += r->v[i].new != r->v[i].old;
	if (!changes && !r->auto_old)
		return CT_JOB_DONE;
	r->auto_turned_off = r->auto_old;
	r->auto_new = false;
	return o->dry_run ? CT_JOB_DONE : write_set(ctx, r);
}

enum ct_job_end ct_weights_set(struct ct_context *ctx, const struct ct_weights_set_opts *o,
			       struct ct_weights_set_report *r)
{
	struct ct_wi_state st;
	int lockfd = -1, rc;

	memset(r, 0, sizeof(*r));
	rc = ct_wi_read(&ctx->sys, &st);
	if (rc)
		return r->end = said(ctx, rc == -EOPNOTSUPP ? CT_JOB_UNSUPPORTED : CT_JOB_FAILED);
	r->has_auto = st.has_auto;
	r->auto_old = r->auto_new = st.auto_on;
	r->end = run(ctx, o, &lockfd, &st, r);
	if (lockfd >= 0)
		ct_lock_release(lockfd);
	ct_wi_free(&st);
	return r->end;
}

void ct_weights_set_report_free(struct ct_weights_set_report *r)
{
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
