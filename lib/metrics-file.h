/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * metrics-file.h - the files a metrics run keeps: its output (a
 * node_exporter textfile) and its counter state. Written whole or not at
 * all (a temporary file of its own in the same directory, O_EXCL|O_NOFOLLOW,
 * fsync, rename), never through a link, never in a directory others may
 * write to unless it is sticky (they could swap the temporary file).
 */
#ifndef CXLTIER_METRICS_FILE_H
#define CXLTIER_METRICS_FILE_H

#include <stddef.h>
#include <sys/types.h>
#include "error.h"

/* replace path with data (mode: of the new file) */
int ct_file_write_atomic(struct ct_error *err, const char *path, const char *data, size_t len, mode_t mode);
/* the whole file (at most max bytes), NUL-terminated; -ENOENT when absent,
 * -ELOOP when path is a symbolic link */
int ct_file_read_nofollow(struct ct_error *err, const char *path, size_t max, char **text);
/* the directory of a state file: created (0700) when missing, refused when
 * it is not a directory owned by us (or root) that only its owner may
 * write to; then an exclusive flock on it, held until ct_dir_unlock (one
 * run at a time updates the state) */
int ct_state_dir_lock(struct ct_error *err, const char *path, int *fd);
void ct_dir_unlock(int fd);

#endif
