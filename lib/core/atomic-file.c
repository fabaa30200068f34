// SPDX-License-Identifier: LGPL-2.1-or-later
/* atomic-file.c - see atomic-file.h */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/atomic-file.h"
#include "core/dir-nofollow.h"

#define HEX_LEN 16	/* the temporary file's random part: ".NAME.<16 hex digits>" */

/* the directory part and the name of path, in buf (which it splits) */
static int split(struct ct_error *err, const char *path, char *buf, size_t len, const char **dir, const char **name)
{
	char *slash;

	if (!*path || snprintf(buf, len, "%s", path) >= (int)len)
		return ct_fail(err, ENAMETOOLONG, "%s: no such file name", path);
	slash = strrchr(buf, '/');
	if (!slash) {
		*dir = ".";
		*name = buf;
	} else {
		*slash = '\0';
		*dir = slash == buf ? "/" : buf;
		*name = slash + 1;
	}
	if (!**name || !strcmp(*name, ".") || !strcmp(*name, ".."))
		return ct_fail(err, EISDIR, "%s: name a file, not a directory", path);
	return 0;
}

/* its owner could swap our temporary file or the file itself for anything:
 * only root's directories and the caller's own are written to. (Whoever
 * owns a directory further up may move this one away, but cannot put one
 * of root's in its place that it does not already hold, nor a link.) */
static int dir_owned(struct ct_error *err, const struct stat *st, const char *dir)
{
	char who[64] = "", me[48] = "";
	struct passwd pw, *found = NULL;
	char pwbuf[1024];

	if (st->st_uid == 0 || st->st_uid == geteuid())
		return 0;
	if (!getpwuid_r(st->st_uid, &pw, pwbuf, sizeof(pwbuf), &found) && found)
		snprintf(who, sizeof(who), " (%s)", found->pw_name);
	if (geteuid())
		snprintf(me, sizeof(me), " or by uid %u (this user)", (unsigned)geteuid());
	return ct_fail(err, EPERM, "%s is owned by uid %u%s, not by root%s: its owner could swap the file written there "
		       "for another; chown root %s (a reader such as node_exporter only needs to read it), or write to a "
		       "directory root owns", dir, (unsigned)st->st_uid, who, me, dir);
}

/* others may write to the directory and it is not sticky: they could
 * rename our temporary file away and put theirs in its place */
static int dir_safe(struct ct_error *err, const struct stat *st, const char *dir)
{
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
		return ct_fail(err, EPERM, "%s is writable by others and not sticky: a file there could be swapped; "
			       "write to a directory only its owner may write to", dir);
	return 0;
}

/* the directory, opened with no symbolic link on its path, and safe to write in */
static int open_dir(struct ct_error *err, const char *dir, int *dfd)
{
	char link[4096];
	struct stat st;
	int fd = ct_dir_nofollow_open(dir), rc;

	*dfd = -1;
	if (fd == -ELOOP)
		return ct_fail(err, ELOOP, "cannot open the directory %s: %s is a symbolic link; cxltier does not write "
			       "through links (whoever owns a directory on the path could point them anywhere): give the "
			       "real path", dir, ct_dir_nofollow_which_link(dir, link, sizeof(link)) ? "a component of it" : link);
	if (fd < 0)
		return ct_fail(err, -fd, "cannot open the directory %s: %s", dir, strerror(-fd));
	if (fstat(fd, &st)) {
		rc = ct_fail(err, errno, "%s: %s", dir, strerror(errno));
		close(fd);
		return rc;
	}
	if ((rc = dir_owned(err, &st, dir)) || (rc = dir_safe(err, &st, dir))) {
		close(fd);
		return rc;
	}
	*dfd = fd;
	return 0;
}

