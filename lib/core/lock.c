// SPDX-License-Identifier: LGPL-2.1-or-later
/* lock.c - the locks in the private runtime directory: see lock.h */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
#include "core/lock.h"
#include "core/lock-queue.h"
#include "core/rundir.h"

#define PID_WIDTH 12	/* "%11d\n": rewritten in place, never truncated */

static long holder_pid(int fd)
{
	char buf[PID_WIDTH + 1];
	ssize_t n = pread(fd, buf, PID_WIDTH, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

int ct_lock_acquire(struct ct_sysfs *s, unsigned timeout_ms, volatile sig_atomic_t *stop, int *out)
{
	return ct_lock_acquire_named(s, CT_LOCK_NAME, "changing memory blocks", timeout_ms, stop, out);
}

int ct_lock_acquire_named(struct ct_sysfs *s, const char *name, const char *what, unsigned timeout_ms,
			  volatile sig_atomic_t *stop, int *out)
{
	int dirfd, rc;

	*out = -1;
	if ((rc = ct_rundir_open(s, &dirfd)))
		return rc;
	rc = ct_lock_acquire_at(s, dirfd, name, what, timeout_ms, stop, out);
	close(dirfd);
	return rc;
}

int ct_lock_acquire_at(struct ct_sysfs *s, int dirfd, const char *name, const char *what, unsigned timeout_ms,
		       volatile sig_atomic_t *stop, int *out)
{
	struct timespec pause = { 0, 20 * 1000000L };
	struct ct_lock_ticket ticket = { .fd = -1 };
	unsigned waited = 0;	/* since the line last moved */
	long holder = 0, was = 0;
	int fd, rc, ahead = 0, before = -1;
	char pid[24];
	bool created;

	*out = -1;
	if ((rc = ct_rundir_open_file(s, dirfd, name, &fd, &created)))
		return rc;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		goto taken;
	/* in line: first come, first served; without a ticket (none could be
	 * made), every try is as good as another's */
	if (ct_lock_queue_join(s, dirfd, name, &ticket))
		ct_error_clear(s->err);
	for (;;) {
		if (ticket.fd >= 0 && (ahead = ct_lock_queue_ahead(dirfd, &ticket, name)) < 0)
			ahead = 0;
		if (ahead == 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
			break;
		if (errno != EWOULDBLOCK && errno != EINTR && ahead == 0) {
			int e = errno;
			ct_lock_queue_leave(dirfd, &ticket);
			close(fd);
			return ct_fail(s->err, e, "cannot lock %s" CT_RUNDIR "/%s: %s", s->root, name, strerror(e));
		}
		/* the limit is for a line that does not move: a run that ends,
		 * or one before this that leaves, starts it again */
		holder = holder_pid(fd);
		if ((before >= 0 && ahead < before) || holder != was)
			waited = 0;
		before = ahead;
		was = holder;
		if (waited >= timeout_ms || (stop && *stop)) {
			ct_lock_queue_leave(dirfd, &ticket);
			close(fd);
			if (holder > 0)
				snprintf(pid, sizeof(pid), "%ld", holder);
			if (stop && *stop)
				return ct_fail(s->err, EINTR, "stopped by a signal while waiting in line for %s" CT_RUNDIR
					       "/%s (another cxltier, pid %s, is %s): nothing was done", s->root, name,
					       holder > 0 ? pid : "?", what);
			return ct_fail(s->err, EWOULDBLOCK, "another cxltier (pid %s) is %s; waited %u ms for %s" CT_RUNDIR
				       "/%s without the line moving (%d run%s waiting before this one)", holder > 0 ? pid : "?",
				       what, waited, s->root, name, ahead, ahead == 1 ? "" : "s");
		}
		nanosleep(&pause, NULL);
		waited += 20;
	}
	ct_lock_queue_leave(dirfd, &ticket);
taken:
	/* the holder's pid, for the messages of those who wait */
	snprintf(pid, sizeof(pid), "%*d\n", PID_WIDTH - 1, (int)getpid());
	if (pwrite(fd, pid, PID_WIDTH, 0) != PID_WIDTH) {
		/* only messages lose it */
	}
	*out = fd;
	return 0;
}

void ct_lock_release(int fd)
{
	if (fd >= 0)
		close(fd);	/* the flock goes with the descriptor */
}
