// SPDX-License-Identifier: LGPL-2.1-or-later
/* damon-owner.c - who owns the DAMON setup: its lock and its record in the
 * private runtime directory (core/rundir.h, core/lock.h): see damon-owner.h */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "mm/damon-owner.h"
#include "core/lock.h"
#include "core/rundir.h"

#define LOCKFILE "damon.lock"
#define OWNERFILE "damon.owner"

int ct_damon_record_parse(const char *text, struct ct_damon_record *r)
{
	unsigned long long start = 0;
	int stat_paused = 0, got = 0;

	memset(r, 0, sizeof(*r));
	r->kdamond = -1;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		got += sscanf(l, "pid %d", &r->owner.pid) == 1;
		got += sscanf(l, "start %llu", &start) == 1;
		got += sscanf(l, "target %d", &r->target) == 1;
		sscanf(l, "kdamond %d", &r->kdamond);
		sscanf(l, "stat_paused %d", &stat_paused);
	}
	r->owner.start = start;
	r->stat_paused = stat_paused != 0;
	return got == 3 && r->owner.pid > 0 ? 0 : -EINVAL;
}

void ct_damon_record_format(const struct ct_damon_record *r, char *buf, size_t len)
{
	snprintf(buf, len, "pid %d\nstart %llu\ntarget %d\nkdamond %d\nstat_paused %d\n", r->owner.pid,
		 (unsigned long long)r->owner.start, r->target, r->kdamond, r->stat_paused);
}

int ct_damon_own(struct ct_sysfs *s, unsigned wait_ms, volatile sig_atomic_t *stop, struct ct_damon_owner *o)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->lockfd = o->dirfd = -1;
	o->rec.kdamond = -1;
	if ((rc = ct_owner_self(s, &o->rec.owner)))
		return rc;
	if ((rc = ct_rundir_open(s, &o->dirfd))) {
		/* a link or no directory in its place: refused, as one not root's 0700 is */
		if (rc == -ELOOP || rc == -ENOTDIR) {
			s->err->code = EPERM;
			rc = -EPERM;
		}
		return rc;
	}
	if ((rc = ct_lock_acquire_at(s, o->dirfd, LOCKFILE, "watching a process with DAMON", wait_ms, stop,
				     &o->lockfd)))
		ct_damon_release(o);
	return rc;
}

int ct_damon_owner_read(struct ct_sysfs *s, struct ct_damon_owner *o, struct ct_damon_record *left)
{
	char text[512];
	ssize_t n;
	int fd, rc;

	if ((rc = ct_rundir_open_existing(s, o->dirfd, OWNERFILE, &fd)))
		return rc;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	return ct_damon_record_parse(text, left);
}

int ct_damon_owner_write(struct ct_sysfs *s, struct ct_damon_owner *o)
{
	char text[512];
	bool created;
	size_t len;
	int fd, rc;

	if ((rc = ct_rundir_open_file(s, o->dirfd, OWNERFILE ".new", &fd, &created)))
		return rc;
	ct_damon_record_format(&o->rec, text, sizeof(text));
	len = strlen(text);
	if (ftruncate(fd, 0) || write(fd, text, len) != (ssize_t)len || fsync(fd)) {
		int e = errno;
		close(fd);
		return ct_fail(s->err, e, "cannot write %s" CT_RUNDIR "/" OWNERFILE ": %s", s->root, strerror(e));
	}
	close(fd);
	/* whole or not at all: a run killed mid-write leaves the old record */
	if (renameat(o->dirfd, OWNERFILE ".new", o->dirfd, OWNERFILE))
		return ct_fail(s->err, errno, "cannot write %s" CT_RUNDIR "/" OWNERFILE ": %s", s->root, strerror(errno));
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
		ct_lock_release(o->lockfd);	/* the lock goes with it */
	if (o->dirfd >= 0)
		close(o->dirfd);
	o->lockfd = o->dirfd = -1;
}
