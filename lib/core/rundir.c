// SPDX-License-Identifier: LGPL-2.1-or-later
/* rundir.c - the private runtime directory: see rundir.h */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/rundir.h"

/* "run" below the root; under --sysroot it may not exist yet */
static int open_run(struct ct_sysfs *s)
{
	int fd = openat(s->rootfd, "run", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT && s->root[0] && mkdirat(s->rootfd, "run", 0755) == 0)
		fd = openat(s->rootfd, "run", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return ct_fail(s->err, errno, "cannot open %s/run: %s%s", s->root, strerror(errno),
			       errno == ENOTDIR || errno == ELOOP ? " (not a directory, or a symlink: refusing it)" : "");
	return fd;
}

int ct_rundir_open(struct ct_sysfs *s, int *dirfd)
{
	struct stat st;
	bool created;
	int run, fd, e;

	*dirfd = -1;
	if ((run = open_run(s)) < 0)
		return run;
	created = mkdirat(run, "cxltier", 0700) == 0;
	e = errno;
	if (!created && e != EEXIST) {
		close(run);
		return ct_fail(s->err, e, "cannot create %s" CT_RUNDIR ": %s", s->root, strerror(e));
	}
	fd = openat(run, "cxltier", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	e = errno;
	close(run);
	if (fd < 0) {
		if (e == ELOOP || e == ENOTDIR)
			return ct_fail(s->err, e, "%s" CT_RUNDIR " is not a directory (a symlink?): refusing it (it "
				       "must be a directory, not a link); remove it and run again", s->root);
		return ct_fail(s->err, e, "cannot open %s" CT_RUNDIR ": %s", s->root, strerror(e));
	}
	if (created)
		fchmod(fd, 0700);	/* whatever the umask took away */
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return ct_fail(s->err, e, "cannot stat %s" CT_RUNDIR ": %s", s->root, strerror(e));
	}
	if (st.st_uid != geteuid() || (st.st_mode & 07777) != 0700) {
		close(fd);
		return ct_fail(s->err, EPERM, "%s" CT_RUNDIR " is owned by uid %u with mode %04o, not by uid %u with "
			       "mode 0700: someone else may have made it; refusing it (remove it and run again)",
			       s->root, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777), (unsigned)geteuid());
	}
	*dirfd = fd;
	return 0;
}

/* fd (opened with flags, or failed with errno) checked: a regular file of
 * the effective user with one link; fd or -errno with a message */
static int checked(struct ct_sysfs *s, int fd, const char *name)
{
	struct stat st;
	int e;

	if (fd < 0) {
		e = errno;
		return ct_fail(s->err, e, "cannot open %s" CT_RUNDIR "/%s: %s%s", s->root, name, strerror(e),
			       e == ELOOP ? " (a symlink: refusing it; remove it and run again)" : "");
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return ct_fail(s->err, e, "cannot stat %s" CT_RUNDIR "/%s: %s", s->root, name, strerror(e));
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		close(fd);
		return ct_fail(s->err, EPERM, "%s" CT_RUNDIR "/%s is not a regular file of uid %u with one link: "
			       "refusing it (remove it and run again)", s->root, name, (unsigned)geteuid());
	}
	/* the descriptor stays non-blocking: regular files ignore it */
	return fd;
}

#define FILE_FLAGS (O_RDWR | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)

int ct_rundir_open_file(struct ct_sysfs *s, int dirfd, const char *name, int *out, bool *created)
{
	int fd;

	*created = true;
	fd = openat(dirfd, name, FILE_FLAGS | O_CREAT | O_EXCL, 0600);
	if (fd < 0 && errno == EEXIST) {
		*created = false;
		fd = openat(dirfd, name, FILE_FLAGS);
	}
	fd = checked(s, fd, name);
	*out = fd < 0 ? -1 : fd;
	return fd < 0 ? fd : 0;
}

int ct_rundir_open_existing(struct ct_sysfs *s, int dirfd, const char *name, int *out)
{
	int fd = openat(dirfd, name, FILE_FLAGS);

	*out = -1;
	if (fd < 0 && errno == ENOENT)
		return -ENOENT;
	fd = checked(s, fd, name);
	*out = fd < 0 ? -1 : fd;
	return fd < 0 ? fd : 0;
}
