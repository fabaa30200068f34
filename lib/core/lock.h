/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* lock.h - one cxltier at a time changes memory blocks (two udev events,
 * a user and a unit...): an flock on memory-blocks.lock in the private
 * runtime directory (rundir.h), which no other user can open; the same for
 * the other things one run at a time does (reading the kept CXL events,
 * watching a process with DAMON), each with a lock file of its own. The
 * holder writes its pid in the file, for the messages of those who wait.
 * Those who wait take it first come, first served (lock-queue.c), and their
 * time limit is for a line that does not move: it starts again whenever the
 * holder changes or a run ahead leaves the line. */
#ifndef CXLTIER_LOCK_H
#define CXLTIER_LOCK_H

#include <signal.h>
#include "core/sysfs.h"

#define CT_LOCK_NAME "memory-blocks.lock"

/* wait, in line, until no run ahead has moved for timeout_ms (or until
 * *stop); 0 and *fd, or -EWOULDBLOCK naming the holder, -EINTR when *stop
 * ended the wait, or -errno when the directory or the file is refused */
int ct_lock_acquire(struct ct_sysfs *s, unsigned timeout_ms, volatile sig_atomic_t *stop, int *fd);
/* the same for another lock file NAME in the directory; WHAT the holder is
 * doing, for the message ("reading CXL events") */
int ct_lock_acquire_named(struct ct_sysfs *s, const char *name, const char *what, unsigned timeout_ms,
			  volatile sig_atomic_t *stop, int *fd);
/* the same in the directory DIRFD (ct_rundir_open's) the caller holds open
 * for other files of its own */
int ct_lock_acquire_at(struct ct_sysfs *s, int dirfd, const char *name, const char *what, unsigned timeout_ms,
		       volatile sig_atomic_t *stop, int *fd);
void ct_lock_release(int fd);

#endif
