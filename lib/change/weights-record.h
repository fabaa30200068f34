/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * weights-record.h - the record of a weighted-interleave weights change
 * under way, so that a run killed between two nodeN writes is recognised by
 * the next one, which puts the old set back (or finds the new one whole):
 * /run/cxltier/weights-change.PID (core/rundir.h), written whole (a .new
 * file renamed over it) before the first write, removed when the change
 * ends. Its text, one "key value" a line:
 *
 *   pid 1234           the run (core/owner.h: pid and start time)
 *   start 5678
 *   command weights
 *   auto 1 0           the kernel's auto mode before and after (6.16+ only)
 *   node 0 3 17        a node, its weight before and the one written
 *
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT are held from the record's writing to
 * its removal, so that only what cannot be held (SIGKILL, a crash) leaves
 * one.
 */
#ifndef CXLTIER_WEIGHTS_RECORD_H
#define CXLTIER_WEIGHTS_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include "core/context.h"
#include "core/owner.h"
#include "mm/interleave-weights.h"

#define CT_WEIGHTS_RECORD_PREFIX "weights-change."

struct ct_weights_change {
	int node;
	unsigned old, new;	/* 1-255 */
};

struct ct_weights_record {
	struct ct_owner owner;
	bool has_auto;
	bool auto_old, auto_new;
	unsigned n;
	struct ct_weights_change v[CT_WI_MAX_NODES];
	/* while written by this run */
	int dirfd;
	char file[64];
	sigset_t old_mask;
	bool held;
};

/* the text, and back (pure). parse: -EINVAL for anything but a whole
 * record as format writes it. format: 0, or -ENOSPC when len is short */
int ct_weights_record_format(const struct ct_weights_record *r, char *buf, size_t len);
int ct_weights_record_parse(const char *text, struct ct_weights_record *r);
/* hold the signals and write the record as this run's: 0, or -errno with
 * a message (nothing held, no record left) */
int ct_weights_record_begin(struct ct_context *ctx, struct ct_weights_record *r);
/* the change ended: remove the record (unless keep), give the signals back */
void ct_weights_record_end(struct ct_weights_record *r, bool keep);

/* the records of runs no longer alive (their state as core/owner.h sees
 * it), in *out (malloc'd, *n of them); a record that cannot be parsed:
 * -EINVAL with a message naming it */
struct ct_weights_found {
	struct ct_weights_record rec;	/* its file name in rec.file */
	enum ct_owner_state state;
};
int ct_weights_record_list(struct ct_context *ctx, struct ct_weights_found **out, size_t *n);
int ct_weights_record_remove(struct ct_context *ctx, const char *file);
/* for a run that changes nothing: the pid of a dead run's record, 0 when
 * there is none (or the run directory is not there: it is not created) */
int ct_weights_record_pending(struct ct_context *ctx);

#endif
