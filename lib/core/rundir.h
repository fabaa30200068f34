/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rundir.h - cxltier's private runtime directory, /run/cxltier (inside the
 * tree under --sysroot): root's own, mode 0700, so that no other user can
 * plant, swap, open or lock anything in it. Lock files and ownership
 * records of the kernel state cxltier creates live here, opened with
 * openat() on the returned descriptor and O_NOFOLLOW.
 */
#ifndef CXLTIER_RUNDIR_H
#define CXLTIER_RUNDIR_H

#include <stdbool.h>
#include "core/sysfs.h"

#define CT_RUNDIR "/run/cxltier"

/*
 * Create the directory when missing (mode 0700), then open it with
 * O_DIRECTORY|O_NOFOLLOW and check the open directory itself: owned by the
 * effective user, mode exactly 0700. A symlink, another owner or another
 * mode is refused (-EPERM or -ELOOP/-ENOTDIR with a message naming it and
 * what to do), never repaired. 0 and *dirfd (O_CLOEXEC; the caller closes).
 */
int ct_rundir_open(struct ct_sysfs *s, int *dirfd);

/*
 * Open (creating it 0600 when missing) the regular file NAME in the
 * directory: O_NOFOLLOW|O_CLOEXEC, then checked on the descriptor: a
 * regular file, owned by the effective user, one link. *created says
 * whether this call made it. 0 and *fd, or -errno with a message.
 */
int ct_rundir_open_file(struct ct_sysfs *s, int dirfd, const char *name, int *fd, bool *created);

/* the same checks on a file that must exist already: never creates it;
 * -ENOENT (and no message) when it is not there */
int ct_rundir_open_existing(struct ct_sysfs *s, int dirfd, const char *name, int *fd);

#endif
