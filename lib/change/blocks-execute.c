// SPDX-License-Identifier: LGPL-2.1-or-later
/* blocks-execute.c - a plan of memory blocks carried out (blocks.h): each
 * block's state written, EBUSY retried until its time is up, a write the
 * kernel blocks in ended by the caller's timer, races with other writers
 * told apart from failures, a --reonline's two halves, the rollback */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "change/blocks.h"
#include "change/blocks-zone.h"
#include "change/change-record.h"

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);	/* a signal ends it early: the caller checks stop */
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static const char *reason(int err)
{
	switch (err) {
	case EBUSY: return "busy: unmovable or pinned pages (or the range could not be isolated)";
	case EINTR: return "interrupted by a signal";
	case ETIMEDOUT: return "still busy when its time ran out (--timeout): pages that cannot migrate (pinned, under I/O, or unmovable)";
	case EINVAL: return "invalid: the block is already in that state, spans zones, or the zone is not allowed";
	case ENOMEM: return "out of memory";
	case EPERM: case EACCES: return "permission denied: run as root";
	case EAGAIN: return "try again";
	default: return strerror(err);
	}
}

/* one state write, retrying EBUSY with back-off until the block's time is
 * up; a write the kernel blocks in (offline migrating pages) is ended by
 * the caller's timer. While another writer holds the hotplug lock the
 * kernel restarts the write whatever signal comes: the timer goes on
 * ticking after its deadline, so that the write, once it has the lock, is
 * still ended. Online writes are not timed: the kernel never waits in them
 * for long. 0, -ETIMEDOUT, -EINTR (stopped) or -errno. */
static int change(struct ct_sysfs *s, struct ct_block_op *op, const char *state, const struct ct_blocks_opts *o)
{
	long deadline = now_ms() + o->block_timeout_ms;
	bool timed = o->arm_timer && o->block_timeout_ms && !strcmp(state, "offline");
	unsigned backoff = 50;
	int rc;

	if (o->timed_out)
		*o->timed_out = 0;
	for (;;) {
		long left = deadline - now_ms();
		if (o->stop && *o->stop)
			return -EINTR;
		if (timed)
			o->arm_timer(left > 0 ? (unsigned)left : 1);
		rc = ct_block_write_state(s, op->before.id, state);
		if (timed)
			o->arm_timer(0);
		if (rc == -EINTR && o->timed_out && *o->timed_out && !(o->stop && *o->stop))
			return -ETIMEDOUT;
		if (rc == 0 || rc == -EINTR)
			return rc;
		if ((rc == -EBUSY || rc == -EAGAIN) && now_ms() < deadline) {
			sleep_ms(backoff);
			if (backoff < 1000)
				backoff *= 2;
			continue;
		}
		return rc;
	}
}

static const char *state_for(enum ct_blocks_action a)
{
	switch (a) {
	case CT_ACT_ONLINE_MOVABLE: return "online_movable";
	case CT_ACT_ONLINE_KERNEL: return "online_kernel";
	case CT_ACT_OFFLINE: return "offline";
	default: return NULL;
	}
}

/* the same state, and online in the same zone (an offline block's candidate
 * zones are not compared: they change with its neighbours, and are not
 * always read) */
static bool same_place(const struct ct_block *a, const struct ct_block *b)
{
	return a->state == b->state &&
	       (a->state != CT_BLOCK_ONLINE || blocks_zone_online(a) == blocks_zone_online(b));
}

/* the block, read back after a refused write, is where the action takes it */
static bool as_wanted(enum ct_blocks_action a, const struct ct_block *b)
{
	enum ct_zone z = blocks_zone_online(b);

	switch (a) {
	case CT_ACT_OFFLINE:
		return b->state == CT_BLOCK_OFFLINE;
	case CT_ACT_ONLINE_MOVABLE:
	case CT_ACT_REONLINE:
		return z == CT_ZONE_MOVABLE;
	case CT_ACT_ONLINE_KERNEL:
		return b->state == CT_BLOCK_ONLINE && z != CT_ZONE_MOVABLE && z != CT_ZONE_NONE;
	default:
		return false;
	}
}

/* --reonline offlined the block, and onlining it movable failed (rc): it
 * goes back online where it was; true when it could not (half_done, the
 * block offline and named), false to report the failure as any other */
