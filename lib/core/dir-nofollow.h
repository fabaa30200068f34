/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dir-nofollow.h - a directory opened by a path on which no component is a
 * symbolic link. A file root writes where it was told (metrics --output)
 * must not be redirected by whoever owns a directory on the way: they could
 * put a link there pointing anywhere. openat2(RESOLVE_NO_SYMLINKS) where the
 * kernel has it (5.6+), else a walk of one component at a time, each opened
 * O_NOFOLLOW. A relative path starts at the working directory; ".." is
 * allowed (it follows no link).
 */
#ifndef CXLTIER_DIR_NOFOLLOW_H
#define CXLTIER_DIR_NOFOLLOW_H

#include <stddef.h>

/* an O_RDONLY|O_DIRECTORY fd (close-on-exec), or -errno (no message):
 * -ELOOP when a component is a symbolic link */
int ct_dir_nofollow_open(const char *path);
/* the same, always by the walk (what kernels before 5.6 get; tests) */
int ct_dir_nofollow_walk(const char *path);
/* for a message after -ELOOP: the path up to its first component that is a
 * symbolic link, in buf; 0, or -ENOENT when there is none (any more) */
int ct_dir_nofollow_which_link(const char *path, char *buf, size_t len);

#endif
