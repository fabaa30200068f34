/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * blocks.h - onlining and offlining memory blocks: a plan (what each block
 * is and what it should become: blocks-plan.c), then its execution block
 * by block with per-block results, EBUSY retries, race detection and
 * rollback (blocks-execute.c).
 *
 * lib/ installs no signal handlers: the caller passes a flag that its own
 * handlers set (SIGINT, SIGTERM, an alarm for --timeout); writes to a
 * block's state then fail with EINTR and the run stops cleanly.
 */
#ifndef CXLTIER_BLOCKS_H
#define CXLTIER_BLOCKS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "mm/memblock.h"
#include "cxl/topology.h"

enum ct_blocks_want { CT_WANT_MOVABLE, CT_WANT_KERNEL, CT_WANT_OFFLINE };

enum ct_blocks_action {
	CT_ACT_NONE,		/* already as wanted */
	CT_ACT_ONLINE_MOVABLE,	/* write online_movable */
	CT_ACT_ONLINE_KERNEL,	/* write online_kernel */
	CT_ACT_OFFLINE,		/* write offline */
	CT_ACT_REONLINE,	/* offline, then online_movable (--reonline) */
	CT_ACT_REFUSE,		/* cannot be done as asked: see note */
};

enum ct_blocks_result {
	CT_RES_PLANNED,		/* dry run, or not reached */
	CT_RES_DONE,
	CT_RES_UNCHANGED,
	CT_RES_FAILED,
	CT_RES_RACED,		/* someone else changed it while we ran */
	CT_RES_REFUSED,
	CT_RES_ROLLED_BACK,
	CT_RES_INTERRUPTED,
	CT_RES_ROLLBACK_FAILED,	/* changed, and could not be returned: see note */
	CT_RES_HALF_DONE,	/* --reonline offlined it, and it could not be onlined again */
};

struct ct_block_op {
	struct ct_block before, after;
	int node;			/* -1 unknown */
	const char *owner;		/* the dax device, "" for plain blocks (kept once in the plan) */
	bool reonline;			/* this block may be reonlined, whatever the run says (a policy's device) */
	enum ct_blocks_action action;
	enum ct_blocks_result result;
	int err;			/* errno of a failure */
	char *heap_note;		/* why, or NULL: set with ct_blocks_note, read with ct_blocks_note_of */
};

struct ct_blocks_plan {
	struct ct_block_op *op;
	size_t n;
	size_t cap;		/* op's room (blocks-plan.c) */
	uint64_t *ids;		/* the planned ids + 1, hashed: each kept once */
	size_t ids_cap;		/* a power of two, or 0 */
	char **owners;		/* the owners' names, each once (ops point into it) */
	size_t nowners;
	/* read the candidate zones of offline blocks too (a dry run shows
	 * them); otherwise only where the decision needs them: online blocks,
	 * and an offline block the kernel refused */
	bool all_zones;
};

struct ct_blocks_opts {
	bool rollback;			/* undo what changed when anything failed */
	unsigned block_timeout_ms;	/* per block: retry EBUSY and wait this long (0: once, no limit) */
	volatile sig_atomic_t *stop;	/* set by the caller's SIGINT/SIGTERM handler: stop everything */
	volatile sig_atomic_t *timed_out; /* set by the caller's timer handler: this block took too long */
	/* the caller's timer: its handler sets *timed_out after ms, and again
	 * and again until disarmed (0), so that a write the kernel restarted
	 * after taking the signal is still ended; NULL: none */
	void (*arm_timer)(unsigned ms);
	/* where a --reonline block records itself while it is offline
	 * (change-record.h: a run killed then leaves the record, and the next
	 * one onlines the block); NULL: no record (ct_blocks_session_run
	 * sets it) */
	struct ct_context *record_ctx;
	/* told after each block of the plan is carried out (its result set),
	 * done of total, and after each block the rollback took back
	 * (rollback true, done of those it takes back); NULL: nothing told.
	 * The caller's, to show the run as it goes: lib/ prints nothing */
	void (*on_block)(void *arg, const struct ct_block_op *op, size_t done, size_t total, bool rollback);
	void *on_block_arg;
};

/* ---- the plan: blocks-plan.c ---- */

/* add a block (kept once; the first owner wins); node < 0: look it up */
int ct_blocks_plan_add(struct ct_sysfs *s, struct ct_blocks_plan *p, uint64_t id, const char *owner, int node);
/*
 * Resolve a target to blocks: "dax0.0", "region0", "mem0", "node1",
 * "memory34", "memory34-41" or "all" (every CXL-backed block). Returns 0,
 * -ENOENT (no such object), -EINVAL (not a target), -EMEDIUMTYPE (a dax
 * device not in system-ram mode: *devdax names the first), with a message.
 * A region or memdev target plans the blocks of every system-ram dax device
 * it has, also with -EMEDIUMTYPE for another of them: the plan then holds
 * all its hot-plugged memory, and the caller decides about the rest.
 */
int ct_blocks_plan_add_target(struct ct_sysfs *s, const struct ct_topology *t, struct ct_blocks_plan *p,
		       const char *target, const struct ct_dax **devdax);
/* choose each block's action for what is wanted; reonline (or the op's
 * own reonline): move blocks online in another zone to ZONE_MOVABLE
 * through offline */
void ct_blocks_plan_decide(struct ct_blocks_plan *p, enum ct_blocks_want want, bool reonline);
void ct_blocks_plan_free(struct ct_blocks_plan *p);
/* an op's note, as printf would write it (fmt NULL: none); kept on the heap
 * only where there is one, so that a plan of many blocks stays small */
void ct_blocks_note(struct ct_block_op *op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline const char *ct_blocks_note_of(const struct ct_block_op *op)
{
	return op->heap_note ? op->heap_note : "";
}

const char *ct_blocks_action_name(enum ct_blocks_action a);
const char *ct_blocks_result_name(enum ct_blocks_result r);

/* ---- its execution: blocks-execute.c ---- */

/* 0 when every block ended as wanted; otherwise the number of blocks that
 * did not (failed, raced, refused, interrupted, half_done). A block put in
 * the wanted state by someone else while the run went is unchanged (with a
 * note). A reonline whose online half fails puts the block back online
 * where it was (failed), or ends half_done: offline, named. With rollback,
 * each block that had changed (half_done too) ends rolled_back (as before,
 * read back) or rollback_failed (with errno and note). */
int ct_blocks_execute(struct ct_sysfs *s, struct ct_blocks_plan *p, const struct ct_blocks_opts *o);

#endif
