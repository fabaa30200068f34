// SPDX-License-Identifier: LGPL-2.1-or-later
/* blocks-run.c - the end of a change of memory blocks: carried out,
 * said, tallied, judged (blocks-run.h) */
#include "jobs/blocks-run.h"
#include "jobs/blocks-scope.h"
#include "core/context.h"
#include "core/say.h"
#include "mm/memblock.h"

/* "memory34 (dax0.0): WHAT: note"; the note's colon always when colon */
static void say_block(struct ct_context *ctx, const struct ct_block_op *op, const char *what, bool colon)
{
	const char *note = ct_blocks_note_of(op);

	ct_say(&ctx->say, CT_SAY_ERROR, "memory%llu%s%s%s: %s%s%s", (unsigned long long)op->before.id,
	       op->owner[0] ? " (" : "", op->owner, op->owner[0] ? ")" : "", what, colon || note[0] ? ": " : "", note);
}

/* each block counted; each that did not go as asked said */
static void tally(struct ct_context *ctx, struct ct_blocks_change_report *r, uint64_t bs)
{
	for (size_t i = 0; i < r->plan.n; i++) {
		const struct ct_block_op *op = &r->plan.op[i];
		r->would_change += op->action != CT_ACT_NONE && op->action != CT_ACT_REFUSE;
		switch (op->result) {
		case CT_RES_DONE: r->done++; r->changed_bytes += bs; break;
		case CT_RES_UNCHANGED: r->unchanged++; break;
		case CT_RES_PLANNED:
			if (op->action != CT_ACT_REFUSE)
				break;
			r->failed++;
			say_block(ctx, op, "refused", true);
			break;
		case CT_RES_ROLLED_BACK: r->rolled_back++; break;
		case CT_RES_ROLLBACK_FAILED:
			r->rollback_failed++;	/* changed, and stays so */
			r->changed_bytes += bs;
			say_block(ctx, op, "rollback_failed", true);
			break;
		case CT_RES_HALF_DONE:
			r->half_done++;	/* not as asked, and not as before either */
			r->failed++;
			say_block(ctx, op, "half_done", true);
			break;
		default:
			r->failed++;
			say_block(ctx, op, ct_blocks_result_name(op->result), false);
		}
	}
}

/* what a dry run would end as: the status the real run would have */
static enum ct_job_end dry_status(const struct ct_blocks_change_report *r, const struct blocks_before *b)
{
	size_t change = r->would_change;

	if (b->regions_failed)
		return change || r->plan.n ? CT_JOB_PARTIAL : CT_JOB_FAILED;
	if (b->targets_failed)
		return change ? CT_JOB_PARTIAL : CT_JOB_FAILED;
	return !r->failed ? CT_JOB_DONE : change ? CT_JOB_PARTIAL : CT_JOB_FAILED;
}

static enum ct_job_end run_status(const struct ct_blocks_change_report *r, const struct blocks_before *b)
{
	size_t done = r->done, stuck = r->rollback_failed, half = r->half_done;

	if (b->regions_failed)	/* named before the blocks */
		return done || r->unchanged || stuck || half || b->regions_made ? CT_JOB_PARTIAL : CT_JOB_FAILED;
	if (b->targets_failed)	/* named before the blocks */
		return done || stuck || half ? CT_JOB_PARTIAL : CT_JOB_FAILED;
	if (!r->failed)
		return CT_JOB_DONE;
	if (stuck || half)
		return CT_JOB_PARTIAL;	/* the rollback left some changed, or a reonline half done */
	if (r->rolled_back)
		return CT_JOB_FAILED;	/* nothing changed in the end */
	return done || b->regions_made ? CT_JOB_PARTIAL : CT_JOB_FAILED;
}

void blocks_run_finish(struct job_session *js, struct ct_topology *t, char *const *targets, int n, bool reonline,
		       const struct blocks_before *b, struct ct_blocks_change_report *r)
{
	struct ct_context *ctx = js->ctx;
	uint64_t bs = 0;

	job_session_phase(js, "plan (blocks read)");
	ct_blocks_session_run(&js->s, &r->plan, r->want, reonline);	/* the lock released */
	job_session_end(js);
	job_session_phase(js, "execute (blocks written, read back)");
	ct_block_size_cached(ctx, &bs);
	ct_error_clear(&ctx->err);
	r->block_size = bs;
	tally(ctx, r, bs);
	blocks_scope_touched(ctx, t, targets, n, &r->plan, r->want, &r->memdevs);
	r->stopped = js->s.exec.stop && *js->s.exec.stop;
	r->end = r->dry_run ? dry_status(r, b) : run_status(r, b);
	r->shown = true;
	r->phase = js->phase;
}
