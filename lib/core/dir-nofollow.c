// SPDX-License-Identifier: LGPL-2.1-or-later
/* dir-nofollow.c - a directory opened with no symbolic link on its path:
 * see dir-nofollow.h */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include "core/dir-nofollow.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* a component that is no directory: -ELOOP when it is a link */
static int not_dir(int at, const char *name)
{
	struct stat st;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return -ELOOP;
	return -ENOTDIR;
}

int ct_dir_nofollow_walk(const char *path)
{
	char name[NAME_MAX + 1];
	const char *p = path;
	int cur, fd;

	cur = open(*p == '/' ? "/" : ".", DIR_FLAGS);
	if (cur < 0)
		return -errno;
	for (;;) {
		size_t len;

		while (*p == '/')
			p++;
		if (!*p)
			return cur;
		len = strcspn(p, "/");
		if (len > NAME_MAX) {
			close(cur);
			return -ENAMETOOLONG;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		fd = openat(cur, name, DIR_FLAGS);
		if (fd < 0) {
			int err = errno == ENOTDIR || errno == ELOOP ? not_dir(cur, name) : -errno;
			close(cur);
			return err;
		}
		close(cur);
		cur = fd;
	}
}

int ct_dir_nofollow_open(const char *path)
{
#ifdef SYS_openat2
	static int no_openat2;
	struct open_how how = {
		.flags = DIR_FLAGS,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};

	if (!no_openat2) {
		long fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

		if (fd >= 0)
			return (int)fd;
		/* ENOSYS: before 5.6; EPERM: a seccomp filter that does not know it */
		if (errno != ENOSYS && errno != EPERM)
			return errno == ENOTDIR ? (ct_dir_nofollow_which_link(path, NULL, 0) ? -ENOTDIR : -ELOOP) : -errno;
		no_openat2 = 1;
	}
#endif
	return ct_dir_nofollow_walk(path);
}

int ct_dir_nofollow_which_link(const char *path, char *buf, size_t len)
{
	char prefix[PATH_MAX];
	size_t end = 0, n = strlen(path);
	struct stat st;

	if (n >= sizeof(prefix))
		return -ENOENT;
	memcpy(prefix, path, n + 1);
	while (end < n) {
		while (end < n && prefix[end] == '/')
			end++;
		end += strcspn(prefix + end, "/");
		char c = prefix[end];
		prefix[end] = '\0';
		if (lstat(prefix, &st) == 0 && S_ISLNK(st.st_mode)) {
			if (buf)
				snprintf(buf, len, "%s", prefix);
			return 0;
		}
		prefix[end] = c;
	}
	return -ENOENT;
}
