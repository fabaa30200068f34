/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/change/ (unit tests in test/ may include it): the CLI goes
 * through region.h and blocks-session.h */
/*
 * change-record.h - the record of a region create or destroy under way, so
 * that a run killed between its kernel writes (SIGKILL, a crash, power) is
 * recognised by the next one: /run/cxltier/region-change.PID (core/rundir.h:
 * root's 0700 directory, O_NOFOLLOW, one link), written whole (a .new file
 * renamed over it) before the first kernel write, rewritten when the
 * region's name is known, removed when the change ends (done, or refused
 * and undone). Its text, one "key value" a line:
 *
 *   pid 1234                     the run (core/owner.h: pid and start time)
 *   start 5678
 *   command create               create | destroy
 *   root decoder0.0              the root decoder
 *   region region3               once known (create: after create_ram_region)
 *   decoder decoder2.0 mem0      each endpoint decoder involved, and its memdev
 *
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT are held from the record's writing
 * to its removal (delivered after), so that only what cannot be held
 * (SIGKILL, a crash) leaves one.
 *
 * A --reonline of a memory block records itself the same way, from before
 * its offline write to after its online one (its run's handlers make the
 * online half whatever signal comes, so nothing is held), with no root,
 * region or decoder:
 *
 *   command reonline
 *   block memory34               the block, offline in between
 *
 * A change of the kernel's tiering switches (mm/numa.h) records each switch
 * it is about to write, with the value it had and the one it is given, so
 * that the next run can set back what a killed one left half done:
 *
 *   command tiering
 *   demotion 0 1                 a switch, its old value, its new one
 *   balancing 1 2
 */
#ifndef CXLTIER_CHANGE_RECORD_H
#define CXLTIER_CHANGE_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/context.h"
#include "core/owner.h"
#include "cxl/topology.h"

#define CT_CHANGE_RECORD_PREFIX "region-change."

enum ct_change_kind { CT_CHANGE_CREATE, CT_CHANGE_DESTROY, CT_CHANGE_REONLINE, CT_CHANGE_TIERING };

#define CT_CHANGE_MAX_SWITCHES 3

struct ct_change_switch {
	int sw;				/* enum ct_tiering_switch (mm/numa.h) */
	int64_t from, to;
};

struct ct_change_record {
	struct ct_owner owner;
	enum ct_change_kind kind;
	char root[CT_NAME];
	char region[CT_NAME];		/* "" not known (yet) */
	unsigned ndecoders;
	char decoders[CT_MAX_TARGETS][CT_NAME];
	char memdevs[CT_MAX_TARGETS][CT_NAME];	/* "" not known */
	char block[CT_NAME];		/* reonline: "memory34" */
	unsigned nswitches;		/* tiering: the switches written, in order */
	struct ct_change_switch switches[CT_CHANGE_MAX_SWITCHES];
	/* while written by this run */
	int dirfd;			/* /run/cxltier; -1 when not open */
	char file[64];			/* its name in it */
	sigset_t old_mask;
	bool held;			/* the record is this run's, written */
	bool signals_held;		/* and the ending signals held meanwhile */
};

/* "create", "destroy", "reonline" or "tiering" */
const char *ct_change_record_command(enum ct_change_kind k);

/* the text, and back (pure). parse: -EINVAL for anything but a whole record
 * as format writes it (every line known, names of devices only) */
void ct_change_record_format(const struct ct_change_record *r, char *buf, size_t len);
int ct_change_record_parse(const char *text, struct ct_change_record *r);

/* an empty record of this kind under root (no file yet) */
void ct_change_record_init(struct ct_change_record *r, enum ct_change_kind k, const char *root);
/* a --reonline's record of block id (no file yet; begin writes it without
 * holding the signals) */
void ct_change_record_init_reonline(struct ct_change_record *r, uint64_t id);
/* a tiering change's record (no file yet): its switches added with
 * ct_change_record_add_switch */
void ct_change_record_init_tiering(struct ct_change_record *r);
void ct_change_record_add_switch(struct ct_change_record *r, int sw, int64_t from, int64_t to);
/* add an endpoint decoder (and its memdev, may be NULL or "") */
void ct_change_record_add(struct ct_change_record *r, const char *decoder, const char *memdev);

/* hold the signals, and write the record as this run's: 0, or -errno with a
 * message (then nothing is held and no record is left) */
int ct_change_record_begin(struct ct_context *ctx, struct ct_change_record *r);
/* write it again (the region's name now known): 0 or -errno with a message */
int ct_change_record_update(struct ct_context *ctx, struct ct_change_record *r);
/* the change ended: remove the record (unless keep: a change neither done
 * nor undone, for the next run to finish or undo), give the signals back */
void ct_change_record_end(struct ct_change_record *r, bool keep);

/* the records in /run/cxltier, whoever wrote them, each with its state;
 * the caller frees *out. A record that fails rundir.h's checks (a link,
 * another owner, two links) or that parse refuses stops the listing:
 * -errno with a message naming it and what to do. */
struct ct_change_found {
	struct ct_change_record rec;	/* its file name in rec.file; dirfd -1 */
	enum ct_owner_state state;
};
int ct_change_record_list(struct ct_context *ctx, struct ct_change_found **out, size_t *n);
/* remove a listed record (a dead run's, handled) */
int ct_change_record_remove(struct ct_context *ctx, const char *file);

#endif
