// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "lock.h"

#define LOCKDIR "run/lock"
#define LOCKFILE LOCKDIR "/cxltier.lock"

int ct_lock_acquire(struct ct_sysfs *s, unsigned timeout_ms, volatile sig_atomic_t *stop, int *out)
{
	struct timespec pause = { 0, 20 * 1000000L };
	unsigned waited = 0;
	char pid[32] = "";
	int fd;

	/* inside the root (a --sysroot tree's links do not lead out), and never
	 * through a symlink planted as the lock file */
	ct_sysfs_mkdir(s, "/run", 0755);
	ct_sysfs_mkdir(s, "/" LOCKDIR, 01777);
	fd = ct_sysfs_openat(s, "/" LOCKFILE, O_RDWR | O_CREAT | O_NOFOLLOW, 0644);
	if (fd < 0)
		return ct_fail(s->err, -fd, "cannot open the lock %s/" LOCKFILE ": %s", s->root, strerror(-fd));
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int e = errno;
			close(fd);
			return ct_fail(s->err, e, "cannot lock %s/" LOCKFILE ": %s", s->root, strerror(e));
		}
		if (waited >= timeout_ms || (stop && *stop)) {
			ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);
			pid[n > 0 ? n : 0] = '\0';
			pid[strcspn(pid, "\n")] = '\0';
			close(fd);
			return ct_fail(s->err, EWOULDBLOCK,
				       "another cxltier (pid %s) is changing memory blocks; waited %u ms for %s/" LOCKFILE,
				       pid[0] ? pid : "?", waited, s->root);
		}
		nanosleep(&pause, NULL);
		waited += 20;
	}
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, strlen(pid), 0) < 0) {
		/* the pid is only for messages */
	}
	*out = fd;
	return 0;
}

void ct_lock_release(int fd)
{
	if (fd >= 0) {
		if (ftruncate(fd, 0)) {
			/* nothing to do: the lock goes with the descriptor */
		}
		close(fd);
	}
}
