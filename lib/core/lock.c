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
	unsigned waited = 0;
	char pid[24];
	bool created;
	int fd, rc;

	*out = -1;
	if ((rc = ct_rundir_open_file(s, dirfd, name, &fd, &created)))
		return rc;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int e = errno;
			close(fd);
			return ct_fail(s->err, e, "cannot lock %s" CT_RUNDIR "/%s: %s", s->root, name, strerror(e));
		}
		if (waited >= timeout_ms || (stop && *stop)) {
			long holder = holder_pid(fd);
			close(fd);
			if (holder > 0)
				snprintf(pid, sizeof(pid), "%ld", holder);
			return ct_fail(s->err, EWOULDBLOCK, "another cxltier (pid %s) is %s; waited %u ms for %s" CT_RUNDIR "/%s",
				       holder > 0 ? pid : "?", what, waited, s->root, name);
		}
		nanosleep(&pause, NULL);
		waited += 20;
	}
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
