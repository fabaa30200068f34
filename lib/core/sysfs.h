/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysfs.h - the one reader of sysfs and procfs files in cxltier, rooted at a
 * directory ("/" on a live system, a captured tree in tests: --sysroot).
 * Paths are absolute as on a live system ("/sys/..."); every function
 * returns 0 or a negative errno and leaves a message naming the file.
 */
#ifndef CXLTIER_SYSFS_H
#define CXLTIER_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "core/error.h"

struct ct_sysfs {
	int rootfd;
	char root[4096];	/* for messages: "" when the root is "/" */
	struct ct_error *err;
	bool confined;		/* a --sysroot tree: nothing resolves outside it */
	bool no_openat2;	/* the kernel has no openat2: walk the components */
};

int ct_sysfs_open(struct ct_sysfs *s, const char *root, struct ct_error *err);
void ct_sysfs_close(struct ct_sysfs *s);

/*
 * Every function below resolves its path inside the root. In a --sysroot
 * tree, symlinks (absolute or relative) and ".." never lead out of it: "/"
 * and ".." stop at the tree's top, as for a chroot (openat2 RESOLVE_IN_ROOT,
 * or a component walk with O_NOFOLLOW where openat2 is missing). Writes never
 * follow a symlink in the last component (sysfs attributes are never links).
 */
/* open path (O_* flags, mode for O_CREAT): an fd or -errno, no message */
int ct_sysfs_openat(struct ct_sysfs *s, const char *path, int flags, mode_t mode);
/* the directory holding path, opened O_PATH; *name: path's last component */
int ct_sysfs_open_parent(struct ct_sysfs *s, const char *path, const char **name);
/* mkdir inside the root; an existing one is fine. 0 or -errno, no message */
int ct_sysfs_mkdir(struct ct_sysfs *s, const char *path, mode_t mode);

/* first line, newline stripped */
int ct_sysfs_read_str(struct ct_sysfs *s, const char *path, char *buf, size_t len);
/* whole file up to EOF (binary attributes report size 0): *buf is malloc'd */
int ct_sysfs_read_bin(struct ct_sysfs *s, const char *path, uint8_t **buf, size_t *len);
/* the same from an open descriptor (not closed); path names it in messages.
 * -EFBIG for a file of more than max bytes (ct_sysfs_read_bin: CT_SYSFS_READ_MAX) */
#define CT_SYSFS_READ_MAX ((size_t)128 << 20)
int ct_sysfs_read_fd(struct ct_sysfs *s, int fd, const char *path, size_t max, uint8_t **buf, size_t *len);
/* whole file up to EOF as a NUL-terminated string: *text is malloc'd */
int ct_sysfs_read_text(struct ct_sysfs *s, const char *path, char **text);
/* integers: base 0 accepts 0x... and decimal; base 16 for "%lx" files */
int ct_sysfs_read_u64(struct ct_sysfs *s, const char *path, int base, uint64_t *v);
int ct_sysfs_read_s64(struct ct_sysfs *s, const char *path, int64_t *v);
/* last path component of a symlink's target */
int ct_sysfs_link_name(struct ct_sysfs *s, const char *path, char *buf, size_t len);
/* the link's target resolved to an absolute path inside the root */
int ct_sysfs_realpath(struct ct_sysfs *s, const char *path, char *buf, size_t len);
bool ct_sysfs_exists(struct ct_sysfs *s, const char *path);
/* whether path is there, told apart from whether it can be seen: 1 there,
 * 0 absent (ENOENT, ENOTDIR), or -errno with a message naming the path
 * ("cannot read /sys/bus/cxl: Permission denied"): a directory on the way
 * that the caller may not search is not an absence */
int ct_sysfs_present(struct ct_sysfs *s, const char *path);
/* what path leads to (symlinks followed; on the live system also /proc's
 * fd and map_files links, to the very file a process has): 0 or -errno,
 * no message */
struct stat;
int ct_sysfs_stat(struct ct_sysfs *s, const char *path, struct stat *st);
int ct_sysfs_write_str(struct ct_sysfs *s, const char *path, const char *val);

/* Files whose handler takes a lock by trylock and fails with EBUSY while
 * someone else holds it for a moment (DAMON's damon_sysfs_lock): the same
 * read or write tried again, up to tries times in all, gap_ms apart, while
 * it fails with EBUSY (the message of an attempt that is tried again is
 * cleared; the last one's stays). */
struct ct_sysfs_busy {
	unsigned tries;
	unsigned gap_ms;
};
int ct_sysfs_write_str_busy(struct ct_sysfs *s, const struct ct_sysfs_busy *b, const char *path, const char *val);
int ct_sysfs_read_str_busy(struct ct_sysfs *s, const struct ct_sysfs_busy *b, const char *path, char *buf,
			   size_t len);
/* the retry itself, around any operation on s (tests give their own) */
int ct_sysfs_retry_busy(struct ct_sysfs *s, const struct ct_sysfs_busy *b, int (*op)(struct ct_sysfs *s, void *arg),
			void *arg);

/* sorted names of entries in a directory starting with prefix (NULL: all,
 * hidden files excluded); *names is a malloc'd array of malloc'd strings */
int ct_sysfs_list(struct ct_sysfs *s, const char *dir, const char *prefix,
		  char ***names, size_t *count);
void ct_strv_free(char **v, size_t n);

/* copy with truncation, always terminated */
void ct_strlcpy(char *dst, const char *src, size_t size);

/* "path" formatted into a static-size buffer; returns buf */
char *ct_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
