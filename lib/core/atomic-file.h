/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * atomic-file.h - a file replaced whole or not at all, as a reader polling
 * it (node_exporter's textfile collector) must see it: a temporary file of
 * its own in the same directory (".NAME." and 16 random hex digits,
 * O_CREAT|O_EXCL|O_NOFOLLOW, flock'd while it is written), written,
 * fsynced and renamed over the file through the directory's fd. Never
 * written through a link, in the directory's path either (core/dir-nofollow.h:
 * whoever owns a directory on the way could point it anywhere); never in a
 * directory owned by another user than root or the caller (its owner could
 * swap the file), nor in one others may write to unless it is sticky (they
 * could rename the temporary file away and put theirs in its place).
 * Before it writes, it removes the temporary files of NAME that killed
 * writers left: those of its exact pattern, regular, root's or the
 * caller's, that no writer holds locked.
 */
#ifndef CXLTIER_ATOMIC_FILE_H
#define CXLTIER_ATOMIC_FILE_H

#include <stddef.h>
#include <sys/types.h>
#include "core/error.h"

/* replace path with data (mode: of the new file, whatever the umask) */
int ct_file_write_atomic(struct ct_error *err, const char *path, const char *data, size_t len, mode_t mode);

#endif
