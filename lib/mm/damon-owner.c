// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "mm/damon-owner.h"
#include "core/process.h"

#define RUNDIR "run/cxltier"
#define LOCKFILE "damon.lock"
#define OWNERFILE "damon.owner"

int ct_damon_record_parse(const char *text, struct ct_damon_record *r)
{
	unsigned long long start = 0;
	int stat_paused = 0, got = 0;

	memset(r, 0, sizeof(*r));
	r->kdamond = -1;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		got += sscanf(l, "pid %d", &r->pid) == 1;
		got += sscanf(l, "start %llu", &start) == 1;
		got += sscanf(l, "target %d", &r->target) == 1;
		sscanf(l, "kdamond %d", &r->kdamond);
		sscanf(l, "stat_paused %d", &stat_paused);
	}
	r->start = start;
	r->stat_paused = stat_paused != 0;
	return got == 3 && r->pid > 0 ? 0 : -EINVAL;
}

void ct_damon_record_format(const struct ct_damon_record *r, char *buf, size_t len)
{
	snprintf(buf, len, "pid %d\nstart %llu\ntarget %d\nkdamond %d\nstat_paused %d\n", r->pid,
		 (unsigned long long)r->start, r->target, r->kdamond, r->stat_paused);
}

/* /run/cxltier: created 0700, and refused unless it is root's own directory */
static int rundir(struct ct_sysfs *s)
{
	struct stat st;
	int fd;

	mkdirat(s->rootfd, "run", 0755);
	if (mkdirat(s->rootfd, RUNDIR, 0700) < 0 && errno != EEXIST)
		return ct_fail(s->err, errno, "cannot create %s/" RUNDIR ": %s", s->root, strerror(errno));
	fd = openat(s->rootfd, RUNDIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return ct_fail(s->err, errno == ELOOP || errno == ENOTDIR ? EPERM : errno,
			       "cannot open %s/" RUNDIR ": %s (it must be a directory, not a link)", s->root,
			       strerror(errno));
	if (fstat(fd, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077)) {
		close(fd);
		return ct_fail(s->err, EPERM, "%s/" RUNDIR " is not a directory of uid %d with mode 0700: "
			       "someone else made it; remove it and try again", s->root, (int)geteuid());
	}
	return fd;
}

static int open_file(struct ct_sysfs *s, int dirfd, const char *name, int flags)
{
	struct stat st;
	int fd = openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		return ct_fail(s->err, EPERM, "%s/" RUNDIR "/%s is not a file of uid %d: remove it", s->root, name,
			       (int)geteuid());
	}
	return fd;
}

int ct_damon_own(struct ct_sysfs *s, unsigned wait_ms, volatile sig_atomic_t *stop, struct ct_damon_owner *o)
{
	struct timespec pause = { 0, 20 * 1000000L };
	unsigned waited = 0;
	char comm[32];

	memset(o, 0, sizeof(*o));
	o->lockfd = o->dirfd = -1;
	o->rec.pid = getpid();
	o->rec.kdamond = -1;
	if (ct_proc_identity(s, o->rec.pid, comm, sizeof(comm), &o->rec.start))
		return ct_fail(s->err, ESRCH, "cannot read this process's own /proc/%d/stat", o->rec.pid);
	if ((o->dirfd = rundir(s)) < 0) {
		int rc = o->dirfd;
		o->dirfd = -1;
		return rc;
	}
	o->lockfd = open_file(s, o->dirfd, LOCKFILE, O_RDWR | O_CREAT);
	if (o->lockfd < 0) {
		int rc = o->lockfd;
		ct_damon_release(o);
		return rc == -EPERM ? rc : ct_fail(s->err, -rc, "cannot open %s/" RUNDIR "/" LOCKFILE ": %s", s->root,
						   strerror(-rc));
	}
	while (flock(o->lockfd, LOCK_EX | LOCK_NB) < 0) {
		struct ct_damon_record left;
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int e = errno;
			ct_damon_release(o);
			return ct_fail(s->err, e, "cannot lock %s/" RUNDIR "/" LOCKFILE ": %s", s->root, strerror(e));
		}
		if (waited >= wait_ms || (stop && *stop)) {
			int holder = ct_damon_owner_read(s, o, &left) == 0 ? left.pid : 0;
			ct_damon_release(o);
			return ct_fail(s->err, EWOULDBLOCK, "another cxltier (pid %d) is watching a process with DAMON; "
				       "waited %u ms for it", holder, waited);
		}
		nanosleep(&pause, NULL);
		waited += 20;
	}
	return 0;
}

int ct_damon_owner_read(struct ct_sysfs *s, struct ct_damon_owner *o, struct ct_damon_record *left)
{
	char text[512];
	int fd = open_file(s, o->dirfd, OWNERFILE, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return fd == -ENOENT ? -ENOENT : fd;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	return ct_damon_record_parse(text, left);
}

int ct_damon_owner_write(struct ct_sysfs *s, struct ct_damon_owner *o)
{
	char text[512];
	int fd = open_file(s, o->dirfd, OWNERFILE ".new", O_WRONLY | O_CREAT | O_TRUNC);
	size_t len;

	if (fd < 0)
		return fd == -EPERM ? fd : ct_fail(s->err, -fd, "cannot write %s/" RUNDIR "/" OWNERFILE ": %s", s->root,
						   strerror(-fd));
	ct_damon_record_format(&o->rec, text, sizeof(text));
	len = strlen(text);
	if (write(fd, text, len) != (ssize_t)len || fsync(fd)) {
		int e = errno;
		close(fd);
		return ct_fail(s->err, e, "cannot write %s/" RUNDIR "/" OWNERFILE ": %s", s->root, strerror(e));
	}
	close(fd);
	/* whole or not at all: a run killed mid-write leaves the old record */
	if (renameat(o->dirfd, OWNERFILE ".new", o->dirfd, OWNERFILE))
		return ct_fail(s->err, errno, "cannot write %s/" RUNDIR "/" OWNERFILE ": %s", s->root, strerror(errno));
	return 0;
}

void ct_damon_owner_remove(struct ct_damon_owner *o)
{
	if (o->dirfd >= 0)
		unlinkat(o->dirfd, OWNERFILE, 0);
}

void ct_damon_release(struct ct_damon_owner *o)
{
	if (o->lockfd >= 0)
		close(o->lockfd);	/* the lock goes with it */
	if (o->dirfd >= 0)
		close(o->dirfd);
	o->lockfd = o->dirfd = -1;
}
