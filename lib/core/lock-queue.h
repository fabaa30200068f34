/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* lock-queue.h - private to lib/core/: the waiting line of a lock in the
 * runtime directory, first come first served (lock.c's waiters); a ticket
 * lives as long as its owner holds it, and dies with it. */
#ifndef CXLTIER_LOCK_QUEUE_H
#define CXLTIER_LOCK_QUEUE_H

#include <stdint.h>
#include "core/sysfs.h"

struct ct_lock_ticket {
	uint64_t seq;		/* its place: lower came first */
	int fd;			/* flock'ed while waiting; -1 none */
	char file[160];		/* NAME.q.SEQ in the directory */
};

/* take a ticket for lock NAME in the directory DIRFD: 0, or -errno with a message */
int ct_lock_queue_join(struct ct_sysfs *s, int dirfd, const char *name, struct ct_lock_ticket *t);
/* how many live tickets came before t (those whose owner died are removed
 * on the way), or -errno */
int ct_lock_queue_ahead(int dirfd, const struct ct_lock_ticket *t, const char *name);
/* out of the line (the lock taken, or given up) */
void ct_lock_queue_leave(int dirfd, struct ct_lock_ticket *t);

#endif