/* ".NAME." followed by HEX_LEN lowercase hex digits, and nothing else */
static bool temp_name(const char *entry, const char *name)
{
	size_t n = strlen(name);

	if (entry[0] != '.' || strncmp(entry + 1, name, n) || entry[1 + n] != '.')
		return false;
	entry += n + 2;
	if (strlen(entry) != HEX_LEN)
		return false;
	for (; *entry; entry++)
		if (!((*entry >= '0' && *entry <= '9') || (*entry >= 'a' && *entry <= 'f')))
			return false;
	return true;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* one temporary file: removed when it is a regular file of root's or the
 * caller's that no writer holds locked (its writer was killed) */
static void sweep_one(int dfd, const char *entry)
{
	struct stat before, st, now;
	int fd;

	if (fstatat(dfd, entry, &before, AT_SYMLINK_NOFOLLOW) || !S_ISREG(before.st_mode) ||
	    (before.st_uid != 0 && before.st_uid != geteuid()))
		return;
	fd = openat(dfd, entry, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && same_file(&st, &before) && !flock(fd, LOCK_EX | LOCK_NB) &&
	    !fstatat(dfd, entry, &now, AT_SYMLINK_NOFOLLOW) && same_file(&now, &st))
		unlinkat(dfd, entry, 0);	/* (under our lock: no writer takes it now) */
	close(fd);
}

/* the temporary files of name that killed writers left behind */
static void sweep(int dfd, const char *name)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	DIR *d;

	if (fd < 0)
		return;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((e = readdir(d)))
		if (temp_name(e->d_name, name))
			sweep_one(dfd, e->d_name);
	closedir(d);
}

/* our temporary file, locked for as long as it is written: false when a
 * sweep took it between its creation and the lock (then it is not ours any
 * more: another name is tried) */
static bool hold(int dfd, const char *tmp, int fd)
{
	struct stat mine, there;

	if (flock(fd, LOCK_EX | LOCK_NB))
		return errno != EWOULDBLOCK;	/* no locks on this filesystem: no sweep removes it either */
	return !fstat(fd, &mine) && !fstatat(dfd, tmp, &there, AT_SYMLINK_NOFOLLOW) && same_file(&mine, &there);
}

int ct_file_write_atomic(struct ct_error *err, const char *path, const char *data, size_t len, mode_t mode)
{
	char buf[4096], tmp[300];
	const char *dir = NULL, *name = NULL;
	int dfd, fd = -1, rc;

	if ((rc = split(err, path, buf, sizeof(buf), &dir, &name)))
		return rc;
	if ((rc = open_dir(err, dir, &dfd)))
		return rc;
	sweep(dfd, name);
	for (int tries = 0; fd < 0 && tries < 16; tries++) {
		uint64_t r = 0;
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = ((uint64_t)getpid() << 32) ^ (uint64_t)tries;
		if (snprintf(tmp, sizeof(tmp), ".%s.%0*llx", name, HEX_LEN, (unsigned long long)r) >= (int)sizeof(tmp)) {
			rc = ct_fail(err, ENAMETOOLONG, "%s: the name is too long", path);
			goto out;
		}
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && errno != EEXIST) {
			rc = ct_fail(err, errno, "cannot create a file in %s: %s", dir, strerror(errno));
			goto out;
		}
		if (fd >= 0 && !hold(dfd, tmp, fd)) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		rc = ct_fail(err, EEXIST, "cannot create a temporary file in %s: every name taken", dir);
		goto out;
	}
	/* the mode asked for, whatever the umask */
	if (fchmod(fd, mode)) {
		rc = ct_fail(err, errno, "%s/%s: %s", dir, tmp, strerror(errno));
		goto fail;
	}
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, data + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = ct_fail(err, n < 0 ? errno : EIO, "cannot write %s/%s: %s", dir, tmp,
				     strerror(n < 0 ? errno : EIO));
			goto fail;
		}
		off += (size_t)n;
	}
	if (fsync(fd)) {
		rc = ct_fail(err, errno, "cannot write %s/%s to disk: %s", dir, tmp, strerror(errno));
		goto fail;
	}
	/* renamed while still locked: a sweep never takes it meanwhile */
	if (renameat(dfd, tmp, dfd, name)) {
		rc = ct_fail(err, errno, "cannot replace %s: %s", path, strerror(errno));
		goto fail;
	}
	close(fd);	/* (its data is on disk: fsync said so) */
	fd = -1;
	fsync(dfd);	/* the rename itself on disk */
	rc = 0;
	goto out;
fail:
	unlinkat(dfd, tmp, 0);
	close(fd);
out:
	close(dfd);
	return rc;
}