static bool half_done(struct ct_sysfs *s, struct ct_block_op *op, int rc, const struct ct_blocks_opts *o)
{
	int back;

	ct_block_read(s, op->before.id, &op->after);
	ct_error_clear(s->err);
	if (op->after.state != CT_BLOCK_OFFLINE)
		return false;	/* online after all (someone else): as any refused write */
	back = change(s, op, "online_kernel", o);
	ct_block_read(s, op->before.id, &op->after);
	ct_error_clear(s->err);
	op->err = -rc;
	if (!back && same_place(&op->after, &op->before)) {
		op->result = CT_RES_FAILED;
		ct_blocks_note(op, "offlined, then onlining it movable failed (%s): put back online "
			 "where it was", reason(-rc));
		return true;
	}
	op->result = CT_RES_HALF_DONE;
	ct_blocks_note(op, "offlined for --reonline, then onlining it failed (%s; back where it "
		 "was: %s): now %s, its memory lost to the system until onlined", reason(-rc),
		 back ? reason(-back) : "the kernel took the write, but the block did not go back",
		 ct_block_state_name(op->after.state));
	return true;
}

static void run_one(struct ct_sysfs *s, struct ct_block_op *op, const struct ct_blocks_opts *o)
{
	int rc;

	if (op->action == CT_ACT_NONE) {
		op->result = CT_RES_UNCHANGED;
		return;
	}
	if (op->action == CT_ACT_REFUSE) {
		op->result = CT_RES_REFUSED;
		return;
	}
	if (o->stop && *o->stop) {
		op->result = CT_RES_INTERRUPTED;
		return;
	}
	if (op->action == CT_ACT_REONLINE) {
		/* recorded from before the offline to after the online: a run
		 * killed in between leaves the block offline and the record,
		 * and the next run onlines it (region-recover.c) */
		struct ct_change_record rec;
		ct_change_record_init_reonline(&rec, op->before.id);
		if (o->record_ctx && (rc = ct_change_record_begin(o->record_ctx, &rec))) {
			op->result = CT_RES_FAILED;
			op->err = -rc;
			ct_blocks_note(op, "not offlined for --reonline: %s", ct_context_message(o->record_ctx));
			ct_error_clear(&o->record_ctx->err);
			return;
		}
		bool said = false;
		rc = change(s, op, "offline", o);
		if (!rc) {
			/* the block is offline now: the online half is made
			 * whatever signal came meanwhile (an online write is short) */
			struct ct_blocks_opts go_on = *o;
			go_on.stop = NULL;
			if ((rc = change(s, op, "online_movable", &go_on)))
				said = half_done(s, op, rc, &go_on);
		}
		/* the block's fate known, and said when it is half done: the
		 * record goes, not to be onlined behind the caller's back */
		ct_change_record_end(&rec, false);
		if (said)
			return;
	} else {
		rc = change(s, op, state_for(op->action), o);
	}
	if (rc) {
		ct_block_read(s, op->before.id, &op->after);
		ct_error_clear(s->err);
		op->err = -rc;
		/* someone else (udev, daxctl, the kernel's auto-online) put it
		 * where it was wanted first: as asked */
		if (rc == -EINVAL && as_wanted(op->action, &op->after)) {
			op->result = CT_RES_UNCHANGED;
			op->err = 0;
			ct_blocks_note(op, "put %s by someone else while cxltier ran",
				 op->after.state == CT_BLOCK_OFFLINE ? "offline" : "online in that zone");
			return;
		}
		/* the zones of an offline block are read when the kernel refuses it */
		if (rc == -EINVAL && op->action == CT_ACT_ONLINE_MOVABLE && op->after.state == CT_BLOCK_OFFLINE &&
		    op->after.nzones && !blocks_zone_offered(&op->after, CT_ZONE_MOVABLE)) {
			op->before = op->after;
			op->result = CT_RES_REFUSED;
			ct_blocks_note(op, "the kernel does not offer ZONE_MOVABLE for it (valid_zones: %s)",
				 ct_zone_name(op->after.zones[0]));
			return;
		}
		/* someone else (udev, the kernel's auto-online) got there first */
		if (rc == -EINVAL && !same_place(&op->after, &op->before)) {
			op->result = CT_RES_RACED;
			ct_blocks_note(op, "changed by someone else while cxltier ran: now %s%s%s",
				 ct_block_state_name(op->after.state), op->after.state == CT_BLOCK_ONLINE && op->after.nzones ? " in " : "",
				 op->after.state == CT_BLOCK_ONLINE && op->after.nzones ? ct_zone_name(op->after.zones[0]) : "");
			return;
		}
		op->result = rc == -EINTR ? CT_RES_INTERRUPTED : CT_RES_FAILED;
		ct_blocks_note(op, "%s", reason(-rc));
		return;
	}
	/* the kernel took the write: the state is the one written; an online
	 * block's zone is read back (the kernel may pick another than asked),
	 * and its state too when the zones do not look online */
	op->after = op->before;
	op->after.state = op->action == CT_ACT_OFFLINE ? CT_BLOCK_OFFLINE : CT_BLOCK_ONLINE;
	op->after.nzones = 0;
	if (op->after.state == CT_BLOCK_ONLINE) {
		ct_block_read_zones(s, &op->after);
		if (op->after.nzones != 1)
			ct_block_read(s, op->before.id, &op->after);
		ct_error_clear(s->err);
	}
	op->result = CT_RES_DONE;
	if (op->after.state != (op->action == CT_ACT_OFFLINE ? CT_BLOCK_OFFLINE : CT_BLOCK_ONLINE)) {
		op->result = CT_RES_FAILED;
		op->err = EIO;
		ct_blocks_note(op, "the kernel took the write, but the block reads %s",
			 ct_block_state_name(op->after.state));
	} else if ((op->action == CT_ACT_ONLINE_MOVABLE || op->action == CT_ACT_REONLINE) &&
		   op->after.nzones && blocks_zone_online(&op->after) != CT_ZONE_MOVABLE) {
		/* the kernel may pick another zone than asked (daxctl checks this too) */
		op->result = CT_RES_FAILED;
		op->err = EBUSY;
		ct_blocks_note(op, "onlined, but into %s instead of Movable", ct_zone_name(op->after.zones[0]));
	}
}

