// SPDX-License-Identifier: LGPL-2.1-or-later
/* lock-queue.c - first come, first served for a lock of the runtime
 * directory (lock-queue.h): each waiter holds a numbered ticket, a file
 * NAME.q.SEQ it keeps flock'ed for as long as it lives; the waiter with the
 * lowest live ticket is the one that may take the lock. A ticket whose
 * owner died (its flock gone with it) is removed by whoever sees it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include "core/lock-queue.h"
#include "core/rundir.h"

#define SEQ_WIDTH 21	/* "%20" PRIu64 "\n": rewritten in place */

/* the next number from NAME.seq, held under its flock for a moment */
static int next_seq(struct ct_sysfs *s, int dirfd, const char *name, uint64_t *seq)
{
	char file[128], buf[SEQ_WIDTH + 1];
	bool created;
	ssize_t n;
	int fd, rc;

	snprintf(file, sizeof(file), "%s.seq", name);
	if ((rc = ct_rundir_open_file(s, dirfd, file, &fd, &created)))
		return rc;
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR) {
			rc = -errno;
			close(fd);
			return ct_fail(s->err, -rc, "cannot lock " CT_RUNDIR "/%s: %s", file, strerror(-rc));
		}
	n = pread(fd, buf, SEQ_WIDTH, 0);
	buf[n > 0 ? n : 0] = '\0';
	*seq = strtoull(buf, NULL, 10) + 1;
	snprintf(buf, sizeof(buf), "%20" PRIu64 "\n", *seq);
	rc = pwrite(fd, buf, SEQ_WIDTH, 0) == SEQ_WIDTH ? 0 : -EIO;
	close(fd);	/* (the flock goes with it) */
	return rc ? ct_fail(s->err, EIO, "cannot write " CT_RUNDIR "/%s", file) : 0;
}

int ct_lock_queue_join(struct ct_sysfs *s, int dirfd, const char *name, struct ct_lock_ticket *t)
{
	char tmp[160];
	bool created;
	int rc;

	t->fd = -1;
	if ((rc = next_seq(s, dirfd, name, &t->seq)))
		return rc;
	/* made under a name of its own, flock'ed, then given its number: a
	 * ticket seen under its number is always held while its owner lives */
	snprintf(tmp, sizeof(tmp), "%s.q.new.%d", name, (int)getpid());
	snprintf(t->file, sizeof(t->file), "%s.q.%020" PRIu64, name, t->seq);
	unlinkat(dirfd, tmp, 0);	/* a killed run of the same pid's */
	if ((rc = ct_rundir_open_file(s, dirfd, tmp, &t->fd, &created)))
		return rc;
	if (flock(t->fd, LOCK_EX | LOCK_NB) < 0 || renameat(dirfd, tmp, dirfd, t->file) < 0) {
		rc = errno;
		unlinkat(dirfd, tmp, 0);
		close(t->fd);
		t->fd = -1;
		return ct_fail(s->err, rc, "cannot queue for " CT_RUNDIR "/%s: %s", name, strerror(rc));
	}
	return 0;
}

/* NAME.q.new.PID: a ticket being made by PID; left behind when PID was
 * killed between making it and giving it its number. Removed once no
 * process has that pid (a live maker's, or a reused pid's, stays: it
 * blocks no one, its name is not in the line). */
static void sweep_unnumbered(int dirfd, const char *name, size_t plen)
{
	char *end;
	long pid;

	if (strncmp(name + plen, "new.", 4))
		return;
	pid = strtol(name + plen + 4, &end, 10);
	if (*end || pid <= 0 || pid == getpid())
		return;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		unlinkat(dirfd, name, 0);
}

/* is the ticket FILE's owner gone? (its flock went with it) */
static bool ticket_dead(int dirfd, const char *file)
{
	int fd = openat(dirfd, file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	bool dead;

	if (fd < 0)
		return false;	/* gone already: its owner left the queue */
	dead = flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);
	return dead;
}

int ct_lock_queue_ahead(int dirfd, const struct ct_lock_ticket *t, const char *name)
{
	char prefix[128];
	struct dirent *e;
	size_t plen;
	int ahead = 0, fd = dup(dirfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	rewinddir(d);	/* (a dup shares the offset of the caller's descriptor) */
	plen = (size_t)snprintf(prefix, sizeof(prefix), "%s.q.", name);
	while ((e = readdir(d))) {
		char *end;
		uint64_t seq;

		if (strncmp(e->d_name, prefix, plen))
			continue;
		if (e->d_name[plen] < '0' || e->d_name[plen] > '9') {
			sweep_unnumbered(dirfd, e->d_name, plen);
			continue;
		}
		seq = strtoull(e->d_name + plen, &end, 10);
		if (*end || seq >= t->seq)
			continue;
		if (ticket_dead(dirfd, e->d_name))
			unlinkat(dirfd, e->d_name, 0);
		else
			ahead++;
	}
	closedir(d);
	return ahead;
}

void ct_lock_queue_leave(int dirfd, struct ct_lock_ticket *t)
{
	if (t->fd < 0)
		return;
	unlinkat(dirfd, t->file, 0);
	close(t->fd);
	t->fd = -1;
}
