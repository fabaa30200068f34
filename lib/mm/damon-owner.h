/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/mm/ (unit tests in test/ may include it): other folders
 * and the CLI go through damon.h and migrate.h */
/*
 * damon-owner.h - the DAMON state cxltier creates is owned, visibly: a lock
 * around its setup, sampling and teardown (/run/cxltier/damon.lock) and a
 * record of who set it up (/run/cxltier/damon.owner: this run's pid and
 * start time, the target, the kdamond, whether DAMON_STAT was paused),
 * written before every change, so that the next run can tell a setup left
 * by a killed cxltier from one someone else made (core/owner.h). The
 * directory is root's, mode 0700, opened without following links
 * (core/rundir.h).
 */
#ifndef CXLTIER_DAMON_OWNER_H
#define CXLTIER_DAMON_OWNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "core/owner.h"
#include "core/sysfs.h"

struct ct_damon_record {
	struct ct_owner owner;		/* the cxltier that set DAMON up */
	int target;			/* the process it monitored */
	int kdamond;			/* the kdamond's pid once on, -1 before */
	bool stat_paused;		/* it paused DAMON_STAT (to be enabled again) */
};

struct ct_damon_owner {
	int dirfd, lockfd;
	struct ct_damon_record rec;	/* this run's */
};

/* the lock, waiting up to wait_ms (or until *stop); 0, or -EWOULDBLOCK naming
 * the cxltier that holds it, or -EPERM when the directory is not safe (a
 * link, not a directory, not root's 0700) */
int ct_damon_own(struct ct_sysfs *s, unsigned wait_ms, volatile sig_atomic_t *stop, struct ct_damon_owner *o);
/* the record left behind by an earlier run: 0, -ENOENT (none), another
 * -errno (refused: rundir.h; -EINVAL: cut) */
int ct_damon_owner_read(struct ct_sysfs *s, struct ct_damon_owner *o, struct ct_damon_record *left);
/* write this run's record (before the DAMON state changes) */
int ct_damon_owner_write(struct ct_sysfs *s, struct ct_damon_owner *o);
void ct_damon_owner_remove(struct ct_damon_owner *o);
/* unlock and close */
void ct_damon_release(struct ct_damon_owner *o);

/* the record's text; pure */
int ct_damon_record_parse(const char *text, struct ct_damon_record *r);
void ct_damon_record_format(const struct ct_damon_record *r, char *buf, size_t len);

#endif