/* one block that had changed put back where it was, or named
 * rollback_failed */
static void back_one(struct ct_sysfs *s, struct ct_block_op *op, const struct ct_blocks_opts *once)
{
	const char *back;
	int rc = 0;

	if (op->before.state == CT_BLOCK_OFFLINE)
		back = "offline";
	else
		back = blocks_zone_online(&op->before) == CT_ZONE_MOVABLE ? "online_movable" : "online_kernel";
	/* a reonlined block is online: back to another zone through offline */
	if (op->action == CT_ACT_REONLINE && op->result == CT_RES_DONE)
		rc = change(s, op, "offline", once);
	if (!rc)
		rc = change(s, op, back, once);
	ct_block_read(s, op->before.id, &op->after);
	/* as before, whoever put it back */
	if (same_place(&op->after, &op->before)) {
		if (op->result == CT_RES_HALF_DONE)
			ct_blocks_note(op, "offlined for --reonline, onlining it movable failed (%s); "
				 "the rollback put it back online", reason(op->err));
		op->result = CT_RES_ROLLED_BACK;
		return;
	}
	op->result = CT_RES_ROLLBACK_FAILED;
	op->err = rc ? -rc : EIO;
	ct_blocks_note(op, "changed, then the rollback to %s failed (%s): now %s%s%s", back,
		 rc ? reason(-rc) : "the kernel took the write, but the block did not go back",
		 ct_block_state_name(op->after.state), op->after.state == CT_BLOCK_ONLINE && op->after.nzones ? " in " : "",
		 op->after.state == CT_BLOCK_ONLINE && op->after.nzones ? ct_zone_name(op->after.zones[0]) : "");
}

static bool changed(const struct ct_block_op *op)
{
	return op->result == CT_RES_DONE || op->result == CT_RES_HALF_DONE;
}

/* each block once more, within the run's per-block time (2 s of EBUSY
 * retries when none was given): an offline write (undoing an online) is
 * bounded by it as the run's own are, since the kernel's offline_pages
 * retries migration until it succeeds or a signal comes. No stop flag:
 * after a SIGINT the blocks are still put back */
static void roll_back(struct ct_sysfs *s, struct ct_blocks_plan *p, const struct ct_blocks_opts *o)
{
	struct ct_blocks_opts once = { false, o->block_timeout_ms ? o->block_timeout_ms : 2000, NULL, o->timed_out,
				     o->block_timeout_ms ? o->arm_timer : NULL, NULL, NULL, NULL };
	size_t total = 0, done = 0;

	for (size_t i = 0; i < p->n; i++)
		total += changed(&p->op[i]);
	for (size_t i = p->n; i-- > 0;) {
		if (!changed(&p->op[i]))
			continue;
		back_one(s, &p->op[i], &once);
		if (o->on_block)
			o->on_block(o->on_block_arg, &p->op[i], ++done, total, true);
	}
	ct_error_clear(s->err);
}

int ct_blocks_execute(struct ct_sysfs *s, struct ct_blocks_plan *p, const struct ct_blocks_opts *o)
{
	int bad = 0;

	for (size_t i = 0; i < p->n; i++) {
		run_one(s, &p->op[i], o);
		if (o->on_block)
			o->on_block(o->on_block_arg, &p->op[i], i + 1, p->n, false);
		switch (p->op[i].result) {
		case CT_RES_DONE:
		case CT_RES_UNCHANGED:
			break;
		default:
			bad++;
		}
	}
	if (bad && o->rollback)
		roll_back(s, p, o);
	return bad;
}
