// SPDX-License-Identifier: LGPL-2.1-or-later
/* atomic-file.c - see atomic-file.h */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/atomic-file.h"

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

/* others may write to the directory and it is not sticky: they could
 * rename our temporary file away and put theirs in its place */
static int dir_safe(struct ct_error *err, int dfd, const char *dir)
{
	struct stat st;

	if (fstat(dfd, &st))
		return ct_fail(err, errno, "%s: %s", dir, strerror(errno));
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
		return ct_fail(err, EPERM, "%s is writable by others and not sticky: a file there could be swapped; "
			       "write to a directory only its owner may write to", dir);
	return 0;
}

int ct_file_write_atomic(struct ct_error *err, const char *path, const char *data, size_t len, mode_t mode)
{
	char buf[4096], tmp[300];
	const char *dir = NULL, *name = NULL;
	int dfd, fd = -1, rc;

	if ((rc = split(err, path, buf, sizeof(buf), &dir, &name)))
		return rc;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return ct_fail(err, errno, "cannot open the directory %s: %s", dir, strerror(errno));
	if ((rc = dir_safe(err, dfd, dir)))
		goto out;
	for (int tries = 0; fd < 0 && tries < 16; tries++) {
		uint64_t r = 0;
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = ((uint64_t)getpid() << 32) ^ (uint64_t)tries;
		if (snprintf(tmp, sizeof(tmp), ".%s.%016llx", name, (unsigned long long)r) >= (int)sizeof(tmp)) {
			rc = ct_fail(err, ENAMETOOLONG, "%s: the name is too long", path);
			goto out;
		}
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && errno != EEXIST) {
			rc = ct_fail(err, errno, "cannot create a file in %s: %s", dir, strerror(errno));
			goto out;
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
	if (close(fd)) {
		fd = -1;
		rc = ct_fail(err, errno, "cannot write %s/%s: %s", dir, tmp, strerror(errno));
		goto fail;
	}
	fd = -1;
	if (renameat(dfd, tmp, dfd, name)) {
		rc = ct_fail(err, errno, "cannot replace %s: %s", path, strerror(errno));
		goto fail;
	}
	fsync(dfd);	/* the rename itself on disk */
	rc = 0;
	goto out;
fail:
	if (fd >= 0)
		close(fd);
	unlinkat(dfd, tmp, 0);
out:
	close(dfd);
	return rc;
}
