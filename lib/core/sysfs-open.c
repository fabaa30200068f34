// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysfs-open.c - open a path inside the system root.
 *
 * A captured tree (--sysroot) is data, not a filesystem to trust: an
 * absolute symlink or a ".." in it must not lead out of it (a tree whose
 * memory34/state links to some other file must not make `online` write
 * there). Every component is resolved inside the root, as if it were "/":
 * openat2(RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS) where the kernel has it
 * (5.6+), else a walk of one component at a time, each opened with
 * O_NOFOLLOW, symlinks read and spliced in by hand, ".." never above the root.
 * The live root "/" opens the plain path.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include "core/sysfs.h"

#define MAX_LINKS 40		/* as the kernel's path walk */
#define MAX_DEPTH 256
#define OPENAT2_TRIES 4	/* an EAGAIN (a rename elsewhere) tried again */

static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

static int walk_open(int rootfd, const char *path, int flags, mode_t mode);

static int openat2_in_root(int rootfd, const char *path, int flags, mode_t mode)
{
#ifdef SYS_openat2
	struct open_how how = {
		.flags = (unsigned)(flags | O_CLOEXEC),
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, rootfd, rel(path), &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
#else
	(void)rootfd; (void)path; (void)flags; (void)mode;
	return -ENOSYS;
#endif
}

int ct_sysfs_openat(struct ct_sysfs *s, const char *path, int flags, mode_t mode)
{
	int fd;

	if (!s->confined) {
		fd = openat(s->rootfd, rel(path), flags | O_CLOEXEC, mode);
		return fd < 0 ? -errno : fd;
	}
	if (!s->no_openat2) {
		/* EAGAIN: something was renamed or mounted on the system while
		 * a ".." resolved, and the kernel cannot tell that it stayed
		 * inside the root: tried again, then walked (as safe, slower) */
		for (int i = 0; i < OPENAT2_TRIES; i++) {
			fd = openat2_in_root(s->rootfd, path, flags, mode);
			if (fd != -EAGAIN)
				break;
		}
		/* ENOSYS: before 5.6; EPERM: a seccomp filter that does not know it */
		if (fd != -ENOSYS && fd != -EPERM && fd != -EAGAIN)
			return fd;
		if (fd != -EAGAIN)
			s->no_openat2 = true;
	}
	return walk_open(s->rootfd, path, flags, mode);
}

/* the walk: "rest" is what is left to resolve, below the directory fds[depth] */
struct walk {
	int fds[MAX_DEPTH];	/* fds[0] is the root, not ours to close */
	int depth;
	char rest[PATH_MAX];
	int links;
};

static void walk_up(struct walk *w, int to)
{
	while (w->depth > to)
		close(w->fds[w->depth--]);
}

/* replace the component just read with a symlink's target: rest = target/rest */
static int splice_link(struct walk *w, const char *target, const char *after)
{
	char joined[PATH_MAX];
	int n;

	if (++w->links > MAX_LINKS)
		return -ELOOP;
	n = snprintf(joined, sizeof(joined), "%s/%s", target, after);
	if (n < 0 || (size_t)n >= sizeof(joined))
		return -ENAMETOOLONG;
	if (target[0] == '/')
		walk_up(w, 0);	/* absolute: from the root of the tree */
	memcpy(w->rest, joined, (size_t)n + 1);
	return 0;
}

static int walk_step(struct walk *w, int flags, mode_t mode, int *out)
{
	char name[NAME_MAX + 1], target[PATH_MAX];
	const char *p = w->rest, *after;
	int cur = w->fds[w->depth], fd;
	bool last;
	size_t len;
	ssize_t n;

	while (*p == '/')
		p++;
	if (!*p) {		/* resolved to the directory itself */
		if (flags & O_CREAT)
			return -EISDIR;
		fd = openat(cur, ".", flags | O_CLOEXEC, mode);
		*out = fd < 0 ? -errno : fd;
		return 1;
	}
	len = strcspn(p, "/");
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(name, p, len);
	name[len] = '\0';
	after = p + len;
	while (*after == '/')
		after++;
	last = !*after;

	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		if (name[1] == '.')
			walk_up(w, w->depth ? w->depth - 1 : 0);	/* never above the root */
		memmove(w->rest, after, strlen(after) + 1);
		return 0;
	}

	n = readlinkat(cur, name, target, sizeof(target) - 1);
	if (n >= 0 && !(last && (flags & O_NOFOLLOW))) {
		target[n] = '\0';
		char tail[PATH_MAX];
		snprintf(tail, sizeof(tail), "%s", after);
		return splice_link(w, target, tail);
	}
	if (n < 0 && errno != EINVAL && !(errno == ENOENT && last))
		return -errno;	/* ENOENT, ENOTDIR...: nothing there */

	if (last) {
		/* O_NOFOLLOW: if it was swapped for a link since, fail, never follow */
		fd = openat(cur, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
		*out = fd < 0 ? -errno : fd;
		return 1;
	}
	if (w->depth + 1 >= MAX_DEPTH)
		return -ENAMETOOLONG;
	fd = openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w->fds[++w->depth] = fd;
	memmove(w->rest, after, strlen(after) + 1);
	return 0;
}

static int walk_open(int rootfd, const char *path, int flags, mode_t mode)
{
	struct walk w = { .fds = { rootfd }, .depth = 0, .links = 0 };
	int rc, fd = -EINVAL;

	if (strlen(path) >= sizeof(w.rest))
		return -ENAMETOOLONG;
	strcpy(w.rest, path);
	while ((rc = walk_step(&w, flags, mode, &fd)) == 0)
		;
	walk_up(&w, 0);
	return rc < 0 ? rc : fd;
}

/* the parent directory of path, opened inside the root; *name: the last component */
int ct_sysfs_open_parent(struct ct_sysfs *s, const char *path, const char **name)
{
	char dir[PATH_MAX];
	const char *slash;
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	if (len >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, len);
	dir[len] = '\0';
	slash = strrchr(dir, '/');
	*name = path + (slash ? (size_t)(slash - dir) + 1 : 0);
	if (!**name || strcmp(*name, ".") == 0 || strcmp(*name, "..") == 0)
		return -EINVAL;
	if (slash)
		dir[slash - dir] = '\0';
	else
		dir[0] = '\0';
	return ct_sysfs_openat(s, dir[0] ? dir : "/", O_PATH | O_DIRECTORY, 0);
}

int ct_sysfs_mkdir(struct ct_sysfs *s, const char *path, mode_t mode)
{
	const char *name;
	int dfd = ct_sysfs_open_parent(s, path, &name), rc = 0;

	if (dfd < 0)
		return dfd;
	if (mkdirat(dfd, name, mode) < 0 && errno != EEXIST)
		rc = -errno;
	close(dfd);
	return rc;
}
